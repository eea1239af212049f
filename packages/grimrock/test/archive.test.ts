/**
 * The three real GRA2 mod archives (`archives/grimrock/LNR`, see its SOURCES.md): the table, every
 * entry unpacked byte-equal to node's zlib, paths recovered and each checked against its hash,
 * unnamed entries listed by hash and kind, and the Fetch Quest model converted, textured, from
 * the archive alone.
 */
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { MemoryResources } from '@gltf-legacy/core';
import { decodeTexture, fromGltfImage } from '@gltf-legacy/textures';
import {
  corpusRoot,
  firstByteDiff,
  readBytes,
  TEST_ASSETS,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import {
  archiveFiles,
  grimrockArchiveFiles,
  inspectGrimrock,
  legacyFormat,
  readDat,
  readGrimrockArchive,
  unnamedPath,
  useNativeZlib,
  writeDat,
} from '../src/index.js';

const DIR = join(corpusRoot(), 'archives/grimrock/LNR');

/** FNV-1a 32 written out here, independent of the package's. */
function fnv(path: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(path, 'utf8')) h = Number((BigInt(h ^ b) * 0x01000193n) & 0xffffffffn);
  return h;
}

// entries, named: what the archives hold (SOURCES.md counts) and what recovery finds in them
const ARCHIVES = [
  { file: 'Fetch Quest.dat', entries: 18, named: 16, models: 1 },
  { file: 'IO Dungeon 1.dat', entries: 31, named: 29, models: 2 },
  { file: 'LNR Script Framework Alpha Test.dat', entries: 40, named: 25, models: 0 },
];

