import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeBmp,
  decodeDds,
  decodePcx,
  decodePng,
  decodeTexture,
  decodeTga,
  EXPAND5,
  EXPAND6,
  encodeBmp,
  encodeDds,
  encodePcx,
  encodePng,
  encodeTexture,
  encodeTga,
  palettize,
  readDdsHeader,
  type RgbaImage,
  sniffTexture,
} from '../src/index.js';
import { firstDiff } from './helpers.js';

/** Images of up to 19×19 pixels drawn from a palette of `colours` RGBA values. */
function paletteImage(maxColours: number, alpha: 'opaque' | 'mask' | 'any') {
  const colour = fc.tuple(
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    alpha === 'opaque'
      ? fc.constant(255)
      : alpha === 'mask'
        ? fc.constantFrom(0, 255)
        : fc.integer({ min: 0, max: 255 }),
  );
  return fc
    .record({
      width: fc.integer({ min: 1, max: 19 }),
      height: fc.integer({ min: 1, max: 19 }),
      colours: fc.array(colour, { minLength: 1, maxLength: maxColours }),
      seed: fc.array(fc.nat(), { minLength: 361, maxLength: 361 }),
    })
    .map(({ width, height, colours, seed }): RgbaImage => {
      const data = new Uint8Array(width * height * 4);
      for (let i = 0; i < width * height; i++) data.set(colours[seed[i]! % colours.length]!, i * 4);
      return { width, height, data };
    });
}

/** Masked pixels' RGB is not kept by 8-bit formats: compare alpha, and RGB only where opaque. */
function sameMasked(a: RgbaImage, b: RgbaImage): boolean {
  if (a.width !== b.width || a.height !== b.height) return false;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i + 3] === 0) continue;
    if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2])
      return false;
  }
  return true;
}

describe('lossless round trips (fast-check)', () => {
  it('PNG: any RGBA, paletted (≤ 256 colours, tRNS) or not', () => {
    fc.assert(
      fc.property(paletteImage(64, 'any'), fc.boolean(), (img, palette) => {
        const bytes = encodePng(img, { palette });
        const back = decodePng(bytes);
        // colour type (byte 25): 3 = paletted
        return (
          (bytes[25] === 3) === palette && back.width === img.width && firstDiff(back.data, img.data) === -1
        );
      }),
    );
  });
  it('PNG: more than 256 colours is RGB or RGBA', () => {
    const data = new Uint8Array(300 * 4);
    for (let i = 0; i < 300; i++) data.set([i & 255, i >> 8, 7, 255], i * 4);
    const rgb = encodePng({ width: 300, height: 1, data });
    expect(rgb[25]).toBe(2);
    expect(firstDiff(decodePng(rgb).data, data)).toBe(-1);
    data[3] = 9;
    const rgba = encodePng({ width: 300, height: 1, data });
    expect(rgba[25]).toBe(6);
    expect(firstDiff(decodePng(rgba).data, data)).toBe(-1);
  });
  it('TGA raw and RLE, 24 and 32 bit', () => {
    fc.assert(
      fc.property(paletteImage(6, 'any'), fc.boolean(), (img, rle) => {
        const back = decodeTga(encodeTga(img, { rle }));
        return firstDiff(back.data, img.data) === -1;
      }),
    );
    fc.assert(
      fc.property(paletteImage(6, 'opaque'), fc.boolean(), (img, rle) => {
        const bytes = encodeTga(img, { rle });
        return bytes[16] === 24 && firstDiff(decodeTga(bytes).data, img.data) === -1;
      }),
    );
  });
  it('BMP 24/32 bit exact, 8 bit exact with ≤ 256 colours', () => {
    fc.assert(
      fc.property(
        paletteImage(50, 'any'),
        (img) => firstDiff(decodeBmp(encodeBmp(img)).data, img.data) === -1,
      ),
    );
    fc.assert(
      fc.property(paletteImage(50, 'opaque'), (img) => {
        const bytes = encodeBmp(img, { bitsPerPixel: 8 });
        return bytes[28] === 8 && firstDiff(decodeBmp(bytes).data, img.data) === -1;
      }),
    );
  });
  it('PCX 8-bit exact with ≤ 256 colours; masked pixels become index 0', () => {
    fc.assert(
      fc.property(
        paletteImage(40, 'opaque'),
        (img) => firstDiff(decodePcx(encodePcx(img)).data, img.data) === -1,
      ),
    );
    fc.assert(
      fc.property(paletteImage(40, 'mask'), (img) => {
        const pcx = decodePcx(encodePcx(img));
        const anyMasked = img.data.some((v, i) => (i & 3) === 3 && v === 0);
        for (let i = 0; anyMasked && i < img.width * img.height; i++) {
          if ((img.data[i * 4 + 3] === 0) !== (pcx.indices![i] === 0)) return false;
        }
        return sameMasked(img, pcx);
      }),
    );
  });
  it('encodeTexture/decodeTexture dispatch by kind and sniff the result', () => {
    const img: RgbaImage = {
      width: 3,
      height: 2,
      data: new Uint8Array(24).map((_, i) => ((i * 37) & 255) | 3),
    };
    for (let i = 3; i < 24; i += 4) img.data[i] = 255;
    for (const kind of ['png', 'pcx', 'bmp', 'tga'] as const) {
      const bytes = encodeTexture(img, kind);
      expect(sniffTexture(bytes)).toBe(kind);
      expect(firstDiff(decodeTexture(bytes).data, img.data)).toBe(-1);
    }
    expect(sniffTexture(encodeTexture(img, 'dds'))).toBe('dds');
  });
});

