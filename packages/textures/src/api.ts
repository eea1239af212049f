import type { DdsImage } from './dds.js';
import { rememberPixels } from './pixels-cache.js';
import { FormatError } from '@gltf-legacy/core';
import { decodeBmp, encodeBmp } from './bmp.js';
import { decodeDds } from './dds.js';
import { encodeDds } from './dds-encode.js';
import { decodeJpeg } from './jpeg.js';
import { decodePcx } from './pcx.js';
import { encodePcx } from './pcx-encode.js';
import { decodePng, encodePng } from './png.js';
import { pcxToGltfImage } from './rebuild.js';
import { sniffTexture } from './sniff.js';
import { decodeTga, encodeTga } from './tga.js';
import type { EncodeTextureOptions, GltfImage, GltfImageMimeType, RgbaImage, TextureKind } from './types.js';
import { ENCODE_TEXTURE_DEFAULTS } from './types.js';

export { sniffTexture } from './sniff.js';

type Decoder = (bytes: Uint8Array, file?: string) => RgbaImage;
type Encoder = (image: RgbaImage, options: Required<EncodeTextureOptions>, bpp?: 8 | 24 | 32) => Uint8Array;

const DECODERS: Partial<Record<TextureKind, Decoder>> = {
  png: decodePng,
  jpeg: decodeJpeg,
  pcx: (bytes, file) => decodePcx(bytes, { file }),
  dds: (bytes, file) => decodeDds(bytes, { file }),
  bmp: decodeBmp,
  tga: decodeTga,
};

const ENCODERS: Partial<Record<TextureKind, Encoder>> = {
  png: (image) => encodePng(image),
  pcx: (image, o) => encodePcx(image, { maskIndex0: o.maskIndex0 }),
  bmp: (image, o, bpp) => encodeBmp(image, { bitsPerPixel: bpp, maskIndex0: o.maskIndex0 }),
  tga: (image, _o, bpp) => encodeTga(image, { bitsPerPixel: bpp === 8 ? undefined : bpp }),
  dds: (image, o) => encodeDds(image, { format: o.ddsFormat, mipmaps: o.mipmaps }),
};

/**
 * Decodes a texture file to RGBA (the first, largest mip). The kind comes from the bytes first and
 * the name's extension second. Throws FormatError (UNSUPPORTED_TEXTURE for unknown kinds and WebP).
 *
 * ```ts
 * const { width, height, data } = decodeTexture(bytes, 'Textures/JSporifier.pcx');
 * ```
 */
export function decodeTexture(bytes: Uint8Array, name?: string): RgbaImage {
  const kind = sniffTexture(bytes, name);
  const decoder = kind ? DECODERS[kind] : undefined;
  if (!decoder) {
    throw new FormatError(kind ? `decoding ${kind} is not supported` : 'not a known texture file', {
      code: 'UNSUPPORTED_TEXTURE',
      file: name,
    });
  }
  return decoder(bytes, name);
}

/**
 * Encodes RGBA as a texture file of `kind`: png; pcx (8-bit paletted); bmp (8/24/32-bit); tga
 * (24/32-bit); dds (BC1/BC3/BC4/BC5/RGBA8 with mips). WebP and JPEG are not written.
 *
 * ```ts
 * const pcx = encodeTexture(image, 'pcx'); // 8-bit paletted, index 0 masked when alpha is used
 * const dds = encodeTexture(image, 'dds', { ddsFormat: 'bc1', mipmaps: true });
 * ```
 */
export function encodeTexture(
  image: RgbaImage,
  kind: TextureKind,
  options?: EncodeTextureOptions,
): Uint8Array {
  const encoder = ENCODERS[kind];
  if (!encoder) throw new FormatError(`encoding ${kind} is not supported`, { code: 'UNSUPPORTED_TEXTURE' });
  if (image.data.length !== image.width * image.height * 4 || image.width < 1 || image.height < 1) {
    throw new FormatError(
      `RGBA data of ${image.data.length} bytes does not match ${image.width}×${image.height}`,
      { code: 'BAD_TEXTURE', field: 'data' },
    );
  }
  return encoder(
    image,
    { ...ENCODE_TEXTURE_DEFAULTS, ...stripUndefined(options ?? {}) },
    options?.bitsPerPixel,
  );
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

const PASS_THROUGH: Partial<Record<TextureKind, GltfImageMimeType>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/**
 * A glTF image for a texture file: PNG/JPEG/WebP pass through unchanged; an 8-bit PCX becomes an
 * indexed PNG with its own palette and indices (`pcxToGltfImage`: the PCX rebuilds from it);
 * other PCX, BMP, TGA and DDS are decoded (first mip) and encoded as PNG; `image` is the RGBA.
 *
 * ```ts
 * const { bytes: png, mimeType } = toGltfImage(pcxBytes, 'JSporifier.pcx'); // 'image/png'
 * ```
 */
export function toGltfImage(bytes: Uint8Array, name?: string): GltfImage {
  const kind = sniffTexture(bytes, name);
  const mime = kind ? PASS_THROUGH[kind] : undefined;
  if (mime) return { bytes, mimeType: mime };
  if (kind === 'pcx') {
    const indexed = pcxToGltfImage(bytes, name);
    if (indexed) return indexed;
  }
  const image = decodeTexture(bytes, name);
  const blockCompressed = kind === 'dds' && (image as Partial<DdsImage>).info?.pixelFormat.kind === 'bc';
  const png = encodePng(image, { blockCompressed });
  rememberPixels(png, image);
  return { bytes: png, mimeType: 'image/png', image };
}

/**
 * Decodes a glTF image (PNG, JPEG) to RGBA; the bytes decide when they disagree with the mime type.
 *
 * ```ts
 * const rgba = fromGltfImage(image.getImage()!, image.getMimeType());
 * ```
 */
export function fromGltfImage(bytes: Uint8Array, mimeType: GltfImageMimeType | string): RgbaImage {
  return decodeTexture(
    bytes,
    mimeType === 'image/jpeg' ? 'image.jpg' : mimeType === 'image/webp' ? 'image.webp' : 'image.png',
  );
}