describe.each(ARCHIVES)('$file', ({ file, entries, named, models }) => {
  const bytes = readBytes(join(DIR, file));
  const archive = readGrimrockArchive(bytes, file);

  it('reads the table and unpacks every entry to the bytes node:zlib gives', () => {
    expect(archive.layout).toBe('GRA2');
    expect(archive.entries).toHaveLength(entries);
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    for (const e of archive.entries) {
      expect(e.data?.length).toBe(e.size);
      const expected =
        e.storage === 'zlib'
          ? inflateSync(bytes.subarray(e.offset + 4, e.offset + e.compressedSize))
          : bytes.subarray(e.offset, e.offset + e.size);
      expect(dv.getUint32(8 + e.index * 20, true)).toBe(e.hash);
      expect(firstByteDiff(e.data!, new Uint8Array(expected))).toBe(-1);
    }
    expect(archive.entries.filter((e) => e.kind === 'model')).toHaveLength(models);
  });

  it("the browser's path (fflate) unpacks the same bytes as the native one", () => {
    useNativeZlib(false);
    try {
      const js = readGrimrockArchive(bytes, file);
      for (const e of archive.entries)
        expect(firstByteDiff(js.entries[e.index].data!, e.data!), e.path ?? e.hash).toBe(-1);
    } finally {
      useNativeZlib(true);
    }
  });

  it(`recovers ${named} paths, each hashing to its entry`, () => {
    const withPath = archive.entries.filter((e) => e.path);
    expect(withPath).toHaveLength(named);
    for (const e of withPath) expect(fnv(e.path!), e.path).toBe(e.hash);
    // no entry named twice, and unnamed ones keep hash and kind
    expect(new Set(withPath.map((e) => e.path)).size).toBe(named);
    for (const e of archive.entries.filter((x) => !x.path)) expect(e.kind).not.toBe('encrypted');
  });

  it('unpacks to a file set under recovered paths, unnamed as unnamed/<hash>.<kind>', () => {
    const files = grimrockArchiveFiles(bytes, file);
    expect(files.size).toBe(entries);
    for (const e of archive.entries) {
      const path = e.path ?? unnamedPath(e);
      expect(files.get(path)?.length, path).toBe(e.size);
    }
  });

  it('as a file model, is written back byte for byte (writeDat(readDat(x)) = x)', () => {
    expect(firstByteDiff(writeDat(readDat(bytes, file)), bytes)).toBe(-1);
  });

  it('reads the mod info of entry 0', () => {
    expect(archive.entries[0].kind).toBe('modinfo');
    expect(archive.modInfo?.name).toBe(file.replace(/\.dat$/, ''));
    expect(archive.modInfo?.dungeonFolder).toBe('mod_assets/scripts');
    expect(archive.modInfo?.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('inspect lists every entry: hash, path or unnamed, kind, sizes, storage', () => {
    const [facts, table] = inspectGrimrock(new Map([[file, bytes]]));
    expect(facts.facts).toMatchObject({ layout: 'GRA2', entries, named, unnamed: entries - named });
    expect(table.rows).toHaveLength(entries);
    for (const [row, e] of table.rows!.map((r, i) => [r, archive.entries[i]] as const)) {
      expect(row.slice(0, 7)).toEqual([
        e.index,
        e.hash.toString(16).padStart(8, '0'),
        e.path ?? 'unnamed',
        e.kind,
        e.compressedSize || e.size,
        e.size,
        e.storage,
      ]);
    }
  });
});

describe('names recovered from what the archives hold', () => {
  const read = (f: string) => readGrimrockArchive(readBytes(join(DIR, f)), f);
  const paths = (f: string) => new Map(read(f).entries.map((e) => [e.index, e.path]));

  it('keeps the case the script writes (the hash is case-sensitive)', () => {
    expect(paths('LNR Script Framework Alpha Test.dat').get(1)).toBe('mod_assets/lnr/ClassMasterFile.lua');
    expect(fnv('mod_assets/lnr/classmasterfile.lua')).not.toBe(0xbd719c35);
  });

  it('applies the renamings .fbx → .model, .tga → .dds and joins folders with module names', () => {
    const fq = paths('Fetch Quest.dat');
    expect(fq.get(12)).toBe('mod_assets/grim_bed/models/env/grim_bed.model'); // "…grim_bed.fbx" in init.lua
    expect(fq.get(13)).toBe('mod_assets/grim_bed/textures/env/grim_bed_dif.dds');
    expect(fq.get(14)).toBe('mod_assets/grim_bed/textures/env/grim_bed_dif1.dds'); // a comment's bare name
    const io = paths('IO Dungeon 1.dat');
    expect(io.get(15)).toBe('mod_assets/framework/modules/timers.lua'); // import(dir..name..'.lua')
    expect(io.get(1)).toBe('mod_assets/framework/framework.lua'); // "framework/framework.lua"
  });

  it('lists what stays unnamed by hash and sniffed kind', () => {
    const lnr = read('LNR Script Framework Alpha Test.dat');
    const unnamed = lnr.entries.filter((e) => !e.path);
    expect(unnamed.map((e) => e.kind)).toEqual(['modinfo', ...new Array(14).fill('dds')]);
    expect(unnamedPath(unnamed[1])).toBe('unnamed/66c1b7a4.dds');
  });
});

describe('Fetch Quest.dat converts from the archive alone', () => {
  it('grim_bed.model with its defineMaterial textures from inside the archive', async () => {
    const file = 'Fetch Quest.dat';
    const files = legacyFormat.unpack!(readBytes(join(DIR, file)), file);
    const path = 'mod_assets/grim_bed/models/env/grim_bed.model';
    const { document, warnings } = await legacyFormat.import(
      new Map([['grim_bed.model', files.get(path)!]]),
      {
        main: 'grim_bed.model',
        resources: new MemoryResources(files, file),
        resourcePath: path,
      },
    );
    expect(warnings.map((w) => w.code)).toEqual([]);
    const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
    const glb = await io.writeBinary(document);
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    const material = (await io.readBinary(glb)).getRoot().listMaterials()[0];
    expect(material.getName()).toBe('grim_bed');
    const texture = material.getBaseColorTexture()!;
    const dds = files.get('mod_assets/grim_bed/textures/env/grim_bed_dif.dds')!;
    const expected = decodeTexture(dds, 'grim_bed_dif.dds');
    const got = fromGltfImage(texture.getImage()!, texture.getMimeType());
    expect([got.width, got.height]).toEqual([expected.width, expected.height]);
    expect(firstByteDiff(got.data, expected.data)).toBe(-1);
    expect(material.getNormalTexture()).not.toBeNull();
  }, 60_000);
});

it('archiveFiles keeps two entries of one path (the later as unnamed/<hash>~<index>)', () => {
  const file = 'Fetch Quest.dat';
  const a = readGrimrockArchive(readBytes(join(DIR, file)), file);
  a.entries[5].path = a.entries[4].path;
  const files = archiveFiles(a);
  expect(files.size).toBe(18);
  expect(files.has('unnamed/da6d38b3~5.lua')).toBe(true);
});

it('writeDat lays out any readable archive canonically: a fixed point after one trip', () => {
  const file = 'crate_mod.dat';
  const bytes = readBytes(join(TEST_ASSETS, 'grimrock/crate_mod', file));
  expect(firstByteDiff(writeDat(readDat(bytes, file)), bytes)).toBe(-1);
  // the same entries in reverse order on disk, with a gap: read alike, written canonically
  const dat = readDat(bytes, file);
  const table = bytes.slice(0, 8 + 20 * dat.entries.length);
  const parts: Uint8Array[] = [table, new Uint8Array(7)];
  let offset = table.length + 7;
  const dv = new DataView(table.buffer);
  for (let i = dat.entries.length - 1; i >= 0; i--) {
    dv.setUint32(8 + 20 * i + 4, offset, true);
    parts.push(dat.entries[i].stored);
    offset += dat.entries[i].stored.length;
  }
  const shuffled = new Uint8Array(Buffer.concat(parts));
  const again = readDat(shuffled, file);
  expect(again.archive.entries.map((e) => e.path)).toEqual(dat.archive.entries.map((e) => e.path));
  expect(firstByteDiff(writeDat(again), bytes)).toBe(-1);
});
