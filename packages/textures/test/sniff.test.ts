import { describe, expect, it } from 'vitest';
import { encodeBmp, encodeDds, encodePcx, encodePng, encodeTga, sniffTexture } from '../src/index.js';

const img = { width: 1, height: 1, data: new Uint8Array([1, 2, 3, 255]) };

describe('sniffTexture: magic first, extension second', () => {
  it('every written kind is recognised from its bytes alone', () => {
    expect(sniffTexture(encodePng(img))).toBe('png');
    expect(sniffTexture(encodePcx(img))).toBe('pcx');
    expect(sniffTexture(encodeBmp(img))).toBe('bmp');
    expect(sniffTexture(encodeTga(img))).toBe('tga');
    expect(sniffTexture(encodeDds(img))).toBe('dds');
    expect(sniffTexture(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
  });
  it('the bytes win over a wrong extension', () => {
    expect(sniffTexture(encodeDds(img), 'skin.tga')).toBe('dds');
    expect(sniffTexture(encodePng(img), 'skin.pcx')).toBe('png');
  });
  it('extensions in any case, and nothing for unknown files', () => {
    expect(sniffTexture(new Uint8Array(4), 'A/B/SKIN.TGA')).toBe('tga');
    expect(sniffTexture(new Uint8Array(4), 'photo.JPEG')).toBe('jpeg');
    expect(sniffTexture(new Uint8Array(4), 'model.3d')).toBeUndefined();
    expect(sniffTexture(new Uint8Array(0))).toBeUndefined();
  });
});
