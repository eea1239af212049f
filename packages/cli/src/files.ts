import {
  closeSync,
  constants,
  copyFileSync,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { LegacyError, ResourceError } from '@gltf-legacy/core';
import { type OutputData, outputBytes, outputContent, type StreamedFile } from './streamed-file.js';

/** Largest input file: a .glb's length field is 32-bit, and so is a typed array's on Node 20. */
export const MAX_INPUT_BYTES = 2 ** 32 - 1;

/**
 * A whole file as bytes, read synchronously (one read(2) into a buffer of the file's size; the
 * promise API reads in 512 KiB chunks, each a trip through the thread pool: 1.5× the CPU and, on
 * a busy machine, a wait for every chunk). Files of 2 GiB or more — Node's readFileSync limit;
 * a 1000-frame Unreal mesh makes a 2.1 GB .glb — are read in 1 GiB pieces; above 4 GiB − 1 a
 * LegacyError FILE_TOO_LARGE, never an internal error; anything but a regular file (a device,
 * FIFO, socket) a LegacyError NOT_A_FILE before it is opened.
 *
 * ```ts
 * const bytes = readInput('Skull.glb');
 * ```
 */
export function readInput(path: string): Uint8Array {
  // a device, FIFO or socket has no size to bound the read by: /dev/zero would be read until
  // memory runs out, a FIFO would wait for a writer (a folder is EISDIR from the read below)
  const info = statSync(path);
  if (!info.isFile() && !info.isDirectory())
    throw new LegacyError(
      'NOT_A_FILE',
      `${path}: not a regular file (a device, FIFO or socket); gltf-legacy reads files only`,
    );
  let b: Buffer;
  try {
    b = readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ERR_FS_FILE_TOO_LARGE') throw e;
    return readLarge(path);
  }
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** {@link readInput}'s path for files readFileSync refuses: `piece` bytes per read(2). */
export function readLarge(path: string, piece = 1 << 30): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const { size } = fstatSync(fd);
    if (size > MAX_INPUT_BYTES)
      throw new LegacyError(
        'FILE_TOO_LARGE',
        `${path}: ${size} bytes; gltf-legacy reads files up to 4 GiB − 1 (${MAX_INPUT_BYTES} bytes)`,
      );
    const out = new Uint8Array(size);
    for (let at = 0; at < size; ) {
      const n = readSync(fd, out, at, Math.min(piece, size - at), at);
      if (n === 0)
        throw new LegacyError('FILE_TRUNCATED', `${path}: ended at byte ${at} of ${size} while reading`);
      at += n;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

let tempCount = 0;

/** Unique within this process (counter) and across processes (pid, time, random); no node:crypto. */
function tempSuffix(): string {
  return `${process.pid}-${(tempCount++).toString(36)}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * The path of an output file named by a format's exporter (or a glTF buffer/image URI): `key` is
 * relative to `dir` and may have subfolders (`Textures/Skin.pcx`), but names come from glTF
 * documents, which are untrusted, so an absolute key, a drive or UNC path, a URI scheme, a `..`
 * segment or a NUL character is refused with a `ResourceError` `PATH_ESCAPE` naming the key.
 *
 * ```ts
 * outputPath('/out', 'Textures/Skin.pcx', 'unreal3d export'); // '/out/Textures/Skin.pcx'
 * outputPath('/out', '../../.bashrc', 'unreal3d export');     // throws PATH_ESCAPE
 * ```
 */
export function outputPath(dir: string, key: string, source?: string): string {
  const text = key.replace(/\\/g, '/');
  const segments = text.split('/');
  const bad =
    !text ||
    text.includes('\u0000') ||
    text.startsWith('/') ||
    /^[a-z]:/i.test(text) ||
    /^[a-z][a-z0-9+.-]+:/i.test(text) ||
    segments.some((p) => p === '..') ||
    !segments.some((p) => p && p !== '.');
  if (bad)
    throw new ResourceError(
      'PATH_ESCAPE',
      key,
      'is not a file name inside the output folder (absolute, "..", a URI or empty); nothing was written',
      source,
    );
  const out = resolve(dir, ...segments.filter((p) => p && p !== '.'));
  const rel = relative(resolve(dir), out);
  if (!rel || rel.startsWith('..') || isAbsolute(rel))
    throw new ResourceError('PATH_ESCAPE', key, 'leaves the output folder; nothing was written', source);
  return out;
}

function outputExists(paths: string[]): LegacyError {
  return new LegacyError('OUTPUT_EXISTS', `output exists (use --force to overwrite): ${paths.join(', ')}`);
}

/**
 * Outputs up to this size are written with one synchronous call, larger ones asynchronously (a
 * `StreamedFile` piece by piece), so the main thread stays free while a big `.glb` goes to disk.
 * The folder and name operations around them are synchronous too: each is one quick system call,
 * and as promises each was a trip through libuv's thread pool (the 13 Unreal corpus meshes in one
 * batch, ~12 such trips a file, spent ~50 ms of a ~220 ms run waiting on them; issue 19).
 */
export const SYNC_WRITE_MAX_BYTES = 4 << 20;

function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/**
 * Puts `tmp` at `path`. Without `force` the final name is created exclusively: a hard link to
 * the temporary file, which fails if the name exists (also when another process created it since
 * we looked), then the temporary name is removed; where hard links are not available, an
 * exclusive copy (`COPYFILE_EXCL`). With `force`, a rename (replaces an existing file atomically).
 */
function place(tmp: string, path: string, force: boolean): void {
  if (force) {
    renameSync(tmp, path);
    return;
  }
  try {
    linkSync(tmp, path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw outputExists([path]);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw e;
    try {
      copyFileSync(tmp, path, constants.COPYFILE_EXCL);
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') throw outputExists([path]);
      throw e2;
    }
  }
  unlinkSync(tmp);
}

/** The deepest folder that holds every path. */
function commonDir(paths: string[]): string {
  let base = dirname(paths[0]);
  for (const p of paths) {
    while (base !== dirname(base) && !(p.startsWith(base + sep) || dirname(p) === base)) base = dirname(base);
  }
  return base;
}

/** Creates the folders `dir` needs; returns those created (deepest last) so a failure can remove them. */
function makeDirs(dir: string, made: string[]): void {
  const missing: string[] = [];
  for (let d = dir; !exists(d); d = dirname(d)) {
    missing.unshift(d);
    if (d === dirname(d)) break;
  }
  if (!missing.length) return;
  mkdirSync(dir, { recursive: true });
  made.push(...missing);
}

/** Writes one output exclusively (`wx`): small ones in one call, large ones asynchronously. */
async function writeOutput(path: string, data: OutputData): Promise<void> {
  if (data.byteLength > SYNC_WRITE_MAX_BYTES)
    // a StreamedFile goes piece by piece (a .glb's vertex data is never assembled in memory)
    await writeFile(path, outputContent(data), { flag: 'wx' });
  else writeFileSync(path, outputBytes(data), { flag: 'wx' });
}

/**
 * The staging folders of a batch (issue 31): a multi-file output is staged in a temporary folder
 * beside it, and a batch makes one such folder per output folder, not one per output (each was
 * created, listed and removed again: a tenth of a batch's time in `rmdir` and `readdir`). The
 * folders are removed by {@link WriteSession.close} at the end of the batch. Single-file outputs
 * never need one: they are written to a temporary file beside the target.
 *
 * ```ts
 * const session = new WriteSession();
 * try {
 *   await writeFilesAtomic(outputsOfA, false, session);
 *   await writeFilesAtomic(outputsOfB, false, session); // same folder: same staging folder
 * } finally {
 *   session.close();
 * }
 * ```
 */
export class WriteSession {
  private readonly stages = new Map<string, string>();
  /** Folders created to hold a staging folder, removed again (when empty) by `close`. */
  private readonly madeFor: string[] = [];
  private count = 0;
  /** Staging folders created so far. */
  stagesCreated = 0;

  /** The staging folder in `base` (an existing folder), created on first use. */
  stage(base: string, made: readonly string[] = []): string {
    let stage = this.stages.get(base);
    if (!stage) {
      stage = join(base, `.gltf-legacy-tmp-${tempSuffix()}`);
      mkdirSync(stage);
      this.stages.set(base, stage);
      this.stagesCreated++;
      this.madeFor.push(...made.filter((d) => base === d || base.startsWith(d + sep)));
    }
    return stage;
  }

  /** A fresh name inside the staging folder of `base`. */
  tempIn(base: string, made?: readonly string[]): string {
    return join(this.stage(base, made), (this.count++).toString(36));
  }

  /** Removes the staging folders (and folders made only to hold them, when empty). */
  close(): void {
    for (const stage of this.stages.values()) quietly(() => rmSync(stage, { recursive: true, force: true }));
    this.stages.clear();
    for (const d of [...new Set(this.madeFor)].sort((a, b) => b.length - a.length))
      quietly(() => rmdirSync(d));
    this.madeFor.length = 0;
  }
}

/**
 * Writes several files so that either all land or none do, never overwriting without `force`:
 * 1. one file is written to a temporary file beside its target; several into a temporary folder
 *    beside the outputs (their deepest common folder; one per folder for a whole batch when a
 *    {@link WriteSession} is given), so a crash or a full disk leaves at most that temporary,
 *    never a partial output (a {@link StreamedFile} piece by piece: a producer that fails midway
 *    leaves nothing either);
 * 2. then each is moved to its name: exclusively ({@link place}: a hard link that fails if the name
 *    exists, so a file that appears meanwhile is never clobbered, no check-then-rename race), or
 *    with `force` by rename, after the file it replaces is set aside;
 * 3. on any failure, the outputs already moved are removed, the files set aside are put back and
 *    the folders created for the outputs are removed again.
 * Existing targets are reported all at once (OUTPUT_EXISTS) before anything is written; a folder
 * where an output goes is refused (IS_A_DIRECTORY), also with `force`.
 *
 * ```ts
 * await writeFilesAtomic(new Map([['/out/a.gltf', json], ['/out/a.bin', bin]]), false);
 * ```
 */
export async function writeFilesAtomic(
  files: Map<string, OutputData>,
  force: boolean,
  session?: WriteSession,
): Promise<string[]> {
  const targets = [...files.keys()].map((p) => resolve(p));
  if (!targets.length) return [];
  if (new Set(targets).size !== targets.length)
    throw new LegacyError('OUTPUT_CONFLICT', `two outputs have the same name: ${targets.join(', ')}`);
  // a folder where an output goes is never replaced, not even with `force` (it would be moved
  // aside and removed with everything in it); one lstat per target answers both questions
  const folders: string[] = [];
  const existing: string[] = [];
  for (const p of targets) {
    const info = lstatSync(p, { throwIfNoEntry: false });
    if (info?.isDirectory()) folders.push(p);
    else if (info) existing.push(p);
  }
  if (folders.length)
    throw new LegacyError(
      'IS_A_DIRECTORY',
      `output is a folder (--force replaces files, never folders): ${folders.join(', ')}; nothing was written`,
    );
  if (!force && existing.length) throw outputExists(existing);
  const made: string[] = [];
  if (targets.length === 1) {
    await writeOne(targets[0], files.values().next().value!, force, made);
    return [...files.keys()];
  }
  const base = commonDir(targets);
  makeDirs(base, made);
  const own = session ?? new WriteSession();
  const staged: string[] = [];
  const moved: string[] = [];
  const setAside: [string, string][] = [];
  try {
    for (const data of files.values()) {
      const tmp = own.tempIn(base, made);
      staged.push(tmp);
      await writeOutput(tmp, data);
    }
    for (let i = 0; i < targets.length; i++) {
      makeDirs(dirname(targets[i]), made);
      if (force && exists(targets[i])) {
        const keep = own.tempIn(base, made);
        renameSync(targets[i], keep);
        setAside.push([keep, targets[i]]);
      }
      place(staged[i], targets[i], force);
      moved.push(targets[i]);
    }
  } catch (e) {
    for (const p of moved) rmSync(p, { force: true });
    for (const [keep, p] of setAside) quietly(() => renameSync(keep, p));
    for (const tmp of staged) quietly(() => rmSync(tmp, { force: true }));
    if (!session) own.close();
    for (const d of made.reverse()) quietly(() => rmdirSync(d));
    throw e;
  }
  for (const [keep] of setAside) quietly(() => unlinkSync(keep));
  if (!session) own.close();
  return [...files.keys()];
}

/**
 * One output: written to a temporary file beside the target (same folder, so the final link or
 * rename is one atomic step on one file system), then placed; on failure the temporary and the
 * folders created for it are removed.
 */
async function writeOne(target: string, data: OutputData, force: boolean, made: string[]): Promise<void> {
  const dir = dirname(target);
  makeDirs(dir, made);
  const tmp = join(dir, `.gltf-legacy-tmp-${tempSuffix()}`);
  try {
    await writeOutput(tmp, data);
    place(tmp, target, force);
  } catch (e) {
    quietly(() => rmSync(tmp, { force: true }));
    for (const d of made.reverse()) quietly(() => rmdirSync(d));
    throw e;
  }
}

/** Runs a clean-up step whose failure must not hide the error being reported. */
function quietly(step: () => void): void {
  try {
    step();
  } catch {
    // the original error is the one to report
  }
}
