/**
 * UNIGINE's key layout: every frame of a bone's tracks, sampled from the glTF channels at `f / fps`
 * (keys on frames are copied, the frames between them filled with core `sampleAt`).
 */
import { convertQuaternions, convertScale, convertVec3, sampleAt, type SamplerData } from '@gltf-legacy/core';
import type { Node } from '@gltf-transform/core';
import { mat4 } from 'gl-matrix';
import { GLTF_TO_UNIGINE, UNIGINE_TO_GLTF } from '../axes.js';
import { composeTRS } from '@gltf-legacy/core';
import { type M4, asMat } from './common.js';
import { decompose } from './skeleton.js';

export interface Track {
  node: Node;
  t?: SamplerData;
  r?: SamplerData;
  s?: SamplerData;
}

/**
 * Most frame entries (frames × animated bones) one animation block may hold: an10 and the ms11
 * float variant store every frame of every animated bone (1–33 bytes each), so a clip needing
 * more than this (e.g. 300 bones for 15 minutes at 30 fps) would be an absurd file. Export
 * refuses it with `ExportError ANIMATION_TOO_LONG` (lower `fps` or shorten the clip).
 */
export const MAX_BLOCK_ENTRIES = 2 ** 23;

/**
 * Values of a sampler at frames `0 … frames−1` (time `f / fps`) into `out` (`frames × size`).
 * When every key lies on a frame (within float32 rounding of `f / fps`), keys are copied as they
 * are, frames between two equal LINEAR keys (or after a STEP key) repeat the key, and only frames
 * between two different keys are interpolated — one pass over keys and frames. Returns true when
 * the track had to be resampled (keys off the frames, or CUBICSPLINE between keys).
 */
export function sampleFrames(s: SamplerData, frames: number, fps: number, out: Float64Array): boolean {
  const { times, values, size } = s;
  const n = times.length;
  const cubic = s.interpolation === 'CUBICSPLINE';
  const stride = cubic ? size * 3 : size;
  const off = cubic ? size : 0;
  const tmp = new Float64Array(size);
  if (!keysOnFrames(times, fps)) {
    for (let f = 0; f < frames; f++) {
      sampleAt(s, f / fps, tmp);
      for (let c = 0; c < size; c++) out[f * size + c] = tmp[c];
    }
    return true;
  }
  // Frame of each key (the keys sit on increasing frames).
  const keyFrame = new Float64Array(n);
  for (let k = 0; k < n; k++) keyFrame[k] = Math.round(times[k] * fps);
  let resampled = false;
  const copy = (k: number, from: number, to: number) => {
    const a = k * stride + off;
    for (let f = from; f < to; f++) for (let c = 0; c < size; c++) out[f * size + c] = values[a + c];
  };
  // Before the first key and from the last key on: clamped to those keys.
  const first = Math.min(frames, keyFrame[0]);
  copy(0, 0, first);
  for (let k = 0; k + 1 < n && keyFrame[k] < frames; k++) {
    const from = keyFrame[k];
    const to = Math.min(frames, keyFrame[k + 1]);
    let same = s.interpolation === 'STEP';
    if (!same && !cubic) {
      // Equal neighbours: the line between them is the key itself.
      const a = k * stride + off;
      const b = (k + 1) * stride + off;
      same = true;
      for (let c = 0; c < size && same; c++) if (!Object.is(values[a + c], values[b + c])) same = false;
    }
    if (same || to - from === 1) {
      copy(k, from, to);
      continue;
    }
    copy(k, from, from + 1);
    if (cubic) resampled = true;
    for (let f = from + 1; f < to; f++) {
      sampleAt(s, f / fps, tmp);
      for (let c = 0; c < size; c++) out[f * size + c] = tmp[c];
    }
  }
  copy(n - 1, Math.max(first, keyFrame[n - 1]), frames);
  return resampled;
}

/** True when a track is absent or LINEAR/STEP with every key equal (its value at any time). */
export function constantTrack(s: SamplerData | undefined): boolean {
  if (!s?.times.length) return true;
  if (s.interpolation === 'CUBICSPLINE') return false;
  const { values, size } = s;
  const n = Math.min(values.length, s.times.length * size);
  for (let i = size; i < n; i++) if (!Object.is(values[i], values[i % size])) return false;
  return true;
}

