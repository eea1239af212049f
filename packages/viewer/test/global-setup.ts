import { resolve } from 'node:path';
import { build } from 'vite';

/** Builds the page (dist/web) once before the tests, so they never run against a stale build. */
export default async function setup(): Promise<void> {
  await build({ configFile: resolve(import.meta.dirname, '../vite.config.ts'), logLevel: 'error' });
}