describe('8-bit quantization of many colours', () => {
  it('a 64×64 gradient with 4096 colours gets a 256-colour palette close to the original', () => {
    const w = 64;
    const data = new Uint8Array(w * w * 4);
    for (let y = 0; y < w; y++)
      for (let x = 0; x < w; x++) data.set([x * 4, y * 4, (x + y) * 2, 255], (y * w + x) * 4);
    const pcx = decodePcx(encodePcx({ width: w, height: w, data }));
    let sum = 0;
    for (let i = 0; i < data.length; i++) if ((i & 3) !== 3) sum += Math.abs(pcx.data[i]! - data[i]!);
    expect(new Set(pcx.indices).size).toBeGreaterThan(200);
    expect(sum / (w * w * 3)).toBeLessThan(6); // mean error per channel
  });
  it('quantized pixels take a nearest palette colour (same distance as a full search)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(0xffffff), { minLength: 300, maxLength: 600 }), (cols) => {
        const data = new Uint8Array(cols.length * 4);
        for (let i = 0; i < cols.length; i++)
          data.set([cols[i]! >> 16, (cols[i]! >> 8) & 255, cols[i]! & 255, 255], i * 4);
        const q = palettize({ width: cols.length, height: 1, data }, { quantizer: 'rgbquant' });
        if (!q.quantized) return false;
        for (let i = 0; i < cols.length; i++) {
          const dist = (k: number) =>
            (q.palette[k * 3]! - data[i * 4]!) ** 2 +
            (q.palette[k * 3 + 1]! - data[i * 4 + 1]!) ** 2 +
            (q.palette[k * 3 + 2]! - data[i * 4 + 2]!) ** 2;
          let min = Number.POSITIVE_INFINITY;
          for (let k = 0; k < q.colors; k++) min = Math.min(min, dist(k));
          if (dist(q.indices[i]!) !== min) return false;
        }
        return true;
      }),
      { numRuns: 30 },
    );
  });
  it('masked + many colours: index 0 stays reserved', () => {
    const w = 40;
    const data = new Uint8Array(w * w * 4);
    for (let i = 0; i < w * w; i++)
      data.set([i & 255, (i * 7) & 255, (i * 13) & 255, i % 5 === 0 ? 0 : 255], i * 4);
    const pcx = decodePcx(encodePcx({ width: w, height: w, data }));
    for (let i = 0; i < w * w; i++) expect(pcx.indices![i] === 0).toBe(i % 5 === 0);
  });
});

/** Largest per-channel difference. */
function maxErr(a: Uint8Array, b: Uint8Array, channels = [0, 1, 2, 3]): number {
  let m = 0;
  for (let i = 0; i < a.length; i += 4)
    for (const c of channels) m = Math.max(m, Math.abs(a[i + c]! - b[i + c]!));
  return m;
}

/** Images whose 4×4 blocks are each one colour: BC error is the 5:6:5 quantization alone. */
const blockImage = fc
  .record({
    bw: fc.integer({ min: 1, max: 5 }),
    bh: fc.integer({ min: 1, max: 5 }),
    colours: fc.array(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)), {
      minLength: 25,
      maxLength: 25,
    }),
  })
  .map(({ bw, bh, colours }): RgbaImage => {
    const width = bw * 4;
    const height = bh * 4;
    const data = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) data.set(colours[(y >> 2) * bw + (x >> 2)]!, (y * width + x) * 4);
    return { width, height, data };
  });

