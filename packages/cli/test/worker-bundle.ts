/**
 * Worker threads cannot run TypeScript sources, so the batch tests bundle `src/worker.ts` and
 * `test/fake-format.ts` with esbuild (workspace packages from their sources, as Vitest does),
 * code-split so both share one copy of @gltf-legacy/core (FormatError instanceof checks hold).
 *
 * One bundle per Vitest worker thread, shared by the test files that run in it (they share one
 * module graph: `isolate: false`); the folders are removed when the run ends (global-setup.ts).
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import { build } from 'esbuild';

const pkg = resolve(import.meta.dirname, '..');
const packages = resolve(pkg, '..');
/** Where the bundles go: `cli-test-<pid>-<thread>` (the threads of one run share the pid). */
export const BUNDLE_CACHE = join(pkg, 'node_modules', '.cache');
export const BUNDLE_PREFIX = 'cli-test-';

export interface WorkerBundle {
  workerUrl: URL;
  formatsModule: string;
}

let bundled: Promise<WorkerBundle> | undefined;

export function bundleWorker(): Promise<WorkerBundle> {
  bundled ??= (async () => {
    // one folder per worker thread: threads of one run bundle side by side, never into one folder
    const outdir = join(BUNDLE_CACHE, `${BUNDLE_PREFIX}${process.pid}-${threadId}`);
    rmSync(outdir, { recursive: true, force: true });
    mkdirSync(outdir, { recursive: true });
    const aliases = Object.fromEntries(
      readdirSync(packages)
        .filter((n) => existsSync(join(packages, n, 'src', 'index.ts')))
        .map((n) => [`@gltf-legacy/${n}`, join(packages, n, 'src', 'index.ts')]),
    );
    await build({
      entryPoints: {
        worker: join(pkg, 'src', 'worker.ts'),
        'fake-format': join(pkg, 'test', 'fake-format.ts'),
      },
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outExtension: { '.js': '.mjs' },
      external: ['draco3dgltf'],
      banner: {
        js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
      },
      logLevel: 'error',
      plugins: [
        {
          name: 'workspace-sources',
          setup(b) {
            b.onResolve({ filter: /^@gltf-legacy\/[^/]+$/ }, (a) =>
              aliases[a.path] ? { path: aliases[a.path] } : undefined,
            );
          },
        },
      ],
    });
    return {
      workerUrl: pathToFileURL(join(outdir, 'worker.mjs')),
      formatsModule: pathToFileURL(join(outdir, 'fake-format.mjs')).href,
    };
  })();
  return bundled;
}
