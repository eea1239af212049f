/**
 * How an RGBA image uses its alpha channel: the one scan every encoder (PNG/BMP/TGA bit depth, DDS
 * BC1 vs BC3) and the material mapping (`alphaUse` → glTF alphaMode) share.
 */
import type { AlphaUse, RgbaImage } from './types.js';

/** True when some pixel's alpha is below 255. */
export function hasAlpha(data: Uint8Array): boolean {
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return true;
  return false;
}

/**
 * How an image uses alpha: none (all 255), cut-out (only 0 and 255) or blended.
 *
 * ```ts
 * alphaUse(image); // 'mask' for a PCX decoded with palette index 0 transparent
 * ```
 */
export function alphaUse(image: RgbaImage): AlphaUse {
  let mask = false;
  const d = image.data;
  for (let i = 3; i < d.length; i += 4) {
    const a = d[i]!;
    if (a !== 255) {
      if (a !== 0) return 'blend';
      mask = true;
    }
  }
  return mask ? 'mask' : 'opaque';
}
