/**
 * Quirks of real files (issue 18.1), on the hand-made samples of test-assets/tso/quirks (made by
 * its make.mjs from the twobone files): a trailing pad is read with TRAILING_BYTES (file, offset,
 * count) and the same values as the clean file, refused under strict, and comes back byte-exact
 * through a .glb; an index one past the end and a short last frame stay refused (BAD_INDEX).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatError, KeptBytesExtension } from '@gltf-legacy/core';
import { TEST_ASSETS, firstByteDiff, folderResources } from '@gltf-legacy/test-utils';
import { type Document, NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { detectTsoKind, legacyFormat } from '../src/index.js';

const DIR = join(TEST_ASSETS, 'tso');
const file = (name: string) => new Uint8Array(readFileSync(join(DIR, name)));
const io = new NodeIO().registerExtensions([KeptBytesExtension]);

/** The twobone set with `name` (a quirk sample) standing in for the clean file `clean`. */
function set(clean: string, name?: string): Map<string, Uint8Array> {
  const names = ['twobone.mesh', 'twobone.skel', 'twobone-wave.anim'];
  return new Map(names.map((n) => (n === clean && name ? [name, file(`quirks/${name}`)] : [n, file(n)])));
}

function values(doc: Document) {
  const root = doc.getRoot();
  return {
    positions: Array.from(root.listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!.getArray()!),
    translations: root.listNodes().map((n) => [...n.getTranslation()]),
    keys: root
      .listAnimations()
      .flatMap((a) => a.listSamplers().map((s) => Array.from(s.getOutput()!.getArray()!))),
  };
}

const PADS = [
  { clean: 'twobone.mesh', name: 'twobone-pad.mesh', count: 3 },
  { clean: 'twobone.skel', name: 'twobone-pad.skel', count: 2 },
  { clean: 'twobone-wave.anim', name: 'twobone-wave-pad.anim', count: 4 },
];

