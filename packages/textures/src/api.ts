import { FormatError } from '@gltf-legacy/core';
import type {
  AlphaUse,
  EncodeTextureOptions,
  GltfImage,
  GltfImageMimeType,
  RgbaImage,
  TextureKind,
} from './types.js';

// Placeholder bodies: the textures work replaces them with the real codecs (same signatures).

/** The kind of a texture file, by magic bytes first and extension second. */
export function sniffTexture(bytes: Uint8Array, name?: string): TextureKind | undefined {
  void bytes;
  void name;
  return undefined;
}

/** Decodes a texture file to RGBA (the first, largest mip). Throws FormatError. */
export function decodeTexture(bytes: Uint8Array, name?: string): RgbaImage {
  void bytes;
  throw new FormatError('texture decoding is not implemented yet', {
    code: 'UNSUPPORTED_TEXTURE',
    file: name,
  });
}

/** Encodes RGBA as a texture file of `kind`. */
export function encodeTexture(
  image: RgbaImage,
  kind: TextureKind,
  options?: EncodeTextureOptions,
): Uint8Array {
  void image;
  void options;
  throw new FormatError(`encoding ${kind} is not implemented yet`, { code: 'UNSUPPORTED_TEXTURE' });
}

/** A glTF image for a texture file: PNG/JPEG/WebP pass through, others become PNG. */
export function toGltfImage(bytes: Uint8Array, name?: string): GltfImage {
  return { bytes: encodeTexture(decodeTexture(bytes, name), 'png'), mimeType: 'image/png' };
}

/** Decodes a glTF image (PNG, JPEG) to RGBA. */
export function fromGltfImage(bytes: Uint8Array, mimeType: GltfImageMimeType | string): RgbaImage {
  return decodeTexture(bytes, mimeType === 'image/jpeg' ? 'image.jpg' : 'image.png');
}

/** How an image uses alpha. */
export function alphaUse(image: RgbaImage): AlphaUse {
  let mask = false;
  for (let i = 3; i < image.data.length; i += 4) {
    const a = image.data[i]!;
    if (a !== 255) {
      if (a !== 0) return 'blend';
      mask = true;
    }
  }
  return mask ? 'mask' : 'opaque';
}
