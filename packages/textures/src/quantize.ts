import { buildPaletteSync, utils } from 'image-q';
import type { RgbaImage } from './types.js';

/** An 8-bit paletted image. */
export interface IndexedImage {
  width: number;
  height: number;
  /** One palette index per pixel, rows top-down. */
  indices: Uint8Array;
  /** 256 RGB triplets (768 bytes); entries past `colors` are black. */
  palette: Uint8Array;
  /** Palette entries in use. */
  colors: number;
  /** True when index 0 is the masked (transparent) colour. */
  masked: boolean;
  /** True when the colours had to be quantized (more than fit in the palette). */
  quantized: boolean;
}

/** Options of {@link palettize}. */
export interface PalettizeOptions {
  /** Reserve index 0 for pixels whose alpha is below 128, when the image has any (default true). */
  maskIndex0?: boolean;
  /** Most pixels image-q builds a palette from; larger images are sampled evenly (default 65536). */
  maxSamples?: number;
  /**
   * image-q palette quantizer (default `neuquant`). Measured on Kachujin_diffuse.png (65536
   * samples, 255 colours): neuquant 0.7 s / mean error 3.04, rgbquant 0.09 s / 3.27, wuquant
   * 4.1 s / 2.94 (its 33⁴ moment tables cost the same for any image size).
   */
  quantizer?: 'neuquant' | 'rgbquant' | 'wuquant';
}

export const PALETTIZE_DEFAULTS: Required<PalettizeOptions> = {
  maskIndex0: true,
  maxSamples: 65536,
  quantizer: 'neuquant',
};

/**
 * RGBA → 8-bit palette + indices. Images with at most 256 colours (255 when index 0 is masked)
 * get an exact palette in order of first appearance; others are quantized with image-q (NeuQuant
 * by default, euclidean RGB, on an even sample of at most `maxSamples` pixels) and mapped to the
 * nearest palette colour without dithering. Masked pixels (alpha < 128) take index 0, whose
 * colour is the RGB of the first such pixel.
 *
 * ```ts
 * const { indices, palette, masked } = palettize(image, { maskIndex0: true });
 * ```
 */
export function palettize(image: RgbaImage, options: PalettizeOptions = {}): IndexedImage {
  const o = { ...PALETTIZE_DEFAULTS, ...options };
  const { width, height, data } = image;
  const n = width * height;
  let firstMasked = -1;
  if (o.maskIndex0) {
    for (let i = 0; i < n; i++) {
      if (data[i * 4 + 3]! < 128) {
        firstMasked = i;
        break;
      }
    }
  }
  const masked = firstMasked >= 0;
  const base = masked ? 1 : 0;
  const limit = 256 - base;
  const palette = new Uint8Array(768);
  const indices = new Uint8Array(n);
  if (masked) {
    palette[0] = data[firstMasked * 4]!;
    palette[1] = data[firstMasked * 4 + 1]!;
    palette[2] = data[firstMasked * 4 + 2]!;
  }
  const exact = new Map<number, number>();
  let overflow = false;
  for (let i = 0; i < n; i++) {
    const d = i * 4;
    if (masked && data[d + 3]! < 128) continue;
    const key = (data[d]! << 16) | (data[d + 1]! << 8) | data[d + 2]!;
    let idx = exact.get(key);
    if (idx === undefined) {
      if (exact.size >= limit) {
        overflow = true;
        break;
      }
      idx = base + exact.size;
      exact.set(key, idx);
      palette[idx * 3] = data[d]!;
      palette[idx * 3 + 1] = data[d + 1]!;
      palette[idx * 3 + 2] = data[d + 2]!;
    }
    indices[i] = idx;
  }
  if (!overflow) {
    return { width, height, indices, palette, colors: base + exact.size, masked, quantized: false };
  }
  const colors = buildQuantizedPalette(image, masked, limit, o.maxSamples, o.quantizer);
  palette.fill(0, base * 3);
  palette.set(colors, base * 3);
  const count = colors.length / 3;
  const nearest = nearestFinder(colors);
  for (let i = 0; i < n; i++) {
    const d = i * 4;
    if (masked && data[d + 3]! < 128) {
      indices[i] = 0;
      continue;
    }
    indices[i] = base + nearest(data[d]!, data[d + 1]!, data[d + 2]!);
  }
  return { width, height, indices, palette, colors: base + count, masked, quantized: true };
}

