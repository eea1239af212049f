import { decodeBmp } from './bmp.js';
import { decodePcx } from './pcx.js';
import { sniffTexture } from './sniff.js';
import type { RgbaImage } from './types.js';

/** An 8-bit (or less) paletted image: RGBA plus the index of each pixel and the palette. */
export interface PalettedImage extends RgbaImage {
  /** Palette index per pixel, rows top-down. */
  indices: Uint8Array;
  /** 256 RGB triplets (768 bytes). */
  palette: Uint8Array;
}

/**
 * Decodes an 8-bit paletted PCX or a 1/4/8-bit BMP keeping its indices; `undefined` for every
 * other file (true-colour PCX/BMP, TGA, DDS, PNG, JPEG). Throws FormatError like decodeTexture.
 *
 * ```ts
 * const skin = decodePaletted(bytes, 'Textures/Leaf.pcx');
 * const rgba = skin ? maskPaletteIndex0(skin) : decodeTexture(bytes, 'Textures/Leaf.pcx');
 * ```
 */
export function decodePaletted(bytes: Uint8Array, name?: string): PalettedImage | undefined {
  const kind = sniffTexture(bytes, name);
  const img =
    kind === 'pcx' ? decodePcx(bytes, { file: name }) : kind === 'bmp' ? decodeBmp(bytes, name) : undefined;
  if (!img?.indices || !img.palette) return undefined;
  return { width: img.width, height: img.height, data: img.data, indices: img.indices, palette: img.palette };
}

/**
 * A copy of the RGBA with alpha 0 where the palette index is 0 — Unreal's masked rule (masked
 * textures and polygons draw index 0 transparent), whatever colour entry 0 has.
 *
 * ```ts
 * alphaUse(maskPaletteIndex0(decodePaletted(pcx)!)); // 'mask' when index 0 is used
 * ```
 */
export function maskPaletteIndex0(image: PalettedImage): RgbaImage {
  const data = image.data.slice();
  const { indices } = image;
  for (let i = 0; i < indices.length; i++) if (indices[i] === 0) data[i * 4 + 3] = 0;
  return { width: image.width, height: image.height, data };
}
