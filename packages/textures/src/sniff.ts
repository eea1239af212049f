import type { TextureKind } from './types.js';

const EXTENSIONS: Record<string, TextureKind> = {
  pcx: 'pcx',
  bmp: 'bmp',
  dib: 'bmp',
  tga: 'tga',
  dds: 'dds',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  webp: 'webp',
};

function ascii(bytes: Uint8Array, offset: number, text: string): boolean {
  if (bytes.length < offset + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** True when the bytes end with the TGA 2.0 footer signature. */
export function hasTgaFooter(bytes: Uint8Array): boolean {
  return bytes.length >= 44 && ascii(bytes, bytes.length - 18, 'TRUEVISION-XFILE.');
}

/** The texture kind a file name's extension names, if any. */
export function kindFromName(name: string | undefined): TextureKind | undefined {
  if (!name) return undefined;
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  return EXTENSIONS[name.slice(dot + 1).toLowerCase()];
}

function looksLikePcx(b: Uint8Array): boolean {
  return (
    b.length >= 128 &&
    b[0] === 0x0a &&
    b[1]! <= 5 &&
    b[1] !== 1 &&
    b[2]! <= 1 &&
    (b[3] === 1 || b[3] === 2 || b[3] === 4 || b[3] === 8)
  );
}

/**
 * The kind of a texture file, by magic bytes first and the name's extension second. TGA has no
 * magic: it is recognised by its 2.0 footer or by a `.tga` name.
 *
 * ```ts
 * sniffTexture(bytes, 'Textures/JSporifier.pcx'); // 'pcx'
 * ```
 */
export function sniffTexture(bytes: Uint8Array, name?: string): TextureKind | undefined {
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(bytes, 1, 'PNG\r\n\x1a\n')) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(bytes, 0, 'DDS ')) return 'dds';
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return 'webp';
  if (ascii(bytes, 0, 'BM') && bytes.length >= 26) return 'bmp';
  if (looksLikePcx(bytes)) return 'pcx';
  if (hasTgaFooter(bytes)) return 'tga';
  return kindFromName(name);
}
