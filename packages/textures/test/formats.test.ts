import { basename } from 'node:path';
import { FormatError } from '@gltf-legacy/core';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { encode as encodePngRaw } from 'fast-png';
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import {
  alphaUse,
  decodeDds,
  decodePng,
  decodeTexture,
  fromGltfImage,
  readDdsHeader,
  sniffTexture,
  toGltfImage,
} from '../src/index.js';

const rgba = (img: { data: Uint8Array }, i: number) => [...img.data.subarray(i * 4, i * 4 + 4)];

/** A DDS with a DX10 header; `body` is the level-0 data. */
function dx10(width: number, height: number, dxgi: number, body: number[], misc = 0): Uint8Array {
  const out = new Uint8Array(148 + body.length);
  const v = new DataView(out.buffer);
  out.set([0x44, 0x44, 0x53, 0x20]);
  v.setUint32(4, 124, true);
  v.setUint32(8, 0x1007, true);
  v.setUint32(12, height, true);
  v.setUint32(16, width, true);
  v.setUint32(76, 32, true);
  v.setUint32(80, 4, true);
  out.set([0x44, 0x58, 0x31, 0x30], 84); // 'DX10'
  v.setUint32(128, dxgi, true);
  v.setUint32(132, 3, true); // TEXTURE2D
  v.setUint32(136, misc, true);
  v.setUint32(140, 1, true);
  out.set(body, 148);
  return out;
}

/** A DDS with an uncompressed pixel format described by masks. */
function masked(
  width: number,
  height: number,
  flags: number,
  bits: number,
  masks: number[],
  body: number[],
): Uint8Array {
  const out = new Uint8Array(128 + body.length);
  const v = new DataView(out.buffer);
  out.set([0x44, 0x44, 0x53, 0x20]);
  v.setUint32(4, 124, true);
  v.setUint32(8, 0x100f, true);
  v.setUint32(12, height, true);
  v.setUint32(16, width, true);
  v.setUint32(76, 32, true);
  v.setUint32(80, flags, true);
  v.setUint32(88, bits, true);
  masks.forEach((m, i) => {
    v.setUint32(92 + i * 4, m, true);
  });
  out.set(body, 128);
  return out;
}

