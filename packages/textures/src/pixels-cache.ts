/**
 * The RGBA a PNG was encoded from, remembered by the PNG's bytes (weakly), so that code which
 * needs the pixels of an image it just made (the DDS residual at import) does not decode the PNG
 * again. A lookup miss only costs a decode.
 *
 * ```ts
 * rememberPixels(png, image);
 * pixelsOf(png); // image, or undefined once png is gone
 * ```
 */
import type { RgbaImage } from './types.js';

const known = new WeakMap<Uint8Array, RgbaImage>();

/** Remembers that `png` decodes to `image` (the caller must not change `image` afterwards). */
export function rememberPixels(png: Uint8Array, image: RgbaImage): void {
  known.set(png, image);
}

/** The RGBA remembered for `png`, if any. */
export function pixelsOf(png: Uint8Array): RgbaImage | undefined {
  return known.get(png);
}
