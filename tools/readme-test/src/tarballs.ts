// Owns the install-from-tarball check: `pnpm pack` of every publishable package, then plain
// `npm install` of the tarballs into an empty folder outside the repository.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A folder where the packed packages are being installed, and what it took. */
export interface TarballInstall {
  /** The project folder (`package.json`, `node_modules/`), outside the repository. */
  app: string;
  /** The `.tgz` files, one per publishable package. */
  tarballs: string[];
  packMs: number;
  /** Settles when npm is done (its time in ms); rejects with npm's output when it fails. */
  installed: Promise<number>;
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
 * Packs every publishable package (before returning: nothing else may touch the packages
 * meanwhile), then installs the tarballs with plain npm in a new temporary folder in the
 * background: `installed` settles when npm is done, while the caller goes on with work that does
 * not need the install (the README test runs the first README's sh blocks meanwhile).
 *
 * ```ts
 * const { app, installed } = installTarballs('/work/main');
 * await installed; // app/node_modules/@gltf-legacy/cli …
 * ```
 */
export function installTarballs(root: string, extra: string[] = []): TarballInstall {
  const { app, tarballs, packMs } = packTarballs(root);
  const t = performance.now();
  const args = [
    'install',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    ...tarballs,
    ...extra,
  ];
  const installed = new Promise<number>((done, fail) => {
    execFile('npm', args, { cwd: app, timeout: 600_000 }, (error, stdout, stderr) => {
      if (error) fail(new Error(`npm install of the tarballs failed: ${error.message}\n${stdout}${stderr}`));
      else done(performance.now() - t);
    });
  });
  installed.catch(() => {}); // whoever awaits it gets the error; nobody awaiting is not a crash
  return { app, tarballs, packMs, installed };
}

/** `pnpm pack` of every publishable package into `<new temp folder>/tgz`, and an empty `app/` beside. */
function packTarballs(root: string): Omit<TarballInstall, 'installed'> {
  const base = mkdtempSync(join(tmpdir(), 'gltf-legacy-tarballs-'));
  const tgz = join(base, 'tgz');
  const app = join(base, 'app');
  mkdirSync(tgz);
  mkdirSync(app);
  const t = performance.now();
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
  return { app, tarballs, packMs };
}
