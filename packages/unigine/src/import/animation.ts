/**
 * Import of an animation block (mesh-embedded or `.anim`) as a glTF animation: frames decoded to
 * glTF axes, LINEAR keys only where values change, extras for the exact round trip.
 */
import { axesDeterminant } from '@gltf-legacy/core';
import type { Accessor, Animation, Node } from '@gltf-transform/core';
import { rangeU16Float32Safe } from '@gltf-legacy/quantize';
import { UNIGINE_TO_GLTF } from '../axes.js';
import { type AnimationBlock, FLAG_POS, FLAG_ROT, FLAG_SCALE } from '../block.js';
import { TRS_FLOATS } from '../common.js';
import { keepBlockCodes, type UnigineAnimationExtras } from '../extras.js';
import { type Ctx, accessor, f32 } from './context.js';
import { exactSnorm16 } from './rotations.js';

/**
 * True when the block's flags follow the writers' rule: frame 0 stores every component of the
 * mask, later frames exactly the components whose stored value changed. Then export can
 * recompute them; otherwise they are kept in extras.
 */
export function flagsFollowRule(block: AnimationBlock): boolean {
  const nb = block.bones.length;
  const mask = block.componentMask;
  const cur = new Float64Array(nb * 10);
  for (let f = 0; f < block.numFrames; f++) {
    for (let b = 0; b < nb; b++) {
      const e = f * nb + b;
      const fl = block.flags[e];
      if (fl === 0 && f > 0) continue; // stores nothing, changes nothing
      if (f === 0) {
        if (fl !== mask) return false;
      } else {
        let want = 0;
        for (let c = 0; c < 3; c++) {
          if (fl & (1 << c) ? block.positions[e * 3 + c] !== cur[b * 10 + c] : false) want |= 1 << c;
          if (fl & (16 << c) ? block.scales[e * 3 + c] !== cur[b * 10 + 7 + c] : false) want |= 16 << c;
        }
        if (fl & 8)
          for (let c = 0; c < 4; c++) if (block.rotations[e * 4 + c] !== cur[b * 10 + 3 + c]) want |= 8;
        if (want !== fl) return false;
      }
      for (let c = 0; c < 3; c++) {
        if (fl & (1 << c)) cur[b * 10 + c] = block.positions[e * 3 + c];
        if (fl & (16 << c)) cur[b * 10 + 7 + c] = block.scales[e * 3 + c];
      }
      if (fl & 8) for (let c = 0; c < 4; c++) cur[b * 10 + 3 + c] = block.rotations[e * 4 + c];
    }
  }
  return true;
}

const U2G_AXIS = UNIGINE_TO_GLTF.axis;
const U2G_SIGN = UNIGINE_TO_GLTF.sign;
const U2G_DET = axesDeterminant(UNIGINE_TO_GLTF);

/**
 * Decodes bone `b` of a block (carry-forward of unflagged components) into `pos`, `rot`, `scl`
 * (`nf × 3/4/3`, converted to glTF axes), and sets bits 1/2/4 of `changed[f]` when frame f's
 * translation/rotation/scale differs bit for bit from frame f − 1's. Returns true when some
 * rotation had to be normalized.
 */
