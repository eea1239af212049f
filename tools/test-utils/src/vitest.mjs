// The Vitest base config every package uses: workspace packages resolve to their TypeScript
// sources, so tests never run against a stale build.
import { readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const root = resolve(import.meta.dirname, '../../..');

/** Aliases `@gltf-legacy/<name>` → `packages/<name>/src/index.ts` for every package. */
export function workspaceAliases() {
  const aliases = {};
  const dir = join(root, 'packages');
  for (const name of readdirSync(dir)) {
    const entry = join(dir, name, 'src', 'index.ts');
    if (existsSync(entry)) aliases[`@gltf-legacy/${name}`] = entry;
  }
  return aliases;
}

/** Vitest config for a package folder. */
export function defineLegacyTestConfig(dirname, overrides = {}) {
  return defineConfig({
    root: dirname,
    resolve: { alias: workspaceAliases() },
    test: {
      // with `projects`, each project says which files it runs (arrays would be concatenated)
      ...(overrides.projects ? {} : { include: ['test/**/*.test.ts'] }),
      testTimeout: 60_000,
      hookTimeout: 60_000,
      pool: 'threads',
      // One module graph per worker instead of one per test file: importing the packages' sources
      // again for every file was a third of the suite's CPU time (issue 31's follow-up). Test files
      // must therefore not leave state behind (env variables, module-level caches they mutate);
      // a package whose tests need it passes `{ isolate: true }`.
      isolate: false,
      ...overrides,
    },
  });
}
