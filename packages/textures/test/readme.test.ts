import { expect, it } from 'vitest';
import {
  alphaUse,
  decodePcx,
  decodeTexture,
  encodeTexture,
  fromGltfImage,
  readDdsHeader,
  sniffTexture,
  toGltfImage,
} from '../src/index.js';

it('the README example runs as written and says what it returns', () => {
  // a 2×2 image, one pixel cut out
  // biome-ignore format: the README's layout
  const image = { width: 2, height: 2, data: new Uint8Array([
    255, 0, 0, 255,   0, 255, 0, 255,
    0, 0, 255, 255,   0, 0, 0, 0,
  ]) };
  expect(alphaUse(image)).toBe('mask');

  const pcx = encodeTexture(image, 'pcx');
  expect(sniffTexture(pcx)).toBe('pcx');
  expect([...decodePcx(pcx).indices!]).toEqual([1, 2, 3, 0]);

  const { bytes: png, mimeType } = toGltfImage(pcx, 'Textures/Skin.pcx');
  expect(mimeType).toBe('image/png');
  expect([...fromGltfImage(png, mimeType).data]).toEqual([
    255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 0, 0, 0, 255,
  ]);

  const dds = encodeTexture(image, 'dds');
  expect(readDdsHeader(dds).fourCC).toBe('DXT5');
  expect(readDdsHeader(dds).levels).toHaveLength(2);
  expect(decodeTexture(dds, 'skin.dds').width).toBe(2);
});
