/**
 * Decoding a skin for glTF, with UE1's masked rule: on a masked texture (or masked polygons)
 * palette index 0 is transparent. The image layer decodes to RGBA without telling indices apart, so
 * for an 8-bit PCX or BMP the palette entry 0 is first replaced by a colour no other entry has;
 * the pixels that decode to it are exactly the index-0 pixels.
 */
import { FormatError } from '@gltf-legacy/core';
import {
  decodeTexture,
  encodeTexture,
  type GltfImage,
  pcxToGltfImage,
  type RgbaImage,
  sniffTexture,
  toGltfImage,
} from '@gltf-legacy/textures';

/** Where the palette of an 8-bit paletted PCX/BMP sits: offset, entry count, bytes per entry, RGB order. */
interface PaletteAt {
  offset: number;
  count: number;
  stride: number;
  bgr: boolean;
}

function u16(b: Uint8Array, o: number): number {
  return b[o] | (b[o + 1] << 8);
}
function u32(b: Uint8Array, o: number): number {
  return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
}

function paletteOf(b: Uint8Array): PaletteAt | undefined {
  // PCX: manufacturer 10, 8 bits per pixel, one plane, 256-colour palette after 0x0C at the end.
  if (b.length > 128 + 769 && b[0] === 0x0a && b[3] === 8 && b[65] === 1 && b[b.length - 769] === 0x0c)
    return { offset: b.length - 768, count: 256, stride: 3, bgr: false };
  // BMP: 'BM', 8 bits per pixel, uncompressed or RLE8, palette after the info header.
  if (b.length > 54 && b[0] === 0x42 && b[1] === 0x4d && u16(b, 28) === 8) {
    const headerSize = u32(b, 14);
    const used = u32(b, 46);
    const count = used > 0 && used <= 256 ? used : 256;
    const offset = 14 + headerSize;
    if (headerSize >= 40 && offset + count * 4 <= b.length) return { offset, count, stride: 4, bgr: true };
  }
  return undefined;
}

/**
 * Decodes a texture file to RGBA; when `masked`, pixels of palette index 0 get alpha 0 (8-bit PCX
 * and BMP; other files keep their own alpha).
 *
 * ```ts
 * const rgba = decodeSkin(pcxBytes, 'Textures/Leaf.pcx', true); // index-0 pixels: alpha 0
 * ```
 */
export function decodeSkin(bytes: Uint8Array, name: string, masked: boolean): RgbaImage {
  const pal = masked ? paletteOf(bytes) : undefined;
  if (!pal) return decodeTexture(bytes, name);
  const key = (o: number) =>
    pal.bgr
      ? (bytes[o + 2] << 16) | (bytes[o + 1] << 8) | bytes[o]
      : (bytes[o] << 16) | (bytes[o + 1] << 8) | bytes[o + 2];
  const used = new Set<number>();
  for (let i = 1; i < pal.count; i++) used.add(key(pal.offset + i * pal.stride));
  let unique = 0;
  while (used.has(unique)) unique++;
  const copy = bytes.slice();
  const o = pal.offset;
  const r = (unique >> 16) & 255;
  const g = (unique >> 8) & 255;
  const bl = unique & 255;
  if (pal.bgr) {
    copy[o] = bl;
    copy[o + 1] = g;
    copy[o + 2] = r;
  } else {
    copy[o] = r;
    copy[o + 1] = g;
    copy[o + 2] = bl;
  }
  const image = decodeTexture(copy, name);
  const [r0, g0, b0] = pal.bgr
    ? [bytes[o + 2], bytes[o + 1], bytes[o]]
    : [bytes[o], bytes[o + 1], bytes[o + 2]];
  const d = image.data;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i] === r && d[i + 1] === g && d[i + 2] === bl) {
      d[i] = r0;
      d[i + 1] = g0;
      d[i + 2] = b0;
      d[i + 3] = 0;
    }
  }
  return image;
}

/**
 * The glTF image of a skin file: PNG (masked: index 0 transparent), or the file itself when it is
 * already PNG/JPEG. Throws `FormatError` for a file the image layer cannot read.
 *
 * ```ts
 * const { bytes, mimeType } = skinImage(pcxBytes, 'Textures/JSporifier.pcx', false);
 * ```
 */
export function skinImage(bytes: Uint8Array, name: string, masked: boolean): GltfImage {
  if (!masked || !paletteOf(bytes)) return toGltfImage(bytes, name);
  // an 8-bit PCX: an indexed PNG with its palette, entry 0 transparent (the PCX rebuilds from it)
  const indexed =
    sniffTexture(bytes, name) === 'pcx'
      ? pcxToGltfImage(bytes, name, { transparentIndex0: true })
      : undefined;
  if (indexed) return indexed;
  const image = decodeSkin(bytes, name, true);
  const png = encodeTexture(image, 'png');
  if (!(png instanceof Uint8Array)) throw new FormatError('PNG encoding failed', { file: name });
  return { bytes: png, mimeType: 'image/png', image };
}