function decodeBone(
  block: AnimationBlock,
  b: number,
  bindPose: Float32Array,
  nf: number,
  pos: Float32Array,
  rot: Float32Array,
  scl: Float32Array,
  changed: Uint8Array,
): boolean {
  const nb = block.bones.length;
  const boxes = block.boxes;
  const [a0, a1, a2] = U2G_AXIS;
  const [s0, s1, s2] = U2G_SIGN;
  const pb = new Uint32Array(pos.buffer, pos.byteOffset, pos.length);
  const rb = new Uint32Array(rot.buffer, rot.byteOffset, rot.length);
  const sb = new Uint32Array(scl.buffer, scl.byteOffset, scl.length);
  let normalized = false;
  const cur = new Float64Array(10);
  const bo = block.bones[b] * TRS_FLOATS;
  for (let k = 0; k < 10; k++)
    cur[k] = bindPose.length > bo + k ? bindPose[bo + k] : k === 6 || k >= 7 ? 1 : 0;
  for (let f = 0; f < nf; f++) {
    const e = f * nb + b;
    const fl = block.numFrames === 0 ? 0 : block.flags[e];
    const o = f * 3;
    const q = f * 4;
    if (fl === 0 && f > 0) {
      // Nothing stored: the previous frame's values, unchanged.
      for (let c = 0; c < 3; c++) {
        pb[o + c] = pb[o - 3 + c];
        sb[o + c] = sb[o - 3 + c];
      }
      for (let c = 0; c < 4; c++) rb[q + c] = rb[q - 4 + c];
      changed[f] = 0;
      continue;
    }
    for (let c = 0; c < 3; c++) {
      if (fl & (1 << c))
        cur[c] = boxes
          ? boxes[c] + (boxes[3 + c] * block.positions[e * 3 + c]) / 65535
          : block.positions[e * 3 + c];
      if (fl & (16 << c))
        cur[7 + c] = boxes
          ? boxes[6 + c] + (boxes[9 + c] * block.scales[e * 3 + c]) / 65535
          : block.scales[e * 3 + c];
    }
    if (fl & 8) {
      let len = 0;
      for (let c = 0; c < 4; c++) {
        cur[3 + c] = block.rotations[e * 4 + c] / 32767;
        len += cur[3 + c] * cur[3 + c];
      }
      len = Math.sqrt(len);
      if (Math.abs(len - 1) > 1e-3) {
        normalized = true;
        for (let c = 0; c < 4; c++) cur[3 + c] = len > 0 ? cur[3 + c] / len : c === 3 ? 1 : 0;
      }
    }
    // File axes → glTF axes (float32 first, as stored, then the signed permutation).
    pos[o] = s0 * Math.fround(cur[a0]);
    pos[o + 1] = s1 * Math.fround(cur[a1]);
    pos[o + 2] = s2 * Math.fround(cur[a2]);
    scl[o] = cur[7 + a0];
    scl[o + 1] = cur[7 + a1];
    scl[o + 2] = cur[7 + a2];
    rot[q] = U2G_DET * s0 * Math.fround(cur[3 + a0]);
    rot[q + 1] = U2G_DET * s1 * Math.fround(cur[3 + a1]);
    rot[q + 2] = U2G_DET * s2 * Math.fround(cur[3 + a2]);
    rot[q + 3] = cur[6];
    let ch = 0;
    if (f === 0) ch = 7;
    else {
      if (pb[o] !== pb[o - 3] || pb[o + 1] !== pb[o - 2] || pb[o + 2] !== pb[o - 1]) ch |= 1;
      if (
        rb[q] !== rb[q - 4] ||
        rb[q + 1] !== rb[q - 3] ||
        rb[q + 2] !== rb[q - 2] ||
        rb[q + 3] !== rb[q - 1]
      )
        ch |= 2;
      if (sb[o] !== sb[o - 3] || sb[o + 1] !== sb[o - 2] || sb[o + 2] !== sb[o - 1]) ch |= 4;
    }
    changed[f] = ch;
  }
  return normalized;
}

/**
 * Frames a LINEAR track needs as keys: the first, the last, and every frame whose value differs
 * (bit for bit) from a neighbour's (`changed[f] & bit`: frame f differs from f − 1). Frames
 * inside a run of equal values are dropped: the line between the run's two ends is that value,
 * so the animation is unchanged. Writes the kept frames to `keep` and returns how many.
 */
export function keyFramesOf(changed: Uint8Array, bit: number, nf: number, keep: Uint32Array): number {
  let n = 0;
  for (let f = 0; f < nf; f++)
    if (f === 0 || f === nf - 1 || changed[f] & bit || changed[f + 1] & bit) keep[n++] = f;
  return n;
}

