/**
 * The one axis change between UNIGINE (right-handed, Z up) and glTF (Y up), both directions.
 */
import { type AxisMap, axisMap, inverseAxes } from '@gltf-legacy/core';

/**
 * UNIGINE is right-handed with +Z up (characters face −Y); glTF is right-handed with +Y up.
 * glTF = (x, z, −y): a proper rotation (determinant +1), so winding and tangent handedness are
 * unchanged. Only signs and positions of components change, so the mapping is bit-exact.
 */
export const UNIGINE_TO_GLTF: AxisMap = axisMap([0, 2, 1], [1, 1, -1]);
/** The inverse of {@link UNIGINE_TO_GLTF}: UNIGINE = (x, −z, y) of glTF. */
export const GLTF_TO_UNIGINE: AxisMap = inverseAxes(UNIGINE_TO_GLTF);
