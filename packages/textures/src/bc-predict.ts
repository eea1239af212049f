/**
 * Block compression **predicted from decoded pixels**: given the RGBA a BC level decodes to, the
 * blocks a typical encoder most likely wrote. Not an encoder (it never approximates): each block
 * is found by a fixed canonical rule from the exact values present, and a block the rule cannot
 * explain comes out as zeros. `rebuildDds` keeps only the XOR of the original blocks against
 * these (mostly zero, so deflate shrinks it to almost nothing).
 *
 * The rule, per 4×4 block (pixels outside the image are ignored):
 * - **colour** (BC1, the colour half of BC2/BC3): the distinct colours present that are exact
 *   5:6:5 expansions are endpoint candidates; pairs are tried farthest first, in 4-colour mode
 *   with `c0 > c1` (the only order BC1 allows for it) and then, for BC1, in 3-colour mode with
 *   `c0 < c1`, which a transparent pixel forces; a single colour gives `c0 = c1` (BC1) or
 *   `c0 = c1 + 1`, index 1 (BC2/BC3). The first pair whose palette holds every pixel wins; each
 *   index is the first palette entry equal to the pixel. When no two endpoints appear among the
 *   pixels, `bc-solve.ts` searches the endpoints that reproduce the colours exactly;
 * - **alpha / red / green** (BC3 alpha, BC4, BC5): 8-value mode with `a0 = max`, `a1 = min`, else
 *   6-value mode with `a0 = min`, `a1 = max` of the values other than 0 and 255;
 * - **BC2 alpha**: exact (`a / 17`).
 *
 * ```ts
 * const rgba = decodeDds(dds).data;
 * const blocks = predictBlocks('bc1', rgba, 1024, 1024); // = the DDS's level 0 for most blocks
 * ```
 */
import { alphaValues, BC_BLOCK_BYTES, type BcFormat, EXPAND5, EXPAND6, endpointPalette } from './bc.js';
import { solveColour } from './bc-solve.js';

/** 5:6:5 code of an RGB that is an exact bit-replicated expansion, else -1. */
function exact565(r: number, g: number, b: number): number {
  const r5 = r >> 3;
  const g6 = g >> 2;
  const b5 = b >> 3;
  if (EXPAND5[r5] !== r || EXPAND6[g6] !== g || EXPAND5[b5] !== b) return -1;
  return (r5 << 11) | (g6 << 5) | b5;
}

/** The 4 palette colours (0xRRGGBB, -1 = transparent black) of endpoints c0, c1. */
function palette(c0: number, c1: number, threeAllowed: boolean, rgba: Uint8Array, out: Int32Array): void {
  endpointPalette(c0, c1, threeAllowed, rgba);
  for (let k = 0; k < 4; k++)
    out[k] = rgba[4 * k + 3] === 0 ? -1 : (rgba[4 * k]! << 16) | (rgba[4 * k + 1]! << 8) | rgba[4 * k + 2]!;
}

/**
 * The 2-bit index of each present pixel of `px` (-2 absent) in `pal` (the first equal entry),
 * packed as a BC colour block's index word; -1 when a pixel is in no entry.
 */
function indexBits(px: Int32Array, pal: Int32Array): number {
  let bits = 0;
  for (let i = 0; i < 16; i++) {
    const c = px[i]!;
    if (c === -2) continue;
    let idx = 0;
    while (idx < 4 && pal[idx] !== c) idx++;
    if (idx === 4) return -1;
    bits |= idx << (2 * i);
  }
  return bits >>> 0;
}

/** Writes a colour block (endpoints, index word) at `o`. */
function writeColourBlock(out: Uint8Array, o: number, c0: number, c1: number, bits: number): void {
  out[o] = c0 & 255;
  out[o + 1] = c0 >> 8;
  out[o + 2] = c1 & 255;
  out[o + 3] = c1 >> 8;
  out[o + 4] = bits & 255;
  out[o + 5] = (bits >>> 8) & 255;
  out[o + 6] = (bits >>> 16) & 255;
  out[o + 7] = bits >>> 24;
}

/** Scratch of one colour-block prediction. */
class ColourScratch {
  readonly distinct = new Int32Array(16);
  readonly codes = new Int32Array(16);
  readonly pal = new Int32Array(4);
  readonly rgba = new Uint8Array(16);
  readonly pairs: number[] = [];
  readonly dist = new Int32Array(6);
  readonly his = new Int32Array(6);
  readonly los = new Int32Array(6);
}

