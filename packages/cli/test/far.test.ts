// TSO FAR archives through the CLI: convert (every appearance and lone mesh inside), inspect
// (the entry table) and extract (every entry decompressed, byte for byte), on an archive our
// writer makes in the test from the corpus' loose FreeSO outfit files.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusRoot, hasCorpus } from '@gltf-legacy/test-utils';
import { createFar3, parseContentName, readFar3, readFar3Entry, writeFar3 } from '@gltf-legacy/tso';
import { describe, expect, it } from 'vitest';
import type { BatchReport } from '../src/index.js';
import { runCli } from './run-cli.js';

const AVATAR = 'textured/tso/FreeSO/TSOClient/FSO.Content.TSO/Content/Avatar';

const run = runCli;

describe.skipIf(!hasCorpus(AVATAR))('FAR archives in the CLI', () => {
  const avatar = join(corpusRoot(), AVATAR);
  const loose = new Map<string, Uint8Array>();
  for (const folder of ['Appearances', 'Bindings', 'Meshes', 'Textures'])
    for (const name of readdirSync(join(avatar, folder)).sort())
      loose.set(name, new Uint8Array(readFileSync(join(avatar, folder, name))));
  /** A FAR3 archive of the loose files whose names `keep` accepts, named and id'd as the loose ones. */
  const farOf = (keep: (name: string) => boolean, compression?: 'refpack') =>
    writeFar3(
      createFar3(
        [...loose]
          .filter(([name]) => keep(name))
          .map(([name, data]) => {
            const id = parseContentName(name)!;
            return {
              name: `${id.name}${name.slice(name.lastIndexOf('.'))}`,
              typeId: id.typeId,
              fileId: id.fileId,
              data,
            };
          }),
        compression ? { compression } : undefined,
      ),
    );
  const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-far-cli-'));
  const archive = join(dir, 'avatar.dat');
  writeFileSync(
    archive,
    farOf(() => true, 'refpack'),
  );

  it('convert: every appearance and the lone mesh of the archive, each to a .glb', async () => {
    const r = await run(['convert', archive, '--out-dir', join(dir, 'out'), '--jobs', '0']);
    expect(r.code, r.err).toBe(0);
    const outputs = readdirSync(join(dir, 'out', 'avatar')).sort();
    expect(outputs.filter((n) => n.endsWith('.glb'))).toHaveLength(8);
    expect(outputs).toContain('woodaxe.5d34f33e0000000c.glb');
    expect(outputs).toContain('fso-heart-mark.4ca65c6500000009.glb');
    const glb = readFileSync(join(dir, 'out', 'avatar', 'woodaxe.5d34f33e0000000c.glb'));
    const json = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString());
    expect(json.images).toHaveLength(1); // the texture, found by id inside the archive
    expect(json.meshes).toHaveLength(1);
  });

  it('inspect lists the entries: type, id, name, sizes, compression', async () => {
    const r = await run(['inspect', archive, '--json']);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out);
    const table = report.sections.find((s: { title: string }) => s.title === 'avatar.dat: FAR 3 archive');
    expect(table.facts.entries).toBe(loose.size);
    expect(table.columns).toEqual(['type', 'kind', 'file id', 'name', 'size', 'stored', 'compression']);
    expect(table.rows).toContainEqual([
      '00000009',
      'mesh',
      'f5c2c184',
      'woodaxe.mesh',
      loose.get('woodaxe.f5c2c18400000009.mesh')!.length,
      expect.any(Number),
      'refpack',
    ]);
  });

  it('extract writes every entry decompressed, byte for byte', async () => {
    const r = await run(['extract', archive, '--out-dir', join(dir, 'x')]);
    expect(r.code, r.err).toBe(0);
    const written = readdirSync(join(dir, 'x')).sort();
    expect(written).toHaveLength(loose.size);
    for (const [name, bytes] of loose) {
      const id = parseContentName(name)!;
      const file = `${id.name}${name.slice(name.lastIndexOf('.'))}`;
      if (
        written.includes(file) &&
        !name.startsWith('fso_flipflops_1') &&
        !name.startsWith('fso-heart-mark.')
      )
        expect(readFileSync(join(dir, 'x', file)).equals(bytes), name).toBe(true);
    }
    // two appearances (and two of each part) of fso_flipflops_1 share a name: both kept
    expect(written.filter((n) => n.startsWith('fso_flipflops_1'))).toEqual([
      'fso_flipflops_1.apr',
      'fso_flipflops_1.bnd',
      'fso_flipflops_1.mesh',
      'fso_flipflops_1.png',
      'fso_flipflops_1~2.apr',
      'fso_flipflops_1~2.bnd',
      'fso_flipflops_1~2.mesh',
      'fso_flipflops_1~2.png',
    ]);
    expect(r.out.match(/written as/g)).toHaveLength(5); // 4 flip-flop parts + a heart-mark mesh
  });

  it("--far refpack: an outfit exported to TSO is one FAR3 archive holding the game's files byte for byte", async () => {
    const apr = join(avatar, 'Appearances', 'woodaxe.5d34f33e0000000c.apr');
    const glb = join(dir, 'axe.glb');
    expect((await run(['convert', apr, '-o', glb, '--jobs', '0'])).code).toBe(0);
    const r = await run([
      'convert',
      glb,
      '--to',
      'tso',
      '--far',
      'refpack',
      '-o',
      join(dir, 'axe', 'woodaxe.apr'),
      '--jobs',
      '0',
    ]);
    expect(r.code, r.err).toBe(0);
    expect(readdirSync(join(dir, 'axe'))).toEqual(['woodaxe.dat']);
    const far = readFar3(new Uint8Array(readFileSync(join(dir, 'axe', 'woodaxe.dat'))));
    expect(far.entries.map((e) => [e.name, e.typeId, e.fileId, e.dataType]).sort()).toEqual([
      ['woodaxe.apr', 0xc, 0x5d34f33e, 0x80],
      ['woodaxe.bnd', 0xb, 0xe5b85288, 0x80],
      ['woodaxe.mesh', 9, 0xf5c2c184, 0x80],
      ['woodaxe.png', 0x14, 0x606a2d7e, 0x80],
    ]);
    for (const e of far.entries) {
      const original = [...loose].find(([n]) => parseContentName(n)?.fileId === e.fileId)![1];
      expect(Buffer.from(readFar3Entry(far, e)).equals(original), e.name).toBe(true);
    }
    const bad = await run(['convert', glb, '--to', 'tso', '--far', 'zip', '-o', join(dir, 'z', 'w.apr')]);
    expect(bad.code).toBe(2);
  });

  it('a batch over a game folder with the loose files and the archive converts each model once', async () => {
    const game = join(dir, 'game');
    cpSync(avatar, join(game, 'Avatar'), { recursive: true });
    cpSync(archive, join(game, 'Avatar', 'avatar.dat'));
    const report = join(dir, 'game-report.json');
    const r = await run([
      'convert',
      game,
      '--out-dir',
      join(dir, 'game-out'),
      '--jobs',
      '0',
      '--report',
      report,
    ]);
    expect(r.code, r.err).toBe(0);
    const { records } = JSON.parse(readFileSync(report, 'utf8')) as BatchReport;
    const dat = records.find((x) => x.input.endsWith('avatar.dat'))!;
    // the archive's 7 appearances and its lone mesh are loose inputs too: converted from those
    expect(dat.outputs).toEqual([]);
    const skipped = dat.warnings.filter((w) => w.code === 'CONTAINER_ENTRY_LOOSE');
    expect(skipped.reduce((n, w) => n + (w.count ?? 1), 0)).toBe(8);
    expect(existsSync(join(dir, 'game-out', 'Avatar', 'avatar'))).toBe(false);
    const woodaxe = records.find((x) => x.input.endsWith('woodaxe.5d34f33e0000000c.apr'))!;
    expect(woodaxe.outputs).toHaveLength(1);
  });

  const bin = (file: string) => {
    const glb = readFileSync(file);
    return glb.subarray(28 + glb.readUInt32LE(12));
  };

  it('a FAR given alone finds the parts it lacks in the game folder around it (loose, or in other archives)', async () => {
    // the loose conversion of every appearance, for comparison
    const ref = await run([
      'convert',
      join(avatar, 'Appearances'),
      '--out-dir',
      join(dir, 'ref'),
      '--jobs',
      '0',
    ]);
    expect(ref.code, ref.err).toBe(0);
    const apr = [...loose.keys()].filter((n) => n.endsWith('.apr'));
    // (a) the appearances in a FAR, their bindings, meshes and textures loose beside it
    const a = join(dir, 'alone-a', 'Avatar');
    for (const f of ['Bindings', 'Meshes', 'Textures'])
      cpSync(join(avatar, f), join(a, f), { recursive: true });
    writeFileSync(
      join(a, 'appearances.dat'),
      farOf((n) => n.endsWith('.apr')),
    );
    const ra = await run([
      'convert',
      join(a, 'appearances.dat'),
      '--out-dir',
      join(dir, 'out-a'),
      '--jobs',
      '0',
    ]);
    expect(ra.code, ra.err).toBe(0);
    for (const n of apr) {
      const glb = n.replace(/\.apr$/, '.glb');
      expect(bin(join(dir, 'out-a', 'appearances', glb)).equals(bin(join(dir, 'ref', glb))), n).toBe(true);
    }
    // (b) the parts in another FAR, found by id; an unreadable FAR beside them is ARCHIVE_IGNORED
    const b = join(dir, 'alone-b', 'Avatar');
    cpSync(join(a, 'appearances.dat'), join(b, 'appearances.dat'));
    mkdirSync(join(b, 'data'), { recursive: true });
    writeFileSync(
      join(b, 'data', 'parts.dat'),
      farOf((n) => !n.endsWith('.apr')),
    );
    // a FAR3 header whose manifest offset lies past the file
    writeFileSync(
      join(b, 'data', 'broken.dat'),
      Buffer.from('FAR!byAZ\x03\x00\x00\x00\x00\xff\xff\xff', 'latin1'),
    );
    const rb = await run([
      'convert',
      join(b, 'appearances.dat'),
      '--out-dir',
      join(dir, 'out-b'),
      '--jobs',
      '0',
    ]);
    expect(rb.code, rb.err).toBe(0);
    expect(`${rb.out}${rb.err}`).toMatch(/ARCHIVE_IGNORED[^\n]*data\/broken\.dat/);
    for (const n of apr) {
      const glb = n.replace(/\.apr$/, '.glb');
      expect(bin(join(dir, 'out-b', 'appearances', glb)).equals(bin(join(dir, 'ref', glb))), n).toBe(true);
    }
  });
});
