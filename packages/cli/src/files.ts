import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LegacyError } from '@gltf-legacy/core';

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
