/**
 * UE1 textures have power-of-two sides (UCC refuses others): a glTF image of another size is
 * resampled to the nearest power of two per side before it becomes a skin. UVs are relative, so the
 * mesh maps the same way.
 */
import type { RgbaImage } from '@gltf-legacy/textures';

/** Largest side a skin is written with (larger images are downsampled). */
export const MAX_SKIN_SIDE = 2048;

/**
 * The nearest power of two to `n` (ties go up), at least 1 and at most {@link MAX_SKIN_SIDE}.
 *
 * ```ts
 * nearestPow2(600); // 512
 * nearestPow2(800); // 1024
 * ```
 */
export function nearestPow2(n: number): number {
  if (n <= 1) return 1;
  const lo = 2 ** Math.floor(Math.log2(n));
  const p = n - lo < lo * 2 - n ? lo : lo * 2;
  return Math.min(p, MAX_SKIN_SIDE);
}

/**
 * The image resampled (bilinear, pixel centres aligned) to power-of-two sides, or the image itself
 * when its sides are powers of two already.
 *
 * ```ts
 * const skin = toPow2({ width: 300, height: 200, data }); // 256 × 256
 * ```
 */
export function toPow2(image: RgbaImage): RgbaImage {
  const w = nearestPow2(image.width);
  const h = nearestPow2(image.height);
  if (w === image.width && h === image.height) return image;
  const src = image.data;
  const out = new Uint8Array(w * h * 4);
  const sx = image.width / w;
  const sy = image.height / h;
  for (let y = 0; y < h; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), image.height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, image.height - 1);
    const ty = fy - y0;
    for (let x = 0; x < w; x++) {
      const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), image.width - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, image.width - 1);
      const tx = fx - x0;
      const a = (y0 * image.width + x0) * 4;
      const b = (y0 * image.width + x1) * 4;
      const c = (y1 * image.width + x0) * 4;
      const d = (y1 * image.width + x1) * 4;
      const o = (y * w + x) * 4;
      for (let k = 0; k < 4; k++) {
        const top = src[a + k] + (src[b + k] - src[a + k]) * tx;
        const bottom = src[c + k] + (src[d + k] - src[c + k]) * tx;
        out[o + k] = Math.round(top + (bottom - top) * ty);
      }
    }
  }
  return { width: w, height: h, data: out };
}
