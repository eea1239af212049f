/**
 * What a legacy format can hold, as data: the one input of the shared export stage
 * (`@gltf-legacy/prepare`). Each format package exports its own (`URHO3D_LIMITS`, …), sets it as
 * `legacyFormat.limits`, and its exporter runs `prepare(document, limits)`. Here in core so that
 * the plugin interface can name it without depending on the stage.
 */
import { type Animation, Primitive } from '@gltf-transform/core';

/** Glob of glTF interpolations. */
export type Interpolation = 'LINEAR' | 'STEP' | 'CUBICSPLINE';

/** How a format stores animation keys. */
export interface AnimationLimits {
  /**
   * `'grid'`: every channel's keys must sit on consecutive frames `k / fps` from 0 (fixed-rate
   * formats); `'any'`: key times are free, only the interpolation is limited.
   */
  sampling: 'grid' | 'any';
  /**
   * Frame rate of the grid, and of the points added between keys when an interpolation is
   * converted. A function gives each animation its own rate (formats that store a rate per clip,
   * e.g. from the clip's keys or extras).
   */
  fps: number | ((animation: Animation) => number);
  /** Interpolations the format plays back; channels using another one are sampled to LINEAR keys. */
  interpolations: Interpolation[];
  /**
   * Keys one channel may get when it is sampled again (default 2²³, the most a UNIGINE block
   * holds); more is an `ExportError TOO_MANY_FRAMES` before anything is allocated.
   */
  maxKeys?: number;
}

/**
 * A legacy format's limits. Every field has a default in {@link LEGACY_LIMITS_DEFAULTS}.
 *
 * ```ts
 * import { LEGACY_LIMITS_DEFAULTS, type LegacyLimits } from '@gltf-legacy/core';
 * export const GRIMROCK_LIMITS: LegacyLimits = {
 *   ...LEGACY_LIMITS_DEFAULTS,
 *   animation: { sampling: 'grid', fps: 30, interpolations: ['LINEAR'] },
 * };
 * ```
 */
export interface LegacyLimits {
  /** glTF primitive modes stored as they are. Strips and fans not listed become TRIANGLES; points and lines not listed are dropped. */
  modes: number[];
  /** Joint influences per vertex (any N ≥ 1); vertices with more keep the N largest, renormalized. */
  maxInfluences: number;
  /** Vertices per primitive (65 535 for 16-bit indices); larger primitives are split. */
  maxVertices: number;
  /** Distinct joints one primitive may use (a draw call's bone palette); `Infinity` for no limit. */
  maxBonesPerDraw: number;
  /** False when the format has no node tree: static mesh nodes are flattened and their transforms baked into the vertices. */
  nodeTree: boolean;
  /** Vertex attributes (by semantic) that must be float; quantized ones matching are widened. `null`: keep all as they are. */
  floatAttributes: RegExp | null;
  /** Animation key layout; `null` when the format has no animation (channels are left for the exporter to report). */
  animation: AnimationLimits | null;
}

/** Triangle lists only, 4 influences, 16-bit indices, a node tree, free key times with LINEAR and STEP. */
export const LEGACY_LIMITS_DEFAULTS: Readonly<LegacyLimits> = {
  modes: [Primitive.Mode.TRIANGLES],
  maxInfluences: 4,
  maxVertices: 65535,
  maxBonesPerDraw: Number.POSITIVE_INFINITY,
  nodeTree: true,
  floatAttributes: /^(POSITION|NORMAL|TANGENT|TEXCOORD_\d+)$/,
  animation: { sampling: 'any', fps: 30, interpolations: ['LINEAR', 'STEP'] },
};
