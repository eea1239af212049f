// `gltf-legacy extract`: every entry of a container written under its path, decompressed;
// escaping paths refused, duplicate paths both kept, sizes bounded, nothing clobbered.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ContainerEntry, distinctPaths, FormatError, type LegacyFormat } from '@gltf-legacy/core';
import { legacyFormat as urho3d, createPak, extractPak, readPak, writePak } from '@gltf-legacy/urho3d';
import { beforeEach, describe, expect, it } from 'vitest';
import { extractArchive, main } from '../src/index.js';
import { zeroBombPak } from './bomb.js';

const corpus = resolve(import.meta.dirname, '../../..', process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
const enc = (s: string) => new TextEncoder().encode(s);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-extract-'));
});

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    ['node', 'gltf-legacy', ...args],
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    [urho3d],
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A package whose entries have exactly these (possibly hostile or repeated) names. */
function pakWithNames(entries: [string, string][], compress = false): Uint8Array {
  const pak = createPak(new Map(entries.map(([, text], i) => [`e${i}`, enc(text)])), { compress });
  pak.entries.forEach((e, i) => {
    e.name = entries[i][0];
  });
  return writePak(pak);
}

/** Every file below `root`, relative, `/`-separated, sorted. */
function tree(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile())
    .map((d) =>
      join(d.parentPath, d.name)
        .slice(root.length + 1)
        .replace(/\\/g, '/'),
    )
    .sort();
}

describe('distinctPaths', () => {
  it('keeps the first of a path, numbers the others before the extension, case-insensitively', () => {
    expect(distinctPaths(['a/x.bmp', 'A/X.bmp', 'b.tga', 'a/x.bmp', 'a/x~2.bmp', 'noext', 'noext'])).toEqual([
      'a/x.bmp',
      'A/X~3.bmp', // a/x~2.bmp is taken by a later entry's own path
      'b.tga',
      'a/x~4.bmp',
      'a/x~2.bmp',
      'noext',
      'noext~2',
    ]);
  });
});

