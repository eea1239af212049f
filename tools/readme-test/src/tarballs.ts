// Owns the install-from-tarball check: `pnpm pack` of every publishable package, then plain
// `npm install` of the tarballs into an empty folder outside the repository.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A folder with the packed packages installed, and what it took. */
export interface TarballInstall {
  /** The project folder (`package.json`, `node_modules/`), outside the repository. */
  app: string;
  /** The `.tgz` files, one per publishable package. */
  tarballs: string[];
  packMs: number;
  installMs: number;
}

/** The publishable packages: every `packages/*` whose package.json is not private. */
export function publishablePackages(root: string): string[] {
  return readdirSync(join(root, 'packages'))
    .sort()
    .filter((name) => {
      const pkg = join(root, 'packages', name, 'package.json');
      return existsSync(pkg) && !JSON.parse(readFileSync(pkg, 'utf8')).private;
    });
}

/**
 * Packs every publishable package and installs the tarballs with npm in a new temporary folder.
 *
 * ```ts
 * const { app } = installTarballs('/work/main'); // app/node_modules/@gltf-legacy/cli …
 * ```
 */
export function installTarballs(root: string, extra: string[] = []): TarballInstall {
  const base = mkdtempSync(join(tmpdir(), 'gltf-legacy-tarballs-'));
  const tgz = join(base, 'tgz');
  const app = join(base, 'app');
  mkdirSync(tgz);
  mkdirSync(app);
  let t = performance.now();
  for (const name of publishablePackages(root))
    execFileSync('pnpm', ['pack', '--pack-destination', tgz], {
      cwd: join(root, 'packages', name),
      stdio: 'pipe',
    });
  const packMs = performance.now() - t;
  const tarballs = readdirSync(tgz)
    .filter((f) => f.endsWith('.tgz'))
    .map((f) => join(tgz, f));
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'my-project', private: true, type: 'module' }, null, 2)}\n`,
  );
  t = performance.now();
  execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, ...extra],
    {
      cwd: app,
      stdio: 'pipe',
      timeout: 600_000,
    },
  );
  return { app, tarballs, packMs, installMs: performance.now() - t };
}
