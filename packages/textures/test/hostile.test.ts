import { FormatError } from '@gltf-legacy/core';
import { describe, expect, it } from 'vitest';
import { decodeDds, decodePcx, decodePng, decodeTexture, TEXTURE_LIMITS } from '../src/index.js';

function catchError(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('no error thrown');
}

function pcxHeader(width: number, height: number, planes = 1, encoding = 1): Uint8Array {
  const h = new Uint8Array(128);
  h.set([0x0a, 5, encoding, 8]);
  new DataView(h.buffer).setUint16(8, width - 1, true);
  new DataView(h.buffer).setUint16(10, height - 1, true);
  h[65] = planes;
  new DataView(h.buffer).setUint16(66, width + (width & 1), true);
  return h;
}

function ddsHeader(width: number, height: number, fourCC: string, mips = 1, caps2 = 0): Uint8Array {
  const h = new Uint8Array(128);
  const v = new DataView(h.buffer);
  h.set([0x44, 0x44, 0x53, 0x20]);
  v.setUint32(4, 124, true);
  v.setUint32(8, 0x1007 | (mips > 1 ? 0x20000 : 0), true);
  v.setUint32(12, height, true);
  v.setUint32(16, width, true);
  v.setUint32(28, mips, true);
  v.setUint32(76, 32, true);
  v.setUint32(80, 4, true);
  for (let i = 0; i < 4; i++) h[84 + i] = fourCC.charCodeAt(i);
  v.setUint32(112, caps2, true);
  return h;
}

describe('hostile PCX', () => {
  it('a 4-byte PCX is a FormatError naming the header', () => {
    const e = catchError(() => decodePcx(new Uint8Array([0x0a, 5, 1, 8]), { file: 'tiny.pcx' }));
    expect(e.file).toBe('tiny.pcx');
    expect(e.field).toBe('header');
    expect(e.code).toBe('TRUNCATED');
  });
  it('65535×65535 is refused by the size limit before any allocation', () => {
    const e = catchError(() => decodePcx(pcxHeader(65535, 65535), { file: 'huge.pcx' }));
    expect(e.code).toBe('TEXTURE_TOO_LARGE');
    expect(e.offset).toBe(4);
  });
  it('a size the RLE bytes left cannot hold is refused before allocating', () => {
    const bytes = new Uint8Array(128 + 10);
    bytes.set(pcxHeader(4096, 4096));
    const e = catchError(() => decodePcx(bytes, { file: 'short.pcx' }));
    expect(e.code).toBe('TRUNCATED');
    expect(e.field).toBe('pixels');
  });
  it('truncated RLE names the offset where the data ran out', () => {
    // 4×4 paletted needs 16 bytes (bytesPerLine 4); give a run of 63 missing its value byte
    const bytes = new Uint8Array(128 + 11);
    bytes.set(pcxHeader(4, 4));
    bytes.fill(1, 128, 138);
    bytes[138] = 0xc5; // run of 5 with no value byte
    const e = catchError(() => decodePcx(bytes, { file: 'cut.pcx' }));
    expect(e.code).toBe('TRUNCATED');
    expect(e.offset).toBe(138);
  });
  it('an unsupported 4-bit EGA PCX is UNSUPPORTED_TEXTURE', () => {
    const h = pcxHeader(8, 8);
    h[3] = 4;
    expect(catchError(() => decodePcx(h)).code).toBe('UNSUPPORTED_TEXTURE');
  });
});

describe('hostile DDS', () => {
  it('cube maps are refused with a clear error', () => {
    const e = catchError(() => decodeDds(ddsHeader(4, 4, 'DXT1', 1, 0xfe00), { file: 'sky.dds' }));
    expect(e.code).toBe('UNSUPPORTED_TEXTURE');
    expect(e.message).toMatch(/cube map/);
    expect(e.field).toBe('dwCaps2');
  });
  it('a truncated mip chain names the level and its offset', () => {
    const bytes = new Uint8Array(128 + 32 + 8); // 8×8 DXT1: 32 + 8 + 8 bytes, last level missing
    bytes.set(ddsHeader(8, 8, 'DXT1', 3));
    const e = catchError(() => decodeDds(bytes, { file: 'cut.dds' }));
    expect(e.field).toBe('mip[2]');
    expect(e.offset).toBe(128 + 40);
    expect(e.file).toBe('cut.dds');
  });
  it('a 65535² DXT5 in a 128-byte file fails on size before allocating', () => {
    expect(catchError(() => decodeDds(ddsHeader(65535, 65535, 'DXT5'))).code).toBe('TEXTURE_TOO_LARGE');
    const e = catchError(() => decodeDds(ddsHeader(8192, 8192, 'DXT5')));
    expect(e.code).toBe('TRUNCATED');
    expect(e.field).toBe('mip[0]');
  });
  it('more mip levels than the size allows is an error', () => {
    const bytes = new Uint8Array(1024);
    bytes.set(ddsHeader(4, 4, 'DXT1', 9));
    expect(catchError(() => decodeDds(bytes)).field).toBe('dwMipMapCount');
  });
  it('unknown FourCC is UNSUPPORTED_TEXTURE', () => {
    expect(catchError(() => decodeDds(ddsHeader(4, 4, 'BC7X'))).code).toBe('UNSUPPORTED_TEXTURE');
  });
});

describe('hostile PNG and unknown files', () => {
  it('a PNG header claiming 100000×100000 is refused before fast-png allocates', () => {
    const b = new Uint8Array(40);
    b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(b.buffer).setUint32(16, 100000);
    new DataView(b.buffer).setUint32(20, 100000);
    expect(catchError(() => decodePng(b)).code).toBe('TEXTURE_TOO_LARGE');
  });
  it('a corrupt PNG is a FormatError, not a crash', () => {
    const b = new Uint8Array(60);
    b.set([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 4, 0, 0,
      0, 4, 8, 6,
    ]);
    expect(catchError(() => decodePng(b, 'bad.png')).file).toBe('bad.png');
  });
  it('random bytes are UNSUPPORTED_TEXTURE', () => {
    expect(catchError(() => decodeTexture(new Uint8Array([1, 2, 3]), 'x.bin')).code).toBe(
      'UNSUPPORTED_TEXTURE',
    );
  });
  it('limits are documented values', () => {
    expect(TEXTURE_LIMITS).toEqual({ maxDimension: 16384, maxDecodedBytes: 256 * 1024 * 1024 });
  });
});