/**
 * Exact nearest palette colour (squared euclidean RGB): the palette sorted by green, searched
 * outwards from the pixel's green until the green distance alone exceeds the best match; the
 * last answer is reused for runs of equal pixels.
 */
function nearestFinder(colors: Uint8Array): (r: number, g: number, b: number) => number {
  const count = colors.length / 3;
  const order = Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => colors[a * 3 + 1]! - colors[b * 3 + 1]!,
  );
  const sr = new Int32Array(count);
  const sg = new Int32Array(count);
  const sb = new Int32Array(count);
  for (let k = 0; k < count; k++) {
    sr[k] = colors[order[k]! * 3]!;
    sg[k] = colors[order[k]! * 3 + 1]!;
    sb[k] = colors[order[k]! * 3 + 2]!;
  }
  // first sorted position whose green is ≥ g
  const start = new Int32Array(257);
  for (let g = 0, k = 0; g <= 256; g++) {
    while (k < count && sg[k]! < g) k++;
    start[g] = k;
  }
  let lastKey = -1;
  let lastIdx = 0;
  return (r, g, b) => {
    const key = (r << 16) | (g << 8) | b;
    if (key === lastKey) return lastIdx;
    let best = 0;
    let bestD = Number.POSITIVE_INFINITY;
    let up = start[g]!;
    let down = up - 1;
    while (up < count || down >= 0) {
      if (up < count) {
        const dg = sg[up]! - g;
        if (dg * dg > bestD) up = count;
        else {
          const dr = sr[up]! - r;
          const db = sb[up]! - b;
          const dist = dr * dr + dg * dg + db * db;
          if (dist < bestD) {
            bestD = dist;
            best = up;
          }
          up++;
        }
      }
      if (down >= 0) {
        const dg = sg[down]! - g;
        if (dg * dg > bestD) down = -1;
        else {
          const dr = sr[down]! - r;
          const db = sb[down]! - b;
          const dist = dr * dr + dg * dg + db * db;
          if (dist < bestD) {
            bestD = dist;
            best = down;
          }
          down--;
        }
      }
    }
    lastKey = key;
    lastIdx = order[best]!;
    return lastIdx;
  };
}

/** Up to `limit` RGB colours (flat array) from an image-q quantizer over an even sample. */
function buildQuantizedPalette(
  image: RgbaImage,
  masked: boolean,
  limit: number,
  maxSamples: number,
  quantizer: Required<PalettizeOptions>['quantizer'],
): Uint8Array {
  const { data } = image;
  const n = image.width * image.height;
  const step = Math.max(1, Math.ceil(n / maxSamples));
  const sample: number[] = [];
  for (let i = 0; i < n; i += step) {
    const d = i * 4;
    if (masked && data[d + 3]! < 128) continue;
    sample.push(data[d]!, data[d + 1]!, data[d + 2]!, 255);
  }
  const px = sample.length / 4;
  const container = utils.PointContainer.fromUint8Array(Uint8Array.from(sample), px, 1);
  const pal = buildPaletteSync([container], {
    colors: limit,
    paletteQuantization: quantizer,
    colorDistanceFormula: 'euclidean',
  });
  const points = pal.getPointContainer().getPointArray();
  const out = new Uint8Array(Math.min(limit, points.length) * 3);
  for (let i = 0; i < out.length / 3; i++) {
    const p = points[i]!;
    out[i * 3] = p.r;
    out[i * 3 + 1] = p.g;
    out[i * 3 + 2] = p.b;
  }
  return out;
}
