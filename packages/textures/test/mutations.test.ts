import { FormatError } from '@gltf-legacy/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeTexture,
  encodeBmp,
  encodeDds,
  encodePcx,
  encodePng,
  encodeTga,
  type RgbaImage,
} from '../src/index.js';

const w = 9;
const h = 7;
const data = new Uint8Array(w * h * 4);
for (let i = 0; i < w * h; i++)
  data.set([(i * 29) & 255, (i * 53) & 255, (i * 97) & 255, i % 3 ? 255 : 0], i * 4);
const image: RgbaImage = { width: w, height: h, data };

const samples: Record<string, Uint8Array> = {
  'a.png': encodePng(image),
  'a.pcx': encodePcx(image),
  'a8.bmp': encodeBmp(image, { bitsPerPixel: 8 }),
  'a32.bmp': encodeBmp(image),
  'a.tga': encodeTga(image, { rle: true }),
  'a1.dds': encodeDds(image, { format: 'bc1' }),
  'a3.dds': encodeDds(image, { format: 'bc3' }),
  'a5.dds': encodeDds(image, { format: 'bc5' }),
  'ar.dds': encodeDds(image, { format: 'rgba8' }),
};

/** Decoding either gives a well-formed image or throws a FormatError: nothing else. */
function decodesOrFormatError(bytes: Uint8Array, name: string): boolean {
  try {
    const img = decodeTexture(bytes, name);
    return img.width >= 1 && img.height >= 1 && img.data.length === img.width * img.height * 4;
  } catch (e) {
    if (e instanceof FormatError) return true;
    throw e;
  }
}

describe('mutated and truncated files: a decoded image or a FormatError, never a crash', () => {
  for (const [name, bytes] of Object.entries(samples)) {
    it(`${name}: every truncation`, () => {
      for (let n = 0; n < bytes.length; n++)
        expect(decodesOrFormatError(bytes.subarray(0, n), name)).toBe(true);
    });
    it(`${name}: random byte changes in the header and body`, () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat(Math.min(bytes.length - 1, 200)), fc.nat(255)), {
            minLength: 1,
            maxLength: 6,
          }),
          (edits) => {
            const copy = bytes.slice();
            for (const [at, v] of edits) copy[at] = v;
            return decodesOrFormatError(copy, name);
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});
