/**
 * Export, animations: one glTF animation → one `.animation` file model. Owns what is Grimrock's
 * own: the per-file frame rate and frame count (`planAnimations`, decided on the caller's
 * document before the shared stage runs, with the guards against absurd frame counts), the v1/v2
 * key layout and the X mirror (`exportAnimation`, on the prepared document). Sampling onto the
 * frame grid is the shared stage's `resampleAnimations`, at each clip's own rate.
 */
import {
  type AnimationLimits,
  ExportError,
  readSampler,
  type SamplerData,
  type WarningCollector,
} from '@gltf-legacy/core';
import type { resampleReason as ResampleReason } from '@gltf-legacy/prepare';
import { type Animation, type Document, type Node, PropertyType, type Root } from '@gltf-transform/core';
import type { AnimationFile, AnimationItem } from '../animation.js';
import { decodeFloat } from '../arrays.js';
import { type AnimExtras, gx, keptBytes, keptUnmatchedKeys } from '../extras.js';
import { GRIMROCK_DEFAULT_FPS, GRIMROCK_LIMITS } from '../limits.js';
import { mirrorQuats, mirrorVec3, normalizeQuats } from '../mat.js';

/** Frames per animation beyond which export refuses (a wrong fps or a corrupt duration). */
const MAX_FRAMES = 1_000_000;
/** Keys (frames × nodes) beyond which export refuses to upsample sparse keys over 100-fold. */
const MAX_RESAMPLED_KEYS = 500_000;

type TrsPath = 'translation' | 'rotation' | 'scale';
const isTrs = (p: string | null): p is TrsPath => p === 'translation' || p === 'rotation' || p === 'scale';

/** The frame grid of one clip. */
export interface ClipPlan {
  /** Frames per second written. */
  fps: number;
  /** `.animation` version written (1: one key per frame, 2: counted arrays). */
  version: 1 | 2;
  numFrames: number;
  /** Channel indices the shared stage samples again (their constant v2 tracks shrink to one entry). */
  resampled: Set<number>;
}

/** What {@link planAnimations} decides for a document. */
export interface AnimationPlans {
  /** One plan per animation of the document (null: it animates no exported node). */
  plans: (ClipPlan | null)[];
  /** The animation limits to give the shared stage: Grimrock's frame grid, at each clip's rate. */
  animation: AnimationLimits;
}

/**
 * Decides each clip's rate, version and frame count from the options and the imported extras,
 * and refuses (`TOO_MANY_FRAMES`) before any sampling when that count is absurd.
 * `resampleReason` is the shared stage's (passed in: the stage is loaded on first export).
 *
 * ```ts
 * const { plans, animation } = planAnimations(document, (n) => exported.has(n), undefined, 'log2', resampleReason);
 * ```
 */
export function planAnimations(
  doc: Document,
  exported: (node: Node) => boolean,
  fpsOpt: number | undefined,
  variant: string | undefined,
  resampleReason: typeof ResampleReason,
): AnimationPlans {
  const plans = doc
    .getRoot()
    .listAnimations()
    .map((anim) => planClip(anim, exported, fpsOpt, variant));
  const rates = plans.map((p) => p?.fps ?? GRIMROCK_DEFAULT_FPS);
  const single = new Set(rates).size <= 1;
  // One rate for all clips, or each clip's own (the stage hands us the clone's animation: its
  // index in its own document is the index of the plan).
  const fps = single
    ? (rates[0] ?? GRIMROCK_DEFAULT_FPS)
    : (anim: Animation) => rates[animationIndex(anim)] ?? GRIMROCK_DEFAULT_FPS;
  const animation: AnimationLimits = { ...GRIMROCK_LIMITS.animation!, fps };
  doc
    .getRoot()
    .listAnimations()
    .forEach((anim, ai) => {
      const plan = plans[ai];
      if (!plan) return;
      anim.listChannels().forEach((c, ci) => {
        const s = c.getSampler();
        if (s && resampleReason(s, animation, anim)) plan.resampled.add(ci);
      });
    });
  return { plans, animation };
}

/** Index of `anim` among its document's animations. */
function animationIndex(anim: Animation): number {
  const root = anim.listParents().find((p) => p.propertyType === PropertyType.ROOT) as Root | undefined;
  return root ? root.listAnimations().indexOf(anim) : -1;
}

