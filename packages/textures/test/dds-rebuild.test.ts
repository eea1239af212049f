import { basename } from 'node:path';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BC_BLOCK_BYTES, type BcFormat, decodeBlocks } from '../src/bc.js';
import {
  DDS_RESIDUAL_LEVEL,
  ddsResidual,
  decodeDds,
  encodeDds,
  encodePng,
  predictBlocks,
  readDdsHeader,
  rebuildDds,
  TEXTURE_REBUILDER,
  toGltfImage,
  zlibDeflate,
} from '../src/index.js';
import { firstDiff } from './helpers.js';

const FORMATS: BcFormat[] = ['bc1', 'bc2', 'bc3', 'bc4', 'bc5'];

/** Random BC blocks of a random-size level, many of them from a few repeated blocks. */
const level = fc
  .record({
    format: fc.constantFrom(...FORMATS),
    width: fc.integer({ min: 1, max: 24 }),
    height: fc.integer({ min: 1, max: 24 }),
    seed: fc.uint8Array({ minLength: 16 * 36, maxLength: 16 * 36 }),
  })
  .map(({ format, width, height, seed }) => {
    const n = Math.ceil(width / 4) * Math.ceil(height / 4) * BC_BLOCK_BYTES[format];
    return { format, width, height, blocks: seed.slice(0, n) };
  });

describe('BC block prediction from decoded pixels', () => {
  it('a predicted block decodes to exactly the pixels it was predicted from (random blocks, all formats)', () => {
    fc.assert(
      fc.property(level, ({ format, width, height, blocks }) => {
        const rgba = new Uint8Array(width * height * 4);
        decodeBlocks(format, blocks, 0, width, height, rgba);
        const { bytes, explained } = predictBlocks(format, rgba, width, height);
        const again = new Uint8Array(rgba.length);
        decodeBlocks(format, bytes, 0, width, height, again);
        let same = 0;
        for (let by = 0; by < height; by += 4)
          for (let bx = 0; bx < width; bx += 4) {
            let eq = true;
            for (let y = by; y < Math.min(height, by + 4); y++)
              for (let x = bx * 4; x < Math.min(width, bx + 4) * 4; x++)
                if (rgba[y * width * 4 + x] !== again[y * width * 4 + x]) eq = false;
            if (eq) same++;
          }
        // an explained block is exact; colour blocks (BC1, BC2) are always explained (the exact
        // endpoint search finds the original's or another pair giving the same pixels)
        expect(same).toBeGreaterThanOrEqual(explained);
        if (format === 'bc1' || format === 'bc2') {
          expect(explained).toBe(bytes.length / BC_BLOCK_BYTES[format]);
          expect(Buffer.from(again).equals(rgba)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('DDS → PNG + residual → the same DDS, byte for byte (random level 0, real header and mips)', () => {
    const formats = ['bc1', 'bc3', 'bc4', 'bc5'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...formats),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 20 }),
        fc.uint8Array({ minLength: 16 * 25, maxLength: 16 * 25 }),
        (format, width, height, noise) => {
          const seedImage = {
            width,
            height,
            data: new Uint8Array(width * height * 4).fill(200),
          };
          const dds = encodeDds(seedImage, { format, mipmaps: true });
          const l0 = readDdsHeader(dds).levels[0]!;
          const n = Math.ceil(width / 4) * Math.ceil(height / 4) * BC_BLOCK_BYTES[format];
          dds.set(noise.subarray(0, n), l0.offset);
          const png = encodePng(decodeDds(dds));
          const r = ddsResidual(dds, png)!;
          expect(r.fields).toMatchObject({
            kind: 'dds',
            format,
            size: dds.byteLength,
            compression: 'zlib',
          });
          expect(Buffer.from(rebuildDds(r.fields, png, r.bytes)!).equals(dds)).toBe(true);
          // residuals written before `layout: 'lanes'` (blocks in file order) still rebuild
          const plain = dds.slice();
          const pred = predictBlocks(format, decodeDds(dds).data, width, height).bytes;
          for (let i = 0; i < pred.length; i++) plain[l0.offset + i]! ^= pred[i]!;
          const { layout: _layout, ...older } = r.fields;
          expect(Buffer.from(rebuildDds(older, png, zlibDeflate(plain))!).equals(dds)).toBe(true);
          // another image does not rebuild it
          const other = encodePng({
            width: width + 1,
            height,
            data: new Uint8Array((width + 1) * height * 4),
          });
          expect(rebuildDds(r.fields, other, r.bytes)).toBeUndefined();
        },
      ),
      { numRuns: 100 },
    );
  });
});

const ddsFiles = corpusFiles('textured', ['.dds']);

describe('corpus DDS: rebuilt from the glTF image plus a residual', () => {
  it('finds the DDS of corpus/textured', () => expect(ddsFiles.length).toBeGreaterThanOrEqual(8));
  let original = 0;
  let kept = 0;
  for (const file of ddsFiles) {
    it(`${basename(file)}: byte for byte from its PNG and a residual`, () => {
      const dds = readBytes(file);
      const { bytes: png } = toGltfImage(dds, file);
      const r = TEXTURE_REBUILDER.residual!(dds, file, png, 'image/png')!;
      expect(r).toBeDefined();
      expect(Buffer.from(TEXTURE_REBUILDER.rebuild(r.fields, png, 'image/png', r.bytes)!).equals(dds)).toBe(
        true,
      );
      original += dds.byteLength;
      kept += r.bytes.byteLength;
      if (basename(file) === 'slug_dif.dds') expect(r.bytes.byteLength).toBeLessThan(100_000); // of 699 192
    });
  }
  it(`keeps under a quarter of the DDS bytes (zlib level ${DDS_RESIDUAL_LEVEL})`, () => {
    expect(kept).toBeLessThan(original / 4);
  });
});

describe('residual lanes and XOR work a word at a time, wherever the bytes lie', () => {
  it('a DDS and a residual at odd offsets of larger buffers give the same residual and file', () => {
    const image = { width: 16, height: 12, data: new Uint8Array(16 * 12 * 4) };
    for (let i = 0; i < image.data.length; i++) image.data[i] = (i * 37) & 255;
    const dds = encodeDds(image, { format: 'bc3' });
    const png = encodePng(image);
    const at = (b: Uint8Array, k: number) => {
      const big = new Uint8Array(b.length + k);
      big.set(b, k);
      return big.subarray(k);
    };
    const aligned = ddsResidual(dds, png)!;
    const odd = ddsResidual(at(dds, 3), png)!;
    expect(Array.from(odd.bytes)).toEqual(Array.from(aligned.bytes));
    const back = rebuildDds(aligned.fields, png, at(aligned.bytes, 1))!;
    expect(firstDiff(back, dds)).toBe(-1);
  });
});