/** Key times `frame / fps` of the first `n` frames listed in `frames`. */
function frameTimes(frames: Uint32Array, n: number, fps: number): Float32Array {
  const t = new Float32Array(n);
  for (let k = 0; k < n; k++) t[k] = frames[k] / fps;
  return t;
}

/**
 * The u16 codes of axes whose range box is too narrow for float32 (per `rangeU16Float32Safe`),
 * per axis (`pos0` … `scale2`), with unflagged frames carried forward: kept in extras so export
 * writes the same codes.
 */
function narrowAxisCodes(block: AnimationBlock, mask: number): Record<string, number[]> {
  const boxes = block.boxes!;
  const raw: Record<string, number[]> = {};
  const keep = (
    kind: 'pos' | 'scale',
    bit: number,
    c: number,
    min: number,
    size: number,
    codes: Uint16Array,
  ) => {
    if (!(mask & bit)) return;
    if (size > 0 && Number.isFinite(min) && rangeU16Float32Safe(min, size)) return;
    let allZero = true;
    for (let e = c; e < codes.length && allZero; e += 3) if (codes[e] !== 0) allZero = false;
    if (allZero && size === 0) return;
    // Codes with unflagged frames carried forward (what the frame holds, not what is stored).
    const list: number[] = new Array(codes.length / 3);
    const nbk = block.bones.length;
    for (let e = 0; e < list.length; e++)
      list[e] = block.flags[e] & bit ? codes[e * 3 + c] : e >= nbk ? list[e - nbk] : 0;
    raw[`${kind}${c}`] = list;
  };
  for (let c = 0; c < 3; c++) {
    keep('pos', 1 << c, c, boxes[c], boxes[3 + c], block.positions as Uint16Array);
    keep('scale', 16 << c, c, boxes[6 + c], boxes[9 + c], block.scales as Uint16Array);
  }
  return raw;
}

/**
 * The output accessor of a track's `n` key values: with `ctx.compact`, rotations whose values are
 * all int16 codes of the file (`exactSnorm16`) as normalized SHORT; else float32. A value held
 * over the clip (one key, or two equal ones) is shared with equal tracks.
 */
function trackOutput(ctx: Ctx, values: Float32Array, size: number, n: number): Accessor {
  const { doc, buffer } = ctx;
  const type = size === 4 ? 'VEC4' : 'VEC3';
  const codes = size === 4 && ctx.compact ? exactSnorm16(values) : null;
  const make = () => (codes ? accessor(doc, buffer, type, codes, true) : accessor(doc, buffer, type, values));
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  let one = n <= 2;
  for (let c = 0; c < size && one && n === 2; c++) if (bits[c] !== bits[size + c]) one = false;
  if (!one) return make();
  let key = `${codes ? 's' : 'v'}${n}:`;
  for (let c = 0; c < size; c++) key += `${bits[c]},`;
  let shared = ctx.shared.get(key);
  if (!shared) {
    shared = make();
    ctx.shared.set(key, shared);
  }
  return shared;
}