describe('DDS with the DX10 header', () => {
  it('BC1_UNORM_SRGB (72): block decoded, sRGB flagged', () => {
    const bytes = dx10(4, 4, 72, [0x00, 0xf8, 0x1f, 0x00, 0, 0, 0, 0]);
    const dds = decodeDds(bytes);
    expect(dds.info.srgb).toBe(true);
    expect(dds.info.dxgiFormat).toBe(72);
    expect(rgba(dds, 0)).toEqual([255, 0, 0, 255]);
  });
  it('R8G8B8A8_UNORM (28) and B8G8R8A8_UNORM (87)', () => {
    expect(rgba(decodeDds(dx10(1, 1, 28, [1, 2, 3, 4])), 0)).toEqual([1, 2, 3, 4]);
    expect(rgba(decodeDds(dx10(1, 1, 87, [1, 2, 3, 4])), 0)).toEqual([3, 2, 1, 4]);
    expect(rgba(decodeDds(dx10(1, 1, 88, [1, 2, 3, 4])), 0)).toEqual([3, 2, 1, 255]);
  });
  it('BC5_UNORM (83) and BC4_UNORM (80) decode like ATI2/ATI1', () => {
    const bc5 = [128, 128, 0, 0, 0, 0, 0, 0, 128, 128, 0, 0, 0, 0, 0, 0];
    expect(rgba(decodeDds(dx10(4, 4, 83, bc5)), 5)).toEqual([128, 128, 255, 255]);
    expect(rgba(decodeDds(dx10(4, 4, 80, [90, 90, 0, 0, 0, 0, 0, 0])), 5)).toEqual([90, 90, 90, 255]);
  });
  it('a DX10 cube map (miscFlag 4) and BC7 (98) are refused', () => {
    expect(() => decodeDds(dx10(4, 4, 71, new Array(8).fill(0), 4))).toThrow(/cube map/);
    try {
      decodeDds(dx10(4, 4, 98, new Array(16).fill(0)), { file: 'bc7.dds' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      expect((e as FormatError).field).toBe('dxgiFormat');
    }
  });
});

describe('uncompressed DDS by masks', () => {
  it('32-bit BGRA (A8R8G8B8) and 24-bit BGR', () => {
    const argb = masked(1, 1, 0x41, 32, [0xff0000, 0xff00, 0xff, 0xff000000], [1, 2, 3, 4]);
    expect(rgba(decodeDds(argb), 0)).toEqual([3, 2, 1, 4]);
    const bgr = masked(2, 1, 0x40, 24, [0xff0000, 0xff00, 0xff, 0], [1, 2, 3, 4, 5, 6]);
    expect(rgba(decodeDds(bgr), 1)).toEqual([6, 5, 4, 255]);
  });
  it('16-bit R5G6B5 scales each field to 0…255', () => {
    const rgb565 = masked(1, 1, 0x40, 16, [0xf800, 0x7e0, 0x1f, 0], [0xe0, 0x07]); // pure green
    expect(rgba(decodeDds(rgb565), 0)).toEqual([0, 255, 0, 255]);
  });
  it('8-bit luminance is grey; 8-bit alpha-only is black with alpha', () => {
    expect(rgba(decodeDds(masked(1, 1, 0x20000, 8, [0xff, 0, 0, 0], [77])), 0)).toEqual([77, 77, 77, 255]);
    expect(rgba(decodeDds(masked(1, 1, 0x2, 8, [0, 0, 0, 0xff], [77])), 0)).toEqual([0, 0, 0, 77]);
  });
});

describe('PNG variants through fast-png', () => {
  it('paletted with tRNS, 16-bit and grey decode to RGBA8', () => {
    const pal = encodePngRaw({
      width: 2,
      height: 1,
      data: new Uint8Array([0, 1]),
      depth: 8,
      channels: 1,
      palette: [
        [255, 0, 0, 0],
        [0, 0, 255, 255],
      ],
    });
    const p = decodePng(pal);
    expect(rgba(p, 0)).toEqual([255, 0, 0, 0]);
    expect(rgba(p, 1)).toEqual([0, 0, 255, 255]);
    const deep = encodePngRaw({
      width: 1,
      height: 1,
      data: new Uint16Array([65535, 32896, 0]),
      depth: 16,
      channels: 3,
    });
    expect(rgba(decodePng(deep), 0)).toEqual([255, 128, 0, 255]);
    const grey = encodePngRaw({ width: 1, height: 1, data: new Uint8Array([9, 200]), depth: 8, channels: 2 });
    expect(rgba(decodePng(grey), 0)).toEqual([9, 9, 9, 200]);
  });
});

describe('JPEG through jpeg-js, and the glTF image helpers', () => {
  const jpgs = corpusFiles('gltf', ['.jpg']);
  it('a corpus JPEG passes through toGltfImage and decodes with fromGltfImage', () => {
    const path = jpgs.find((p) => basename(p) === 'CesiumMilkTruck.jpg');
    if (!path) return;
    const bytes = readBytes(path);
    expect(sniffTexture(bytes)).toBe('jpeg');
    const g = toGltfImage(bytes, 'CesiumMilkTruck.jpg');
    expect(g.mimeType).toBe('image/jpeg');
    expect(g.bytes).toBe(bytes);
    expect(g.image).toBeUndefined();
    const img = fromGltfImage(bytes, 'image/jpeg');
    expect(img.width * img.height).toBeGreaterThan(0);
    expect(alphaUse(img)).toBe('opaque');
  });
  it('a JPEG made by jpeg-js decodes close to its pixels', () => {
    const data = new Uint8Array(16 * 16 * 4);
    for (let i = 0; i < 256; i++) data.set([200, 40, 90, 255], i * 4);
    const bytes = new Uint8Array(jpeg.encode({ width: 16, height: 16, data }, 95).data);
    const img = decodeTexture(bytes);
    expect(Math.abs(img.data[0]! - 200)).toBeLessThanOrEqual(3);
    expect(Math.abs(img.data[1]! - 40)).toBeLessThanOrEqual(3);
  });
  it('WebP passes through toGltfImage but is not decoded here', () => {
    const webp = new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]);
    expect(toGltfImage(webp).mimeType).toBe('image/webp');
    expect(() => decodeTexture(webp)).toThrow(/webp is not supported/);
  });
  it('alphaUse: opaque, mask and blend', () => {
    const img = (a: number[]) => ({
      width: a.length,
      height: 1,
      data: Uint8Array.from(a.flatMap((x) => [0, 0, 0, x])),
    });
    expect(alphaUse(img([255, 255]))).toBe('opaque');
    expect(alphaUse(img([255, 0]))).toBe('mask');
    expect(alphaUse(img([0, 128]))).toBe('blend');
  });
  it('readDdsHeader reports the corpus DXT5 without decoding it', () => {
    const path = corpusFiles('textured', ['.dds']).find((p) => basename(p) === 'mesh_base_diffuse.dds');
    if (!path) return;
    const info = readDdsHeader(readBytes(path));
    expect(info.levels.map((l) => l.size)).toEqual([256, 64, 16, 16, 16]);
  });
});
