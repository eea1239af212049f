/**
 * Encoding of one animation block: per-bone frames quantized into range boxes (an10) or floats
 * (ms11), with the change flags the engine reads.
 */
import { type WarningCollector, readSampler } from '@gltf-legacy/core';
import { encodeRangeU16, decodeRangeU16, decodeSnorm16 } from '@gltf-legacy/quantize';
import type { Animation, Node } from '@gltf-transform/core';
import { type AnimationBlock, FLAG_POS, FLAG_ROT, FLAG_SCALE } from '../block.js';
import type { UnigineAnimationExtras } from '../extras.js';
import { unpackF32 } from '../jsonf32.js';
import type { M4 } from './common.js';
import { EMPTY_BOX } from './bounds.js';
import { snorm16 } from './tangents.js';
import { type Track, constantTrack, sampleBoneFrames } from './frames.js';

interface BlockResult {
  block: AnimationBlock;
  maxPosError: number;
  maxRotError: number;
}

/** Hex digit value of a char code (the caller has checked the string). */
function hexValue(c: number): number {
  return c <= 57 ? c - 48 : c - 87;
}

/** Per-axis ranges of positions (lo/hi 0-2) and scales (3-5) over n frames; true when a scale ≠ 1. */
function growRanges(
  T: Float64Array,
  S: Float64Array,
  n: number,
  lo: Float64Array,
  hi: Float64Array,
): boolean {
  let differs = false;
  for (let f = 0; f < n; f++) {
    for (let c = 0; c < 3; c++) {
      const p = T[f * 3 + c];
      const v = S[f * 3 + c];
      lo[c] = Math.min(lo[c], p);
      hi[c] = Math.max(hi[c], p);
      lo[3 + c] = Math.min(lo[3 + c], v);
      hi[3 + c] = Math.max(hi[3 + c], v);
      if (Math.abs(v - 1) > 1e-6) differs = true;
    }
  }
  return differs;
}

/**
 * Bone b's frames 0 … n−1 (T/R/S, file axes) → codes → flags into the block arrays. Unflagged
 * components stay 0 (the file model mirrors the bytes). `code`/`last` hold this frame's and the
 * previous stored frame's values (pos 0-2, rot 3-6, scale 7-9); `err` grows to the worst
 * position/scale (0) and rotation (1) error.
 */
function encodeBoneFrames(
  b: number,
  nb: number,
  n: number,
  exact: boolean,
  quantized: boolean,
  mask: number,
  T: Float64Array,
  R: Float64Array,
  S: Float64Array,
  rawPos: (Uint16Array | null)[],
  rawScale: (Uint16Array | null)[],
  bx: Float32Array,
  keptFlags: string | null,
  code: Float64Array,
  last: Float64Array,
  flags: Uint8Array,
  positions: Float32Array | Uint16Array,
  rotations: Int16Array,
  scales: Float32Array | Uint16Array,
  err: Float64Array,
): void {
  let maxPosError = err[0];
  let maxRotError = err[1];
  for (let f = 0; f < n; f++) {
    const e = f * nb + b;
    if (exact && f > 0) {
      let same = true;
      for (let c = 0; c < 3 && same; c++)
        if (T[f * 3 + c] !== T[f * 3 - 3 + c] || S[f * 3 + c] !== S[f * 3 - 3 + c]) same = false;
      for (let c = 0; c < 4 && same; c++) if (R[f * 4 + c] !== R[f * 4 - 4 + c]) same = false;
      if (same) continue;
    }
    for (let c = 0; c < 3; c++) {
      const p = T[f * 3 + c];
      const v = S[f * 3 + c];
      if (quantized) {
        const rp = rawPos[c];
        const rs = rawScale[c];
        const pq = rp ? rp[e] : encodeRangeU16(Math.fround(p), bx[c], bx[3 + c]);
        const sq = rs ? rs[e] : encodeRangeU16(Math.fround(v), bx[6 + c], bx[9 + c]);
        code[c] = pq;
        code[7 + c] = sq;
        if (mask & (1 << c))
          maxPosError = Math.max(maxPosError, Math.abs(decodeRangeU16(pq, bx[c], bx[3 + c]) - p));
        if (mask & (16 << c))
          maxPosError = Math.max(maxPosError, Math.abs(decodeRangeU16(sq, bx[6 + c], bx[9 + c]) - v));
      } else {
        code[c] = Math.fround(p);
        code[7 + c] = Math.fround(v);
      }
    }
    for (let c = 0; c < 4; c++) {
      const x = R[f * 4 + c];
      const q = snorm16(x);
      code[3 + c] = q;
      maxRotError = Math.max(maxRotError, Math.abs(decodeSnorm16(q) - x));
    }
    let fl: number;
    if (keptFlags)
      fl = (hexValue(keptFlags.charCodeAt(e * 2)) << 4) | hexValue(keptFlags.charCodeAt(e * 2 + 1));
    else if (f === 0) fl = mask;
    else {
      fl = 0;
      for (let c = 0; c < 3; c++) {
        if (code[c] !== last[c]) fl |= 1 << c;
        if (code[7 + c] !== last[7 + c]) fl |= 16 << c;
      }
      for (let c = 3; c < 7; c++) if (code[c] !== last[c]) fl |= FLAG_ROT;
      fl &= mask;
    }
    flags[e] = fl;
    for (let c = 0; c < 3; c++) {
      if (fl & (1 << c)) positions[e * 3 + c] = code[c];
      if (fl & (16 << c)) scales[e * 3 + c] = code[7 + c];
    }
    if (fl & FLAG_ROT) for (let c = 0; c < 4; c++) rotations[e * 4 + c] = code[3 + c];
    last.set(code);
  }
  err[0] = maxPosError;
  err[1] = maxRotError;
}