describe('quirks', () => {
  for (const { clean, name, count } of PADS) {
    const main = name.endsWith('.mesh') ? name : 'twobone.mesh';
    it(`${name}: read with TRAILING_BYTES naming file, offset and count; same values as ${clean}`, async () => {
      const bytes = file(`quirks/${name}`);
      const { document, warnings } = await legacyFormat.import!(set(clean, name), { main });
      const w = warnings.filter((x) => x.code === 'TRAILING_BYTES');
      expect(w.length).toBe(1);
      expect(w[0].message).toContain(`"${name}"`);
      expect(w[0].message).toContain(`${count} bytes`);
      expect(w[0].message).toContain(`offset ${bytes.length - count}`);
      const reference = await legacyFormat.import!(set(clean), { main: 'twobone.mesh' });
      expect(values(document)).toEqual(values(reference.document));
    });

    it(`${name}: strict refuses it (FormatError TRAILING_BYTES at the pad)`, async () => {
      const bytes = file(`quirks/${name}`);
      const error = await legacyFormat.import!(set(clean, name), { main, strict: true }).catch((e) => e);
      expect(error).toBeInstanceOf(FormatError);
      expect(error.code).toBe('TRAILING_BYTES');
      expect(error.file).toBe(name);
      expect(error.offset).toBe(bytes.length - count);
    });

    it(`${name}: legacy → glb → legacy gives the original bytes back`, async () => {
      const { document } = await legacyFormat.import!(set(clean, name), { main });
      const glb = await io.writeBinary(document);
      const back = await io.readBinary(glb);
      const { files } = await legacyFormat.export!(back, { name: 'twobone' });
      const written = name.endsWith('.anim') ? files.get(name) : files.get(`twobone${name.slice(-5)}`);
      expect(written, [...files.keys()].join(', ')).toBeDefined();
      expect(Buffer.compare(Buffer.from(written!), Buffer.from(file(`quirks/${name}`)))).toBe(0);
    });
  }

  it('a padded file is sniffed as TSO by its extension only (the strict layout walk stays exact)', () => {
    for (const { name } of PADS) {
      const bytes = file(`quirks/${name}`);
      expect(legacyFormat.sniff(bytes, name), name).toBe(true);
      expect(detectTsoKind(bytes, name), name).toBeUndefined();
      expect(legacyFormat.sniff(bytes, 'x.bin'), name).toBe(false);
    }
  });

  it('the pad warning survives the round trip: the re-exported file imports with the same warning', async () => {
    const { document } = await legacyFormat.import!(set('twobone.mesh', 'twobone-pad.mesh'), {
      main: 'twobone-pad.mesh',
    });
    const { files } = await legacyFormat.export!(await io.readBinary(await io.writeBinary(document)), {
      name: 'again',
    });
    const again = await legacyFormat.import!(files, { main: 'again.mesh' });
    expect(again.warnings.filter((w) => w.code === 'TRAILING_BYTES').map((w) => w.count)).toEqual([1]);
  });

  for (const [clean, name, field] of [
    ['twobone.mesh', 'twobone-index-past-end.mesh', 'indices[0]'],
    ['twobone-wave.anim', 'twobone-wave-short.anim', undefined],
  ] as const) {
    it(`${name}: refused with BAD_INDEX, strict or not (FreeSO would index past its arrays)`, async () => {
      const main = name;
      for (const strict of [false, true]) {
        const error = await legacyFormat.import!(set(clean, name), { main, strict }).catch((e) => e);
        expect(error).toBeInstanceOf(FormatError);
        expect(error.code).toBe('BAD_INDEX');
        expect(error.file).toBe(name);
        if (field) expect(error.field).toBe(field);
      }
    });
  }

  describe('outfit-pad: the hand-made outfit with its .apr, .bnd and .mesh padded', () => {
    const OUTFIT = join(DIR, 'quirks', 'outfit-pad');
    const APR = 'Appearances/hand-cube.00c0be040000000c.apr';
    const importApr = (strict?: boolean) =>
      legacyFormat.import!(new Map([['hand-cube.00c0be040000000c.apr', file(`quirks/outfit-pad/${APR}`)]]), {
        main: 'hand-cube.00c0be040000000c.apr',
        resources: folderResources(OUTFIT),
        resourcePath: APR,
        strict,
      });

    it('reads with one TRAILING_BYTES per padded file, names them; strict refuses the .apr', async () => {
      const { warnings } = await importApr();
      const pads = warnings.filter((w) => w.code === 'TRAILING_BYTES').map((w) => w.message);
      expect(pads.length).toBe(3);
      expect(pads.some((m) => m.includes(APR) && m.includes('2 bytes'))).toBe(true);
      expect(
        pads.some((m) => m.includes('Bindings/hand-cube.00c0be030000000b.bnd') && m.includes('1 byte ')),
      ).toBe(true);
      expect(
        pads.some((m) => m.includes('Meshes/hand-cube.00c0be0100000009.mesh') && m.includes('5 bytes')),
      ).toBe(true);
      const error = await importApr(true).catch((e) => e);
      expect(error).toBeInstanceOf(FormatError);
      expect(error.code).toBe('TRAILING_BYTES');
      expect(error.file).toBe(APR);
    });

    it('outfit → glb → outfit gives the four padded files back byte-identical', async () => {
      const { document } = await importApr();
      const back = await io.readBinary(await io.writeBinary(document));
      const { files } = await legacyFormat.export!(back, { name: 'cube' });
      expect([...files.keys()].sort()).toEqual([
        APR,
        'Bindings/hand-cube.00c0be030000000b.bnd',
        'Meshes/hand-cube.00c0be0100000009.mesh',
        'Textures/hand-cube.00c0be0200000014.bmp',
      ]);
      for (const [path, bytes] of files)
        expect(firstByteDiff(bytes, file(`quirks/outfit-pad/${path}`)), path).toBe(-1);
    });
  });
});
