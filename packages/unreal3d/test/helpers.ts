import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readBytes } from '@gltf-legacy/test-utils';
import { legacyFormat } from '../src/index.js';

/** FileSet as the CLI builds it: main + companions(name, siblings). */
export function fileSetFor(path: string): Map<string, Uint8Array> {
  const dir = dirname(path);
  const siblings = readdirSync(dir);
  const files = new Map<string, Uint8Array>([[basename(path), readBytes(path)]]);
  for (const c of legacyFormat.companions?.(basename(path), siblings) ?? [])
    files.set(c, readBytes(join(dir, c)));
  return files;
}