/**
 * Predicts a colour block from 16 pixels (`px`: 0xRRGGBB, -1 transparent black, -2 absent) into
 * `out` at `o` (8 bytes). Returns false (and writes zeros) when the rule explains nothing.
 */
function predictColour(
  px: Int32Array,
  threeAllowed: boolean,
  out: Uint8Array,
  o: number,
  s: ColourScratch,
): boolean {
  const { distinct, codes, pal, pairs } = s;
  let nd = 0;
  let transparent = false;
  for (let i = 0; i < 16; i++) {
    const c = px[i]!;
    if (c === -2) continue;
    if (c === -1) {
      transparent = true;
      continue;
    }
    let seen = false;
    for (let k = 0; k < nd; k++) if (distinct[k] === c) seen = true;
    if (!seen) {
      if (nd === 4) return fail(out, o, 8);
      distinct[nd++] = c;
    }
  }
  if (transparent && !threeAllowed) return fail(out, o, 8);
  let ne = 0;
  for (let k = 0; k < nd; k++) {
    const c = distinct[k]!;
    const code = exact565(c >> 16, (c >> 8) & 255, c & 255);
    if (code >= 0) codes[ne++] = code;
  }
  pairs.length = 0;
  if (nd === 0 && transparent) pairs.push(0, 0); // all transparent: 3-colour mode, index 3
  if (ne === 1 && nd <= 1) {
    // a solid colour: BC1 writes c0 = c1 (index 0); BC2/BC3 blocks (always 4-colour) keep
    // c0 > c1 by one step, the colour being c1
    if (!threeAllowed && codes[0]! < 0xffff) pairs.push(codes[0]! + 1, codes[0]!);
    pairs.push(codes[0]!, codes[0]!);
  }
  // farthest pairs first (by 5:6:5 distance), ties by order of appearance
  // pairs farthest first; equal distances keep their order of appearance (insertion sort)
  const { dist, his, los } = s;
  let np = 0;
  for (let a = 0; a < ne; a++)
    for (let b = a + 1; b < ne; b++) {
      const x = codes[a]!;
      const y = codes[b]!;
      if (x === y) continue;
      const dr = ((x >> 11) & 31) - ((y >> 11) & 31);
      const dg = ((x >> 5) & 63) - ((y >> 5) & 63);
      const db = (x & 31) - (y & 31);
      const d = dr * dr * 4 + dg * dg + db * db * 4;
      let k = np++;
      while (k > 0 && dist[k - 1]! < d) {
        dist[k] = dist[k - 1]!;
        his[k] = his[k - 1]!;
        los[k] = los[k - 1]!;
        k--;
      }
      dist[k] = d;
      his[k] = Math.max(x, y);
      los[k] = Math.min(x, y);
    }
  for (let k = 0; k < np; k++) {
    if (!transparent) pairs.push(his[k]!, los[k]!);
    if (threeAllowed) pairs.push(los[k]!, his[k]!);
  }
  for (let p = 0; p < pairs.length; p += 2) {
    const c0 = pairs[p]!;
    const c1 = pairs[p + 1]!;
    palette(c0, c1, threeAllowed, s.rgba, pal);
    const bits = indexBits(px, pal);
    if (bits < 0) continue;
    writeColourBlock(out, o, c0, c1, bits);
    return true;
  }
  // no two endpoints among the pixels: the search finds endpoints that reproduce them exactly
  const solved = solveColour(distinct, nd, transparent, threeAllowed);
  if (solved < 0) return fail(out, o, 8);
  const c0 = solved >>> 16;
  const c1 = solved & 0xffff;
  palette(c0, c1, threeAllowed, s.rgba, pal);
  const bits = indexBits(px, pal);
  if (bits < 0) return fail(out, o, 8);
  writeColourBlock(out, o, c0, c1, bits);
  return true;
}

function fail(out: Uint8Array, o: number, n: number): false {
  out.fill(0, o, o + n);
  return false;
}

