/**
 * Export of glTF animations: the limits the shared stage gets (keys on frames need no step), the
 * guard against absurd clips, `.anim` file names and per-file rest poses.
 */
import { type AnimationLimits, ExportError } from '@gltf-legacy/core';
import type { Animation, Document } from '@gltf-transform/core';
import type { AnimFileExtras, UnigineAnimationExtras } from '../extras.js';
import { unpackF32 } from '../jsonf32.js';
import { UNIGINE_LIMITS } from '../limits.js';
import { unigineExtras } from './common.js';
import { MAX_BLOCK_ENTRIES, keysOnFrames } from './frames.js';

export function overrideOf(header: AnimFileExtras | undefined, i: number): number[] | null {
  const o = unpackF32(header?.bindPoseOverrides?.[String(i)], 10);
  return o ? Array.from(o) : null;
}

export function sanitize(s: string): string {
  return s.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '') || 'anim';
}

/**
 * The animation limits to give the shared stage for `document`. UNIGINE stores every frame, so
 * LINEAR/STEP keys that sit on frames (any subset of them, as our importer writes them) are
 * filled in exactly by the map layer and need no step (`sampling: 'any'`); otherwise the stage
 * samples onto the frame grid at the clips' one rate. Clips with different rates (imported
 * extras) cannot share the stage's one grid: `null`, and `sampleFrames` samples such tracks.
 */
export function animationLimits(document: Document, fps: number): AnimationLimits | null {
  const base = UNIGINE_LIMITS.animation!;
  const rates = new Set<number>();
  let onFrames = true;
  for (const anim of document.getRoot().listAnimations()) {
    const ex = (unigineExtras(anim) ?? {}) as Partial<UnigineAnimationExtras>;
    const rate = typeof ex.fps === 'number' && ex.fps > 0 ? ex.fps : fps;
    rates.add(rate);
    for (const s of anim.listSamplers()) {
      const times = s.getInput()?.getArray();
      const interpolation = s.getInterpolation() ?? 'LINEAR';
      if (!base.interpolations.includes(interpolation) || (times && !keysOnFrames(times, rate)))
        onFrames = false;
    }
  }
  if (onFrames) return { ...base, sampling: 'any' };
  if (rates.size > 1) return null;
  const rate = rates.size ? [...rates][0] : fps;
  // The stage would sample every frame of every channel: refuse an absurd clip before it does.
  for (const anim of document.getRoot().listAnimations()) {
    const frames = Math.max(1, Math.round(animDuration(anim) * rate) + 1);
    const nodes = new Set(anim.listChannels().map((c) => c.getTargetNode())).size;
    if (!Number.isFinite(frames) || frames * nodes > MAX_BLOCK_ENTRIES)
      throw tooLong(anim, frames, nodes, rate);
  }
  return { ...base, fps: rate };
}

export function tooLong(anim: Animation, frames: number, bones: number, fps: number): ExportError {
  return new ExportError(
    'ANIMATION_TOO_LONG',
    `animation "${anim.getName()}" would need ${frames} frames × ${bones} animated bones at ${fps} fps; UNIGINE stores every frame of every animated bone, and more than ${MAX_BLOCK_ENTRIES} frame entries per animation would be an absurd file (shorten the clip or export with a lower fps)`,
  );
}

export function animDuration(anim: Animation): number {
  let d = 0;
  for (const s of anim.listSamplers()) {
    const input = s.getInput();
    if (input) d = Math.max(d, input.getMax([0])[0] ?? 0);
  }
  return d;
}
