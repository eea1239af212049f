import { resolve } from 'node:path';
import { build } from 'vite';

/**
 * Builds the page (dist/web) once before the tests, so they never run against a stale build.
 * Under turbo (`pnpm test`, which sets TURBO_HASH) this package's `build` task has just built it
 * from the same sources (or restored it from turbo's cache for them): not built twice.
 */
export default async function setup(): Promise<void> {
  if (process.env.TURBO_HASH) return;
  await build({ configFile: resolve(import.meta.dirname, '../vite.config.ts'), logLevel: 'error' });
}
