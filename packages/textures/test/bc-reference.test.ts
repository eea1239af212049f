import { describe, expect, it } from 'vitest';
import { decodeBcBlock } from '../src/index.js';

/** RGBA of pixel i of a decoded 4×4 block. */
const px = (block: Uint8Array, i: number) => [...block.subarray(i * 4, i * 4 + 4)];

// Blocks built from the Direct3D block layouts: colour endpoints are little-endian 5:6:5,
// then 16 2-bit indices (pixel 0 in the low bits, rows top-down).
describe('BC1 (DXT1) reference blocks', () => {
  it('4-colour mode (c0 > c1): red → blue with the 2/3 and 1/3 mixes', () => {
    // c0 = 0xF800 (red 31,0,0) > c1 = 0x001F (blue 0,0,31); indices row 0 = 0,1,2,3, rest 0
    const b = decodeBcBlock('bc1', new Uint8Array([0x00, 0xf8, 0x1f, 0x00, 0b11100100, 0, 0, 0]));
    expect(px(b, 0)).toEqual([255, 0, 0, 255]);
    expect(px(b, 1)).toEqual([0, 0, 255, 255]);
    expect(px(b, 2)).toEqual([170, 0, 85, 255]); // (2·255 + 0 + 1) / 3 = 170, (0 + 255 + 1)/3 = 85
    expect(px(b, 3)).toEqual([85, 0, 170, 255]);
    expect(px(b, 15)).toEqual([255, 0, 0, 255]);
  });
  it('3-colour + transparent mode (c0 <= c1): index 2 is the mean, index 3 transparent black', () => {
    // c0 = 0x001F (blue) <= c1 = 0xF800 (red)
    const b = decodeBcBlock('bc1', new Uint8Array([0x1f, 0x00, 0x00, 0xf8, 0b11100100, 0xff, 0, 0]));
    expect(px(b, 0)).toEqual([0, 0, 255, 255]);
    expect(px(b, 1)).toEqual([255, 0, 0, 255]);
    expect(px(b, 2)).toEqual([128, 0, 128, 255]); // (255 + 0 + 1) / 2
    expect(px(b, 3)).toEqual([0, 0, 0, 0]);
    expect(px(b, 4)).toEqual([0, 0, 0, 0]); // second row all index 3
    expect(px(b, 7)).toEqual([0, 0, 0, 0]);
  });
  it('equal endpoints use the 3-colour mode too (c0 == c1)', () => {
    const b = decodeBcBlock('bc1', new Uint8Array([0xe0, 0x07, 0xe0, 0x07, 0xc0, 0, 0, 0]));
    expect(px(b, 0)).toEqual([0, 255, 0, 255]);
    expect(px(b, 3)).toEqual([0, 0, 0, 0]);
  });
  it('5:6:5 expands by bit replication: 0x7BEF → (123, 125, 123)', () => {
    const b = decodeBcBlock('bc1', new Uint8Array([0xef, 0x7b, 0, 0, 0, 0, 0, 0]));
    expect(px(b, 5)).toEqual([123, 125, 123, 255]);
  });
});

describe('BC2 (DXT3) reference block', () => {
  it('explicit 4-bit alpha ×17 and a colour block that is always 4-colour', () => {
    const alpha = [0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe]; // alpha nibbles 0..15 in order
    // colour c0 = 0x001F (blue) < c1 = 0xF800: in BC2 still 4-colour, index 3 = 1/3 blue + 2/3 red
    const b = decodeBcBlock('bc2', new Uint8Array([...alpha, 0x1f, 0x00, 0x00, 0xf8, 0xff, 0, 0, 0]));
    for (let i = 0; i < 16; i++) expect(b[i * 4 + 3]).toBe(i * 17);
    expect(px(b, 0).slice(0, 3)).toEqual([170, 0, 85]);
  });
});

describe('BC3 (DXT5) reference blocks', () => {
  it('8-value alpha (a0 > a1): indices 0…7 give a0, a1 and six sevenths', () => {
    // a0 = 255, a1 = 0; 3-bit indices for pixels 0..7 = 0,1,2,3,4,5,6,7 → 0xFAC688 packed LE
    const bits = [0, 1, 2, 3, 4, 5, 6, 7].reduce((acc, v, i) => acc + v * 2 ** (3 * i), 0);
    const idx = [bits & 255, (bits >> 8) & 255, (bits >> 16) & 255, 0, 0, 0];
    const colour = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]; // white
    const b = decodeBcBlock('bc3', new Uint8Array([255, 0, ...idx, ...colour]));
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => b[i * 4 + 3])).toEqual([255, 0, 219, 182, 146, 109, 73, 36]);
    expect(px(b, 8)).toEqual([255, 255, 255, 255]); // index 0 → a0
  });
  it('6-value alpha (a0 <= a1): fifths, then 0 and 255', () => {
    const bits = [0, 1, 2, 3, 4, 5, 6, 7].reduce((acc, v, i) => acc + v * 2 ** (3 * i), 0);
    const idx = [bits & 255, (bits >> 8) & 255, (bits >> 16) & 255, 0, 0, 0];
    const b = decodeBcBlock('bc3', new Uint8Array([50, 100, ...idx, 0, 0, 0, 0, 0, 0, 0, 0]));
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => b[i * 4 + 3])).toEqual([50, 100, 60, 70, 80, 90, 0, 255]);
  });
});

describe('BC4 / BC5 reference blocks', () => {
  it('BC4 is grey from one alpha-style block', () => {
    const b = decodeBcBlock('bc4', new Uint8Array([200, 100, 1, 0, 0, 0, 0, 0]));
    expect(px(b, 0)).toEqual([100, 100, 100, 255]); // pixel 0 index 1 → a1
    expect(px(b, 1)).toEqual([200, 200, 200, 255]);
  });
  it('BC5 gives X, Y and a reconstructed Z (flat normal → 128,128,255 region)', () => {
    const flat = new Uint8Array([128, 128, 0, 0, 0, 0, 0, 0, 128, 128, 0, 0, 0, 0, 0, 0]);
    expect(px(decodeBcBlock('bc5', flat), 0)).toEqual([128, 128, 255, 255]);
    // X = 255 (x = 1) → Z = 0 → 128 (z mapped from −1…1)
    const side = new Uint8Array([255, 255, 0, 0, 0, 0, 0, 0, 128, 128, 0, 0, 0, 0, 0, 0]);
    expect(px(decodeBcBlock('bc5', side), 0)).toEqual([255, 128, 128, 255]);
  });
});
