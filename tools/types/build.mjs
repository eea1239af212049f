// The declaration files of every publishable package, from one TypeScript program over all their
// sources (`tsconfig.json` here): ~25 s of CPU where a bundled .d.ts per package (tsup --dts) took
// ~100 s. Runs after the packages' own builds (this package depends on them), because tsup empties
// each dist/ first. `packages/X/src/**` → the folder of X's package.json "types".
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const here = import.meta.dirname;
const root = resolve(here, '../..');
const out = resolve(root, 'node_modules/.cache/gltf-legacy-types');
rmSync(out, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
for (const name of readdirSync(join(root, 'packages'))) {
  const pkgFile = join(root, 'packages', name, 'package.json');
  if (!existsSync(pkgFile)) continue;
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  if (pkg.private || !pkg.types) continue;
  const from = join(out, name, 'src');
  if (!existsSync(join(from, 'index.d.ts'))) throw new Error(`no declarations for packages/${name}`);
  cpSync(from, join(root, 'packages', name, dirname(pkg.types)), { recursive: true });
}