describe('DDS BC round trips (fast-check, stated error bounds)', () => {
  // 5-bit channels step by 255/31 ≈ 8.2 → nearest is within 4.1 (≤ 4 after rounding to 8 bits);
  // 6-bit green steps by 255/63 ≈ 4.05 → within 2.
  it('BC1 of one-colour blocks: R, B within 4 and G within 2 (5:6:5 quantization)', () => {
    fc.assert(
      fc.property(blockImage, (img) => {
        for (let i = 3; i < img.data.length; i += 4) img.data[i] = 255;
        const back = decodeDds(encodeDds(img, { format: 'bc1', mipmaps: false }));
        return (
          maxErr(back.data, img.data, [0, 2]) <= 4 &&
          maxErr(back.data, img.data, [1]) <= 2 &&
          maxErr(back.data, img.data, [3]) === 0
        );
      }),
    );
  });
  it('BC3 of one-colour blocks: colour as BC1, alpha exact', () => {
    fc.assert(
      fc.property(blockImage, (img) => {
        const back = decodeDds(encodeDds(img, { format: 'bc3', mipmaps: false }));
        return (
          maxErr(back.data, img.data, [0, 2]) <= 4 &&
          maxErr(back.data, img.data, [1]) <= 2 &&
          maxErr(back.data, img.data, [3]) === 0
        );
      }),
    );
  });
  it('BC1 of blocks with two 5:6:5-exact colours is lossless', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 2, maxLength: 2 }),
        fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
        ([c0, c1], pick) => {
          const col = (c: number) => [EXPAND5[c >> 11]!, EXPAND6[(c >> 5) & 63]!, EXPAND5[c & 31]!, 255];
          const data = new Uint8Array(64);
          for (let i = 0; i < 16; i++) data.set(col(pick[i] ? c0! : c1!), i * 4);
          const img = { width: 4, height: 4, data };
          return firstDiff(decodeDds(encodeDds(img, { format: 'bc1', mipmaps: false })).data, data) === -1;
        },
      ),
      {
        numRuns: 2000,
        examples: [
          [
            [53530, 64017],
            [...Array(15).fill(false), true],
          ],
        ],
      },
    );
  });
  it('BC1 with cut-out alpha keeps the mask (3-colour mode)', () => {
    fc.assert(
      fc.property(blockImage, fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }), (img, holes) => {
        for (let i = 0; i < img.width * img.height; i++) img.data[i * 4 + 3] = holes[i % 16] ? 0 : 255;
        const back = decodeDds(encodeDds(img, { format: 'bc1', mipmaps: false }));
        return maxErr(back.data, img.data, [3]) === 0;
      }),
    );
  });
  it('a 1-D colour ramp stays within 8 per channel; a 2-D one within a mean error of 4', () => {
    const w = 64;
    const ramp = new Uint8Array(w * w * 4);
    const grid = new Uint8Array(w * w * 4);
    for (let y = 0; y < w; y++)
      for (let x = 0; x < w; x++) {
        ramp.set([x * 4, 255 - x * 3, 40 + x * 2, 128 + (x >> 1)], (y * w + x) * 4);
        grid.set([x * 4, 255 - y * 4, (x * y) >> 4, 255], (y * w + x) * 4);
      }
    const bc3 = decodeDds(encodeDds({ width: w, height: w, data: ramp })).data;
    expect(maxErr(bc3, ramp, [0, 1, 2])).toBeLessThanOrEqual(8);
    expect(maxErr(bc3, ramp, [3])).toBeLessThanOrEqual(2);
    const opaque = new Uint8Array(ramp);
    for (let i = 3; i < opaque.length; i += 4) opaque[i] = 255;
    expect(
      maxErr(decodeDds(encodeDds({ width: w, height: w, data: opaque })).data, opaque, [0, 1, 2]),
    ).toBeLessThanOrEqual(8);
    const back = decodeDds(encodeDds({ width: w, height: w, data: grid })).data;
    let sum = 0;
    for (let i = 0; i < grid.length; i++) if ((i & 3) !== 3) sum += Math.abs(back[i]! - grid[i]!);
    expect(sum / (w * w * 3)).toBeLessThan(4);
  });
  it('auto picks DXT1 when opaque, DXT5 with alpha, and writes the full mip chain', () => {
    const data = new Uint8Array(30 * 10 * 4).fill(255);
    const opaque = readDdsHeader(encodeDds({ width: 30, height: 10, data }));
    expect(opaque.fourCC).toBe('DXT1');
    expect(opaque.levels.map((l) => `${l.width}x${l.height}`)).toEqual([
      '30x10',
      '15x5',
      '7x2',
      '3x1',
      '1x1',
    ]);
    data[3] = 0;
    expect(readDdsHeader(encodeDds({ width: 30, height: 10, data })).fourCC).toBe('DXT5');
    expect(
      readDdsHeader(encodeTexture({ width: 30, height: 10, data }, 'dds', { mipmaps: false })).levels,
    ).toHaveLength(1);
  });
  it('BC4/BC5/RGBA8 encode and decode back', () => {
    const w = 8;
    const data = new Uint8Array(w * w * 4);
    for (let i = 0; i < w * w; i++) data.set([128, 128, 255, 255], i * 4);
    const bc5 = decodeDds(encodeDds({ width: w, height: w, data }, { format: 'bc5' }));
    expect([...bc5.data.subarray(0, 4)]).toEqual([128, 128, 255, 255]);
    const rgba = decodeDds(encodeDds({ width: w, height: w, data }, { format: 'rgba8' }));
    expect(firstDiff(rgba.data, data)).toBe(-1);
    expect([
      ...decodeDds(encodeDds({ width: w, height: w, data }, { format: 'bc4' })).data.subarray(0, 4),
    ]).toEqual([128, 128, 128, 255]);
  });
});