/**
 * The an10 range boxes (position offset[3] + size[3], then scale) for `mask` from the sampled
 * ranges `lo`/`hi`: the imported box when the values still fit in it (so codes come back
 * exactly), else the range itself, widened by one float32 step when rounding would cut the top.
 */
function rangeBoxes(
  mask: number,
  lo: Float64Array,
  hi: Float64Array,
  entries: number,
  stored: Float32Array | null,
): Float32Array {
  const bx = new Float32Array(12);
  const box = (bit: number, at: number, range: number) => {
    for (let c = 0; c < 3; c++) {
      if (!(mask & (bit << c))) {
        bx[at + c] = stored ? stored[at + c] : EMPTY_BOX[c];
        bx[at + 3 + c] = stored ? stored[at + 3 + c] : EMPTY_BOX[3 + c];
        continue;
      }
      let l = entries ? lo[range + c] : Number.POSITIVE_INFINITY;
      let h = entries ? hi[range + c] : Number.NEGATIVE_INFINITY;
      if (!Number.isFinite(l)) {
        if (stored) {
          bx[at + c] = stored[at + c];
          bx[at + 3 + c] = stored[at + 3 + c];
          continue;
        }
        l = 0;
        h = 0;
      }
      if (stored) {
        const so = stored[at + c];
        const ss = stored[at + 3 + c];
        const slack = Math.abs(ss) / 65535 + 1e-6 * Math.max(1, Math.abs(so));
        if (l >= so - slack && h <= so + ss + slack) {
          bx[at + c] = so;
          bx[at + 3 + c] = ss;
          continue;
        }
      }
      bx[at + c] = Math.fround(l);
      bx[at + 3 + c] = Math.fround(h - Math.fround(l));
      // Make sure the top value still fits after float32 rounding of the box.
      if (bx[at + c] + bx[at + 3 + c] < h) bx[at + 3 + c] = Math.fround(bx[at + 3 + c] * (1 + 2 ** -20));
    }
  };
  box(1, 0, 0);
  box(16, 6, 3);
  return bx;
}

/** Raw u16 codes of axes too narrow for float32, per axis, from the imported extras (null: none). */
function rawCodeLists(
  ex: Partial<UnigineAnimationExtras>,
  entries: number,
): { rawPos: (Uint16Array | null)[]; rawScale: (Uint16Array | null)[] } {
  const raw = ex.rawCodes ?? {};
  // Stored as u16 (the typed array's coercion, so the flags compare what is written).
  const rawList = (key: string): Uint16Array | null =>
    Array.isArray(raw[key]) && raw[key].length === entries ? new Uint16Array(raw[key]) : null;
  return {
    rawPos: [0, 1, 2].map((c) => rawList(`pos${c}`)),
    rawScale: [0, 1, 2].map((c) => rawList(`scale${c}`)),
  };
}

/**
 * Builds an animated-bone block from glTF tracks. `quantized` selects the an10 variant (u16 in
 * range boxes); the float variant is the one embedded in ms11 meshes. Works bone by bone on
 * per-bone tracks (time and memory: the block itself plus one bone's frames), sampling twice
 * when range boxes have to be measured first.
 */
