import { basename } from 'node:path';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  alphaUse,
  decodePaletted,
  decodePcx,
  decodeTexture,
  encodeBmp,
  encodePcx,
  encodeTga,
  maskPaletteIndex0,
} from '../src/index.js';

/** A 24-bit (3-plane) RLE PCX of `width`×1 from RGB triplets. */
function pcx24(rgb: number[][]): Uint8Array {
  const width = rgb.length;
  const bpl = width + (width & 1);
  const h = new Uint8Array(128);
  h.set([0x0a, 5, 1, 8]);
  const v = new DataView(h.buffer);
  v.setUint16(8, width - 1, true);
  h[65] = 3;
  v.setUint16(66, bpl, true);
  const body: number[] = [];
  for (let p = 0; p < 3; p++) {
    for (let x = 0; x < bpl; x++) {
      const b = x < width ? rgb[x]![p]! : 0;
      if (b >= 0xc0) body.push(0xc1);
      body.push(b);
    }
  }
  return Uint8Array.from([...h, ...body]);
}

describe('PCX 24-bit (3 planes)', () => {
  it('planes are R, G, B scanline parts; bytes ≥ 0xC0 need a run of 1', () => {
    const img = decodePcx(
      pcx24([
        [10, 200, 30],
        [250, 0, 193],
      ]),
    );
    expect(img.bitsPerPixel).toBe(24);
    expect(img.indices).toBeUndefined();
    expect([...img.data]).toEqual([10, 200, 30, 255, 250, 0, 193, 255]);
  });
  it('raw (encoding 0) PCX is read as is', () => {
    const h = new Uint8Array(128 + 2 + 769);
    h.set([0x0a, 5, 0, 8]);
    h[65] = 1;
    h[66] = 2;
    h.set([1, 0], 128);
    h[130] = 0x0c;
    h.set([9, 9, 9, 7, 7, 7], 131);
    expect([...decodePcx(h).data]).toEqual([7, 7, 7, 255]);
  });
});

describe('decodePaletted and the masked index 0', () => {
  const image = { width: 3, height: 1, data: new Uint8Array([1, 2, 3, 255, 0, 0, 0, 0, 4, 5, 6, 255]) };
  it('PCX and 8-bit BMP give indices; index 0 becomes alpha 0', () => {
    for (const bytes of [encodePcx(image), encodeBmp(image, { bitsPerPixel: 8 })]) {
      const p = decodePaletted(bytes)!;
      expect([...p.indices]).toEqual([1, 0, 2]);
      expect(alphaUse(p)).toBe('opaque');
      const masked = maskPaletteIndex0(p);
      expect([...masked.data]).toEqual([1, 2, 3, 255, 0, 0, 0, 0, 4, 5, 6, 255]);
      expect(alphaUse(masked)).toBe('mask');
    }
  });
  it('true-colour files are not paletted', () => {
    expect(decodePaletted(encodeTga(image))).toBeUndefined();
    expect(decodePaletted(encodeBmp(image, { bitsPerPixel: 24 }))).toBeUndefined();
  });
  it('corpus PCX: the masked image is the palette lookup with index-0 pixels cleared', () => {
    for (const path of corpusFiles('textured', ['.pcx'])) {
      const bytes = readBytes(path);
      const p = decodePaletted(bytes, basename(path))!;
      const full = decodeTexture(bytes, basename(path));
      const masked = maskPaletteIndex0(p);
      let zeros = 0;
      let wrong = 0;
      for (let i = 0; i < p.indices.length; i++) {
        if (p.indices[i] === 0) zeros++;
        if (masked.data[i * 4 + 3] !== (p.indices[i] === 0 ? 0 : 255)) wrong++;
      }
      expect(wrong).toBe(0);
      expect(masked.data.length).toBe(full.data.length);
      expect(zeros).toBeLessThan(p.indices.length);
    }
  });
});
