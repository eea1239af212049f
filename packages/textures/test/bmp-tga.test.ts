import { FormatError } from '@gltf-legacy/core';
import { describe, expect, it } from 'vitest';
import { decodeBmp, decodeTexture, decodeTga, encodeBmp, encodeTga, sniffTexture } from '../src/index.js';

/** A BMP with a 40-byte header; `rows` are the file's rows in file order, already padded. */
function bmp(
  width: number,
  height: number,
  bpp: number,
  rows: number[][],
  palette: number[][] = [],
): Uint8Array {
  const pal = palette.flatMap(([r, g, b]) => [b!, g!, r!, 0]);
  const pixels = rows.flat();
  const offset = 54 + pal.length;
  const out = new Uint8Array(offset + pixels.length);
  const v = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  v.setUint32(2, out.length, true);
  v.setUint32(10, offset, true);
  v.setUint32(14, 40, true);
  v.setInt32(18, width, true);
  v.setInt32(22, height, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, bpp, true);
  v.setUint32(46, palette.length, true);
  out.set(pal, 54);
  out.set(pixels, offset);
  return out;
}

const rgba = (img: { data: Uint8Array }, i: number) => [...img.data.subarray(i * 4, i * 4 + 4)];

describe('BMP read', () => {
  it('8-bit paletted, bottom-up: pixel = palette[index], last file row is the top', () => {
    const palette = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
    ];
    // 3×2, rows padded to 4 bytes; file row 0 is the bottom row
    const file = bmp(
      3,
      2,
      8,
      [
        [2, 2, 2, 0],
        [0, 1, 2, 0],
      ],
      palette,
    );
    const img = decodeBmp(file, 'p.bmp');
    expect(rgba(img, 0)).toEqual([255, 0, 0, 255]); // top-left = index 0
    expect(rgba(img, 1)).toEqual([0, 255, 0, 255]);
    expect(rgba(img, 3)).toEqual([0, 0, 255, 255]); // bottom-left = index 2
  });
  it('24-bit top-down (negative height) keeps the file order', () => {
    const file = bmp(1, -2 as number, 24, [
      [1, 2, 3, 0],
      [4, 5, 6, 0],
    ]);
    const img = decodeBmp(file);
    expect([img.width, img.height]).toEqual([1, 2]);
    expect(rgba(img, 0)).toEqual([3, 2, 1, 255]);
    expect(rgba(img, 1)).toEqual([6, 5, 4, 255]);
  });
  it('32-bit BI_RGB: all-zero fourth bytes are opaque, otherwise alpha', () => {
    expect(rgba(decodeBmp(bmp(1, 1, 32, [[10, 20, 30, 0]])), 0)).toEqual([30, 20, 10, 255]);
    const two = decodeBmp(bmp(2, 1, 32, [[10, 20, 30, 0, 1, 2, 3, 128]]));
    expect(rgba(two, 0)).toEqual([30, 20, 10, 0]);
    expect(rgba(two, 1)).toEqual([3, 2, 1, 128]);
  });
  it('our 32-bit BMP carries alpha in a V4 header and reads back', () => {
    const img = {
      width: 2,
      height: 2,
      data: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]),
    };
    const bytes = encodeBmp(img);
    expect(bytes[14]).toBe(108);
    expect([...decodeBmp(bytes).data]).toEqual([...img.data]);
    expect(sniffTexture(bytes)).toBe('bmp');
  });
  it('a BMP claiming more rows than it holds is TRUNCATED naming the pixels', () => {
    const file = bmp(100, 100, 24, [[1, 2, 3, 0]]);
    try {
      decodeBmp(file, 'short.bmp');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      expect((e as FormatError).field).toBe('pixels');
      expect((e as FormatError).code).toBe('TRUNCATED');
    }
  });
  it('RLE8 BMPs are refused as unsupported', () => {
    const file = bmp(1, 1, 8, [[0, 0, 0, 0]], [[1, 1, 1]]);
    new DataView(file.buffer).setUint32(30, 1, true);
    expect(() => decodeBmp(file)).toThrow(/compression 1/);
  });
});

