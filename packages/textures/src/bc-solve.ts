/**
 * The endpoint search behind `bc-predict.ts` for colour blocks whose endpoints do not both appear
 * among the pixels: every way of giving the block's distinct colours palette indices is tried,
 * and per channel the 5- or 6-bit endpoint pairs that reproduce the colours exactly are found
 * (from inverse tables of the interpolation formulas). Of all exact solutions in the block's mode
 * (4-colour: `c0 > c1`; 3-colour: `c0 <= c1`), the one with the smallest endpoint distance
 * (sum over channels of |expanded e0 − expanded e1|) wins; ties go to the first found.
 */
import { EXPAND5, EXPAND6 } from './bc.js';

/** Interpolation formulas of one channel: index 2 and 3 of 4-colour mode, index 2 of 3-colour. */
const FORMULAS = [
  (a: number, b: number) => ((2 * a + b + 1) / 3) | 0,
  (a: number, b: number) => ((a + 2 * b + 1) / 3) | 0,
  (a: number, b: number) => (a + b + 1) >> 1,
];

/** For `bits` (5 or 6) and formula f: value → packed (e0 << 8 | e1) pairs giving it. */
function inverse(expand: Uint8Array): number[][][] {
  return FORMULAS.map((f) => {
    const byValue: number[][] = Array.from({ length: 256 }, () => []);
    for (let a = 0; a < expand.length; a++)
      for (let b = 0; b < expand.length; b++) byValue[f(expand[a]!, expand[b]!)]!.push((a << 8) | b);
    return byValue;
  });
}

let tables: { 5: number[][][]; 6: number[][][] } | undefined;
function inverseTables() {
  tables ??= { 5: inverse(EXPAND5), 6: inverse(EXPAND6) };
  return tables;
}

const INVERSE5 = new Int16Array(256).fill(-1);
const INVERSE6 = new Int16Array(256).fill(-1);
EXPAND5.forEach((v, i) => {
  INVERSE5[v] = i;
});
EXPAND6.forEach((v, i) => {
  INVERSE6[v] = i;
});

/** One channel's value at palette index `k` of endpoints `a`, `b` (expanded); -1 where none. */
function valueAt(a: number, b: number, k: number, four: boolean): number {
  if (k === 0) return a;
  if (k === 1) return b;
  if (!four) return k === 2 ? (a + b + 1) >> 1 : -1;
  return k === 2 ? ((2 * a + b + 1) / 3) | 0 : ((a + 2 * b + 1) / 3) | 0;
}

/**
 * Whether endpoints `p` (packed e0 << 8 | e1) give each value `vals[j]` at palette index `idx[j]`
 * (j < n).
 */
function fits(
  p: number,
  vals: Int32Array,
  idx: Int32Array,
  n: number,
  expand: Uint8Array,
  four: boolean,
): boolean {
  const a = expand[p >> 8]!;
  const b = expand[p & 255]!;
  for (let j = 0; j < n; j++) if (valueAt(a, b, idx[j]!, four) !== vals[j]) return false;
  return true;
}

/**
 * Keeps `out` (length `count`, at most MAX_PER_CHANNEL) the first pairs by distance, stably: `p`
 * goes after every kept pair of the same or a smaller distance. Returns the new count.
 */
function insertByDistance(out: Int32Array, count: number, p: number, expand: Uint8Array): number {
  const d = Math.abs(expand[p >> 8]! - expand[p & 255]!);
  let at = count;
  while (at > 0 && Math.abs(expand[out[at - 1]! >> 8]! - expand[out[at - 1]! & 255]!) > d) at--;
  if (at >= MAX_PER_CHANNEL) return count;
  const end = Math.min(count, MAX_PER_CHANNEL - 1);
  for (let k = end; k > at; k--) out[k] = out[k - 1]!;
  out[at] = p;
  return end + 1;
}

/**
 * Endpoint pairs (packed e0 << 8 | e1) of one channel for which each value `vals[j]` appears at
 * palette index `idx[j]`: the first MAX_PER_CHANNEL by distance (ties in candidate order), written
 * to `out`. Returns how many.
 */
