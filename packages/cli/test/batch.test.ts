import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyShard, type BatchReport, expandInputs, main, parseShard, type Runtime } from '../src/index.js';
import { fakeBytes, fakeFormat } from './fake-format.js';
import { bundleWorker } from './worker-bundle.js';

const formats = [fakeFormat];
let dir: string;
let runtime: Runtime;

async function run(args: string[], opts: { runtime?: Runtime; tty?: boolean } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const progress: string[] = [];
  const code = await main(
    ['node', 'gltf-legacy', ...args],
    {
      out: (s) => out.push(s),
      err: (s) => err.push(s),
      progress: (s) => progress.push(s),
      isTTY: opts.tty ?? false,
    },
    formats,
    opts.runtime ?? runtime,
  );
  return { code, out: out.join('\n'), err: err.join('\n'), progress: progress.join('') };
}

function listTree(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(root, join(d, e.name)));
    }
  };
  if (existsSync(root)) walk(root);
  return out.sort();
}

function corruptFake(): Uint8Array {
  const bad = fakeBytes([0, 0, 0]);
  new DataView(bad.buffer).setUint32(4, 0xffffffff, true);
  return bad;
}

/** A game-like tree: mains, companions, a sub-folder, an unknown file, one corrupt model. */
function makeTree(root: string, corrupt = true): void {
  mkdirSync(join(root, 'chars', 'npc'), { recursive: true });
  mkdirSync(join(root, 'props'), { recursive: true });
  writeFileSync(join(root, 'chars', 'hero.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  writeFileSync(join(root, 'chars', 'hero.note'), 'companion');
  writeFileSync(join(root, 'chars', 'npc', 'guard.fake'), fakeBytes([0, 0, 0, 2, 0, 0, 0, 2, 0]));
  writeFileSync(join(root, 'props', 'box.fake'), fakeBytes([1, 1, 1, 2, 1, 1, 1, 2, 1]));
  writeFileSync(join(root, 'props', 'crate.fake'), fakeBytes([5, 5, 5]));
  writeFileSync(join(root, 'props', 'readme.txt'), 'not a model');
  if (corrupt) writeFileSync(join(root, 'props', 'broken.fake'), corruptFake());
}

beforeAll(async () => {
  runtime = await bundleWorker();
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-batch-'));
});

describe('input expansion', () => {
  it('folders are walked recursively; only main files are inputs, companions and unknown files are skipped', async () => {
    makeTree(join(dir, 'game'));
    const { items, skipped } = await expandInputs([join(dir, 'game')], formats);
    expect(items.map((i) => [relative(dir, i.input), i.rel])).toEqual([
      ['game/chars/hero.fake', 'chars'],
      ['game/chars/npc/guard.fake', 'chars/npc'],
      ['game/props/box.fake', 'props'],
      ['game/props/broken.fake', 'props'],
      ['game/props/crate.fake', 'props'],
    ]);
    expect(skipped.map((s) => relative(dir, s.path))).toEqual(['game/chars/hero.note']);
  });

  it('globs match files below their fixed base; a file given twice is converted once', async () => {
    makeTree(join(dir, 'game'));
    const { items } = await expandInputs(
      [`${dir}/game/**/*.fake`, join(dir, 'game', 'props', 'box.fake')],
      formats,
    );
    expect(items.map((i) => [relative(dir, i.input), i.rel])).toEqual([
      ['game/chars/hero.fake', 'chars'],
      ['game/chars/npc/guard.fake', 'chars/npc'],
      ['game/props/box.fake', 'props'],
      ['game/props/broken.fake', 'props'],
      ['game/props/crate.fake', 'props'],
    ]);
  });

  it('a FIFO among the inputs never waits for a writer: globs and folders pass it by, given by name it is NOT_A_FILE', async () => {
    makeTree(join(dir, 'game'));
    const fifo = join(dir, 'game', 'props', 'pipe.fake');
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    for (const input of [`${dir}/game/props/*.fake`, join(dir, 'game', 'props')]) {
      const { items } = await expandInputs([input], formats);
      expect(items.map((i) => relative(dir, i.input))).toEqual([
        'game/props/box.fake',
        'game/props/broken.fake',
        'game/props/crate.fake',
      ]);
    }
    const r = await run(['convert', fifo, '-o', join(dir, 'pipe.glb')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/NOT_A_FILE/);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('--shard slices cover every input exactly once, for any n', () => {
    const list = Array.from({ length: 23 }, (_, i) => `f${i}`);
    for (let n = 1; n <= 7; n++) {
      const seen = Array.from({ length: n }, (_, i) => applyShard(list, { index: i + 1, count: n })).flat();
      expect(seen.sort()).toEqual([...list].sort());
      // balanced: sizes differ by at most one
      const sizes = Array.from({ length: n }, (_, i) => applyShard(list, { index: i + 1, count: n }).length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', 'x', '1/2/3', '-1/2'])
      expect(() => parseShard(bad)).toThrow(/--shard/);
  });
});

describe('batch with worker threads', () => {
  it('a folder with one corrupt file: the others convert (tree mirrored), exit 1, the FormatError code is recorded, no partial output', async () => {
    makeTree(join(dir, 'game'));
    const r = await run([
      'convert',
      join(dir, 'game'),
      '--out-dir',
      join(dir, 'out'),
      '--jobs',
      '2',
      '--report',
      join(dir, 'report.json'),
    ]);
    expect(r.code).toBe(1);
    expect(listTree(join(dir, 'out'))).toEqual([
      'chars/hero.glb',
      'chars/npc/guard.glb',
      'props/box.glb',
      'props/crate.glb',
    ]);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as BatchReport;
    expect(report.schema).toBe(1);
    expect(report.summary).toMatchObject({
      total: 5,
      ok: 4,
      failed: 1,
      withWarnings: 1,
      errorsByCode: { COUNT_TOO_LARGE: 1 },
      warningsByCode: { NOTE_SEEN: 1 },
      skipped: 1,
      jobs: 2,
    });
    const broken = report.records.find((x) => x.input.endsWith('broken.fake'))!;
    expect(broken).toMatchObject({
      status: 'error',
      format: 'fake',
      outputs: [],
      error: { code: 'COUNT_TOO_LARGE', file: 'broken.fake', offset: 8, field: 'positions' },
    });
    const hero = report.records.find((x) => x.input.endsWith('hero.fake'))!;
    expect(hero).toMatchObject({
      status: 'ok',
      format: 'fake',
      warnings: [{ code: 'NOTE_SEEN', count: 1 }],
      stats: { vertices: 3, triangles: 1, joints: 0, morphTargets: 0, animations: 0 },
    });
    expect(hero.ms).toBeGreaterThanOrEqual(0);
    for (const rec of report.records.filter((x) => x.status === 'ok')) {
      expect(rec.outputs).toHaveLength(1);
      const glb = new Uint8Array(readFileSync(rec.outputs[0]));
      const v = await validateGlb(glb);
      expect(v.issues.numErrors, validatorErrors(v)).toBe(0);
    }
    expect(r.out).toMatch(/error\s+COUNT_TOO_LARGE\s+1/);
    expect(r.out).toMatch(/warning\s+NOTE_SEEN\s+1/);
    expect(r.out).toContain('4 converted, 1 failed');
    expect(r.err).toMatch(/error COUNT_TOO_LARGE: broken\.fake, offset 8/);
    // nothing but the outputs: no temp files anywhere
    expect(listTree(dir).filter((p) => p.includes('.tmp-'))).toEqual([]);
  });

  it('never overwrites without --force; with --force it does', async () => {
    makeTree(join(dir, 'game'), false);
    expect(
      (await run(['convert', join(dir, 'game'), '--out-dir', join(dir, 'out'), '--jobs', '2', '-q'])).code,
    ).toBe(0);
    writeFileSync(join(dir, 'out', 'props', 'box.glb'), 'keep me');
    const again = await run([
      'convert',
      join(dir, 'game'),
      '--out-dir',
      join(dir, 'out'),
      '--jobs',
      '2',
      '--report',
      join(dir, 'r.json'),
    ]);
    expect(again.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as BatchReport;
    expect(report.summary.errorsByCode).toEqual({ OUTPUT_EXISTS: 4 });
    expect(readFileSync(join(dir, 'out', 'props', 'box.glb'), 'utf8')).toBe('keep me');
    expect(
      (
        await run([
          'convert',
          join(dir, 'game'),
          '--out-dir',
          join(dir, 'out'),
          '--jobs',
          '2',
          '--force',
          '-q',
        ])
      ).code,
    ).toBe(0);
    expect(
      readFileSync(join(dir, 'out', 'props', 'box.glb'))
        .subarray(0, 4)
        .toString(),
    ).toBe('glTF');
  });

  it('two inputs that would write the same file: the second is OUTPUT_CONFLICT, even with --force', async () => {
    for (const d of ['a', 'b']) {
      mkdirSync(join(dir, d));
      writeFileSync(join(dir, d, 'same.fake'), fakeBytes([0, 0, 0]));
    }
    const r = await run([
      'convert',
      join(dir, 'a'),
      join(dir, 'b'),
      '--out-dir',
      join(dir, 'out'),
      '--force',
      '--jobs',
      '2',
      '--report',
      join(dir, 'r.json'),
    ]);
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as BatchReport;
    expect(report.records.map((x) => x.status).sort()).toEqual(['error', 'ok']);
    expect(report.summary.errorsByCode).toEqual({ OUTPUT_CONFLICT: 1 });
  });

  it('--timeout stops a hanging conversion (worker terminated, code TIMEOUT) and the batch goes on', async () => {
    makeTree(join(dir, 'game'), false);
    const hang = new Uint8Array(8 + 998 * 12);
    hang.set(fakeBytes([]), 0);
    new DataView(hang.buffer).setUint32(4, 998, true);
    writeFileSync(join(dir, 'game', 'props', 'hang.fake'), hang);
    const t0 = performance.now();
    const r = await run([
      'convert',
      join(dir, 'game'),
      '--out-dir',
      join(dir, 'out'),
      '--jobs',
      '2',
      '--timeout',
      '1',
      '--report',
      join(dir, 'r.json'),
    ]);
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as BatchReport;
    expect(report.summary).toMatchObject({ total: 5, ok: 4, failed: 1, errorsByCode: { TIMEOUT: 1 } });
    expect(report.records.find((x) => x.status === 'error')).toMatchObject({
      input: join(dir, 'game', 'props', 'hang.fake'),
      error: { code: 'TIMEOUT' },
    });
    expect(listTree(join(dir, 'out'))).toEqual([
      'chars/hero.glb',
      'chars/npc/guard.glb',
      'props/box.glb',
      'props/crate.glb',
    ]);
  });

  it('--shard i/n runs cover the folder exactly once across n runs', async () => {
    makeTree(join(dir, 'game'));
    const inputs: string[] = [];
    for (let i = 1; i <= 3; i++) {
      await run([
        'convert',
        join(dir, 'game'),
        '--out-dir',
        join(dir, 'out'),
        '--jobs',
        '2',
        '--shard',
        `${i}/3`,
        '--report',
        join(dir, `r${i}.json`),
        '-q',
      ]);
      const report = JSON.parse(readFileSync(join(dir, `r${i}.json`), 'utf8')) as BatchReport;
      expect(report.summary.shard).toBe(`${i}/3`);
      inputs.push(...report.records.map((x) => relative(dir, x.input)));
    }
    expect(inputs.sort()).toEqual([
      'game/chars/hero.fake',
      'game/chars/npc/guard.fake',
      'game/props/box.fake',
      'game/props/broken.fake',
      'game/props/crate.fake',
    ]);
    expect(listTree(join(dir, 'out'))).toHaveLength(4);
  });

  it('in-process (--jobs 0) gives the same records as worker threads', async () => {
    makeTree(join(dir, 'game'));
    await run([
      'convert',
      join(dir, 'game'),
      '--out-dir',
      join(dir, 'o1'),
      '--jobs',
      '0',
      '--report',
      join(dir, 'r1.json'),
      '-q',
    ]);
    await run([
      'convert',
      join(dir, 'game'),
      '--out-dir',
      join(dir, 'o2'),
      '--jobs',
      '2',
      '--report',
      join(dir, 'r2.json'),
      '-q',
    ]);
    const strip = (f: string) =>
      (JSON.parse(readFileSync(join(dir, f), 'utf8')) as BatchReport).records.map((x) => ({
        ...x,
        ms: 0,
        outputs: x.outputs.map((o) => o.replace(/\/o[12]\//, '/o/')),
      }));
    expect(strip('r1.json')).toEqual(strip('r2.json'));
    expect(listTree(join(dir, 'o1'))).toEqual(listTree(join(dir, 'o2')));
  });

  it('optimize flags reach the workers: --optimize --meshopt outputs are compressed and valid', async () => {
    makeTree(join(dir, 'game'), false);
    const r = await run([
      'convert',
      join(dir, 'game'),
      '--out-dir',
      join(dir, 'out'),
      '--jobs',
      '2',
      '--optimize',
      '--meshopt',
      '--center',
      '-q',
    ]);
    // crate.fake is one lone vertex: meshoptimizer's encoder refuses it, with a stable code
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(/error OPTIMIZE_FAILED: optimize step "meshopt" failed/);
    expect(listTree(join(dir, 'out'))).toEqual(['chars/hero.glb', 'chars/npc/guard.glb', 'props/box.glb']);
    for (const f of listTree(join(dir, 'out'))) {
      const glb = new Uint8Array(readFileSync(join(dir, 'out', f)));
      const json = JSON.parse(
        new TextDecoder().decode(
          glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true)),
        ),
      );
      expect(json.extensionsUsed, f).toContain('EXT_meshopt_compression');
      expect(json.meshes[0].primitives[0].indices, f).toBeDefined(); // welded
      const v = await validateGlb(glb);
      expect(v.issues.numErrors, validatorErrors(v)).toBe(0);
    }
  });

  it('a progress bar (done/total, ETA, current file) on a TTY; a summary table at the end', async () => {
    makeTree(join(dir, 'game'), false);
    const r = await run(['convert', join(dir, 'game'), '--out-dir', join(dir, 'out'), '--jobs', '2'], {
      tty: true,
    });
    expect(r.code).toBe(0);
    expect(r.progress).toMatch(/\r\x1b\[2K\[#+-*\] 4\/4 {2}ETA \d+s/);
    expect(r.progress, JSON.stringify(r.progress)).toMatch(/ETA \?\s+…?.*game\/.*\.fake/);
    expect(r.out).toMatch(/^ok\s+4$/m);
    expect(r.out).toMatch(/^failed\s+0$/m);
    expect(r.out).toContain('[4/4]');
  });

  it('usage errors exit 2: bad --jobs, --timeout, --shard, --simplify, compression with a legacy target, an empty folder, -o with a folder or glob', async () => {
    makeTree(join(dir, 'game'), false);
    mkdirSync(join(dir, 'empty'));
    const g = join(dir, 'game');
    for (const args of [
      ['--jobs', 'many'],
      ['--timeout', '0'],
      ['--shard', '4/3'],
      ['--simplify', '2'],
      ['--meshopt', '--draco'],
      ['--to', 'fake', '--meshopt'],
    ]) {
      const r = await run(['convert', g, '--out-dir', join(dir, 'out'), ...args]);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect((await run(['convert', join(dir, 'empty')])).code).toBe(2);
    expect((await run(['convert', g, '-o', join(dir, 'x.glb')])).code).toBe(2);
    expect((await run(['convert', `${g}/**/*.fake`, '-o', join(dir, 'x.glb')])).code).toBe(2);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});
