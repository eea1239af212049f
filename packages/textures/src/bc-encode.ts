import { EXPAND5, EXPAND6 } from './bc.js';

/**
 * Block-compression encoders (BC1, BC3 and BC4/BC5) for one 4×4 block at a time.
 *
 * Colour (BC1/BC3): endpoints from the principal axis of the block's colours (power iteration on
 * the covariance), the extreme projections quantized to 5:6:5, then two rounds of least-squares
 * refinement of the endpoints for the chosen indices; a block whose colours are all equal uses
 * that colour for both endpoints. Indices pick the nearest of the four decoded palette colours.
 * Alpha/red (BC3/BC4/BC5): min/max endpoints in the 8-value mode, or the 6-value mode with
 * explicit 0 and 255 when the block holds both extremes and values between.
 */

function to565(r: number, g: number, b: number): number {
  const r5 = Math.min(31, Math.max(0, Math.round((r * 31) / 255)));
  const g6 = Math.min(63, Math.max(0, Math.round((g * 63) / 255)));
  const b5 = Math.min(31, Math.max(0, Math.round((b * 31) / 255)));
  return (r5 << 11) | (g6 << 5) | b5;
}

const pal = new Int32Array(12);

function palette565(c0: number, c1: number, three: boolean): void {
  const r0 = EXPAND5[(c0 >> 11) & 31]!;
  const g0 = EXPAND6[(c0 >> 5) & 63]!;
  const b0 = EXPAND5[c0 & 31]!;
  const r1 = EXPAND5[(c1 >> 11) & 31]!;
  const g1 = EXPAND6[(c1 >> 5) & 63]!;
  const b1 = EXPAND5[c1 & 31]!;
  pal[0] = r0;
  pal[1] = g0;
  pal[2] = b0;
  pal[3] = r1;
  pal[4] = g1;
  pal[5] = b1;
  if (three) {
    pal[6] = (r0 + r1 + 1) >> 1;
    pal[7] = (g0 + g1 + 1) >> 1;
    pal[8] = (b0 + b1 + 1) >> 1;
    pal[9] = pal[10] = pal[11] = -10000; // transparent slot: never nearest for opaque pixels
  } else {
    pal[6] = ((2 * r0 + r1 + 1) / 3) | 0;
    pal[7] = ((2 * g0 + g1 + 1) / 3) | 0;
    pal[8] = ((2 * b0 + b1 + 1) / 3) | 0;
    pal[9] = ((r0 + 2 * r1 + 1) / 3) | 0;
    pal[10] = ((g0 + 2 * g1 + 1) / 3) | 0;
    pal[11] = ((b0 + 2 * b1 + 1) / 3) | 0;
  }
}