function tga(
  type: number,
  width: number,
  height: number,
  depth: number,
  descriptor: number,
  body: number[],
  map?: number[][],
): Uint8Array {
  const h = [
    0,
    map ? 1 : 0,
    type,
    0,
    0,
    map?.length ?? 0,
    0,
    map ? 24 : 0,
    0,
    0,
    0,
    0,
    width,
    0,
    height,
    0,
    depth,
    descriptor,
  ];
  return Uint8Array.from([...h, ...(map ?? []).flatMap(([r, g, b]) => [b!, g!, r!]), ...body]);
}

describe('TGA read', () => {
  it('24-bit raw, bottom-left origin: the first file row is the bottom', () => {
    const img = decodeTga(tga(2, 1, 2, 24, 0, [1, 2, 3, 4, 5, 6]));
    expect(rgba(img, 0)).toEqual([6, 5, 4, 255]);
    expect(rgba(img, 1)).toEqual([3, 2, 1, 255]);
  });
  it('32-bit RLE, top-left origin (bit 5) and right-to-left (bit 4)', () => {
    // 2×1: one run packet of 2 pixels of BGRA (1,2,3,4); then descriptor right-to-left
    const run = decodeTga(tga(10, 2, 1, 32, 0x28, [0x81, 1, 2, 3, 4]));
    expect(rgba(run, 0)).toEqual([3, 2, 1, 4]);
    expect(rgba(run, 1)).toEqual([3, 2, 1, 4]);
    const rtl = decodeTga(tga(10, 2, 1, 32, 0x38, [0x01, 1, 2, 3, 4, 5, 6, 7, 8]));
    expect(rgba(rtl, 0)).toEqual([7, 6, 5, 8]);
    expect(rgba(rtl, 1)).toEqual([3, 2, 1, 4]);
  });
  it('8-bit grey and 8-bit colour-mapped', () => {
    expect(rgba(decodeTga(tga(3, 1, 1, 8, 0x20, [77])), 0)).toEqual([77, 77, 77, 255]);
    const mapped = decodeTga(
      tga(
        1,
        2,
        1,
        8,
        0x20,
        [1, 0],
        [
          [10, 20, 30],
          [40, 50, 60],
        ],
      ),
    );
    expect(rgba(mapped, 0)).toEqual([40, 50, 60, 255]);
    expect(rgba(mapped, 1)).toEqual([10, 20, 30, 255]);
  });
  it('truncated RLE is a FormatError at the offset where it ran out', () => {
    const bytes = tga(10, 4, 1, 24, 0, [0x81, 1, 2, 3]); // 2 of 4 pixels
    try {
      decodeTga(bytes, 'cut.tga');
      expect.unreachable();
    } catch (e) {
      expect((e as FormatError).code).toBe('TRUNCATED');
      expect((e as FormatError).offset).toBe(22);
      expect((e as FormatError).file).toBe('cut.tga');
    }
  });
  it('a 65535×65535 TGA in 18 bytes is refused before allocating', () => {
    expect(() =>
      decodeTga(tga(2, 255, 255, 24, 0, []).map((b, i) => (i >= 12 && i <= 15 ? 255 : b))),
    ).toThrow(/16384/);
    expect(() => decodeTga(tga(10, 255, 255, 24, 0, [0x81, 1, 2, 3]))).toThrow(/more pixel data/);
  });
  it('a TGA without footer is found by its name; ours carry the 2.0 footer', () => {
    const plain = tga(2, 1, 1, 24, 0, [1, 2, 3]);
    expect(sniffTexture(plain)).toBeUndefined();
    expect(sniffTexture(plain, 'a/B.TGA')).toBe('tga');
    const ours = encodeTga({ width: 1, height: 1, data: new Uint8Array([9, 8, 7, 255]) });
    expect(sniffTexture(ours)).toBe('tga');
    expect(rgba(decodeTexture(ours), 0)).toEqual([9, 8, 7, 255]);
  });
});
