/**
 * What a UNIGINE ms11 `.mesh` / an10 `.anim` can hold, as data: the input of the shared export
 * stage (`prepare(document, UNIGINE_LIMITS)`), shown in the README's "Export: what the shared
 * stage does for UNIGINE" table.
 */
import { LEGACY_LIMITS_DEFAULTS, type LegacyLimits } from '@gltf-legacy/core';

/** Frame rate of written animations when neither the option nor the imported extras give one. */
export const UNIGINE_DEFAULT_FPS = 30;

/**
 * UNIGINE's limits: triangle lists only; 4 influences per coordinate vertex (u16 weights);
 * corner indices stored as u8/u16/int32 by count (no vertex limit the stage must split for); no
 * bone palette per surface; no node tree for static surfaces (they are written in model space);
 * animations store every frame of every animated bone at one rate, played back linearly.
 *
 * ```ts
 * import { prepare } from '@gltf-legacy/prepare';
 * const { document: prepared } = await prepare(document, UNIGINE_LIMITS);
 * ```
 */
export const UNIGINE_LIMITS: LegacyLimits = {
  ...LEGACY_LIMITS_DEFAULTS,
  modes: [4],
  maxInfluences: 4,
  maxVertices: 2147483647,
  maxBonesPerDraw: Number.POSITIVE_INFINITY,
  nodeTree: false,
  animation: { sampling: 'grid', fps: UNIGINE_DEFAULT_FPS, interpolations: ['LINEAR', 'STEP'] },
};