describe('extract', () => {
  it.each(['CoreData_299299.pak', 'Data_299299.pak'])(
    'writes every entry of the corpus %s byte for byte',
    async (name) => {
      const path = join(corpus, 'urho', name);
      const expected = extractPak(readPak(readFileSync(path), name), name);
      const r = await run(['extract', path, '--out-dir', join(dir, 'out')]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain(`${expected.size} of ${expected.size} entries written`);
      expect(tree(join(dir, 'out'))).toEqual([...expected.keys()].sort());
      for (const [entry, bytes] of expected)
        expect(readFileSync(join(dir, 'out', entry)).equals(bytes), entry).toBe(true);
    },
  );

  it('refuses absolute, climbing and NUL paths (PATH_ESCAPE) and writes the rest', async () => {
    const pak = join(dir, 'evil.pak');
    writeFileSync(
      pak,
      pakWithNames([
        ['../escape.txt', 'x'],
        ['/etc/abs.txt', 'x'],
        ['C:\\win.txt', 'x'],
        ['a/../../up.txt', 'x'],
        ['Models/ok.txt', 'fine'],
        ['a/../inside.txt', 'inside'],
      ]),
    );
    const out = join(dir, 'deep', 'out');
    const r = await run(['extract', pak, '--out-dir', out]);
    expect(r.code).toBe(1);
    expect(r.err.match(/error PATH_ESCAPE/g)).toHaveLength(4);
    expect(tree(join(dir, 'deep'))).toEqual(['out/Models/ok.txt', 'out/inside.txt']);
    expect(readFileSync(join(out, 'inside.txt'), 'utf8')).toBe('inside');
    expect(existsSync(join(dir, 'deep', 'escape.txt'))).toBe(false);
    expect(existsSync(join(dir, 'up.txt'))).toBe(false);
  });

  it('keeps two entries with one path (NAME~2.EXT) and says so', async () => {
    const pak = join(dir, 'dup.pak');
    writeFileSync(
      pak,
      pakWithNames(
        [
          ['Textures/a.png', 'first'],
          ['textures\\A.PNG', 'second'],
          ['Textures/a.png', 'third'],
        ],
        true,
      ),
    );
    const r = await run(['extract', pak, '--out-dir', join(dir, 'out')]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('written as textures/A~2.PNG (another entry has the path textures/A.PNG)');
    const report = await extractArchive(pak, { outDir: join(dir, 'again'), formats: [urho3d] });
    expect(report.entries.map((e) => [e.written, e.renamedFrom])).toEqual([
      ['Textures/a.png', undefined],
      ['textures/A~2.PNG', 'textures/A.PNG'],
      ['Textures/a~3.png', 'Textures/a.png'],
    ]);
    const files = tree(join(dir, 'again'));
    expect(files).toHaveLength(3);
    const texts = files.map((f) => readFileSync(join(dir, 'again', f), 'utf8')).sort();
    expect(texts).toEqual(['first', 'second', 'third']);
  });

  it('bounds unpacked sizes like .pak (--max-unpacked) before decompressing', async () => {
    const pak = join(dir, 'bomb.pak');
    writeFileSync(pak, zeroBombPak('Models/Big.mdl', 512)); // 16 MiB claimed
    const small = await run(['extract', pak, '--out-dir', join(dir, 'out'), '--max-unpacked', '8M']);
    expect(small.code).toBe(1);
    expect(small.err).toContain('error UNPACKED_TOO_LARGE');
    expect(existsSync(join(dir, 'out'))).toBe(false);
    const big = await run(['extract', pak, '--out-dir', join(dir, 'out'), '--max-unpacked', '16M']);
    expect(big.code, big.err).toBe(0);
    const bytes = readFileSync(join(dir, 'out', 'Models', 'Big.mdl'));
    expect(bytes.equals(Buffer.alloc(16 << 20))).toBe(true);
  });

  it('never overwrites without --force; --force replaces', async () => {
    const pak = join(dir, 'p.pak');
    writeFileSync(pak, pakWithNames([['a.txt', 'new']]));
    writeFileSync(join(dir, 'a.txt'), 'old');
    const r = await run(['extract', pak, '--out-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('error OUTPUT_EXISTS');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('old');
    expect((await run(['extract', pak, '--out-dir', dir, '--force'])).code).toBe(0);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('new');
  });

  it('lists without writing, names damaged tables and non-archives', async () => {
    const pak = join(dir, 'p.pak');
    writeFileSync(pak, pakWithNames([['Models/x.mdl', 'abc']], true));
    const list = await run(['extract', pak, '--list']);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/Models\/x\.mdl\s+3\s+\d+\s+lz4/);
    expect(readdirSync(dir)).toEqual(['p.pak']);
    const truncated = join(dir, 't.pak');
    writeFileSync(truncated, readFileSync(pak).subarray(0, 14));
    const t = await run(['extract', truncated, '--out-dir', join(dir, 'o')]);
    expect(t.code).toBe(1);
    expect(t.err).toMatch(/error COUNT_TOO_LARGE: t\.pak, offset 8 \(0x8\), field fileCount/);
    const txt = join(dir, 'notes.txt');
    writeFileSync(txt, 'hello');
    const n = await run(['extract', txt, '--out-dir', join(dir, 'o')]);
    expect(n.err).toContain('error NOT_A_CONTAINER');
    const u = await run(['extract', pak]);
    expect(u.code).toBe(2);
  });

  it('refuses a NUL in a path and reports an entry that fails to decompress; writes the others', async () => {
    const entry = (path: string, read: () => Uint8Array): ContainerEntry => ({
      path,
      size: 2,
      packedSize: 2,
      offset: 0,
      compression: 'none',
      read,
    });
    const box: LegacyFormat = {
      ...urho3d,
      id: 'box',
      extensions: ['.box'],
      sniff: (b) => b[0] === 0x42,
      entries: () => [
        entry('nul\u0000.txt', () => enc('no')),
        entry('bad.bin', () => {
          throw new FormatError('bad block', {
            code: 'BAD_LZ4',
            file: 'x.box',
            offset: 7,
            field: 'entries[1]',
          });
        }),
        entry('good.bin', () => enc('ok')),
      ],
    };
    const path = join(dir, 'x.box');
    writeFileSync(path, 'B');
    const report = await extractArchive(path, { outDir: join(dir, 'out'), formats: [box] });
    expect(report.entries.map((e) => e.error?.code)).toEqual(['PATH_ESCAPE', 'BAD_LZ4', undefined]);
    expect(report.entries[1].error).toMatchObject({ file: 'x.box', offset: 7, field: 'entries[1]' });
    expect(tree(join(dir, 'out'))).toEqual(['good.bin']);
  });
});