/** One clip's plan (see {@link planAnimations}). */
function planClip(
  anim: Animation,
  exported: (node: Node) => boolean,
  fpsOpt: number | undefined,
  variant: string | undefined,
): ClipPlan | null {
  const ex = gx<AnimExtras>(anim);
  const exFpsRaw = decodeFloat(ex?.framesPerSecond);
  const exFps = exFpsRaw !== undefined && exFpsRaw > 0 ? exFpsRaw : undefined;
  const exFrames = typeof ex?.numFrames === 'number' ? ex.numFrames : undefined;
  const fps = fpsOpt ?? exFps ?? GRIMROCK_DEFAULT_FPS;
  const version = variant === 'log2' ? 2 : variant === 'log1' ? 1 : ex?.version === 2 ? 2 : 1;
  let duration = 0;
  let sourceKeys = 1;
  const nodes = new Set<Node>();
  for (const ch of anim.listChannels()) {
    const target = ch.getTargetNode();
    const sampler = ch.getSampler();
    if (!target || !sampler || !exported(target) || !isTrs(ch.getTargetPath())) continue;
    const times = sampler.getInput()?.getArray();
    if (times?.length) duration = Math.max(duration, times[times.length - 1]);
    sourceKeys = Math.max(sourceKeys, times?.length ?? 0);
    nodes.add(target);
  }
  if (!nodes.size) return null;
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
  // A few keys spread over a very long clip (e.g. a corrupt frame count) would be resampled to
  // millions of keys: slow (about 9 µs a key) and a file hundreds of MB large. Refuse that.
  if (nodes.size * numFrames > MAX_RESAMPLED_KEYS && numFrames > 100 * sourceKeys) {
    throw new ExportError(
      'TOO_MANY_FRAMES',
      `animation "${anim.getName()}" would be resampled from at most ${sourceKeys} keys to ${numFrames} frames × ${nodes.size} nodes (limit ${MAX_RESAMPLED_KEYS} keys when that multiplies the keys over 100-fold)`,
    );
  }
  return { fps, version, numFrames, resampled: new Set() };
}

/** True when every key equals the first (within float32 noise: resampled data is lossy anyway). */
function constant(a: Float32Array, size: number): boolean {
  for (let i = size; i < a.length; i++) {
    const b = a[i % size];
    if (!(Math.abs(a[i] - b) <= 1e-6 * Math.max(1, Math.abs(b)))) return false;
  }
  return true;
}

/** A channel's data and whether it was (or must be) sampled again. */
interface Track {
  data: SamplerData;
  resampled: boolean;
}

/**
 * Converts one glTF animation of the prepared document to an animation file with `plan`'s grid.
 * The shared stage has put every channel on that grid: keys are copied by index.
 */
export function exportAnimation(
  anim: Animation,
  plan: ClipPlan | null,
  nodeName: Map<Node, string>,
  warnings: WarningCollector,
): AnimationFile | null {
  const ex = gx<AnimExtras>(anim);
  const groups = trackGroups(anim, plan, nodeName, warnings);
  if (!plan || !groups.size) {
    warnings.warn(
      'ANIMATION_SKIPPED',
      `animation "${anim.getName()}" animates no exported node; not written`,
    );
    return null;
  }
  const items: AnimationItem[] = [];
  let normalizedKeys = 0;
  for (const [node, g] of groups) {
    const keys = (path: TrsPath, size: number) => frameKeys(g[path], size, plan);
    const item: AnimationItem = {
      nodeName: nodeName.get(node)!,
      positions: keys('translation', 3) ?? Float32Array.from(node.getTranslation()),
      rotations: keys('rotation', 4) ?? Float32Array.from(node.getRotation()),
      scales: keys('scale', 3) ?? Float32Array.from(node.getScale()),
    };
    normalizedKeys += toFileKeys(item, plan.version);
    items.push(item);
  }
  restoreUnmatchedItems(anim, ex, plan, items, warnings);
  if (normalizedKeys)
    warnings.warn(
      'ROTATION_NORMALIZED',
      `animation "${anim.getName()}": ${normalizedKeys} rotation key(s) were not unit quaternions and were normalized`,
      normalizedKeys,
    );
  return {
    magic: 'ANIM',
    version: plan.version,
    name: typeof ex?.name === 'string' ? ex.name : '',
    framesPerSecond: plan.fps,
    numFrames: plan.numFrames,
    items,
    ...(keptBytes(ex?.trailing, anim) ? { trailing: keptBytes(ex?.trailing, anim) } : {}),
  };
}

/**
 * Puts back, at their places in the item list, the items import kept in
 * `extras.grimrock.unmatchedItems` (tracks of nodes the model lacks) — while the clip keeps its
 * imported rate, version and frame count, and no written item has taken the name; else they are
 * dropped with `ANIMATION_CHANNEL_DROPPED`.
 */
