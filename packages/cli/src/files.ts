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
 * Writes several files so that either all land or none do, never overwriting without `force`:
 * 1. every file is written into one temporary folder beside the outputs (their deepest common
 *    folder), so a crash or a full disk leaves at most that folder, never a partial output (a
 *    {@link StreamedFile} piece by piece: a producer that fails midway leaves nothing either);
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
export async function writeFilesAtomic(files: Map<string, OutputData>, force: boolean): Promise<string[]> {
  const targets = [...files.keys()].map((p) => resolve(p));
  if (!targets.length) return [];
  if (new Set(targets).size !== targets.length)
    throw new LegacyError('OUTPUT_CONFLICT', `two outputs have the same name: ${targets.join(', ')}`);
  // a folder where an output goes is never replaced, not even with `force` (it would be moved
  // aside and removed with everything in it)
  const folders = targets.filter((p) => lstatSync(p, { throwIfNoEntry: false })?.isDirectory());
  if (folders.length)
    throw new LegacyError(
      'IS_A_DIRECTORY',
      `output is a folder (--force replaces files, never folders): ${folders.join(', ')}; nothing was written`,
    );
  if (!force) {
    const existing = [];
    for (const p of targets) if (exists(p)) existing.push(p);
    if (existing.length) throw outputExists(existing);
  }
  const made: string[] = [];
  const base = commonDir(targets);
  makeDirs(base, made);
  const stage = join(base, `.gltf-legacy-tmp-${tempSuffix()}`);
  const moved: string[] = [];
  const setAside: [string, string][] = [];
  try {
    mkdirSync(stage);
    const staged: string[] = [];
    let k = 0;
    for (const data of files.values()) {
      const tmp = join(stage, String(k++));
      await writeOutput(tmp, data);
      staged.push(tmp);
    }
    for (let i = 0; i < targets.length; i++) {
      makeDirs(dirname(targets[i]), made);
      if (force && exists(targets[i])) {
        const keep = join(stage, `old-${i}`);
        renameSync(targets[i], keep);
        setAside.push([keep, targets[i]]);
      }
      place(staged[i], targets[i], force);
      moved.push(targets[i]);
    }
  } catch (e) {
    for (const p of moved) rmSync(p, { force: true });
    for (const [keep, p] of setAside) quietly(() => renameSync(keep, p));
    rmSync(stage, { recursive: true, force: true });
    for (const d of made.reverse()) quietly(() => rmdirSync(d));
    throw e;
  }
  rmSync(stage, { recursive: true, force: true });
  return [...files.keys()];
}

/** Runs a clean-up step whose failure must not hide the error being reported. */
function quietly(step: () => void): void {
  try {
    step();
  } catch {
    // the original error is the one to report
  }
}