export function buildBlock(
  tracks: (Track | null)[],
  boneIdx: number[],
  rest: number[][],
  parentFix: (M4 | null)[],
  frameCount: number,
  fps: number,
  quantized: boolean,
  ex: Partial<UnigineAnimationExtras>,
  warnResampled: () => void,
): BlockResult {
  const frames = frameCount;
  const nb = boneIdx.length;
  const T = new Float64Array(frames * 3);
  const R = new Float64Array(frames * 4);
  const S = new Float64Array(frames * 3);
  const m = new Float64Array(16);
  // Bones whose every track holds one value (or none: the rest pose): every frame is frame 0
  // (a parent fix maps the same value to the same value).
  const still = new Uint8Array(nb);
  for (let b = 0; b < nb; b++)
    still[b] =
      constantTrack(tracks[b]?.t) && constantTrack(tracks[b]?.r) && constantTrack(tracks[b]?.s) ? 1 : 0;
  /** Bone `b`'s frames, file axes, into T/R/S (only frame 0 for a constant bone). */
  const sampleBone = (b: number, warn: boolean, full: boolean): void => {
    const n = still[b] === 1 && !full ? Math.min(1, frameCount) : frameCount;
    const resampled = sampleBoneFrames(tracks[b], rest[b], parentFix[b], n, fps, T, R, S, m);
    if (warn) for (let k = 0; k < resampled; k++) warnResampled();
  };
  let hasScale = false;
  for (const tr of tracks) if (tr?.s) hasScale = true;
  const explicitMask = typeof ex.componentMask === 'number';
  // Pass 1 (when needed): per-axis ranges of positions and scales, and whether scales differ from 1.
  const lo = new Float64Array(6).fill(Number.POSITIVE_INFINITY);
  const hi = new Float64Array(6).fill(Number.NEGATIVE_INFINITY);
  let differs = false;
  const pass1 = quantized || (!explicitMask && hasScale);
  for (let b = 0; b < nb && pass1; b++) {
    sampleBone(b, true, false);
    const n = still[b] === 1 ? Math.min(1, frames) : frames;
    if (growRanges(T, S, n, lo, hi)) differs = true;
  }
  let mask: number;
  if (explicitMask) mask = (ex.componentMask as number) & 0x7f;
  else {
    mask = FLAG_POS | FLAG_ROT;
    if (hasScale && differs) mask |= FLAG_SCALE;
  }
  const entries = frames * nb;
  const flags = new Uint8Array(entries);
  const positions = quantized ? new Uint16Array(entries * 3) : new Float32Array(entries * 3);
  const rotations = new Int16Array(entries * 4);
  const scales = quantized ? new Uint16Array(entries * 3) : new Float32Array(entries * 3);
  let boxes: Float32Array | null = null;
  let maxPosError = 0;
  let maxRotError = 0;
  if (quantized) boxes = rangeBoxes(mask, lo, hi, entries, unpackF32(ex.boxes, 12));
  const { rawPos, rawScale } = rawCodeLists(ex, entries);
  // Flags: frame 0 stores every component of the mask; later frames only what changed
  // (unless the source file did otherwise and its flags were kept).
  const keptFlags =
    typeof ex.flags === 'string' && ex.flags.length === entries * 2 && /^[0-9a-f]*$/.test(ex.flags)
      ? ex.flags
      : null;
  const bx = boxes ?? new Float32Array(12);
  const code = new Float64Array(10); // this frame's stored values: pos 0-2, rot 3-6, scale 7-9
  const last = new Float64Array(10); // the previous frame's
  // Pass 2: bone by bone, values → codes → flags; unflagged components stay 0 (the file model
  // mirrors the bytes).
  const exact = !keptFlags && !rawPos.some((r) => r) && !rawScale.some((r) => r);
  const err = new Float64Array(2); // worst position/scale and rotation error
  for (let b = 0; b < nb; b++) {
    sampleBone(b, !pass1, !exact);
    // Frames equal to the previous one store nothing (flags 0): a constant bone is done after
    // frame 0, and repeated frames are skipped (values equal → codes equal).
    const n = exact && still[b] === 1 ? Math.min(1, frames) : frames;
    encodeBoneFrames(
      b,
      nb,
      n,
      exact,
      quantized,
      mask,
      T,
      R,
      S,
      rawPos,
      rawScale,
      bx,
      keptFlags,
      code,
      last,
      flags,
      positions,
      rotations,
      scales,
      err,
    );
  }
  maxPosError = err[0];
  maxRotError = err[1];
  return {
    block: {
      bones: Int16Array.from(boneIdx),
      boxes,
      componentMask: mask,
      numFrames: frames,
      flags,
      positions,
      rotations,
      scales,
    },
    maxPosError,
    maxRotError,
  };
}

export function tracksOf(anim: Animation, warnings: WarningCollector): Map<Node, Track> {
  const map = new Map<Node, Track>();
  for (const ch of anim.listChannels()) {
    const node = ch.getTargetNode();
    const path = ch.getTargetPath();
    const sampler = ch.getSampler();
    if (!node || !sampler) continue;
    if (path === 'weights') {
      warnings.warn(
        'ANIMATION_DROPPED',
        `animation "${anim.getName()}": morph-weight tracks have no place in UNIGINE an10; dropped`,
      );
      continue;
    }
    const tr = map.get(node) ?? { node };
    if (path === 'translation') tr.t = readSampler(sampler, false, 3);
    else if (path === 'rotation') tr.r = readSampler(sampler, true, 4);
    else if (path === 'scale') tr.s = readSampler(sampler, false, 3);
    map.set(node, tr);
  }
  return map;
}
