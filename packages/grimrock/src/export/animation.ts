/**
 * Export, animations: one glTF animation → one `.animation` file model (frame grid, v1/v2 key
 * layout, the X mirror).
 */
import { ExportError, readSampler, sampleAt, type WarningCollector } from '@gltf-legacy/core';
import type { Animation, Node } from '@gltf-transform/core';
import type { AnimationFile, AnimationItem } from '../animation.js';
import { decodeFloat } from '../arrays.js';
import { type AnimExtras, gx } from '../extras.js';
import { GRIMROCK_DEFAULT_FPS } from '../limits.js';
import { mirrorQuats, mirrorVec3, UNIT_TOLERANCE } from '../mat.js';

/** Frames per animation beyond which export refuses (a wrong fps or a corrupt duration). */
const MAX_FRAMES = 1_000_000;
/** Keys (frames × nodes) beyond which export refuses to upsample sparse keys over 100-fold. */
const MAX_RESAMPLED_KEYS = 500_000;

/** True when every key equals the first (within float32 noise: resampled data is lossy anyway). */
export function constant(a: Float32Array, size: number): boolean {
  for (let i = size; i < a.length; i++) {
    const b = a[i % size];
    if (!(Math.abs(a[i] - b) <= 1e-6 * Math.max(1, Math.abs(b)))) return false;
  }
  return true;
}

