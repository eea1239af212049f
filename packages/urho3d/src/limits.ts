/**
 * What an Urho3D `.mdl` / `.ani` can hold, as data: the input of the shared export stage
 * (`prepare(document, urhoLimits(options))`), shown in the README's "Export: what the shared stage
 * does for Urho3D" table.
 */
import { LEGACY_LIMITS_DEFAULTS, type LegacyLimits } from '@gltf-legacy/core';

/** Key rate of the points added when a STEP / CUBICSPLINE channel is sampled to linear keys. */
export const URHO_DEFAULT_FPS = 30;

/**
 * Urho3D's limits for an export at `fps`:
 * - points, lines, line loops (written as closed line strips), line strips and triangle lists are
 *   stored as they are; strips and fans become triangle lists (the file has TRIANGLE_STRIP and
 *   TRIANGLE_FAN, but Direct3D 11 draws no fans and the bone-palette split cuts triangle runs);
 * - 4 influences per vertex (BLENDWEIGHTS VECTOR4 + BLENDINDICES UBYTE4);
 * - 32-bit indices when needed, so no vertex limit;
 * - bones per draw: no limit here — the exporter's own split (`GEOMETRY_SPLIT`, option
 *   `maxBones`) makes geometries with bone mappings, which the shared split cannot;
 * - a node tree (bones, and the prefab's nodes);
 * - `.ani` keys at free times, played back linearly (slerp for rotations).
 *
 * ```ts
 * import { prepare } from '@gltf-legacy/prepare';
 * const { document: prepared } = await prepare(document, urhoLimits(30));
 * ```
 */
export function urhoLimits(fps = URHO_DEFAULT_FPS): LegacyLimits {
  return {
    ...LEGACY_LIMITS_DEFAULTS,
    modes: [0, 1, 2, 3, 4],
    maxInfluences: 4,
    maxVertices: 0xffffffff,
    maxBonesPerDraw: Number.POSITIVE_INFINITY,
    nodeTree: true,
    // maxKeys: the cap urho3d's own resampler had (100 000 keys per track) before the stage.
    animation: { sampling: 'any', fps, interpolations: ['LINEAR'], maxKeys: 100_000 },
  };
}

/** {@link urhoLimits} at the default rate: `legacyFormat.limits`. */
export const URHO3D_LIMITS: LegacyLimits = urhoLimits();
