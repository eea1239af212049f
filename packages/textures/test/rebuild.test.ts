import { basename } from 'node:path';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodePcx,
  decodePng,
  decodePngIndexed,
  encodeBmp,
  encodePng,
  encodeTga,
  pcxToGltfImage,
  TEXTURE_REBUILDER,
  toGltfImage,
  writePng,
} from '../src/index.js';

const pcxFiles = corpusFiles('textured', ['.pcx']);

describe('8-bit PCX → indexed PNG → the same PCX', () => {
  it('finds the five PCX of corpus/textured', () => expect(pcxFiles.length).toBe(5));
  for (const file of pcxFiles) {
    it(`${basename(file)}: the PNG holds its palette and indices; the rebuild is byte for byte`, () => {
      const pcx = readBytes(file);
      const { bytes: png, mimeType } = toGltfImage(pcx, file);
      const decoded = decodePcx(pcx);
      const indexed = decodePngIndexed(png)!;
      expect(Buffer.from(indexed.palette).equals(decoded.palette!)).toBe(true);
      expect(Buffer.from(indexed.indices).equals(decoded.indices!)).toBe(true);
      expect(Buffer.from(decodePng(png).data).equals(decoded.data)).toBe(true);
      const fields = TEXTURE_REBUILDER.describe(pcx, file, png, mimeType)!;
      expect(fields).toMatchObject({ kind: 'pcx', patch: '' });
      expect(Buffer.from(TEXTURE_REBUILDER.rebuild(fields, png, mimeType)!).equals(pcx)).toBe(true);
      // masked: index 0 transparent, the same PCX rebuilds
      const masked = pcxToGltfImage(pcx, file, { transparentIndex0: true })!;
      const rgba = decodePng(masked.bytes).data;
      let wrongAlpha = 0;
      for (let i = 0; i < decoded.indices!.length; i++)
        if (rgba[i * 4 + 3] !== (decoded.indices![i] ? 255 : 0)) wrongAlpha++;
      expect(wrongAlpha).toBe(0);
      expect(Buffer.from(TEXTURE_REBUILDER.rebuild(fields, masked.bytes, 'image/png')!).equals(pcx)).toBe(
        true,
      );
    });
  }

  it('a PCX whose header our encoder does not write is patched, a PCX with extra bytes is not rebuilt', () => {
    const pcx = readBytes(pcxFiles[0]!).slice();
    pcx[70] = 0x55; // a reserved header byte
    const png = toGltfImage(pcx, 'x.pcx').bytes;
    const fields = TEXTURE_REBUILDER.describe(pcx, 'x.pcx', png, 'image/png')!;
    expect(fields.patch).toBe('70:55');
    expect(Buffer.from(TEXTURE_REBUILDER.rebuild(fields, png, 'image/png')!).equals(pcx)).toBe(true);
    const longer = new Uint8Array([...pcx, 1, 2, 3]);
    expect(TEXTURE_REBUILDER.describe(longer, 'x.pcx', png, 'image/png')).toBeUndefined();
  });

  it('BMP and TGA (24/32-bit) rebuild from the RGBA of their PNG', () => {
    const image = { width: 3, height: 2, data: new Uint8Array(24).map((_, i) => (i * 37) & 255) };
    for (const i of [3, 7, 11, 15, 19, 23]) image.data[i] = 255;
    for (const [file, bytes] of [
      ['a.bmp', encodeBmp(image, { bitsPerPixel: 24 })],
      ['a.tga', encodeTga(image, { rle: true })],
    ] as const) {
      const png = encodePng(image);
      const fields = TEXTURE_REBUILDER.describe(bytes, file, png, 'image/png')!;
      expect(fields).toBeDefined();
      expect(TEXTURE_REBUILDER.rebuild(fields, png, 'image/png')).toEqual(bytes);
    }
  });
});

describe('writePng (native zlib in Node, filtered)', () => {
  it('every colour type decodes back to the same samples', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(1 as const, 3 as const, 4 as const),
        fc.integer(),
        (w, h, channels, seed) => {
          const data = new Uint8Array(w * h * channels);
          let s = seed | 0;
          for (let i = 0; i < data.length; i++) {
            s = (Math.imul(s, 1103515245) + 12345) | 0;
            data[i] = channels === 1 ? (s >>> 16) & 15 : (s >>> 16) & 255;
          }
          const palette = new Uint8Array(48).map((_, i) => i * 5);
          const png = writePng({ width: w, height: h, channels, data, palette });
          const rgba = decodePng(png).data;
          for (let p = 0; p < w * h; p++) {
            const expected =
              channels === 1
                ? [...palette.subarray(data[p]! * 3, data[p]! * 3 + 3), 255]
                : channels === 3
                  ? [...data.subarray(p * 3, p * 3 + 3), 255]
                  : [...data.subarray(p * 4, p * 4 + 4)];
            expect([...rgba.subarray(p * 4, p * 4 + 4)]).toEqual(expected);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