/** Converts one glTF animation to an animation file, resampling to a fixed frame rate if needed. */
export function exportAnimation(
  anim: Animation,
  nodeName: Map<Node, string>,
  warnings: WarningCollector,
  fpsOpt: number | undefined,
  variant: string | undefined,
): AnimationFile | null {
  const ex = gx<AnimExtras>(anim);
  const exFpsRaw = decodeFloat(ex?.framesPerSecond);
  const exFps = exFpsRaw !== undefined && exFpsRaw > 0 ? exFpsRaw : undefined;
  const exFrames = typeof ex?.numFrames === 'number' ? ex.numFrames : undefined;
  const fps = fpsOpt ?? exFps ?? GRIMROCK_DEFAULT_FPS;
  const version = variant === 'log2' ? 2 : variant === 'log1' ? 1 : ex?.version === 2 ? 2 : 1;
  // Channels grouped by target node, in first-appearance order.
  const groups = new Map<
    Node,
    Partial<Record<'translation' | 'rotation' | 'scale', ReturnType<typeof readSampler>>>
  >();
  let duration = 0;
  for (const ch of anim.listChannels()) {
    const target = ch.getTargetNode();
    const path = ch.getTargetPath();
    const sampler = ch.getSampler();
    if (!target || !sampler || !nodeName.has(target)) {
      warnings.warn(
        'ANIMATION_CHANNEL_DROPPED',
        `animation "${anim.getName()}": a channel targets no exported node; dropped`,
      );
      continue;
    }
    if (path !== 'translation' && path !== 'rotation' && path !== 'scale') {
      warnings.warn(
        'ANIMATION_CHANNEL_DROPPED',
        `animation "${anim.getName()}": ${path} channels (morph weights) have no Grimrock equivalent; dropped`,
      );
      continue;
    }
    const data = readSampler(sampler, path === 'rotation', path === 'rotation' ? 4 : 3);
    if (data.times.length) duration = Math.max(duration, data.times[data.times.length - 1]);
    let g = groups.get(target);
    if (!g) groups.set(target, (g = {}));
    g[path] = data;
  }
  if (!groups.size) {
    warnings.warn(
      'ANIMATION_SKIPPED',
      `animation "${anim.getName()}" animates no exported node; not written`,
    );
    return null;
  }
  let numFrames: number;
  // The imported frame count holds while the clip still lasts what it did (numFrames / fps with
  // the held last frame, or one key per frame without it, or constant channels only).
  const fits =
    exFps !== undefined &&
    exFrames !== undefined &&
    (duration === 0 ||
      Math.abs(duration * exFps - exFrames) < 1e-3 ||
      Math.abs(duration * exFps - (exFrames - 1)) < 1e-3 ||
      // Long clips: import stores float32 times, whose error outgrows the 1e-3 frame tolerance.
      duration === Math.fround(exFrames / exFps) ||
      duration === Math.fround((exFrames - 1) / exFps));
  if (fits && exFps !== undefined && exFrames !== undefined) {
    numFrames = fps === exFps ? exFrames : Math.max(1, Math.round((exFrames / exFps) * fps));
  } else numFrames = Math.max(1, Math.round(duration * fps) + 1);
  if (!(numFrames <= MAX_FRAMES)) {
    throw new ExportError(
      'TOO_MANY_FRAMES',
      `animation "${anim.getName()}" would need ${numFrames} frames at ${fps} fps (limit ${MAX_FRAMES})`,
    );
  }
  const keyCount = Math.max(1, numFrames);
  // A few keys spread over a very long clip (e.g. a corrupt frame count) would be resampled to
  // millions of keys: slow (about 9 µs a key) and a file hundreds of MB large. Refuse that.
  let sourceKeys = 1;
  for (const g of groups.values())
    for (const s of Object.values(g)) if (s) sourceKeys = Math.max(sourceKeys, s.times.length);
  if (groups.size * keyCount > MAX_RESAMPLED_KEYS && keyCount > 100 * sourceKeys) {
    throw new ExportError(
      'TOO_MANY_FRAMES',
      `animation "${anim.getName()}" would be resampled from at most ${sourceKeys} keys to ${keyCount} frames × ${groups.size} nodes (limit ${MAX_RESAMPLED_KEYS} keys when that multiplies the keys over 100-fold)`,
    );
  }
  let resampled = 0;
  const keysOf = (s: ReturnType<typeof readSampler> | undefined, size: number): Float32Array | null => {
    if (!s?.times.length) return null;
    const m = s.times.length;
    if (m === 1) {
      // exactly one key even when the output accessor holds less than it should
      const one = new Float32Array(size);
      one.set(s.values.subarray(s.interpolation === 'CUBICSPLINE' ? size : 0).subarray(0, size));
      return one;
    }
    let onGrid = s.interpolation !== 'CUBICSPLINE' && m <= keyCount + 1;
    // On the frame grid: within 1e-3 frame, or exactly the float32 time import writes for frame k
    // (past ~16 000 frames float32 rounding alone exceeds 1e-3 frame, and resampling such a
    // channel would interpolate between neighbouring keys: not a fixed point).
    for (let k = 0; onGrid && k < m; k++)
      if (!(Math.abs(s.times[k] * fps - k) < 1e-3) && s.times[k] !== Math.fround(k / fps)) onGrid = false;
    const out = new Float32Array(keyCount * size);
    if (onGrid) {
      const n = Math.min(m, keyCount);
      out.set(s.values.subarray(0, n * size));
      for (let k = n; k < keyCount; k++) out.copyWithin(k * size, (n - 1) * size, n * size);
      return out;
    }
    resampled++;
    const tmp = new Float64Array(size);
    for (let k = 0; k < keyCount; k++) {
      sampleAt(s, k / fps, tmp);
      for (let c = 0; c < size; c++) out[k * size + c] = tmp[c];
    }
    // Grimrock 2 stores a channel that does not change as one entry.
    if (version === 2 && constant(out, size)) return out.slice(0, size);
    return out;
  };
  const items: AnimationItem[] = [];
  let normalizedKeys = 0;
  for (const [node, g] of groups) {
    let positions = keysOf(g.translation, 3) ?? Float32Array.from(node.getTranslation());
    let rotations = keysOf(g.rotation, 4) ?? Float32Array.from(node.getRotation());
    let scales = keysOf(g.scale, 3) ?? Float32Array.from(node.getScale());
    mirrorVec3(positions);
    mirrorQuats(rotations);
    // The same clean-up import applies (non-finite → 0, rotations off unit length by more than
    // UNIT_TOLERANCE normalized), so what export writes imports back unchanged.
    for (const a of [positions, rotations, scales])
      for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) a[i] = 0;
    for (let o = 0; o < rotations.length; o += 4) {
      const l = Math.hypot(rotations[o], rotations[o + 1], rotations[o + 2], rotations[o + 3]);
      if (Math.abs(l - 1) > UNIT_TOLERANCE) {
        normalizedKeys++;
        if (l > 0) for (let c = 0; c < 4; c++) rotations[o + c] /= l;
        else rotations.set([0, 0, 0, 1], o);
      }
    }
    if (version === 1) {
      const n = Math.max(positions.length / 3, rotations.length / 4, scales.length / 3);
      const expand = (a: Float32Array, size: number) => {
        if (a.length / size === n) return a;
        const out = new Float32Array(n * size);
        for (let k = 0; k < n; k++) out.set(a.subarray(a.length - size), k * size);
        return out;
      };
      positions = expand(positions, 3);
      rotations = expand(rotations, 4);
      scales = expand(scales, 3);
    }
    items.push({ nodeName: nodeName.get(node)!, positions, rotations, scales });
  }
  if (normalizedKeys)
    warnings.warn(
      'ROTATION_NORMALIZED',
      `animation "${anim.getName()}": ${normalizedKeys} rotation key(s) were not unit quaternions and were normalized`,
      normalizedKeys,
    );
  if (resampled) {
    warnings.warn(
      'ANIMATION_RESAMPLED',
      `animation "${anim.getName()}": ${resampled} channel(s) resampled to ${fps} frames per second`,
      resampled,
    );
  }
  return {
    magic: 'ANIM',
    version,
    name: typeof ex?.name === 'string' ? ex.name : '',
    framesPerSecond: fps,
    numFrames,
    items,
  };
}
