/**
 * Step 6 of the export stage: animation keys. Channels whose interpolation the format cannot play
 * are sampled to LINEAR keys (at their own key times plus `fps` points between); for fixed-rate
 * formats (`sampling: 'grid'`) every channel not already on consecutive frames `k / fps` from 0
 * is sampled on that grid. Values come from core's `sampleAt` (glTF's LINEAR/slerp, STEP and
 * CUBICSPLINE rules), exact at the original keys. `@gltf-transform/functions`' `resample` removes
 * redundant keys, which is the opposite job.
 */
import type {
  Animation,
  AnimationChannel,
  AnimationSampler,
  Document,
  Transform,
} from '@gltf-transform/core';
import {
  type AnimationLimits,
  ExportError,
  type WarningCollector,
  readSampler,
  sampleAt,
} from '@gltf-legacy/core';

import { createAccessor } from './utils.js';

export interface ResampleAnimationsOptions extends AnimationLimits {
  /** Receives `ANIMATION_RESAMPLED` (count: channels, one message per animation). */
  warnings?: WarningCollector;
}

/**
 * Default `maxKeys`: 2²³ keys per resampled channel (78 hours at 30 fps), so that a two-key
 * channel spanning 10⁷ s never becomes 3·10⁸ keys; formats set a lower one in their limits.
 */
export const MAX_RESAMPLED_KEYS = 2 ** 23;

export const RESAMPLE_ANIMATIONS_DEFAULTS: ResampleAnimationsOptions = {
  sampling: 'any',
  fps: 30,
  interpolations: ['LINEAR', 'STEP'],
  maxKeys: MAX_RESAMPLED_KEYS,
};

/** The rate used when a per-animation rate function has no animation to ask. */
export const LEGACY_FPS_FALLBACK = 30;

/** Tolerance, in seconds, for a key to count as sitting on frame `k / fps`. */
export const GRID_TOLERANCE = 1e-4;

/** The grid rate of `animation` under `limits` (a per-animation function, or one rate for all). */
export function animationFps(limits: AnimationLimits, animation: Animation | null): number {
  if (typeof limits.fps === 'number') return limits.fps;
  return animation ? limits.fps(animation) : LEGACY_FPS_FALLBACK;
}

/**
 * Why `sampler` must be sampled again under `limits`, or null when it fits. `animation` (the
 * sampler's owner) resolves a per-animation rate; without it, the first animation listing the
 * sampler is used.
 */
export function resampleReason(
  sampler: AnimationSampler,
  limits: AnimationLimits,
  animation?: Animation,
): string | null {
  const input = sampler.getInput()?.getArray();
  // A sampler without keys or without values has nothing to sample (the exporter reports it).
  if (!input || input.length === 0 || !sampler.getOutput()?.getArray()) return null;
  const interpolation = sampler.getInterpolation() ?? 'LINEAR';
  if (!limits.interpolations.includes(interpolation)) return `${interpolation} interpolation`;
  if (limits.sampling === 'grid') {
    const owner =
      animation ?? sampler.listParents().find((p): p is Animation => p.propertyType === 'Animation');
    const fps = animationFps(limits, owner ?? null);
    for (let k = 0; k < input.length; k++) {
      // float32 times hold k / fps only to their precision: past ~2 000 s its rounding exceeds
      // the tolerance, so the float32 of k / fps itself counts as on the grid
      const t = k / fps;
      if (Math.abs(input[k] - t) > GRID_TOLERANCE && input[k] !== Math.fround(t))
        return `keys not on ${fps} fps frames from 0`;
    }
  }
  return null;
}

/** True when some animation channel of `document` does not fit `limits`. */
export function resampleNeeded(document: Document, limits: AnimationLimits | null): boolean {
  if (!limits) return false;
  for (const anim of document.getRoot().listAnimations())
    for (const s of anim.listSamplers()) if (resampleReason(s, limits, anim)) return true;
  return false;
}

