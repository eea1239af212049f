import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram, main, simpleConvertArgs } from '../src/index.js';
import { fakeBytes, fakeFormat } from './fake-format.js';

const formats = [fakeFormat];
const argv = (...args: string[]) => ['node', 'gltf-legacy', ...args];

/** What commander gives the convert action for these arguments. */
async function commanderParse(args: string[]) {
  let captured: { inputs: string[]; opts: Record<string, unknown> } | undefined;
  const program = buildProgram({ out: () => {}, err: () => {} }, formats);
  program.commands
    .find((c) => c.name() === 'convert')!
    .action((inputs: string[], opts: Record<string, unknown>) => {
      captured = { inputs, opts: { ...opts } };
    });
  await program.parseAsync(args);
  return captured;
}

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s) }, formats);
  const clean = (s: string[]) => s.join('\n').replace(/\[\d+ ms\]/g, '[ms]');
  return { code, out: clean(out), err: clean(err) };
}

describe('convert fast path (no commander for `convert <file> -o <out>`)', () => {
  it('parses exactly what commander parses', async () => {
    for (const args of [
      ['convert', 'a_d.3d', '-o', 'x.glb'],
      ['convert', 'a_d.3d', '--output', 'o/x.glb', '--static', '--force'],
      ['convert', '-f', '-o', 'x.glb', 'in.mdl', '-q'],
      ['convert', '--verbose', 'in.mdl', '--static', '-o', 'x_d.3d', '--quiet'],
      ['convert', 'a_d.3d', '-o', 'x.glb', '--float', '--no-frame-normals'],
      ['convert', '--no-frame-normals', 'a_d.3d', '-o', 'x.glb'],
      ['convert', '--float', 'a_d.3d', '-o', 'x.glb', '--static'],
      ['convert', 'a_d.3d', '-o', 'x.glb', '--compact', '--no-frame-normals'],
      ['convert', '--compact', 'a_d.3d', '-o', 'x.glb'],
      ['convert', 'a_d.3d', '-o', 'x.glb', '--compact', '--float'], // refused later, as by commander
    ]) {
      const fast = simpleConvertArgs(argv(...args));
      expect(fast, args.join(' ')).toBeDefined();
      expect(fast, args.join(' ')).toEqual(await commanderParse(argv(...args)));
    }
  });

  it('leaves everything else to commander', () => {
    for (const args of [
      ['convert', 'a_d.3d'],
      ['convert', 'a', 'b', '-o', 'x.glb'],
      ['convert', 'a', '-o', 'x.glb', '--jobs', '2'],
      ['convert', 'a', '-o', 'x.glb', '-o', 'y.glb'],
      ['convert', 'a', '-o', 'x.glb', '--force', '-f'],
      ['convert', 'a', '-o', 'x.glb', '--float', '--float'],
      ['convert', 'a', '-o', 'x.glb', '--compact', '--compact'],
      ['convert', 'a', '-o', 'x.glb', '--no-frame-normals', '--no-frame-normals'],
      ['convert', 'a', '-o', 'x.glb', '--frame-normals'],
      ['convert', 'a', '--output=x.glb'],
      ['convert', 'a', '-o'],
      ['convert', 'a', '-o', '--force'],
      ['convert', '--', '-a', '-o', 'x.glb'],
      ['inspect', 'a', '-o', 'x.glb'],
      ['--version'],
    ])
      expect(simpleConvertArgs(argv(...args)), args.join(' ')).toBeUndefined();
  });

  it('gives the same outputs, messages and exit codes as the commander path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-fast-'));
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    writeFileSync(join(dir, 'tri.note'), 'x');
    // `--no-progress` changes nothing for one output file but sends the arguments through commander
    const cases = [
      ['convert', join(dir, 'tri.fake'), '-o', join(dir, 'A.glb')],
      ['convert', join(dir, 'tri.fake'), '-o', join(dir, 'A.glb')], // exists: OUTPUT_EXISTS
      ['convert', join(dir, 'tri.fake'), '-o', join(dir, 'A.glb'), '--force', '-v'],
      ['convert', join(dir, 'nope.fake'), '-o', join(dir, 'B.glb')],
      ['convert', dir, '-o', join(dir, 'C.glb')],
      ['convert', join(dir, 'tri.fake'), '-o', join(dir, 'out', 'D.fake'), '-q'],
    ];
    for (const args of cases) {
      const fast = await run(argv(...args));
      const slow = await run(argv(...args.map((a) => a.replace(/([ABCD])\./, '$1-slow.')), '--no-progress'));
      expect(simpleConvertArgs(argv(...args)), args.join(' ')).toBeDefined();
      expect(fast, args.join(' ')).toEqual({
        code: slow.code,
        out: slow.out.replace(/([ABCD])-slow\./g, '$1.'),
        err: slow.err.replace(/([ABCD])-slow\./g, '$1.'),
      });
    }
    expect(readFileSync(join(dir, 'A.glb'))).toEqual(readFileSync(join(dir, 'A-slow.glb')));
  });
});
