import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusFiles, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { beforeEach, describe, expect, it } from 'vitest';
import { convertFile, main, outputBase, renderTable } from '../src/index.js';
import { fakeBytes, fakeFormat } from './fake-format.js';

const formats = [fakeFormat];
let dir: string;

async function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    ['node', 'gltf-legacy', ...args],
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    formats,
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-cli-'));
});

describe('convert', () => {
  it('legacy → .glb beside the input, with companions found automatically, valid glTF', async () => {
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    writeFileSync(join(dir, 'tri.note'), 'x');
    writeFileSync(join(dir, 'other.note'), 'x');
    const r = await convertFile(join(dir, 'tri.fake'), { formats });
    expect(r.status).toBe('ok');
    expect(r.format).toBe('fake');
    expect(r.stats?.vertices).toBe(3);
    expect(r.warnings).toEqual([{ code: 'NOTE_SEEN', message: 'companion tri.note read', count: 1 }]);
    const glb = new Uint8Array(readFileSync(join(dir, 'tri.glb')));
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
  });

  it('--no-companions turns discovery off; --with adds a file', async () => {
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0]));
    writeFileSync(join(dir, 'tri.note'), 'x');
    writeFileSync(join(dir, 'extra.bin'), 'x');
    const r = await convertFile(join(dir, 'tri.fake'), {
      formats,
      companions: false,
      with: [join(dir, 'extra.bin')],
      output: join(dir, 'a.glb'),
    });
    expect(r.warnings.map((w) => w.message)).toEqual(['companion extra.bin read']);
  });

  it('glTF → legacy by --to and by output extension, all files written beside the output', async () => {
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    await convertFile(join(dir, 'tri.fake'), { formats });
    const r1 = await convertFile(join(dir, 'tri.glb'), { formats, to: 'fake', outDir: join(dir, 'out') });
    expect(r1.status).toBe('ok');
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['tri.fake', 'tri.note']);
    expect(new Uint8Array(readFileSync(join(dir, 'out', 'tri.fake')))).toEqual(
      fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]),
    );
    const r2 = await convertFile(join(dir, 'tri.glb'), { formats, output: join(dir, 'x', 'Renamed.fake') });
    expect(r2.status).toBe('ok');
    expect(r2.warnings[0].code).toBe('FAKE_EXPORT');
    expect(existsSync(join(dir, 'x', 'Renamed.note'))).toBe(true);
  });

  it('glTF input without a target is a clear error', async () => {
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0]));
    await convertFile(join(dir, 'tri.fake'), { formats });
    const r = await convertFile(join(dir, 'tri.glb'), { formats });
    expect(r.error?.code).toBe('UNKNOWN_TARGET');
  });

  it('does not overwrite without --force', async () => {
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0]));
    writeFileSync(join(dir, 'tri.glb'), 'old');
    const r = await convertFile(join(dir, 'tri.fake'), { formats });
    expect(r.error?.code).toBe('OUTPUT_EXISTS');
    expect(readFileSync(join(dir, 'tri.glb'), 'utf8')).toBe('old');
    const r2 = await convertFile(join(dir, 'tri.fake'), { formats, force: true });
    expect(r2.status).toBe('ok');
    expect(readFileSync(join(dir, 'tri.glb')).subarray(0, 4).toString()).toBe('glTF');
  });

  it('a corrupt file gives its FormatError code and leaves no output', async () => {
    const bad = fakeBytes([0, 0, 0]);
    new DataView(bad.buffer).setUint32(4, 0xffffffff, true);
    writeFileSync(join(dir, 'bad.fake'), bad);
    const r = await convertFile(join(dir, 'bad.fake'), { formats });
    expect(r.status).toBe('error');
    expect(r.error).toMatchObject({
      code: 'COUNT_TOO_LARGE',
      file: 'bad.fake',
      offset: 8,
      field: 'positions',
    });
    expect(readdirSync(dir)).toEqual(['bad.fake']);
  });

  it('an exception that is not ours is INTERNAL_ERROR; an unknown file is UNKNOWN_FORMAT; a missing one FILE_NOT_FOUND', async () => {
    const buggy = fakeBytes([]);
    new DataView(buggy.buffer).setUint32(4, 999, true);
    writeFileSync(join(dir, 'buggy.fake'), new Uint8Array([...buggy, ...new Uint8Array(999 * 12)]));
    expect((await convertFile(join(dir, 'buggy.fake'), { formats })).error?.code).toBe('INTERNAL_ERROR');
    writeFileSync(join(dir, 'what.bin'), 'hello');
    expect((await convertFile(join(dir, 'what.bin'), { formats })).error?.code).toBe('UNKNOWN_FORMAT');
    expect((await convertFile(join(dir, 'nope.fake'), { formats })).error?.code).toBe('FILE_NOT_FOUND');
  });

  it('an output below a file, or with a name too long, is a file-system code naming the path, not INTERNAL_ERROR', async () => {
    writeFileSync(join(dir, 'tri2.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    writeFileSync(join(dir, 'notes.txt'), 'a file, not a folder');
    const below = await convertFile(join(dir, 'tri2.fake'), {
      formats,
      output: join(dir, 'notes.txt', 'x.glb'),
    });
    expect(below.error).toMatchObject({ code: 'NOT_A_DIRECTORY', file: join(dir, 'notes.txt', 'x.glb') });
    const long = await convertFile(join(dir, 'tri2.fake'), {
      formats,
      output: join(dir, `${'n'.repeat(300)}.glb`),
    });
    expect(long.error?.code).toBe('NAME_TOO_LONG');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('a file, not a folder');
    expect(readdirSync(dir).filter((f) => f.startsWith('.gltf-legacy-tmp'))).toEqual([]);
  });

  it('a device or FIFO as input is NOT_A_FILE at once: never read until memory runs out, never a wait', async () => {
    const fifo = join(dir, 'pipe.fake');
    execFileSync('mkfifo', [fifo]);
    for (const input of ['/dev/zero', fifo]) {
      const started = performance.now();
      const r = await convertFile(input, { formats, output: join(dir, 'dev.glb') });
      expect(r.error?.code, input).toBe('NOT_A_FILE');
      expect(r.error?.message).toContain(input);
      expect(performance.now() - started).toBeLessThan(5000);
    }
    expect(existsSync(join(dir, 'dev.glb'))).toBe(false);
  });

  it('a folder where the output goes is refused, also with force: it and its files stay', async () => {
    writeFileSync(join(dir, 'tri3.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const folder = join(dir, 'kept.glb');
    mkdirSync(folder);
    writeFileSync(join(folder, 'mine.txt'), 'keep me');
    for (const force of [false, true]) {
      const r = await convertFile(join(dir, 'tri3.fake'), { formats, output: folder, force });
      expect(r.error?.code, `force ${force}`).toBe('IS_A_DIRECTORY');
      expect(r.error?.message).toContain(folder);
      expect(readFileSync(join(folder, 'mine.txt'), 'utf8')).toBe('keep me');
    }
  });

  it('output base names strip the format main extension', () => {
    expect(outputBase('dir/Skull_d.3d', { ...fakeFormat, mainExtension: '_d.3d' })).toBe('Skull');
    expect(outputBase('Jack.mdl')).toBe('Jack');
  });

  it('writes .gltf + .bin named after the output', async () => {
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const r = await convertFile(join(dir, 'tri.fake'), { formats, output: join(dir, 'o', 'tri.gltf') });
    expect(r.status).toBe('ok');
    expect(readdirSync(join(dir, 'o')).sort()).toEqual(['tri.bin', 'tri.gltf']);
    const json = JSON.parse(readFileSync(join(dir, 'o', 'tri.gltf'), 'utf8'));
    expect(json.buffers[0].uri).toBe('tri.bin');
  });
});

describe('command line', () => {
  it('several inputs: one failure does not stop the rest; exit code 1', async () => {
    writeFileSync(join(dir, 'a.fake'), fakeBytes([0, 0, 0]));
    writeFileSync(join(dir, 'b.fake'), 'FAKE');
    writeFileSync(join(dir, 'c.fake'), fakeBytes([1, 1, 1]));
    const r = await run(
      'convert',
      join(dir, 'a.fake'),
      join(dir, 'b.fake'),
      join(dir, 'c.fake'),
      '--out-dir',
      join(dir, 'out'),
    );
    expect(r.code).toBe(1);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['a.glb', 'c.glb']);
    expect(r.err).toMatch(/error TRUNCATED: b\.fake, offset 4/);
    expect(r.out).toContain('2 converted, 1 failed');
    expect(r.err).not.toMatch(/at .*\.ts:\d+/); // no stack trace without --verbose
  });

  it('exit code 0 on success, 2 on usage errors', async () => {
    writeFileSync(join(dir, 'a.fake'), fakeBytes([0, 0, 0]));
    expect((await run('convert', join(dir, 'a.fake'), '-q')).code).toBe(0);
    expect((await run('convert')).code).toBe(2);
    expect((await run('frobnicate')).code).toBe(2);
    expect((await run('convert', 'a', 'b', '-o', 'x.glb')).code).toBe(2);
    expect((await run('convert', join(dir, 'a.fake'), '--fps', 'fast')).code).toBe(2);
  });

  it('warnings are printed grouped by code with counts; --quiet hides them', async () => {
    writeFileSync(join(dir, 'a.fake'), fakeBytes([0, 0, 0]));
    writeFileSync(join(dir, 'a.note'), 'x');
    const r = await run('convert', join(dir, 'a.fake'));
    expect(r.err).toContain('warning NOTE_SEEN ×1: companion a.note read');
    const q = await run('convert', join(dir, 'a.fake'), '-q', '-f');
    expect(q.err).toBe('');
  });

  it('formats lists ids, extensions and capabilities', async () => {
    const r = await run('formats');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/fake\s+Fake test format\s+\.fake \.note\s+yes\s+yes/);
    expect(r.out).toMatch(/^glb/m);
    const j = JSON.parse((await run('formats', '--json')).out);
    expect(j[0]).toMatchObject({ id: 'fake', mainExtension: '.fake' });
  });

  it('inspect shows the file model and the glTF view', async () => {
    writeFileSync(join(dir, 'a.fake'), fakeBytes([0, 0, 0, 2, 3, 4]));
    const r = await run('inspect', join(dir, 'a.fake'), '--json');
    const j = JSON.parse(r.out);
    expect(j.format).toBe('fake');
    expect(j.sections[1]).toEqual({ title: 'Fake', facts: { files: 1 } });
    expect(j.sections[2].facts).toMatchObject({ vertices: 2, boundsMax: '2, 3, 4' });
    const t = await run('inspect', join(dir, 'a.fake'));
    expect(t.out).toMatch(/vertices\s+2/);
  });

  it('--help explains itself', async () => {
    const r = await run('convert', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('--out-dir');
    expect(r.out).toContain('Exit code');
  });
});

describe('validate', () => {
  const fox = corpusFiles('gltf', ['fox.glb'])[0];
  it.skipIf(!fox)('reports the Khronos validator summary of a corpus file (0 errors → exit 0)', async () => {
    const r = await run('validate', fox);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/0 error\(s\)/);
  });
  it('exit 1 on a broken glb', async () => {
    const bytes = new Uint8Array(readFileSync(fox ?? join(dir, 'none')).subarray(0, 200));
    writeFileSync(join(dir, 'broken.glb'), bytes);
    const r = await run('validate', join(dir, 'broken.glb'), '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).errors).toBeGreaterThan(0);
  });
});

describe('table', () => {
  it('aligns columns, numbers right', () => {
    expect(
      renderTable(
        ['a', 'n'],
        [
          ['x', 1],
          ['yy', 10],
        ],
      ),
    ).toBe('a    n\n--  --\nx    1\nyy  10');
  });
});