/** Predicts an 8-byte alpha-style block from 16 values (-1 absent) into `out` at `o`. */
function predictAlpha(v: Int32Array, out: Uint8Array, o: number, vals: Int32Array): boolean {
  let min = 256;
  let max = -1;
  let min6 = 256;
  let max6 = -1;
  for (let i = 0; i < 16; i++) {
    const a = v[i]!;
    if (a < 0) continue;
    if (a < min) min = a;
    if (a > max) max = a;
    if (a !== 0 && a !== 255) {
      if (a < min6) min6 = a;
      if (a > max6) max6 = a;
    }
  }
  if (max < 0) return fail(out, o, 8);
  const tries: number[] = [];
  if (max > min) tries.push(max, min);
  if (max6 >= 0) tries.push(min6, max6);
  else tries.push(min, min);
  for (let t = 0; t < tries.length; t += 2) {
    const a0 = tries[t]!;
    const a1 = tries[t + 1]!;
    alphaValues(a0, a1, vals);
    let lo = 0;
    let hi = 0;
    let ok = true;
    for (let i = 0; i < 16 && ok; i++) {
      const a = v[i]!;
      if (a < 0) continue;
      let idx = -1;
      for (let k = 0; k < 8; k++)
        if (vals[k] === a) {
          idx = k;
          break;
        }
      if (idx < 0) ok = false;
      else if (i < 8) lo |= idx << (3 * i);
      else hi |= idx << (3 * (i - 8));
    }
    if (!ok) continue;
    out[o] = a0;
    out[o + 1] = a1;
    out[o + 2] = lo & 255;
    out[o + 3] = (lo >> 8) & 255;
    out[o + 4] = lo >> 16;
    out[o + 5] = hi & 255;
    out[o + 6] = (hi >> 8) & 255;
    out[o + 7] = hi >> 16;
    return true;
  }
  return fail(out, o, 8);
}

/** BC2's explicit 4-bit alpha (exact when every value is a multiple of 17). */
function predictExplicitAlpha(v: Int32Array, out: Uint8Array, o: number): boolean {
  for (let i = 0; i < 16; i += 2) {
    const a = Math.max(0, v[i]!);
    const b = Math.max(0, v[i + 1]!);
    if (a % 17 || b % 17) return fail(out, o, 8);
    out[o + (i >> 1)] = (a / 17) | ((b / 17) << 4);
  }
  return true;
}

/**
 * The blocks of a `width`×`height` BC level predicted from its decoded RGBA (see the module
 * comment for the rule); blocks the rule cannot explain are zeros. Returns the level's bytes and
 * how many blocks were explained.
 *
 * ```ts
 * const { bytes, explained } = predictBlocks('bc1', rgba, 256, 256);
 * ```
 */
export function predictBlocks(
  format: BcFormat,
  rgba: Uint8Array,
  width: number,
  height: number,
): { bytes: Uint8Array; explained: number } {
  const bw = Math.max(1, Math.ceil(width / 4));
  const bh = Math.max(1, Math.ceil(height / 4));
  const size = BC_BLOCK_BYTES[format];
  const out = new Uint8Array(bw * bh * size);
  const px = new Int32Array(16);
  const va = new Int32Array(16);
  const vg = new Int32Array(16);
  const vals = new Int32Array(8);
  const scratch = new ColourScratch();
  let explained = 0;
  let o = 0;
  const redAlpha = format === 'bc4' || format === 'bc5';
  const bc1 = format === 'bc1';
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++, o += size) {
      for (let i = 0; i < 16; i++) {
        const x = bx * 4 + (i & 3);
        const y = by * 4 + (i >> 2);
        if (x >= width || y >= height) {
          px[i] = -2;
          va[i] = vg[i] = -1;
          continue;
        }
        const d = (y * width + x) * 4;
        const r = rgba[d]!;
        const g = rgba[d + 1]!;
        const b = rgba[d + 2]!;
        const a = rgba[d + 3]!;
        va[i] = redAlpha ? r : a;
        vg[i] = g;
        // BC1: the only non-opaque colour is transparent black; anything else cannot match
        px[i] = !bc1 || a === 255 ? (r << 16) | (g << 8) | b : r | g | b || a ? 0x1000000 : -1;
      }
      let ok: boolean;
      if (format === 'bc1') ok = predictColour(px, true, out, o, scratch);
      else if (format === 'bc4') ok = predictAlpha(va, out, o, vals);
      else {
        ok = format === 'bc2' ? predictExplicitAlpha(va, out, o) : predictAlpha(va, out, o, vals);
        const second =
          format === 'bc5'
            ? predictAlpha(vg, out, o + 8, vals)
            : predictColour(px, false, out, o + 8, scratch);
        ok = ok && second;
      }
      if (ok) explained++;
    }
  return { bytes: out, explained };
}