export function blockToAnimation(
  ctx: Ctx,
  block: AnimationBlock,
  boneNames: readonly string[],
  bindPose: Float32Array,
  nodeByName: Map<string, Node>,
  meta: { source: 'mesh' | 'anim'; file: string; index: number; name: string; glName: string },
): Animation {
  const { doc, buffer, warnings, fps } = ctx;
  const nb = block.bones.length;
  const nf = Math.max(1, block.numFrames);
  const anim = doc.createAnimation(meta.glName);
  // Key times, made on demand and shared: every frame, or the two ends (constant tracks), else
  // per track.
  const times = (which: 'all' | 'ends', n: number): Accessor => {
    const key = `t${nf}:${which}`;
    let a = ctx.shared.get(key);
    if (!a) {
      a = accessor(doc, buffer, 'SCALAR', frameTimes(keep, n, fps));
      ctx.shared.set(key, a);
    }
    return a;
  };
  // Key times of the frames `keep[0 … n)`, shared by the tracks keeping the same frames (a
  // bone's translation and rotation often change on the same ones).
  const keyTimes = (n: number): Accessor => {
    const key = `k${nf}:${keep.subarray(0, n).join(',')}`;
    let a = ctx.shared.get(key);
    if (!a) {
      a = accessor(doc, buffer, 'SCALAR', frameTimes(keep, n, fps));
      ctx.shared.set(key, a);
    }
    return a;
  };
  const pos = new Float32Array(nf * 3);
  const rot = new Float32Array(nf * 4);
  const scl = new Float32Array(nf * 3);
  const keep = new Uint32Array(nf);
  const changed = new Uint8Array(nf + 1);
  let normalized = false;
  const mask = block.componentMask;
  const animated: string[] = [];
  let missing = 0;
  // Bones no frame after the first stores anything for hold still: frame 0 is the whole track
  // (one pass over the flags, in file order).
  const moving = new Uint8Array(nb);
  const flags = block.flags;
  for (let f = 1, e = nb; f < block.numFrames; f++)
    for (let b = 0; b < nb; b++, e++) if (flags[e] & 0x7f) moving[b] = 1;
  for (let b = 0; b < nb; b++) {
    const name = boneNames[block.bones[b]];
    animated.push(name);
    const node = nodeByName.get(name);
    const still = !moving[b];
    if (decodeBone(block, b, bindPose, still ? 1 : nf, pos, rot, scl, changed)) normalized = true;
    if (!node) {
      missing++;
      continue;
    }
    const add = (path: 'translation' | 'rotation' | 'scale', data: Float32Array, size: number) => {
      let n: number;
      if (still) {
        n = nf > 1 ? 2 : 1;
        keep[0] = 0;
        keep[1] = nf - 1;
      } else n = keyFramesOf(changed, size === 4 ? 2 : path === 'scale' ? 4 : 1, nf, keep);
      let input: Accessor;
      let values: Float32Array;
      if (n === nf && !still) {
        input = times('all', nf);
        values = data.slice(0, nf * size);
      } else {
        input = n === nf ? times('all', nf) : n === 2 ? times('ends', 2) : keyTimes(n);
        values = new Float32Array(n * size);
        for (let k = 0; k < n; k++)
          for (let c = 0; c < size; c++) values[k * size + c] = data[(still ? 0 : keep[k]) * size + c];
      }
      const out = trackOutput(ctx, values, size, n);
      const sampler = doc.createAnimationSampler().setInput(input).setOutput(out); // LINEAR is the default
      anim
        .addSampler(sampler)
        .addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
    };
    if (mask & FLAG_POS) add('translation', pos, 3);
    if (mask & FLAG_ROT) add('rotation', rot, 4);
    if (mask & FLAG_SCALE) add('scale', scl, 3);
  }
  warnings.warn(
    'TRACK_DROPPED',
    `${meta.file}: animation "${meta.name}" has tracks for bones the model does not have; dropped`,
    missing,
  );
  const extras: UnigineAnimationExtras = {
    source: meta.source,
    file: meta.file,
    index: meta.index,
    name: meta.name,
    bones: animated,
    componentMask: mask,
    numFrames: block.numFrames,
    fps,
  };
  // raw flags and narrow-axis codes: kept bytes of the animation (keepBlockCodes), not JSON
  const keptFlags = flagsFollowRule(block) ? undefined : block.flags;
  let rawCodes: Record<string, number[]> = {};
  if (normalized) {
    extras.normalized = true;
    warnings.warn(
      'VALUE_NORMALIZED',
      `${meta.file}: animation "${meta.name}" has rotations far from unit length; normalized`,
    );
  }
  if (block.boxes) {
    const boxes = block.boxes;
    extras.boxes = f32(boxes);
    rawCodes = narrowAxisCodes(block, mask);
  }
  anim.setExtras({ unigine: extras });
  keepBlockCodes(anim, keptFlags, rawCodes);
  return anim;
}
