/**
 * The warning codes only the Grimrock package emits (the shared ones are core's
 * `SHARED_WARNING_CODES`), each with its meaning; `gltf-legacy warnings` prints them. The README's
 * warning table says for each import code whether its data survives the round trip through extras.
 */
import type { WarningCodeTable } from '@gltf-legacy/core';

/**
 * Grimrock's own warning codes.
 *
 * ```ts
 * import { WARNING_CODES } from '@gltf-legacy/grimrock';
 * WARNING_CODES.EMPTY_MESH; // 'A mesh with no triangle …'
 * ```
 */
export const WARNING_CODES: WarningCodeTable = {
  // import
  ANIMATION_TARGET_MISSING:
    'Animation items naming no node of the model were kept in extras only (written back on export).',
  ANIMATION_SKIPPED:
    'An animation that animates no node of the model (or no exported node) was not converted.',
  BAD_FPS: 'An animation stored a non-positive or non-finite frame rate; the fallback rate was used.',
  QUATERNION_NORMALIZED: 'Rotation keys that were not unit quaternions were normalized on import.',
  EMPTY_MESH:
    'A mesh with no triangle was kept as its header in extras (export writes it back without vertices).',
  SEGMENT_DROPPED: 'A mesh segment that is empty, out of range or not a triangle list was left out.',
  SEGMENT_CLAMPED:
    'A mesh segment running past the index array was read up to its end; its file count is kept in extras (strict: FormatError).',
  TRAILING_BYTES:
    'Bytes after the last node or animation item were kept in extras and written back (strict: FormatError).',
  WEIGHTS_NORMALIZED:
    'Vertex weights that did not sum to 1 (or named missing bones) were normalized; unweighted vertices bound to the first bone.',
  SKIN_WITHOUT_WEIGHTS: 'A mesh with bones but no bone index/weight arrays: its skin is kept unattached.',
  ARRAY_NOT_PRESERVED: 'A vertex array has a layout glTF cannot keep exactly; export rewrites it.',
  MATERIAL_FILE_MISSING: 'A materials Lua file named by the options was not found.',
  MATERIAL_FILE_INVALID: 'A materials Lua file could not be parsed; its materials were not read.',
  MATERIAL_FILE_SKIPPED: 'A materials Lua file over the size limits was not read.',
  MATERIAL_FILES_LIMITED:
    'The mod holds more Lua files than are read for materials; only the first were read.',
  MATERIAL_VALUE_UNKNOWN: 'A defineMaterial value the game does not know was read as the default.',
  TEXTURE_UNREADABLE: 'A texture file was found but could not be decoded.',
  ANIMATION_LINK_MISSING:
    'An animation the mod’s Lua links to the model (defineObject animations) is not in the mod or archive; not attached.',
  ANIMATION_LINK_REFUSED: 'An animation path in the mod’s Lua leaves the resource root; it was not read.',
  // export
  SCENE_DROPPED: 'Only the default scene was exported; the other scenes were left out.',
  CAMERA_DROPPED: 'A node’s camera was left out (Grimrock models have no cameras).',
  LIGHT_DROPPED: 'A node’s light was left out (Grimrock models have no lights).',
  MORPH_TARGETS_DROPPED: 'Morph targets were left out (Grimrock has none).',
  INDICES_TRUNCATED: 'A triangle list whose index count is not a multiple of 3 lost its last 1 or 2 indices.',
  WEIGHTS_RENORMALIZED: 'Vertex weights that did not sum to 1 were renormalized on export.',
  NODE_RENAMED:
    'An animated node sharing its name with another got a `_<k>` suffix (animations address nodes by name).',
  TEXTURE_DROPPED: 'Textures were not written (the model alone; `legacyFormat.export` writes them as DDS).',
  ANIMATION_CHANNEL_DROPPED:
    'An animation channel with no exported target node, or of morph weights, was left out.',
  ROTATION_NORMALIZED: 'Rotation keys that were not unit quaternions were normalized on export.',
  MATERIAL_DUPLICATE_NAME:
    'Two glTF materials share a name; Grimrock finds materials by name, only the first is written.',
  MATERIAL_FIELD_DROPPED: 'A material field kept in extras is not one Lua expression; it was not written.',
  TEXTURE_PATH_REFUSED:
    'A kept texture path leaves the output folder; the texture was written under mod_assets/textures/.',
};