function channelPairs(
  vals: Int32Array,
  idx: Int32Array,
  n: number,
  bits: 5 | 6,
  four: boolean,
  out: Int32Array,
): number {
  const expand = bits === 5 ? EXPAND5 : EXPAND6;
  const inv = bits === 5 ? INVERSE5 : INVERSE6;
  let e0 = -1;
  let e1 = -1;
  for (let j = 0; j < n; j++) {
    if (idx[j] === 0) {
      const e = inv[vals[j]!]!;
      if (e < 0 || (e0 >= 0 && e0 !== e)) return 0;
      e0 = e;
    } else if (idx[j] === 1) {
      const e = inv[vals[j]!]!;
      if (e < 0 || (e1 >= 0 && e1 !== e)) return 0;
      e1 = e;
    }
  }
  let count = 0;
  const size = expand.length;
  if (e0 >= 0 && e1 >= 0) {
    const p = (e0 << 8) | e1;
    if (fits(p, vals, idx, n, expand, four)) out[count++] = p;
  } else if (e0 >= 0 || e1 >= 0) {
    for (let c = 0; c < size; c++) {
      const p = e0 >= 0 ? (e0 << 8) | c : (c << 8) | e1;
      if (fits(p, vals, idx, n, expand, four)) count = insertByDistance(out, count, p, expand);
    }
  } else {
    let j = 0;
    while (j < n && idx[j]! < 2) j++;
    if (j === n) return 0;
    const f = four ? idx[j]! - 2 : 2;
    for (const p of inverseTables()[bits][f]![vals[j]!]!)
      if (fits(p, vals, idx, n, expand, four)) count = insertByDistance(out, count, p, expand);
  }
  return count;
}

const MAX_PER_CHANNEL = 6;

/**
 * The endpoints (c0 << 16 | c1) reproducing the `n` distinct colours (0xRRGGBB) of a block
 * exactly, or -1. `transparent`: the block has transparent-black pixels (3-colour mode only).
 */
export function solveColour(
  colours: Int32Array,
  n: number,
  transparent: boolean,
  threeAllowed: boolean,
): number {
  // No mode has more than 4 palette entries: more distinct colours have no exact solution.
  if (n > 4) return -1;
  const sorted = SORTED;
  for (let j = 0; j < n; j++) {
    const c = colours[j]!;
    let k = j;
    for (; k > 0 && sorted[k - 1]! > c; k--) sorted[k] = sorted[k - 1]!;
    sorted[k] = c;
  }
  let key = String.fromCharCode(transparent ? 0 : threeAllowed ? 1 : 2);
  for (let j = 0; j < n; j++) key += String.fromCharCode(sorted[j]! >>> 12, sorted[j]! & 4095);
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const found = search(sorted, n, transparent, threeAllowed);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, found);
  return found;
}

const SORTED = new Int32Array(4);

/** Results by block colours (blocks repeat: solid areas, tiled detail). */
const memo = new Map<string, number>();
const MEMO_LIMIT = 1 << 16;

/** Scratch of one search (a block has at most 4 distinct colours in a solvable mode). */
const R = new Int32Array(4);
const G = new Int32Array(4);
const B = new Int32Array(4);
const IDX = new Int32Array(4);
const PR = new Int32Array(MAX_PER_CHANNEL);
const PG = new Int32Array(MAX_PER_CHANNEL);
const PB = new Int32Array(MAX_PER_CHANNEL);

function search(colours: Int32Array, n: number, transparent: boolean, threeAllowed: boolean): number {
  let best = -1;
  let bestCost = Infinity;
  const modes = transparent ? [false] : threeAllowed ? [true, false] : [true];
  for (let j = 0; j < Math.min(n, 4); j++) {
    R[j] = colours[j]! >> 16;
    G[j] = (colours[j]! >> 8) & 255;
    B[j] = colours[j]! & 255;
  }
  for (const four of modes) {
    const slots = four ? 4 : 3;
    if (n > slots) continue;
    // Every injective assignment of the n colours to palette slots, in lexicographic order.
    const visit = (depth: number, used: number): void => {
      if (depth < n) {
        for (let k = 0; k < slots; k++)
          if (!(used & (1 << k))) {
            IDX[depth] = k;
            visit(depth + 1, used | (1 << k));
          }
        return;
      }
      const nr = channelPairs(R, IDX, n, 5, four, PR);
      if (!nr) return;
      const ng = channelPairs(G, IDX, n, 6, four, PG);
      if (!ng) return;
      const nb = channelPairs(B, IDX, n, 5, four, PB);
      for (let ir = 0; ir < nr; ir++) {
        const x = PR[ir]!;
        const cx = Math.abs(EXPAND5[x >> 8]! - EXPAND5[x & 255]!);
        for (let ig = 0; ig < ng; ig++) {
          const y = PG[ig]!;
          const cxy = cx + Math.abs(EXPAND6[y >> 8]! - EXPAND6[y & 255]!);
          for (let ib = 0; ib < nb; ib++) {
            const z = PB[ib]!;
            const c0 = ((x >> 8) << 11) | ((y >> 8) << 5) | (z >> 8);
            const c1 = ((x & 255) << 11) | ((y & 255) << 5) | (z & 255);
            if (four ? c0 <= c1 : c0 > c1) continue;
            const cost = cxy + Math.abs(EXPAND5[z >> 8]! - EXPAND5[z & 255]!);
            if (cost < bestCost) {
              bestCost = cost;
              best = ((c0 << 16) | c1) >>> 0;
            }
          }
        }
      }
    };
    visit(0, 0);
  }
  return best;
}