/**
 * Frames `0 … frames−1` of one bone (tracks or rest pose, through the parent fix), converted to
 * file axes, into T/R/S; rotations an an10 reader would normalize are written normalized (zero or
 * NaN ones as the identity). Returns how many of its tracks had to be resampled.
 */
export function sampleBoneFrames(
  tr: Track | null | undefined,
  r0: number[],
  fix: M4 | null,
  frames: number,
  fps: number,
  T: Float64Array,
  R: Float64Array,
  S: Float64Array,
  m: Float64Array,
): number {
  // Rest values are in file axes; channel values in glTF axes: bring rest to glTF first.
  const restT = Float64Array.of(r0[0], r0[1], r0[2]);
  const restR = Float64Array.of(r0[3], r0[4], r0[5], r0[6]);
  const restS = Float64Array.of(r0[7], r0[8], r0[9]);
  convertVec3(UNIGINE_TO_GLTF, restT);
  convertQuaternions(UNIGINE_TO_GLTF, restR);
  convertScale(UNIGINE_TO_GLTF, restS);
  let resampled = 0;
  if (tr?.t?.times.length) resampled += sampleFrames(tr.t, frames, fps, T) ? 1 : 0;
  else repeatValue(restT, 3, frames, T);
  if (tr?.r?.times.length) resampled += sampleFrames(tr.r, frames, fps, R) ? 1 : 0;
  else repeatValue(restR, 4, frames, R);
  if (tr?.s?.times.length) resampled += sampleFrames(tr.s, frames, fps, S) ? 1 : 0;
  else repeatValue(restS, 3, frames, S);
  if (fix) {
    for (let f = 0; f < frames; f++) {
      const t = [T[f * 3], T[f * 3 + 1], T[f * 3 + 2]];
      const r = [R[f * 4], R[f * 4 + 1], R[f * 4 + 2], R[f * 4 + 3]];
      const sc = [S[f * 3], S[f * 3 + 1], S[f * 3 + 2]];
      composeTRS(t, r, sc, m);
      mat4.multiply(asMat(m), asMat(fix), asMat(m));
      const d = decompose(m);
      T.set(d.t, f * 3);
      R.set(d.r, f * 4);
      S.set(d.s, f * 3);
    }
  }
  // glTF → file axes, in place, on the per-bone f64 tracks
  convertVec3(GLTF_TO_UNIGINE, T.subarray(0, frames * 3));
  convertQuaternions(GLTF_TO_UNIGINE, R.subarray(0, frames * 4));
  convertScale(GLTF_TO_UNIGINE, S.subarray(0, frames * 3));
  normalizeRotations(R, frames);
  return resampled;
}

/** `out[f] = value` for f < frames (items of `size`). */
function repeatValue(value: Float64Array, size: number, frames: number, out: Float64Array): void {
  for (let f = 0; f < frames; f++) for (let k = 0; k < size; k++) out[f * size + k] = value[k];
}

/** Rotations whose length is off by more than 1e-3 normalized (zero/NaN ones: the identity). */
function normalizeRotations(R: Float64Array, frames: number): void {
  for (let f = 0; f < frames; f++) {
    const q = f * 4;
    const l2 = R[q] * R[q] + R[q + 1] * R[q + 1] + R[q + 2] * R[q + 2] + R[q + 3] * R[q + 3];
    if (Math.abs(Math.sqrt(l2) - 1) <= 1e-3) continue;
    if (!(l2 > 1e-12) || !Number.isFinite(l2)) {
      R[q] = 0;
      R[q + 1] = 0;
      R[q + 2] = 0;
      R[q + 3] = 1;
    } else {
      const l = Math.sqrt(l2);
      for (let c = 0; c < 4; c++) R[q + c] /= l;
    }
  }
}

/** True when every key time sits on an increasing frame `f / fps` (within float32 rounding). */
export function keysOnFrames(times: ArrayLike<number>, fps: number): boolean {
  let prev = -1;
  for (let k = 0; k < times.length; k++) {
    const t = times[k];
    const f = Math.round(t * fps);
    if (!(Math.abs(t - f / fps) <= 1e-5 + Math.abs(t) * 2.4e-7) || f <= prev || f < 0) return false;
    prev = f;
  }
  return true;
}