function restoreUnmatchedItems(
  anim: Animation,
  ex: AnimExtras | undefined,
  plan: ClipPlan,
  items: AnimationItem[],
  warnings: WarningCollector,
): void {
  const kept = Array.isArray(ex?.unmatchedItems) ? ex.unmatchedItems : [];
  if (!kept.length) return;
  const same =
    decodeFloat(ex?.framesPerSecond) === plan.fps &&
    ex?.version === plan.version &&
    ex?.numFrames === plan.numFrames;
  const written = new Set(items.map((it) => it.nodeName));
  const restored: { index: number; item: AnimationItem }[] = [];
  kept.forEach((k, i) => {
    const keys = keptUnmatchedKeys(anim, i, k);
    if (!same || !keys || typeof k?.nodeName !== 'string' || written.has(k.nodeName)) return;
    written.add(k.nodeName);
    restored.push({ index: Number(k.index) || 0, item: { nodeName: k.nodeName, ...keys } });
  });
  if (restored.length < kept.length)
    warnings.warn(
      'ANIMATION_CHANNEL_DROPPED',
      `animation "${anim.getName()}": ${kept.length - restored.length} kept item(s) for nodes the model lacks not written (${same ? 'a node of that name is animated' : 'the clip’s rate, version or frame count changed'})`,
      kept.length - restored.length,
    );
  restored.sort((a, b) => a.index - b.index);
  for (const r of restored) items.splice(Math.min(r.index, items.length), 0, r.item);
}

/** The animation's translation/rotation/scale channels grouped by target node, in first-appearance order. */
function trackGroups(
  anim: Animation,
  plan: ClipPlan | null,
  nodeName: Map<Node, string>,
  warnings: WarningCollector,
): Map<Node, Partial<Record<TrsPath, Track>>> {
  const groups = new Map<Node, Partial<Record<TrsPath, Track>>>();
  anim.listChannels().forEach((ch, ci) => {
    const target = ch.getTargetNode();
    const path = ch.getTargetPath();
    const sampler = ch.getSampler();
    if (!target || !sampler || !nodeName.has(target)) {
      warnings.warn(
        'ANIMATION_CHANNEL_DROPPED',
        `animation "${anim.getName()}": a channel targets no exported node; dropped`,
      );
      return;
    }
    if (!isTrs(path)) {
      warnings.warn(
        'ANIMATION_CHANNEL_DROPPED',
        `animation "${anim.getName()}": ${path} channels (morph weights) have no Grimrock equivalent; dropped`,
      );
      return;
    }
    const data = readSampler(sampler, path === 'rotation', path === 'rotation' ? 4 : 3);
    let g = groups.get(target);
    if (!g) groups.set(target, (g = {}));
    g[path] = { data, resampled: !!plan?.resampled.has(ci) };
  });
  return groups;
}

/**
 * A track's keys on the clip's frame grid (`null`: no track), copied by index from the prepared
 * document (the shared stage put them on the grid), the last one held.
 */
function frameKeys(track: Track | undefined, size: number, plan: ClipPlan): Float32Array | null {
  const s = track?.data;
  if (!s?.times.length) return null;
  const m = s.times.length;
  if (m === 1) {
    // exactly one key even when the output accessor holds less than it should
    const one = new Float32Array(size);
    one.set(s.values.subarray(s.interpolation === 'CUBICSPLINE' ? size : 0).subarray(0, size));
    return one;
  }
  const keyCount = Math.max(1, plan.numFrames);
  const out = new Float32Array(keyCount * size);
  const n = Math.min(m, keyCount);
  out.set(s.values.subarray(0, n * size));
  for (let k = n; k < keyCount; k++) out.copyWithin(k * size, (n - 1) * size, n * size);
  // Grimrock 2 stores a channel that does not change as one entry.
  if (track?.resampled && plan.version === 2 && constant(out, size)) return out.slice(0, size);
  return out;
}

/**
 * glTF keys → file keys in place: the X mirror, the clean-up import applies (non-finite → 0,
 * rotations off unit length by more than UNIT_TOLERANCE normalized, so what export writes imports
 * back unchanged), and for version 1 one key per frame in every track. Returns how many rotation
 * keys were normalized.
 */
function toFileKeys(item: AnimationItem, version: 1 | 2): number {
  const { positions, rotations, scales } = item;
  mirrorVec3(positions);
  mirrorQuats(rotations);
  for (const a of [positions, rotations, scales])
    for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) a[i] = 0;
  const normalized = normalizeQuats(rotations);
  if (version === 1) {
    const n = Math.max(positions.length / 3, rotations.length / 4, scales.length / 3);
    const expand = (a: Float32Array, size: number) => {
      if (a.length / size === n) return a;
      const out = new Float32Array(n * size);
      for (let k = 0; k < n; k++) out.set(a.subarray(a.length - size), k * size);
      return out;
    };
    item.positions = expand(positions, 3);
    item.rotations = expand(rotations, 4);
    item.scales = expand(scales, 3);
  }
  return normalized;
}
