import jpeg from 'jpeg-js';
import { TEXTURE_LIMITS, textureError } from './limits.js';
import type { RgbaImage } from './types.js';

/**
 * Decodes a baseline or progressive JPEG to RGBA8 (alpha 255) with jpeg-js, bounded by
 * {@link TEXTURE_LIMITS} (jpeg-js checks resolution and memory before allocating).
 *
 * ```ts
 * const image = decodeJpeg(bytes, 'photo.jpg');
 * ```
 */
export function decodeJpeg(bytes: Uint8Array, file?: string): RgbaImage {
  const max = TEXTURE_LIMITS.maxDimension;
  try {
    const out = jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: (max * max) / 1e6,
      maxMemoryUsageInMB: Math.ceil(TEXTURE_LIMITS.maxDecodedBytes / (1024 * 1024)) * 2,
    });
    if (out.width < 1 || out.height < 1 || out.width > max || out.height > max) {
      textureError(
        `JPEG size ${out.width}×${out.height} is outside 1…${max}`,
        file,
        0,
        'SOF',
        'TEXTURE_TOO_LARGE',
      );
    }
    return {
      width: out.width,
      height: out.height,
      data: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength),
    };
  } catch (e) {
    if ((e as { name?: string }).name === 'FormatError') throw e;
    textureError(`JPEG does not decode: ${(e as Error).message}`, file, undefined, 'jpeg');
  }
}
