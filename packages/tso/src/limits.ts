/**
 * What a TSO `.mesh` / `.anim` can hold, as data: the input of the shared export stage
 * (`prepare(document, TSO_LIMITS)`), shown in the README's "Export: what the shared stage does"
 * table.
 */
import { LEGACY_LIMITS_DEFAULTS, type LegacyLimits } from '@gltf-legacy/core';
import type { Animation } from '@gltf-transform/core';

/** Frame rate of written animations that neither the options nor an imported file give one (FreeSO's tools use 36). */
export const TSO_DEFAULT_FPS = 36;

/**
 * The frame rate an animation is written at: the rate its `.anim` had at import
 * (`extras.tso.fps`), else `fallback`.
 *
 * ```ts
 * tsoAnimationFps(animation, 36); // 30 for an imported 1000 ms, 30-frame .anim
 * ```
 */
export function tsoAnimationFps(animation: Animation, fallback = TSO_DEFAULT_FPS): number {
  const fps = (animation.getExtras()?.tso as { fps?: unknown } | undefined)?.fps;
  return typeof fps === 'number' && Number.isFinite(fps) && fps > 0 ? fps : fallback;
}

/**
 * TSO's limits for an export at `fps` (the rate of animations that have none of their own):
 * triangle lists only; each vertex is a real vertex of one bone plus at most one blend vertex of
 * a second bone, so 2 influences; 32-bit indices (no vertex limit to split for); no bone palette
 * limit; a node tree (the skeleton); every motion one key per frame, played back linearly.
 *
 * ```ts
 * import { prepare } from '@gltf-legacy/prepare';
 * const { document: prepared } = await prepare(document, tsoLimits(36));
 * ```
 */
export function tsoLimits(fps = TSO_DEFAULT_FPS): LegacyLimits {
  return {
    ...LEGACY_LIMITS_DEFAULTS,
    modes: [4],
    maxInfluences: 2,
    maxVertices: 0xffffffff,
    maxBonesPerDraw: Number.POSITIVE_INFINITY,
    nodeTree: true,
    animation: {
      sampling: 'grid',
      fps: (animation) => tsoAnimationFps(animation, fps),
      interpolations: ['LINEAR'],
    },
  };
}

/** {@link tsoLimits} at the default rate: `legacyFormat.limits`. */
export const TSO_LIMITS: LegacyLimits = tsoLimits();
