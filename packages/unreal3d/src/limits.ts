/**
 * What an Unreal Engine 1 vertex mesh can hold, as data: the input of the shared export stage
 * (`prepare(document, UNREAL3D_LIMITS)`), shown in the README's "Export: what the shared stage
 * does" table. Everything else an Unreal mesh lacks (bones, a node tree under animation, key
 * times off the frame grid) is baked into vertex frames by this package (`export/frames.ts`).
 */
import { LEGACY_LIMITS_DEFAULTS, type LegacyLimits } from '@gltf-legacy/core';

/** Frame rate of baked animations (and their `.uc` RATE) when the `fps` option gives none. */
export const UNREAL3D_DEFAULT_FPS = 30;

/**
 * Unreal's limits for a foreign glTF: triangle lists only; at most 8 joint influences per vertex
 * (the CPU skinning that bakes skins into vertex frames reads 8); no vertex limit the stage must
 * split for (all meshes merge into one and are welded before the 16 383-vertex frame limit is
 * checked); no node tree (static mesh nodes are flattened, their transforms baked); animation as
 * one vertex frame per `1 / fps` s played back linearly, so every channel is put on that grid.
 *
 * ```ts
 * import { prepare } from '@gltf-legacy/prepare';
 * const { document: prepared } = await prepare(document, UNREAL3D_LIMITS);
 * ```
 */
export const UNREAL3D_LIMITS: LegacyLimits = {
  ...LEGACY_LIMITS_DEFAULTS,
  modes: [4],
  maxInfluences: 8,
  maxVertices: 2147483647,
  maxBonesPerDraw: Number.POSITIVE_INFINITY,
  nodeTree: false,
  animation: { sampling: 'grid', fps: UNREAL3D_DEFAULT_FPS, interpolations: ['LINEAR'] },
};

/**
 * The limits with which a document this package imported is checked before the native path
 * writes it back: its one placed node is the `.uc` MESH ORIGIN / MESHMAP SCALE (not a transform to
 * bake) and its keys are already one per vertex frame at each sequence's own RATE. When the stage
 * would still change something (a strip, a quantized UV), the document is baked instead.
 */
export const UNREAL3D_NATIVE_LIMITS: LegacyLimits = {
  ...UNREAL3D_LIMITS,
  nodeTree: true,
  // The importer's own KHR_mesh_quantization morphs (whole-unit BYTE/SHORT POSITION deltas,
  // normalized BYTE NORMAL deltas) are read as they are: the native path reads integers exactly
  // and never reads NORMAL. `findNativeMesh` sends any other quantized POSITION to the stage.
  floatAttributes: /^(TANGENT|TEXCOORD_\d+)$/,
  animation: null,
};

/** {@link UNREAL3D_LIMITS} with the animation grid at `fps`. */
export function unreal3dLimits(fps: number): LegacyLimits {
  return { ...UNREAL3D_LIMITS, animation: { ...UNREAL3D_LIMITS.animation!, fps } };
}
