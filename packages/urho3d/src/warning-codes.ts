/**
 * The warning codes only the Urho3D package emits (the shared ones are core's
 * `SHARED_WARNING_CODES`), each with its meaning; `gltf-legacy warnings` prints them. The README's
 * warning table says for each import code whether its data survives the round trip through extras.
 */
import type { WarningCodeTable } from '@gltf-legacy/core';

/**
 * Urho3D's own warning codes.
 *
 * ```ts
 * import { WARNING_CODES } from '@gltf-legacy/urho3d';
 * WARNING_CODES.GEOMETRY_SPLIT; // 'A geometry used more bones than …'
 * ```
 */
export const WARNING_CODES: WarningCodeTable = {
  // import: quirks the engine tolerates (strict: true refuses them)
  ANI_LAST_KEY_SHORT:
    'An .ani ended inside its last key (the engine reads such files): the missing bytes took the previous key’s values; export writes the file short again.',
  // import: .mdl / .ani / prefab / materials
  NORMAL_SANITIZED:
    'Normals glTF forbids (not unit length, NaN) were fixed; the file values are kept in a raw accessor and written back.',
  TANGENT_SANITIZED:
    'Tangents glTF forbids (not unit length, w not ±1, NaN) were fixed; the file values are kept in a raw accessor and written back.',
  WEIGHTS_SANITIZED:
    'Blend weights glTF forbids (not summing to 1, NaN) were fixed; the file values are kept in a raw accessor and written back.',
  ROTATION_NORMALIZED:
    'A bone or key rotation was not a unit quaternion; normalized for glTF, the file value kept in extras.',
  DUPLICATE_BONE_NAME: 'Two bones share a name; animation tracks drive the first (as the engine does).',
  BAD_BONE_INDEX: 'A vertex blend index pointed past the bone mapping or skeleton; bound to bone 0.',
  ANIMATION_KEYS_UNSORTED: 'An .ani track had key times that do not increase; the track was skipped.',
  ANIMATION_TRACK_UNMATCHED: 'Tracks of an .ani name no bone of the model; they were skipped.',
  MODEL_MISSING: 'A prefab names a model file that was not found; its node has no mesh.',
  MATERIAL_UNREADABLE: 'A material file could not be read; a placeholder material stands in.',
  TEXTURE_UNREADABLE: 'A texture file could not be decoded; the material has no image for it.',
  UV_TRANSFORM_APPROXIMATED:
    'UOffset/VOffset hold a shear KHR_texture_transform cannot express; the transform was approximated.',
  // export: .mdl / .ani / prefab / materials
  CAMERA_DROPPED: 'Cameras were left out: Urho3D models hold none.',
  LIGHT_DROPPED: 'Lights were left out: Urho3D models hold none.',
  TEXTURE_DROPPED: 'Textures were left out: a lone .mdl holds none (export with materials to keep them).',
  MATERIAL_DROPPED:
    'Materials were left out: a lone .mdl keeps only the geometry order (export with materials to keep them).',
  SKINS_MERGED: 'Several glTF skins were merged into the one Urho3D skeleton.',
  GEOMETRY_SPLIT:
    'A geometry used more bones than one draw may (maxBones, 64 by default); split into several geometries with their own bone mappings.',
  LOD_DROPPED: 'The lower LOD levels of a geometry split for its bones were left out.',
  INDICES_TRUNCATED: 'A primitive ended with an incomplete triangle or line; the tail was cut.',
  BONE_RENAMED: 'Urho3D finds bones by name: a repeated or empty bone name got a unique one.',
  ANIMATION_CHANNEL_DROPPED:
    '.ani tracks hold only position, rotation and scale; a morph-weight channel was left out.',
  ANIMATION_KEYS_DROPPED:
    'Key times that were negative, not finite or not increasing were dropped or sorted.',
  ANIMATION_DROPPED: 'An animation without a single usable key was not written.',
  PREFAB_REBUILT: 'The prefab kept in the scene extras could not be read; a new prefab was written.',
  TEXTURE_FORMAT_FALLBACK: 'A texture could not be encoded as DDS; it was written as PNG.',
};
