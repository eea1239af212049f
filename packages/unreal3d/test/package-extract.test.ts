/**
 * A package's textures as container entries (`extract Foo.utx --out-dir DIR`): one PNG per
 * Texture export, named by object (`Group/Name.png`), mip 0 decoded — pixels checked on a test
 * `.utx` (P8 masked, RGBA8, DXT1) and on the corpus's HeadHunter.u.
 */
import { join } from 'node:path';
import { FormatError } from '@gltf-legacy/core';
import { decodeTexture } from '@gltf-legacy/textures';
import { hasCorpus, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { decodeTextureMip, legacyFormat, readPackage } from '../src/index.js';
import { UT99_DIR } from './package-helpers.js';
import { buildTexturePackage, dxt1Texture, p8Texture, rgba8Texture } from './utx-builder.js';

const pixel = (img: { data: Uint8Array }, i: number) => [...img.data.subarray(4 * i, 4 * i + 4)];

describe('package textures as entries', () => {
  it('a test .utx: Group/Name.png per texture, mip 0 pixels (P8 index 0 transparent when masked, RGBA8, DXT1)', () => {
    const utx = buildTexturePackage([p8Texture('Red', true), rgba8Texture('Green'), dxt1Texture('Blue')]);
    const entries = legacyFormat.entries!(utx, 'MySkins.utx')!;
    expect(entries.map((e) => [e.path, e.size, e.packedSize, e.compression])).toEqual([
      ['Skins/Red.png', 256, 64, 'p8'],
      ['Skins/Green.png', 64, 64, 'rgba8'],
      ['Other/Blue.png', 64, 8, 'dxt1'],
    ]);
    const red = decodeTexture(entries[0].read(), 'Red.png');
    const colours = [
      [10, 20, 30, 0],
      [255, 0, 0, 255],
      [0, 255, 0, 255],
      [0, 0, 255, 255],
    ];
    for (let i = 0; i < 64; i++) expect(pixel(red, i), `Red ${i}`).toEqual(colours[((i % 8) + (i >> 3)) % 4]);
    const green = decodeTexture(entries[1].read(), 'Green.png');
    for (let i = 0; i < 16; i++)
      expect(pixel(green, i), `Green ${i}`).toEqual([i * 16, 255 - i * 16, 7, 200]);
    const blue = decodeTexture(entries[2].read(), 'Blue.png');
    for (let i = 0; i < 16; i++)
      expect(pixel(blue, i), `Blue ${i}`).toEqual(i >> 2 === 1 ? [0, 0, 255, 255] : [255, 0, 0, 255]);
    // the stored mip sits where the entry says
    expect([...utx.subarray(entries[2].offset, entries[2].offset + 8)]).toEqual([...dxt1Texture('x').data]);
  });

  it('not a package: undefined; a mip that cannot be decoded: a FormatError from read(), listing still works', () => {
    expect(legacyFormat.entries!(new Uint8Array(64), 'x.utx')).toBeUndefined();
    // an 8×8 P8 texture holding 10 bytes
    const short = buildTexturePackage([{ ...p8Texture('Short', false), data: new Uint8Array(10) }]);
    const e = legacyFormat.entries!(short, 'b.utx')!;
    expect(e.map((x) => x.path)).toEqual(['Skins/Short.png']);
    expect(() => e[0].read()).toThrow(FormatError);
  });

  it.runIf(hasCorpus('archives/unreal'))(
    'HeadHunter.u: its two textures, pixels equal mip 0 through the palette',
    () => {
      const bytes = readBytes(join(UT99_DIR(), 'System/HeadHunter.u'));
      const entries = legacyFormat.entries!(bytes, 'HeadHunter.u')!;
      const pkg = readPackage(bytes, 'HeadHunter.u');
      const textures = pkg.exportsOf('Texture');
      expect(entries.map((e) => e.path)).toEqual(
        textures.map((i) => `${pkg.refPath(i + 1).replace(/\./g, '/')}.png`),
      );
      expect(entries.map((e) => e.path)).toContain('Skins/SKIN_Skull.png');
      for (const [k, i] of textures.entries()) {
        const tex = pkg.readTexture(i);
        const want = decodeTextureMip(tex, pkg.readPalette(tex.palette - 1), tex.masked)!;
        const got = decodeTexture(entries[k].read(), entries[k].path);
        expect([got.width, got.height]).toEqual([want.width, want.height]);
        expect(Buffer.compare(Buffer.from(got.data), Buffer.from(want.data)), entries[k].path).toBe(0);
      }
    },
  );
});
