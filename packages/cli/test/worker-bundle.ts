/**
 * Worker threads cannot run TypeScript sources, so the batch tests bundle `src/worker.ts` and
 * `test/fake-format.ts` with esbuild (workspace packages from their sources, as Vitest does),
 * code-split so both share one copy of @gltf-legacy/core (FormatError instanceof checks hold).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const pkg = resolve(import.meta.dirname, '..');
const packages = resolve(pkg, '..');

export interface WorkerBundle {
  workerUrl: URL;
  formatsModule: string;
}

let bundled: Promise<WorkerBundle> | undefined;

export function bundleWorker(): Promise<WorkerBundle> {
  bundled ??= (async () => {
    // one folder per test file (Vitest runs files in threads of one process: no shared pid dir)
    mkdirSync(join(pkg, 'node_modules', '.cache'), { recursive: true });
    const outdir = mkdtempSync(join(pkg, 'node_modules', '.cache', 'cli-test-'));
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
