/**
 * What a Grimrock `.model` / `.animation` can hold, as data: the input of the shared export stage
 * (`prepare(document, GRIMROCK_LIMITS)`), shown in the README's "Export: what the shared stage
 * does" table.
 */
import { LEGACY_LIMITS_DEFAULTS, type LegacyLimits } from '@gltf-legacy/core';

/** Frame rate of written animations when neither the option nor the imported file gives one. */
export const GRIMROCK_DEFAULT_FPS = 30;

/**
 * Grimrock's limits: triangle lists only, 4 bone influences per vertex, 32-bit indices (no
 * vertex limit the stage must split for), no bone palette limit, a node tree, and animations as
 * one key per frame on a fixed grid played back linearly.
 *
 * ```ts
 * import { prepare } from '@gltf-legacy/prepare';
 * const { document: prepared } = await prepare(document, GRIMROCK_LIMITS);
 * ```
 */
export const GRIMROCK_LIMITS: LegacyLimits = {
  ...LEGACY_LIMITS_DEFAULTS,
  modes: [4],
  maxInfluences: 4,
  maxVertices: 2147483647,
  maxBonesPerDraw: Number.POSITIVE_INFINITY,
  nodeTree: true,
  animation: { sampling: 'grid', fps: GRIMROCK_DEFAULT_FPS, interpolations: ['LINEAR'] },
};
