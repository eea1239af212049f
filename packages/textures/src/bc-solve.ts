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

/**
 * Endpoint pairs (packed e0 << 8 | e1) of one channel for which each value `vals[j]` appears at
 * palette index `idx[j]`, sorted by distance.
 */
function channelPairs(vals: number[], idx: number[], bits: 5 | 6, four: boolean): number[] {
  const expand = bits === 5 ? EXPAND5 : EXPAND6;
  const inv = bits === 5 ? INVERSE5 : INVERSE6;
  const at = (e0: number, e1: number, k: number): number => {
    const a = expand[e0]!;
    const b = expand[e1]!;
    if (k === 0) return a;
    if (k === 1) return b;
    if (!four) return k === 2 ? (a + b + 1) >> 1 : -1;
    return k === 2 ? ((2 * a + b + 1) / 3) | 0 : ((a + 2 * b + 1) / 3) | 0;
  };
  let e0 = -1;
  let e1 = -1;
  for (let j = 0; j < vals.length; j++) {
    if (idx[j] === 0) {
      const e = inv[vals[j]!]!;
      if (e < 0 || (e0 >= 0 && e0 !== e)) return [];
      e0 = e;
    } else if (idx[j] === 1) {
      const e = inv[vals[j]!]!;
      if (e < 0 || (e1 >= 0 && e1 !== e)) return [];
      e1 = e;
    }
  }
  let candidates: number[];
  const n = expand.length;
  if (e0 >= 0 && e1 >= 0) candidates = [(e0 << 8) | e1];
  else if (e0 >= 0) candidates = Array.from({ length: n }, (_, b) => (e0 << 8) | b);
  else if (e1 >= 0) candidates = Array.from({ length: n }, (_, a) => (a << 8) | e1);
  else {
    const j = idx.findIndex((k) => k >= 2);
    if (j < 0) return [];
    const f = four ? idx[j]! - 2 : 2;
    candidates = inverseTables()[bits][f]![vals[j]!]!;
  }
  const out: number[] = [];
  for (const p of candidates) {
    let ok = true;
    for (let j = 0; j < vals.length && ok; j++) if (at(p >> 8, p & 255, idx[j]!) !== vals[j]) ok = false;
    if (ok) out.push(p);
  }
  const dist = (p: number) => Math.abs(expand[p >> 8]! - expand[p & 255]!);
  return out.sort((p, q) => dist(p) - dist(q));
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
  let key = transparent ? 't' : threeAllowed ? '3' : '4';
  const sorted = Array.from(colours.subarray(0, n)).sort((p, q) => p - q);
  for (const c of sorted) key += c.toString(36) + ',';
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const found = search(Int32Array.from(sorted), n, transparent, threeAllowed);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, found);
  return found;
}

/** Results by block colours (blocks repeat: solid areas, tiled detail). */
const memo = new Map<string, number>();
const MEMO_LIMIT = 1 << 16;

function search(colours: Int32Array, n: number, transparent: boolean, threeAllowed: boolean): number {
  let best = -1;
  let bestCost = Infinity;
  const modes = transparent ? [false] : threeAllowed ? [true, false] : [true];
  for (const four of modes) {
    const slots = four ? 4 : 3;
    if (n > slots) continue;
    const idx: number[] = [];
    const used = [false, false, false, false];
    const r = Array.from({ length: n }, (_, j) => colours[j]! >> 16);
    const g = Array.from({ length: n }, (_, j) => (colours[j]! >> 8) & 255);
    const b = Array.from({ length: n }, (_, j) => colours[j]! & 255);
    const visit = (): void => {
      if (idx.length < n) {
        for (let k = 0; k < slots; k++)
          if (!used[k]) {
            used[k] = true;
            idx.push(k);
            visit();
            idx.pop();
            used[k] = false;
          }
        return;
      }
      const pr = channelPairs(r, idx, 5, four).slice(0, MAX_PER_CHANNEL);
      if (!pr.length) return;
      const pg = channelPairs(g, idx, 6, four).slice(0, MAX_PER_CHANNEL);
      if (!pg.length) return;
      const pb = channelPairs(b, idx, 5, four).slice(0, MAX_PER_CHANNEL);
      for (const x of pr)
        for (const y of pg)
          for (const z of pb) {
            const c0 = ((x >> 8) << 11) | ((y >> 8) << 5) | (z >> 8);
            const c1 = ((x & 255) << 11) | ((y & 255) << 5) | (z & 255);
            if (four ? c0 <= c1 : c0 > c1) continue;
            const cost =
              Math.abs(EXPAND5[x >> 8]! - EXPAND5[x & 255]!) +
              Math.abs(EXPAND6[y >> 8]! - EXPAND6[y & 255]!) +
              Math.abs(EXPAND5[z >> 8]! - EXPAND5[z & 255]!);
            if (cost < bestCost) {
              bestCost = cost;
              best = ((c0 << 16) | c1) >>> 0;
            }
          }
    };
    visit();
  }
  return best;
}
