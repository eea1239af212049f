import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { animCompanions } from '../src/import.js';

/** Versions this package reads. */
export const SUPPORTED = /^(ms11|an10)$/;

/** Corpus files of the format, split by whether their version is supported. */
export function unigineCorpus(): { supported: string[]; unsupported: string[] } {
  const all = corpusFiles('unigine', ['.mesh', '.anim']);
  const supported: string[] = [];
  const unsupported: string[] = [];
  for (const f of all) {
    const magic = new TextDecoder('latin1').decode(readBytes(f).subarray(0, 4));
    (SUPPORTED.test(magic) ? supported : unsupported).push(f);
  }
  return { supported, unsupported };
}

/** A file set: the main file plus the companions `legacyFormat.companions` picks. */
export function fileSet(path: string): Map<string, Uint8Array> {
  const name = basename(path);
  const files = new Map([[name, readBytes(path)]]);
  if (name.toLowerCase().endsWith('.mesh')) {
    for (const c of animCompanions(name, readdirSync(dirname(path))))
      files.set(c, readBytes(join(dirname(path), c)));
  }
  return files;
}

export function stemOf(name: string): string {
  return name.replace(/\.[^.]*$/, '');
}
