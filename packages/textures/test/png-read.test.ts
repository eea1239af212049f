// The native PNG fast path (png-read.ts) must give exactly what fast-png gives, or step aside:
// on every corpus PNG, on PNGs of every colour type and filter, and on mutated and truncated
// files (where fast-png's answer, image or error, must stay the answer).
import { crc32 } from 'node:zlib';
import { useNativeZlib } from '@gltf-legacy/core';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import fc from 'fast-check';
import { decode, encode as encodeFastPng } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { readPng, readPngNative } from '../src/png-read.js';
import { encodePng, encodePngIndexed, writePng } from '../src/index.js';
import { firstDiff } from './helpers.js';

type Outcome = { error: string } | { png: Record<string, unknown> };

function picked(p: ReturnType<typeof decode>): Record<string, unknown> {
  return {
    width: p.width,
    height: p.height,
    depth: p.depth,
    channels: p.channels,
    data: Array.from(p.data),
    palette: p.palette,
    transparency: p.transparency && Array.from(p.transparency),
  };
}

function outcome(read: () => ReturnType<typeof decode>): Outcome {
  try {
    return { png: picked(read()) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** A chunk inserted before the first IDAT. */
function withChunk(png: Uint8Array, type: string, data: Uint8Array): Uint8Array {
  let o = 8;
  while (String.fromCharCode(...png.subarray(o + 4, o + 8)) !== 'IDAT')
    o += 12 + new DataView(png.buffer, png.byteOffset).getUint32(o);
  const chunk = new Uint8Array(12 + data.length);
  const v = new DataView(chunk.buffer);
  v.setUint32(0, data.length);
  chunk.set(new TextEncoder().encode(type), 4);
  chunk.set(data, 8);
  v.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, o));
  out.set(chunk, o);
  out.set(png.subarray(o), o + chunk.length);
  return out;
}

// 13×11 pixels: rows wide enough for every adaptive filter to win somewhere
const w = 13;
const h = 11;
const rgba = new Uint8Array(w * h * 4);
for (let i = 0; i < w * h; i++)
  rgba.set([(i * 7) & 255, (i * i) & 255, (i * 31 + (i >> 3)) & 255, i % 5 ? 255 : (i * 3) & 255], i * 4);
const rgb = new Uint8Array(w * h * 3);
for (let i = 0; i < w * h; i++) rgb.set(rgba.subarray(i * 4, i * 4 + 3), i * 3);
const gray = new Uint8Array(w * h).map((_, i) => (i * 11) & 255);
const palette = new Uint8Array(768).map((_, i) => (i * 37) & 255);
const indices = new Uint8Array(w * h).map((_, i) => i % 256);

const SAMPLES: Record<string, Uint8Array> = {
  'RGBA, adaptive filters': writePng({
    width: w,
    height: h,
    channels: 4,
    data: rgba,
  }),
  'RGB, adaptive filters': writePng({
    width: w,
    height: h,
    channels: 3,
    data: rgb,
  }),
  'RGB, filter 0': writePng({ width: w, height: h, channels: 3, data: rgb }, 6, { blockCompressed: true }),
  'paletted with tRNS': encodePngIndexed(w, h, indices, palette, {
    transparentIndex0: true,
  }),
  'paletted (encodePng)': encodePng({
    width: 2,
    height: 2,
    data: new Uint8Array(16).fill(200),
  }),
  'gray (fast-png)': encodeFastPng({
    width: w,
    height: h,
    channels: 1,
    data: gray,
  }),
  'gray + alpha (fast-png)': encodeFastPng({
    width: w,
    height: 5,
    channels: 2,
    data: gray.subarray(0, w * 10),
  }),
  'gray with tRNS key': withChunk(
    encodeFastPng({ width: w, height: h, channels: 1, data: gray }),
    'tRNS',
    new Uint8Array([0, 11]),
  ),
  'RGB with tEXt and pHYs': withChunk(
    withChunk(
      writePng({ width: w, height: h, channels: 3, data: rgb }),
      'tEXt',
      new TextEncoder().encode('Comment\0made here'),
    ),
    'pHYs',
    new Uint8Array([0, 0, 11, 19, 0, 0, 11, 19, 1]),
  ),
};

describe('the native PNG fast path gives what fast-png gives', () => {
  const corpus = corpusFiles('textured', ['.png']);
  for (const path of corpus) {
    it(`corpus ${path.split('/').pop()}: taken, same pixels`, () => {
      const bytes = readBytes(path);
      const fast = readPngNative(bytes);
      expect(fast, 'the fast path applies to this 8-bit PNG').toBeDefined();
      const ref = decode(bytes);
      expect(firstDiff(fast!.data as Uint8Array, ref.data as Uint8Array)).toBe(-1);
      expect({
        ...picked(fast! as ReturnType<typeof decode>),
        data: 0,
      }).toEqual({ ...picked(ref), data: 0 });
    });
  }
  for (const [name, bytes] of Object.entries(SAMPLES)) {
    it(`${name}: taken, the same result`, () => {
      expect(readPngNative(bytes), 'the fast path applies').toBeDefined();
      expect(outcome(() => readPng(bytes) as ReturnType<typeof decode>)).toEqual(
        outcome(() => decode(bytes)),
      );
    });
  }
  it('16-bit and interlaced PNGs, and every PNG without native zlib, go to fast-png', () => {
    const deep = encodeFastPng({
      width: 3,
      height: 2,
      channels: 3,
      depth: 16,
      data: new Uint16Array(18).fill(999),
    });
    expect(readPngNative(deep)).toBeUndefined();
    expect(picked(readPng(deep) as ReturnType<typeof decode>)).toEqual(picked(decode(deep)));
    useNativeZlib(false);
    try {
      expect(readPngNative(SAMPLES['RGB, adaptive filters']!)).toBeUndefined();
    } finally {
      useNativeZlib(true);
    }
  });
  for (const [name, bytes] of Object.entries(SAMPLES)) {
    it(`${name}: every truncation and random byte changes give fast-png's image or error`, () => {
      for (let n = 0; n < bytes.length; n += 3) {
        const cut = bytes.subarray(0, n);
        expect(outcome(() => readPng(cut) as ReturnType<typeof decode>)).toEqual(outcome(() => decode(cut)));
      }
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.nat(255)), {
            minLength: 1,
            maxLength: 4,
          }),
          (edits) => {
            const copy = bytes.slice();
            for (const [at, v] of edits) copy[at] = v;
            // a mutated IHDR claiming a huge image is refused by decodePng's limits before either
            // reader runs (hostile.test.ts); fast-png alone would allocate it here
            const v = new DataView(copy.buffer);
            if (v.getUint32(16) * v.getUint32(20) > 1 << 16) return;
            expect(outcome(() => readPng(copy) as ReturnType<typeof decode>)).toEqual(
              outcome(() => decode(copy)),
            );
          },
        ),
        { numRuns: 150 },
      );
    });
  }
});
