import type { RgbaImage } from './types.js';

/**
 * The next smaller mip: each output pixel is the rounded mean of its 2×2 (or 2×1/1×2 at odd or
 * single-pixel edges) source pixels, all four channels alike (no premultiplication).
 *
 * ```ts
 * const half = downsample(image); // 512×512 → 256×256
 * ```
 */
export function downsample(image: RgbaImage): RgbaImage {
  const { width: w, height: h, data } = image;
  const nw = Math.max(1, w >> 1);
  const nh = Math.max(1, h >> 1);
  const out = new Uint8Array(nw * nh * 4);
  for (let y = 0; y < nh; y++) {
    const y0 = Math.min(h - 1, y * 2);
    const y1 = Math.min(h - 1, y * 2 + 1);
    for (let x = 0; x < nw; x++) {
      const x0 = Math.min(w - 1, x * 2);
      const x1 = Math.min(w - 1, x * 2 + 1);
      const a = (y0 * w + x0) * 4;
      const b = (y0 * w + x1) * 4;
      const c = (y1 * w + x0) * 4;
      const d = (y1 * w + x1) * 4;
      const o = (y * nw + x) * 4;
      for (let k = 0; k < 4; k++)
        out[o + k] = (data[a + k]! + data[b + k]! + data[c + k]! + data[d + k]! + 2) >> 2;
    }
  }
  return { width: nw, height: nh, data: out };
}

/** The full mip chain down to 1×1, largest first (the image itself first). */
export function mipChain(image: RgbaImage): RgbaImage[] {
  const chain = [image];
  let cur = image;
  while (cur.width > 1 || cur.height > 1) {
    cur = downsample(cur);
    chain.push(cur);
  }
  return chain;
}
