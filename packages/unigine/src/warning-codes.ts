/**
 * The warning codes this package emits besides core's `SHARED_WARNING_CODES`, with their meaning
 * (`gltf-legacy warnings` prints them; the README's warning table is this list).
 */
import type { WarningCodeTable } from '@gltf-legacy/core';

/**
 * UNIGINE's own warning codes.
 *
 * ```ts
 * import { WARNING_CODES } from '@gltf-legacy/unigine';
 * WARNING_CODES.COORDINATES_REBUILT; // 'Coordinate vertices (positions + weights) …'
 * ```
 */
export const WARNING_CODES: WarningCodeTable = {
  // import
  TRAILING_DATA:
    'Bytes after a file’s closing magic (the engine stops reading there) were kept in extras and are written back.',
  INDICES_NOT_TRIANGLES: 'A surface’s index count is not a multiple of 3; the extra indices were ignored.',
  VERTICES_SPLIT:
    'Triangle vertices shared by several coordinate vertices became several glTF vertices (the original pairing is kept in extras).',
  BAD_BONE_INDEX: 'An influence or animated bone names a bone the file does not have; it was left out.',
  SINGULAR_BIND_POSE: 'A bone’s bind pose cannot be inverted; the identity inverse bind matrix was used.',
  ANIMATION_UNMATCHED:
    'An .anim file animates none of the mesh’s bones; its skeleton was added as separate nodes.',
  VALUE_NORMALIZED:
    'Stored rotations far from unit length were normalized (the original flags are kept in extras).',
  TRACK_DROPPED:
    'Animation tracks for bones (import) or nodes (export) the other side does not have were left out.',
  // export
  UNUSED_VERTICES_DROPPED: 'glTF vertices no triangle uses were not written.',
  COORDINATES_REBUILT:
    'The stored coordinate-vertex pairing no longer matches the edited positions or weights; it was welded afresh.',
  TANGENT_FRAMES_REBUILT: 'The stored tangent frames no longer match NORMAL; they were computed again.',
  NORMALS_GENERATED: 'A primitive without normals got smooth normals (area-weighted face normals).',
  TANGENTS_GENERATED:
    'A primitive without tangents got tangent frames from UV set 0 (or from the normals alone).',
  MORPH_TARGET_DROPPED: 'A morph target without a POSITION for every vertex was left out.',
  BIND_POSE_FROM_IBM:
    'Bone bind poses were taken from the inverse bind matrices (the joints were not in bind pose).',
  BIND_POSE_FROM_NODE:
    'Inverse bind matrices that give no finite float32 bind transform were replaced by the joint nodes’ TRS.',
  ANIMATION_DROPPED:
    'An animation with nothing UNIGINE can store (morph weights, no bone, no skeleton) was left out.',
  CAMERA_DROPPED: 'Cameras have no place in a UNIGINE mesh; they were left out.',
  TEXTURE_DROPPED: 'Textures are not stored in .mesh files (surfaces keep their material names).',
  // materials (.mat)
  MATERIAL_FILE_INVALID: 'A material library could not be read; it was ignored.',
  MATERIAL_RENAMED:
    'A surface named like the engine material it uses got its edits written under another name.',
  ALPHA_CUTOFF_APPROXIMATED: 'An alpha cutoff was written as the engine’s fixed alpha test.',
  TEXTURE_INVALID: 'A texture the material names could not be decoded.',
};
