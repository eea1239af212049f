import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LegacyError } from '@gltf-legacy/core';

/** Largest input file: a .glb's length field is 32-bit, and so is a typed array's on Node 20. */
export const MAX_INPUT_BYTES = 2 ** 32 - 1;

/**
 * A whole file as bytes, read synchronously (one read(2) into a buffer of the file's size; the
 * promise API reads in 512 KiB chunks, each a trip through the thread pool: 1.5× the CPU and, on
 * a busy machine, a wait for every chunk). Files of 2 GiB or more — Node's readFileSync limit;
 * a 1000-frame Unreal mesh makes a 2.1 GB .glb — are read in 1 GiB pieces; above 4 GiB − 1 a
 * LegacyError FILE_TOO_LARGE, never an internal error.
 *
 * ```ts
 * const bytes = readInput('Skull.glb');
 * ```
 */
export function readInput(path: string): Uint8Array {
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
  return `${(tempCount++).toString(36)}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Writes several files so that either all appear or none do: each is written to a temporary
 * name beside its target, then all are renamed. Existing targets are refused unless `force`.
 */
export async function writeFilesAtomic(files: Map<string, Uint8Array>, force: boolean): Promise<string[]> {
  if (!force) {
    const existing = [...files.keys()].filter((p) => existsSync(p));
    if (existing.length) {
      throw new LegacyError(
        'OUTPUT_EXISTS',
        `output exists (use --force to overwrite): ${existing.join(', ')}`,
      );
    }
  }
  const temps: [string, string][] = [];
  try {
    for (const [path, bytes] of files) {
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.tmp-${process.pid}-${tempSuffix()}`;
      temps.push([tmp, path]);
      await writeFile(tmp, bytes);
    }
    for (const [tmp, path] of temps) await rename(tmp, path);
  } catch (e) {
    await Promise.all(temps.map(([tmp]) => rm(tmp, { force: true })));
    throw e;
  }
  return [...files.keys()];
}