/** The key times a resampled channel gets (`fps`: the animation's rate, default the limits' number). */
export function resampleTimes(
  times: ArrayLike<number>,
  limits: AnimationLimits,
  fps = animationFps(limits, null),
): Float32Array {
  const first = times[0];
  const last = times[times.length - 1];
  const count = resampleKeyCount(times, limits, fps);
  if (!(count <= MAX_ARRAY_KEYS)) throw tooManyKeys('a channel', count, fps, MAX_ARRAY_KEYS);
  if (limits.sampling === 'grid') {
    const frames = Math.max(1, Math.ceil(last * fps - 1e-6) + 1);
    return Float32Array.from({ length: frames }, (_, k) => k / fps);
  }
  const out = new Set<number>();
  for (let i = 0; i < times.length; i++) out.add(Math.fround(times[i]));
  for (let k = Math.ceil(first * fps); k / fps < last; k++) out.add(Math.fround(k / fps));
  return Float32Array.from([...out].sort((a, b) => a - b));
}

/** Keys that {@link resampleTimes} would give (an upper bound for `'any'`), without building them. */
export function resampleKeyCount(times: ArrayLike<number>, limits: AnimationLimits, fps: number): number {
  const first = times[0];
  const last = times[times.length - 1];
  if (limits.sampling === 'grid') return Math.max(1, Math.ceil(last * fps - 1e-6) + 1);
  return times.length + Math.max(0, Math.ceil((last - first) * fps) + 1);
}

/** The most keys a JavaScript Set or typed array of key times may be asked to hold here. */
const MAX_ARRAY_KEYS = 2 ** 24;

function tooManyKeys(what: string, count: number, fps: number, max: number): ExportError {
  return new ExportError(
    'TOO_MANY_FRAMES',
    `${what} would need ${Number.isFinite(count) ? count : 'infinitely many'} keys at ${fps} fps to be sampled again (limit ${max}); lower the frame rate or shorten the clip`,
  );
}

/**
 * Samples the channels that do not fit `limits` again, as LINEAR (or the format's one
 * interpolation) keys. Channels that fit are left byte for byte as they are.
 *
 * ```ts
 * await document.transform(resampleAnimations({ sampling: 'grid', fps: 30, interpolations: ['LINEAR'], warnings }));
 * ```
 */
export function resampleAnimations(options: Partial<ResampleAnimationsOptions> = {}): Transform {
  const {
    warnings,
    maxKeys = MAX_RESAMPLED_KEYS,
    ...limits
  } = { ...RESAMPLE_ANIMATIONS_DEFAULTS, ...options };
  const target = limits.interpolations.includes('LINEAR') ? 'LINEAR' : limits.interpolations[0];
  return (document: Document): void => {
    for (const anim of document.getRoot().listAnimations()) {
      const fps = animationFps(limits, anim);
      const channelsOf = new Map<AnimationSampler, AnimationChannel[]>();
      for (const c of anim.listChannels()) {
        const s = c.getSampler();
        if (s) channelsOf.set(s, [...(channelsOf.get(s) ?? []), c]);
      }
      let count = 0;
      const reasons = new Set<string>();
      for (const sampler of anim.listSamplers()) {
        const reason = resampleReason(sampler, limits, anim);
        if (!reason) continue;
        const users = channelsOf.get(sampler) ?? [];
        const quaternion = users[0]?.getTargetPath() === 'rotation';
        const data = readSampler(sampler, quaternion);
        const keys = resampleKeyCount(data.times, limits, fps);
        if (!(keys <= maxKeys))
          throw tooManyKeys(`animation "${anim.getName()}": a channel`, keys, fps, maxKeys);
        const times = resampleTimes(data.times, limits, fps);
        const values = new Float32Array(times.length * data.size);
        const tmp = new Float64Array(data.size);
        for (let k = 0; k < times.length; k++) {
          sampleAt(data, times[k], tmp);
          for (let c = 0; c < data.size; c++) values[k * data.size + c] = tmp[c];
        }
        const type = sampler.getOutput()!.getType();
        sampler
          .setInput(createAccessor(document).setType('SCALAR').setArray(times))
          .setOutput(createAccessor(document).setType(type).setArray(values))
          .setInterpolation(target);
        count += users.length;
        reasons.add(reason);
      }
      warnings?.warn(
        'ANIMATION_RESAMPLED',
        `animation "${anim.getName()}": channels sampled again as ${target} keys at ${fps} fps (${[...reasons].join(', ')})`,
        count,
      );
    }
  };
}
