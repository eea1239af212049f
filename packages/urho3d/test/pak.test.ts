import { basename } from 'node:path';
import { corpusFiles, firstByteDiff, readBytes, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import fc from 'fast-check';
// @ts-expect-error lz4js ships no types; used here only as an independent cross-check.
import * as lz4js from 'lz4js';
import { describe, expect, it } from 'vitest';
import {
  compressPakData,
  createPak,
  extractPak,
  extractPakEntry,
  legacyFormat,
  listPak,
  lz4CompressBlock,
  lz4DecompressBlock,
  readPak,
  sdbmHash,
  writePak,
} from '../src/index.js';

const paks = corpusFiles('urho', ['.pak']);
const byName = (n: string) => paks.find((p) => basename(p) === n)!;

describe('LZ4 block codec', () => {
  it('round-trips random and repetitive data, and lz4js decodes our blocks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 1, max: 40 }), (data, rep) => {
        const src = new Uint8Array(data.length * rep);
        for (let i = 0; i < rep; i++) src.set(data, i * data.length);
        const packed = lz4CompressBlock(src);
        const out = new Uint8Array(src.length);
        expect(lz4DecompressBlock(packed, 0, packed.length, out, 0, out.length)).toBe(src.length);
        expect(firstByteDiff(out, src)).toBe(-1);
        const ref = new Uint8Array(src.length);
        expect(lz4js.decompressBlock(packed, ref, 0, packed.length, 0)).toBe(src.length);
        expect(firstByteDiff(ref, src)).toBe(-1);
      }),
      { numRuns: 60 },
    );
  });
  it('compresses repetitive data', () => {
    const src = new Uint8Array(32768).map((_, i) => i % 7);
    expect(lz4CompressBlock(src).length).toBeLessThan(300);
  });
});

describe('corpus packages', () => {
  it('ULZ4 Data_299299.pak: lists 156 entries and unpacks models with folders', () => {
    const bytes = readBytes(byName('Data_299299.pak'));
    const list = listPak(readPak(bytes));
    expect(list.length).toBe(156);
    const files = legacyFormat.unpack!(bytes, 'Data_299299.pak');
    expect(files.size).toBe(156);
    expect(files.has('Models/rabbit_base.mdl')).toBe(true);
    expect(String.fromCharCode(...files.get('Models/rabbit_base.mdl')!.subarray(0, 4))).toBe('UMD2');
  });

  it('every model inside the packages converts to a valid .glb (as the CLI does with unpack)', async () => {
    let models = 0;
    for (const p of paks) {
      const files = legacyFormat.unpack!(readBytes(p), basename(p));
      const names = [...files.keys()];
      for (const name of names) {
        if (!name.endsWith('.mdl')) continue;
        const set = new Map([[name, files.get(name)!]]);
        for (const c of legacyFormat.companions!(name, names)) set.set(c, files.get(c)!);
        const { document } = await legacyFormat.import(set, { main: name });
        const report = await validateGlb(
          await new NodeIO().registerExtensions(legacyFormat.gltfExtensions).writeBinary(document),
        );
        expect(report.issues.numErrors, `${name}: ${validatorErrors(report)}`).toBe(0);
        models++;
      }
    }
    expect(models).toBe(20);
  });

  it('LZ4 re-compression does not reproduce PackageTool bytes; unchanged entries keep their original blocks', () => {
    // PackageTool uses LZ4_compress_HC (an optimal-parsing matcher); our greedy encoder makes valid
    // but different blocks, so byte-identical rewriting reuses the stored blocks of unchanged entries.
    const bytes = readBytes(byName('CoreData_299299.pak'));
    const pak = readPak(bytes);
    const files = extractPak(pak);
    const big = pak.entries.find((e) => e.size > 4096)!;
    expect(firstByteDiff(compressPakData(files.get(big.name)!), big.stored)).not.toBe(-1);
    const rebuilt = writePak(createPak(files, { compress: true, reuse: pak }));
    expect(firstByteDiff(rebuilt, bytes)).toBe(-1);
    // A changed entry is recompressed; the others stay byte-identical and the package reads back.
    const changed = new Map(files);
    changed.set(big.name, new Uint8Array(5000).fill(65));
    const repak = readPak(writePak(createPak(changed, { compress: true, reuse: pak })));
    expect(extractPakEntry(repak, big.name)).toEqual(new Uint8Array(5000).fill(65));
    const other = pak.entries.find((e) => e !== big)!;
    expect(firstByteDiff(repak.entries.find((e) => e.name === other.name)!.stored, other.stored)).toBe(-1);
  });

  it('UPAK CoreData_xamarin.pak: createPak without compression rebuilds the same bytes', () => {
    const bytes = readBytes(byName('CoreData_xamarin.pak'));
    const files = extractPak(readPak(bytes));
    expect(firstByteDiff(writePak(createPak(files)), bytes)).toBe(-1);
  });

  it('createPak → writePak → readPak round-trips random file sets (both kinds) with checksums', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.tuple(
            fc.stringMatching(/^[A-Za-z][A-Za-z0-9_/]{0,12}\.[a-z]{3}$/),
            fc.uint8Array({ minLength: 1, maxLength: 70000 }),
          ),
          {
            selector: (t) => t[0],
            maxLength: 5,
          },
        ),
        fc.boolean(),
        (entries, compress) => {
          const files = new Map(entries);
          const bytes = writePak(createPak(files, { compress }));
          const pak = readPak(bytes);
          expect(pak.trailer).toBe(bytes.length);
          for (const [name, data] of files) {
            const e = pak.entries.find((x) => x.name === name)!;
            expect(e.checksum).toBe(sdbmHash(data));
            expect(firstByteDiff(extractPakEntry(pak, e), data)).toBe(-1);
          }
          expect(firstByteDiff(writePak(pak), bytes)).toBe(-1);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a package appended to another file is found through its trailer and rewritten as is', () => {
    const bytes = readBytes(byName('CoreData_299299.pak'));
    const exe = new Uint8Array(1000 + bytes.length);
    exe.fill(0x90, 0, 1000);
    exe.set(bytes, 1000);
    const pak = readPak(exe);
    expect(pak.prefix.length).toBe(1000);
    expect(pak.entries.length).toBe(207);
    expect(firstByteDiff(writePak(pak), exe)).toBe(-1);
  });
});

describe('pak names that are not UTF-8', () => {
  it('are written back as the stored bytes', () => {
    const bytes = writePak(createPak(new Map([['Models/a.mdl', new Uint8Array([1, 2, 3])]])));
    const at = bytes.indexOf(0x61); // the "a" of the name
    bytes[at] = 0xff;
    const pak = readPak(bytes);
    const again = writePak(pak);
    expect(firstByteDiff(again, bytes)).toBe(-1);
    expect(readPak(again).entries[0].name).toBe(pak.entries[0].name);
  });
});
