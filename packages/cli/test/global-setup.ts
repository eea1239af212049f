// Removes the worker bundles of this run (test/worker-bundle.ts: one per Vitest worker thread,
// shared by the files of that thread) when every test file is done.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_CACHE, BUNDLE_PREFIX } from './worker-bundle.js';

export default function setup() {
  return () => {
    let names: string[] = [];
    try {
      names = readdirSync(BUNDLE_CACHE);
    } catch {
      return;
    }
    for (const name of names)
      if (name.startsWith(`${BUNDLE_PREFIX}${process.pid}-`))
        rmSync(join(BUNDLE_CACHE, name), { recursive: true, force: true });
  };
}
