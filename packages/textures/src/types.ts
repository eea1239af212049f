/** An image as 8-bit RGBA, rows top-down: `data.length === width * height * 4`. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The texture file kinds the package reads (and, for some, writes). */
export type TextureKind = 'pcx' | 'bmp' | 'tga' | 'dds' | 'png' | 'jpeg' | 'webp';

/** The mime types glTF images use. */
export type GltfImageMimeType = 'image/png' | 'image/jpeg' | 'image/webp';

/** How an image uses its alpha channel: none (all 255), cut-out (only 0/255) or blended. */
export type AlphaUse = 'opaque' | 'mask' | 'blend';

/** A glTF image made from a texture file. */
export interface GltfImage {
  bytes: Uint8Array;
  mimeType: GltfImageMimeType;
  /** The decoded RGBA when the file was decoded (not for pass-through PNG/JPEG/WebP). */
  image?: RgbaImage;
}

/** Options of `encodeTexture`. */
export interface EncodeTextureOptions {
  /** DDS: block format (`auto`: BC1 without alpha, BC3 with alpha; BC4/BC5 for grey and normal maps). */
  ddsFormat?: 'auto' | 'bc1' | 'bc3' | 'bc4' | 'bc5' | 'rgba8';
  /** DDS: write a full mip chain (default true). */
  mipmaps?: boolean;
  /** PCX/BMP 8-bit: palette index 0 is the transparent (masked) colour when the image has alpha. Default true. */
  maskIndex0?: boolean;
  /**
   * BMP/TGA: bits per pixel (BMP 8/24/32, TGA 24/32). When not given: 32 with alpha, else 24
   * (the 32 in ENCODE_TEXTURE_DEFAULTS is only the type's placeholder; encodeTexture ignores it).
   */
  bitsPerPixel?: 8 | 24 | 32;
}

export const ENCODE_TEXTURE_DEFAULTS: Required<EncodeTextureOptions> = {
  ddsFormat: 'auto',
  mipmaps: true,
  maskIndex0: true,
  bitsPerPixel: 32,
};