/** Picks indices for `px` (16 RGBA) against `pal`; returns the summed squared error. */
function pickIndices(px: Uint8Array, idx: Uint8Array, transparent: Uint8Array | undefined): number {
  let err = 0;
  for (let i = 0; i < 16; i++) {
    if (transparent?.[i]) {
      idx[i] = 3;
      continue;
    }
    const r = px[i * 4]!;
    const g = px[i * 4 + 1]!;
    const b = px[i * 4 + 2]!;
    let best = 0;
    let bestD = Number.POSITIVE_INFINITY;
    for (let c = 0; c < 4; c++) {
      const dr = pal[c * 3]! - r;
      const dg = pal[c * 3 + 1]! - g;
      const db = pal[c * 3 + 2]! - b;
      const d = dr * dr + dg * dg + db * db;
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    idx[i] = best;
    err += bestD;
  }
  return err;
}

const scratchTransparent = new Uint8Array(16);
const scratchIdx = new Uint8Array(16);
const scratchBest = new Uint8Array(16);
const scratchAlpha = new Uint8Array(16);
const scratchAlpha2 = new Uint8Array(16);

// weights of endpoint 0 for indices 0..3 in the 4-colour mode
const W4 = [1, 0, 2 / 3, 1 / 3];
const W3 = [1, 0, 1 / 2, 0];

/**
 * Encodes the colour of 16 RGBA pixels as an 8-byte BC1 colour block at `out[o]`.
 * With `alpha1bit`, pixels whose alpha is below 128 become BC1's transparent index (3-colour mode).
 *
 * ```ts
 * const block = new Uint8Array(8);
 * encodeColourBlock(pixels16, block, 0, false);
 * ```
 */
export function encodeColourBlock(px: Uint8Array, out: Uint8Array, o: number, alpha1bit: boolean): void {
  let transparent: Uint8Array | undefined;
  let opaqueCount = 16;
  if (alpha1bit) {
    for (let i = 0; i < 16; i++) {
      if (px[i * 4 + 3]! < 128) {
        if (!transparent) {
          transparent = scratchTransparent;
          transparent.fill(0);
        }
        transparent[i] = 1;
        opaqueCount--;
      }
    }
  }
  const three = transparent !== undefined;
  if (opaqueCount === 0) {
    out.fill(0, o, o + 4);
    out[o + 4] = out[o + 5] = out[o + 6] = out[o + 7] = 0xff;
    return;
  }
  // mean and covariance of the opaque pixels
  let mr = 0;
  let mg = 0;
  let mb = 0;
  for (let i = 0; i < 16; i++) {
    if (transparent?.[i]) continue;
    mr += px[i * 4]!;
    mg += px[i * 4 + 1]!;
    mb += px[i * 4 + 2]!;
  }
  mr /= opaqueCount;
  mg /= opaqueCount;
  mb /= opaqueCount;
  let crr = 0;
  let crg = 0;
  let crb = 0;
  let cgg = 0;
  let cgb = 0;
  let cbb = 0;
  for (let i = 0; i < 16; i++) {
    if (transparent?.[i]) continue;
    const r = px[i * 4]! - mr;
    const g = px[i * 4 + 1]! - mg;
    const b = px[i * 4 + 2]! - mb;
    crr += r * r;
    crg += r * g;
    crb += r * b;
    cgg += g * g;
    cgb += g * b;
    cbb += b * b;
  }
  let c0: number;
  let c1: number;
  if (crr + cgg + cbb < 1e-6) {
    c0 = c1 = to565(mr, mg, mb);
  } else {
    // start from the covariance column of the largest variance: it lies in the matrix's range,
    // so it is never orthogonal to the principal axis (a fixed (1,1,1) start can be)
    let ax = crr;
    let ay = crg;
    let az = crb;
    if (cgg >= crr && cgg >= cbb) {
      ax = crg;
      ay = cgg;
      az = cgb;
    } else if (cbb >= crr && cbb >= cgg) {
      ax = crb;
      ay = cgb;
      az = cbb;
    }
    for (let k = 0; k < 8; k++) {
      const nx = crr * ax + crg * ay + crb * az;
      const ny = crg * ax + cgg * ay + cgb * az;
      const nz = crb * ax + cgb * ay + cbb * az;
      const len = Math.hypot(nx, ny, nz);
      if (len < 1e-12) break;
      ax = nx / len;
      ay = ny / len;
      az = nz / len;
    }
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < 16; i++) {
      if (transparent?.[i]) continue;
      const t = (px[i * 4]! - mr) * ax + (px[i * 4 + 1]! - mg) * ay + (px[i * 4 + 2]! - mb) * az;
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
    c0 = to565(mr + ax * hi, mg + ay * hi, mb + az * hi);
    c1 = to565(mr + ax * lo, mg + ay * lo, mb + az * lo);
  }
  const idx = scratchIdx;
  const bestIdx = scratchBest;
  const order = (a: number, b: number): [number, number] => {
    // four-colour mode needs c0 > c1, three-colour mode c0 <= c1
    if (three) return a <= b ? [a, b] : [b, a];
    return a >= b ? [a, b] : [b, a];
  };
  [c0, c1] = order(c0, c1);
  palette565(c0, c1, three);
  let bestErr = pickIndices(px, bestIdx, transparent);
  let best0 = c0;
  let best1 = c1;
  // least-squares refinement: solve for endpoints given the index weights
  const weights = three ? W3 : W4;
  for (let round = 0; round < 2 && bestErr > 0; round++) {
    let aa = 0;
    let bb = 0;
    let ab = 0;
    let ar = 0;
    let ag = 0;
    let ab2 = 0;
    let br = 0;
    let bg = 0;
    let bb2 = 0;
    for (let i = 0; i < 16; i++) {
      if (transparent?.[i]) continue;
      const a = weights[bestIdx[i]!]!;
      const b = 1 - a;
      aa += a * a;
      bb += b * b;
      ab += a * b;
      ar += a * px[i * 4]!;
      ag += a * px[i * 4 + 1]!;
      ab2 += a * px[i * 4 + 2]!;
      br += b * px[i * 4]!;
      bg += b * px[i * 4 + 1]!;
      bb2 += b * px[i * 4 + 2]!;
    }
    const det = aa * bb - ab * ab;
    if (Math.abs(det) < 1e-9) break;
    const inv = 1 / det;
    let n0 = to565((ar * bb - br * ab) * inv, (ag * bb - bg * ab) * inv, (ab2 * bb - bb2 * ab) * inv);
    let n1 = to565((br * aa - ar * ab) * inv, (bg * aa - ag * ab) * inv, (bb2 * aa - ab2 * ab) * inv);
    [n0, n1] = order(n0, n1);
    palette565(n0, n1, three);
    const err = pickIndices(px, idx, transparent);
    if (err >= bestErr) break;
    bestErr = err;
    best0 = n0;
    best1 = n1;
    bestIdx.set(idx);
  }
  c0 = best0;
  c1 = best1;
  if (!three && c0 === c1) {
    // equal endpoints: every pixel is index 0 (the mode does not matter then)
    bestIdx.fill(0);
  }
  out[o] = c0 & 255;
  out[o + 1] = c0 >> 8;
  out[o + 2] = c1 & 255;
  out[o + 3] = c1 >> 8;
  let bits = 0;
  for (let i = 15; i >= 0; i--) bits = (bits << 2) | bestIdx[i]!;
  out[o + 4] = bits & 255;
  out[o + 5] = (bits >>> 8) & 255;
  out[o + 6] = (bits >>> 16) & 255;
  out[o + 7] = (bits >>> 24) & 255;
}

/**
 * Encodes 16 single-channel values (`px[i * stride + channel]`) as an 8-byte BC3-alpha / BC4
 * block at `out[o]`.
 *
 * ```ts
 * encodeAlphaBlock(pixels16, 4, 3, out, 0); // the alpha of 16 RGBA pixels
 * ```
 */
export function encodeAlphaBlock(
  px: Uint8Array,
  stride: number,
  channel: number,
  out: Uint8Array,
  o: number,
): void {
  let lo = 255;
  let hi = 0;
  let loInner = 255;
  let hiInner = 0;
  let hasExtremes = false;
  for (let i = 0; i < 16; i++) {
    const v = px[i * stride + channel]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    if (v === 0 || v === 255) hasExtremes = true;
    else {
      if (v < loInner) loInner = v;
      if (v > hiInner) hiInner = v;
    }
  }
  const best = scratchAlpha;
  let err = fitAlpha(px, stride, channel, hi, lo, best);
  let a0 = hi;
  let a1 = lo;
  if (hasExtremes && loInner <= hiInner && lo !== hi) {
    const trial = scratchAlpha2;
    const e6 = fitAlpha(px, stride, channel, loInner, hiInner, trial);
    if (e6 < err) {
      err = e6;
      a0 = loInner;
      a1 = hiInner;
      best.set(trial);
    }
  }
  out[o] = a0;
  out[o + 1] = a1;
  let lo24 = 0;
  let hi24 = 0;
  for (let i = 0; i < 8; i++) {
    lo24 |= best[i]! << (3 * i);
    hi24 |= best[i + 8]! << (3 * i);
  }
  out[o + 2] = lo24 & 255;
  out[o + 3] = (lo24 >> 8) & 255;
  out[o + 4] = (lo24 >> 16) & 255;
  out[o + 5] = hi24 & 255;
  out[o + 6] = (hi24 >> 8) & 255;
  out[o + 7] = (hi24 >> 16) & 255;
}

const alphaVals = new Int32Array(8);

/** Nearest indices for endpoints (a0, a1) in the mode they select; returns the summed abs error. */
function fitAlpha(
  px: Uint8Array,
  stride: number,
  channel: number,
  a0: number,
  a1: number,
  idx: Uint8Array,
): number {
  const v = alphaVals;
  v[0] = a0;
  v[1] = a1;
  if (a0 > a1) for (let i = 1; i < 7; i++) v[i + 1] = (((7 - i) * a0 + i * a1 + 3) / 7) | 0;
  else {
    for (let i = 1; i < 5; i++) v[i + 1] = (((5 - i) * a0 + i * a1 + 2) / 5) | 0;
    v[6] = 0;
    v[7] = 255;
  }
  let err = 0;
  for (let i = 0; i < 16; i++) {
    const x = px[i * stride + channel]!;
    let best = 0;
    let bestD = 1e9;
    for (let k = 0; k < 8; k++) {
      const d = Math.abs(v[k]! - x);
      if (d < bestD) {
        bestD = d;
        best = k;
      }
    }
    idx[i] = best;
    err += bestD;
  }
  return err;
}
