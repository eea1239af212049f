import { basename } from 'node:path';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  alphaUse,
  decodeDds,
  decodePcx,
  decodePng,
  decodeTexture,
  encodeDds,
  encodePcxIndexed,
  readDdsHeader,
  sniffTexture,
  toGltfImage,
} from '../src/index.js';
import { firstDiff } from './helpers.js';

const files = corpusFiles('textured', ['.pcx', '.dds', '.png', '.bmp', '.tga', '.jpg']);

describe('every texture file of corpus/textured decodes', () => {
  it('finds the 26 texture files (5 PCX, 11 DDS, 10 PNG)', () => {
    if (files.length === 0) return; // corpus absent locally (CI throws in corpusFiles)
    expect(files.filter((f) => f.endsWith('.pcx')).length).toBe(5);
    expect(files.filter((f) => f.endsWith('.dds')).length).toBe(11);
    expect(files.filter((f) => f.endsWith('.png')).length).toBe(10);
  });
  for (const path of files) {
    it(basename(path), () => {
      const bytes = readBytes(path);
      const kind = sniffTexture(bytes);
      expect(kind).toBe(path.endsWith('.dds') ? 'dds' : path.endsWith('.pcx') ? 'pcx' : 'png');
      const image = decodeTexture(bytes, basename(path));
      expect(image.data.length).toBe(image.width * image.height * 4);
      // not a blank decode: more than one distinct colour (Unigine's 16×16 core textures are flat)
      const px = new Uint32Array(image.data.slice().buffer);
      const distinct = new Set(px).size;
      if (image.width > 16) expect(distinct).toBeGreaterThan(1);
      const gltf = toGltfImage(bytes, basename(path));
      if (kind === 'png') {
        expect(gltf.bytes).toBe(bytes);
      } else {
        expect(gltf.mimeType).toBe('image/png');
        expect(firstDiff(decodePng(gltf.bytes).data, image.data)).toBe(-1);
      }
    });
  }
});

describe('PCX pixels are palette lookups', () => {
  const pcxs = files.filter((f) => f.endsWith('.pcx'));
  for (const path of pcxs) {
    it(`${basename(path)}: RGBA = palette[index], palette from the 0x0C trailer`, () => {
      const bytes = readBytes(path);
      const pcx = decodePcx(bytes, { file: basename(path) });
      expect(pcx.bitsPerPixel).toBe(8);
      expect(bytes[bytes.length - 769]).toBe(0x0c);
      expect(firstDiff(pcx.palette!, bytes.subarray(bytes.length - 768))).toBe(-1);
      const { indices, palette, data } = pcx;
      for (let i = 0; i < indices!.length; i += 97) {
        const c = indices![i]! * 3;
        expect([data[i * 4], data[i * 4 + 1], data[i * 4 + 2], data[i * 4 + 3]]).toEqual([
          palette![c],
          palette![c + 1],
          palette![c + 2],
          255,
        ]);
      }
    });
  }
  for (const path of pcxs) {
    it(`${basename(path)}: indices + palette re-encode to the original bytes (classic RLE)`, () => {
      const bytes = readBytes(path);
      const pcx = decodePcx(bytes);
      const dpi = bytes[12]! | (bytes[13]! << 8);
      const again = encodePcxIndexed(pcx.width, pcx.height, pcx.indices!, pcx.palette!, { dpi });
      expect(again.length).toBe(bytes.length);
      expect(firstDiff(again, bytes)).toBe(-1);
    });
  }
  it('JSporifier.pcx is 512×512 and SporeDecal.pcx 128×128', () => {
    const byName = (n: string) => pcxs.find((p) => basename(p) === n);
    const s = byName('JSporifier.pcx');
    const d = byName('SporeDecal.pcx');
    if (!s || !d) return;
    const a = decodePcx(readBytes(s));
    const b = decodePcx(readBytes(d));
    expect([a.width, a.height, b.width, b.height]).toEqual([512, 512, 128, 128]);
  });
});

describe('DDS headers of the corpus', () => {
  const ddss = files.filter((f) => f.endsWith('.dds'));
  it('formats and mip chains are read as the headers say', () => {
    if (ddss.length === 0) return;
    const summary = Object.fromEntries(
      ddss.map((p) => {
        const info = readDdsHeader(readBytes(p), basename(p));
        const pf = info.pixelFormat;
        return [
          basename(p),
          `${info.fourCC}:${pf.kind === 'bc' ? pf.format : 'masks'}:${info.width}x${info.height}:${info.levels.length}`,
        ];
      }),
    );
    expect(summary).toMatchObject({
      'slug_dif.dds': 'DXT1:bc1:1024x1024:11',
      'snail_red_dif.dds': 'DXT3:bc2:1024x1024:11',
      'mesh_base_diffuse.dds': 'DXT5:bc3:16x16:5',
      'mesh_base_normal.dds': 'ATI2:bc5:16x16:5',
      'Ninja.dds': 'DXT1:bc1:512x512:10',
    });
  });
  it('the BC5 normal map decodes to unit normals (Z reconstructed into blue)', () => {
    const p = ddss.find((f) => basename(f) === 'mesh_base_normal.dds');
    if (!p) return;
    const dds = decodeDds(readBytes(p));
    for (let i = 0; i < dds.data.length; i += 4) {
      const x = dds.data[i]! / 127.5 - 1;
      const y = dds.data[i + 1]! / 127.5 - 1;
      const z = dds.data[i + 2]! / 127.5 - 1;
      expect(Math.abs(Math.hypot(x, y, z) - 1)).toBeLessThan(0.02);
    }
  });
  it("Unigine's flat core textures decode to their block colours", () => {
    const get = (n: string) => ddss.find((f) => basename(f) === n);
    const n = get('mesh_base_normal.dds');
    const s = get('mesh_base_specular.dds');
    if (!n || !s) return;
    // ATI2 blocks 7f7f…: X = Y = 127 → Z = sqrt(1 - 2·(0.5/127.5)²) ≈ 1 → 255
    expect([...decodeDds(readBytes(n)).data.subarray(0, 4)]).toEqual([127, 127, 255, 255]);
    // DXT1 blocks f7bd f7bd 00000000: both endpoints 0xbdf7 = (23, 47, 23) → (189, 190, 189)
    expect([...decodeDds(readBytes(s)).data.subarray(0, 4)]).toEqual([189, 190, 189, 255]);
  });
  it('re-encoding the decoded DXT1/DXT3 textures as DDS stays within a mean error of 0.5', () => {
    for (const p of ddss.filter((f) => /slug|snail|axe|Ninja|Mushroom|SnowCrate/.test(f))) {
      const img = decodeDds(readBytes(p));
      const back = decodeDds(encodeDds(img)).data;
      let sum = 0;
      for (let i = 0; i < back.length; i++) sum += Math.abs(back[i]! - img.data[i]!);
      expect(sum / back.length, basename(p)).toBeLessThan(0.5);
    }
  });
  it('every smaller mip decodes', () => {
    for (const p of ddss) {
      const bytes = readBytes(p);
      const info = readDdsHeader(bytes);
      const last = decodeDds(bytes, { level: info.levels.length - 1 });
      expect(last.width * last.height).toBeGreaterThanOrEqual(1);
    }
  });
  it('the DXT1 textures of the corpus are opaque, not cut out', () => {
    for (const p of ddss.filter((f) => /slug_dif|Ninja\.dds/.test(f))) {
      expect(alphaUse(decodeDds(readBytes(p)))).toBe('opaque');
    }
  });
});
