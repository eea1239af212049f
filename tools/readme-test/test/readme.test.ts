// Issue 21: every fenced sh/ts block of the root README and of every packages/*/README.md and
// tools/*/README.md runs as written, and the packed tarballs install with plain npm in an empty
// folder outside the repository (library example, types, `npx gltf-legacy convert`).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allBlocks } from '../src/blocks.js';
import { runBlock } from '../src/run-block.js';
import { installTarballs, publishablePackages, type TarballInstall } from '../src/tarballs.js';

const root = resolve(import.meta.dirname, '../../..');
const corpus = resolve(root, process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
const haveCorpus = existsSync(corpus);
const required = !!process.env.CI || !!process.env.GLTF_LEGACY_CORPUS;
const scratch = join(root, 'scratch');
// README_TEST_ONLY=README.md,packages/cli/README.md runs only those (while editing them)
const only = process.env.README_TEST_ONLY?.split(',');
const readmes = new Map([...allBlocks(root)].filter(([r]) => !only || only.includes(r)));

let install: TarballInstall | undefined;
// A test that waits for npm: bounded by npm's own 600 s limit, not by a block's.
const INSTALL_WAIT = 900_000;

beforeAll(() => {
  if (!haveCorpus) return;
  // packs now; npm installs in the background while the first README's sh blocks run (they do not
  // use it; ts blocks and the tarball checks wait for it)
  install = installTarballs(root);
  const { tarballs, packMs, app } = install;
  install.installed.then(
    (ms) =>
      console.log(
        `readme-test: packed ${tarballs.length} tarballs in ${Math.round(packMs)} ms, npm install done after ${Math.round(ms)} ms (${app})`,
      ),
    () => {}, // the tests that need the install report its error
  );
  const skipped = [...readmes.values()].flat().filter((b) => b.skip);
  console.log(
    `readme-test: ${skipped.length} exempted block(s):\n${skipped.map((b) => `  ${b.readme}:${b.line} (${b.lang}): ${b.skip}`).join('\n')}`,
  );
});

afterAll(async () => {
  if (!install) return;
  await install.installed.catch(() => {}); // never remove the folder under a running npm
  rmSync(dirname(install.app), { recursive: true, force: true });
}, INSTALL_WAIT);

test('the corpus is there (required in CI)', () => {
  if (required) expect(haveCorpus, `corpus not found at ${corpus}`).toBe(true);
});

for (const [readme, blocks] of readmes) {
  if (!blocks.length) continue; // a README without sh/ts blocks has nothing to run
  describe.runIf(haveCorpus)(readme, () => {
    beforeAll(() => {
      rmSync(scratch, { recursive: true, force: true });
      mkdirSync(scratch);
    });
    for (const block of blocks) {
      const name = `${block.lang} block at line ${block.line}${block.cwd !== '.' ? ` (cwd ${block.cwd})` : ''}`;
      if (block.skip) test.skip(`${name}: ${block.skip}`, () => {});
      else
        test(
          name,
          async () => {
            // a ts block imports the installed packages; runBlock bounds the block itself (120 s)
            if (block.lang === 'ts') await install!.installed;
            const r = runBlock(block, { root, app: install!.app });
            expect(r.status, `${readme}:${block.line} exited ${r.status}:\n${r.output.slice(-4000)}`).toBe(0);
          },
          block.lang === 'ts' ? INSTALL_WAIT : undefined,
        );
    }
  });
}

// last: by now npm has long finished installing the tarballs (it ran beside the first README)
describe.runIf(haveCorpus)('tarballs installed with npm outside the repository', () => {
  test(
    'one tarball per publishable package, each with its types',
    async () => {
      await install!.installed;
      const names = publishablePackages(root);
      expect(install!.tarballs).toHaveLength(names.length);
      for (const name of names) {
        const dir = join(install!.app, 'node_modules/@gltf-legacy', name);
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        expect(pkg.dependencies?.['@gltf-legacy/core'] ?? '0.1.0').not.toMatch(/workspace/);
        expect(existsSync(join(dir, pkg.types ?? 'dist/index.d.ts')), `${name} types`).toBe(true);
      }
    },
    INSTALL_WAIT,
  );

  test('a TypeScript file importing every package type-checks against the installed packages', () => {
    const names = publishablePackages(root);
    const file = join(install!.app, 'types-check.ts');
    writeFileSync(
      file,
      `${names.map((n, i) => `import * as p${i} from '@gltf-legacy/${n}';`).join('\n')}\nexport const all = [${names.map((_, i) => `p${i}`).join(', ')}];\n`,
    );
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const r = spawnSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        file,
      ],
      { cwd: install!.app, encoding: 'utf8' },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  test('npx gltf-legacy convert turns a corpus model into a glTF binary', () => {
    const out = join(install!.app, 'skull.glb');
    execFileSync('npx', ['gltf-legacy', 'convert', join(corpus, 'unreal3d/Skull_d.3d'), '-o', out], {
      cwd: install!.app,
      stdio: 'pipe',
    });
    const glb = readFileSync(out);
    expect(glb.subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(glb.readUInt32LE(8)).toBe(glb.length);
  });
});
