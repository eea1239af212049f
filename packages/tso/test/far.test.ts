// FAR archives: the real FAR3 (RefPack) and FAR1 (1b) archives of the corpus, our writers, and
// the RefPack codec (property tests: fresh seeds in CI).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { decodeTexture } from '@gltf-legacy/textures';
import { describe, expect, it } from 'vitest';
import {
  createFar1,
  createFar3,
  farEntries,
  legacyFormat,
  readFar,
  readFar1,
  readFar3,
  readFar3Entry,
  refpackCompress,
  refpackDecompress,
  refpackHeader,
  storedOffset,
  unpackFar,
  writeFar1,
  writeFar3,
} from '../src/index.js';

const corpus = resolve(import.meta.dirname, '../../..', process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
const archives = resolve(corpus, 'archives/tso');
const u32 = (b: Uint8Array, o: number) =>
  new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(o, true);
const u16 = (b: Uint8Array, o: number) =>
  new DataView(b.buffer, b.byteOffset, b.byteLength).getUint16(o, true);

/**
 * Walks an RLE8 BMP's pixel stream to its end-of-bitmap mark (00 01), which must be the last two
 * bytes, counting no more pixels than width × height; gives the header's size.
 */
function rle8Size(data: Uint8Array): { width: number; height: number } {
  const [width, height] = [u32(data, 18), Math.abs(u32(data, 22) | 0)];
  let p = u32(data, 10);
  let x = 0;
  let y = 0;
  for (;;) {
    if (p + 2 > data.length) throw new Error(`RLE8 stream runs past the data at ${p}`);
    const [a, b] = [data[p], data[p + 1]];
    p += 2;
    if (a > 0) x += a;
    else if (b === 0) [x, y] = [0, y + 1];
    else if (b === 1) break;
    else if (b === 2) [x, y, p] = [x + data[p], y + data[p + 1], p + 2];
    else [x, p] = [x + b, p + b + (b & 1)];
    if (x > width || y > height) throw new Error(`RLE8 stream draws outside ${width}×${height}`);
  }
  expect(p).toBe(data.length);
  return { width, height };
}

const roundTrip = (data: Uint8Array) => {
  const packed = refpackCompress(data);
  const h = refpackHeader(packed);
  expect(h.size).toBe(data.length);
  return { packed, back: refpackDecompress(packed, h.start, h.size) };
};

describe('FAR3: the corpus archives (every entry RefPack)', () => {
  it.each([
    ['cpanel.dat', 59, 0],
    ['personselection.dat', 53, 1],
  ])('%s: %i BMP and %i TGA entries decompress to their stated size', (name, bmps, tgas) => {
    const bytes = new Uint8Array(readFileSync(resolve(archives, 'FreeSO-Bob', name)));
    const far = readFar3(bytes, name);
    expect(far.entries.length).toBe(bmps + tgas);
    let seenBmp = 0;
    let seenTga = 0;
    for (const e of far.entries) {
      expect(e.dataType, e.name).toBe(0x80);
      const data = readFar3Entry(far, e, name);
      expect(data.length, e.name).toBe(e.size);
      // a whole image: the textures package decodes it to its header's width × height (RLE8
      // bitmaps, which it does not read, are walked to their end-of-bitmap mark instead)
      const rle = data[0] === 0x42 && u32(data, 30) === 1;
      const image = rle ? rle8Size(data) : decodeTexture(data, e.name);
      expect(image.width * image.height, e.name).toBeGreaterThan(0);
      if (e.name.toLowerCase().endsWith('.bmp')) {
        expect(String.fromCharCode(data[0], data[1]), e.name).toBe('BM');
        expect(u32(data, 2), e.name).toBe(e.size); // the BMP's own file size field
        expect([image.width, image.height]).toEqual([u32(data, 18), Math.abs(u32(data, 22) | 0)]);
        expect(e.typeId).toBe(1);
        seenBmp++;
      } else {
        expect(e.name.toLowerCase().endsWith('.tga')).toBe(true);
        expect(e.typeId).toBe(2);
        expect([image.width, image.height]).toEqual([u16(data, 12), u16(data, 14)]);
        seenTga++;
      }
    }
    expect([seenBmp, seenTga]).toEqual([bmps, tgas]);
    // the writer lays data out as the archive does: the same bytes back
    expect(Buffer.from(writeFar3(far)).equals(bytes)).toBe(true);
  });

  it('lists entries through legacyFormat.entries with ids, sizes and compression', () => {
    const bytes = new Uint8Array(readFileSync(resolve(archives, 'FreeSO-Bob/cpanel.dat')));
    const entries = legacyFormat.entries!(bytes, 'cpanel.dat')!;
    expect(entries[0]).toMatchObject({
      path: 'actionfaceselection.bmp',
      size: 1480,
      packedSize: 1208,
      offset: 16,
      compression: 'refpack',
      kind: 'bmp',
      ids: { typeId: 1, fileId: 0x1b2 },
    });
    expect(entries[0].read().length).toBe(1480);
    expect(legacyFormat.entries!(new Uint8Array(20), 'x.dat')).toBeUndefined();
  });
});

describe('FAR1', () => {
  const path = resolve(archives, 'Sims.Far/1b.far');

  it('reads the 1b corpus archive (521 .otf XML files) and writes it back byte for byte', () => {
    const bytes = new Uint8Array(readFileSync(path));
    const far = readFar1(bytes, '1b.far');
    expect(far.variant).toBe('1b');
    expect(far.entries.length).toBe(521);
    for (const e of far.entries) {
      expect(e.name.endsWith('.otf'), e.name).toBe(true);
      expect(new TextDecoder().decode(e.data.subarray(0, 5)), e.name).toBe('<OTF>');
      expect(e.size2).toBe(e.size);
    }
    expect(Buffer.from(writeFar1(far)).equals(bytes)).toBe(true);
    expect(readFar(bytes).version).toBe(1);
    expect(farEntries(far).map((e) => e.path)).toEqual(far.entries.map((e) => e.name));
  });

  it('writes and detects the 1a variant (u32 name lengths)', () => {
    const bytes = new Uint8Array(readFileSync(path));
    const far = readFar1(bytes, '1b.far');
    const a = writeFar1({ ...far, variant: '1a' });
    expect(a.length).toBe(bytes.length + 2 * far.entries.length);
    const back = readFar1(a, 'a.far');
    expect(back.variant).toBe('1a');
    expect(back.entries.map((e) => e.name)).toEqual(far.entries.map((e) => e.name));
    expect(back.entries.every((e, i) => Buffer.from(e.data).equals(far.entries[i].data))).toBe(true);
    const made = writeFar1(createFar1([['x/y.iff', new Uint8Array([1, 2, 3])]], '1a'));
    expect(readFar1(made).entries[0]).toMatchObject({ name: 'x/y.iff', size: 3 });
    expect(storedOffset(readFar1(made).entries[0])).toBe(16);
  });
});

describe('FAR3 writer', () => {
  const files = [
    {
      name: 'a.apr',
      typeId: 0xc,
      fileId: 0x5d34f33e,
      data: new TextEncoder().encode('hello hello hello hello!'),
    },
    { name: 'b.mesh', typeId: 9, fileId: 0xf5c2c184, data: new Uint8Array(5000).map((_, i) => (i * 7) % 13) },
    { name: '', typeId: 0x14, fileId: 1, data: new Uint8Array(0) },
  ];

  it.each(['none', 'refpack'] as const)('%s: reads back every entry, id and name', (compression) => {
    const bytes = writeFar3(createFar3(files, { compression }));
    const far = readFar3(bytes, 'made.dat');
    expect(far.entries.map((e) => [e.name, e.typeId, e.fileId, e.size])).toEqual(
      files.map((f) => [f.name, f.typeId, f.fileId, f.data.length]),
    );
    far.entries.forEach((e, i) => {
      expect(Buffer.from(readFar3Entry(far, e)).equals(files[i].data)).toBe(true);
      expect(e.dataType).toBe(compression === 'refpack' ? 0x80 : 0);
    });
    if (compression === 'refpack') expect(far.entries[1].packedSize).toBeLessThan(200);
    expect(Buffer.from(writeFar3(far)).equals(bytes)).toBe(true);
    expect([...unpackFar(bytes).keys()]).toEqual([
      'a.5d34f33e0000000c.apr',
      'b.f5c2c18400000009.mesh',
      '.0000000100000014.png',
    ]);
  });

  it("recompresses the corpus entries to streams FreeSO's layout reads (the 9-byte header, 10 FB, sizes)", () => {
    const bytes = new Uint8Array(readFileSync(resolve(archives, 'FreeSO-Bob/cpanel.dat')));
    const far = readFar3(bytes);
    const data = far.entries.map((e) => ({
      name: e.name,
      typeId: e.typeId,
      fileId: e.fileId,
      data: readFar3Entry(far, e),
    }));
    const ours = readFar3(writeFar3(createFar3(data, { compression: 'refpack' })));
    let theirs = 0;
    let mine = 0;
    ours.entries.forEach((e, i) => {
      const s = e.stored;
      expect([s[0], u32(s, 1), u32(s, 5), u32(s, 9), s[13], s[14]]).toEqual([
        1,
        e.size,
        s.length - 9,
        s.length - 9,
        0x10,
        0xfb,
      ]);
      expect(Buffer.from(readFar3Entry(ours, e)).equals(data[i].data)).toBe(true);
      theirs += far.entries[i].packedSize;
      mine += e.packedSize;
    });
    // a ratio close to the game's own compressor's (ours within 15 % of it)
    expect(mine).toBeLessThan(theirs * 1.15);
  });
});

describe('RefPack codec', () => {
  it('round-trips random and repetitive data (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 1, max: 40 }), (bytes, period) => {
        expect(Buffer.from(roundTrip(bytes).back).equals(bytes)).toBe(true);
        const rep = new Uint8Array(bytes.length * 3).map(
          (_, i) => bytes[(i % period) % Math.max(1, bytes.length)] ?? 0,
        );
        expect(Buffer.from(roundTrip(rep).back).equals(rep)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('uses far copies (128 KiB window, 4-byte commands) and long runs', () => {
    const block = new Uint8Array(20000).map((_, i) => (i * 2654435761) >>> 27);
    const data = new Uint8Array(150000);
    data.set(block, 0);
    data.set(block, 120000); // 120000 back: only the 4-byte command reaches it
    const { packed, back } = roundTrip(data);
    expect(Buffer.from(back).equals(data)).toBe(true);
    expect(packed.length).toBeLessThan(20000 * 0.85 + 3000);
    const zeros = roundTrip(new Uint8Array(1 << 20));
    expect(zeros.packed.length).toBeLessThan(((1 << 20) / 1028) * 4 + 64);
    expect(zeros.back.every((b) => b === 0)).toBe(true);
  });
});
