/**
 * The warning codes only the TSO package emits (the shared ones are core's
 * `SHARED_WARNING_CODES`), each with its meaning; `gltf-legacy warnings` prints them. The README's
 * warning table says for each import code whether its data survives the round trip through extras.
 */
import type { WarningCodeTable } from '@gltf-legacy/core';

/**
 * TSO's own warning codes.
 *
 * ```ts
 * import { WARNING_CODES } from '@gltf-legacy/tso';
 * WARNING_CODES.SKELETON_MISSING; // 'A mesh was imported without a .skel: …'
 * ```
 */
export const WARNING_CODES: WarningCodeTable = {
  // import: .mesh / .skel / .anim
  SKELETON_MISSING:
    'A mesh was imported without a .skel: each mesh bone is a node at the origin (or a named skeleton was not found).',
  SKELETON_MISMATCH: 'The given skeleton has none of the mesh’s bones; it was ignored.',
  SKELETON_AMBIGUOUS: 'Several skeletons were given; the one with most of the mesh’s bones was used.',
  BONE_NOT_IN_SKELETON: 'A mesh bone missing from the skeleton was placed at the skeleton root.',
  UNBOUND_VERTEX: 'Real vertices outside every binding were bound to the first mesh bone.',
  VALUE_NORMALIZED:
    'A bone or key rotation was not a unit quaternion; normalized, the raw value kept in extras.',
  ANIM_DURATION_INVALID: 'An animation had no usable duration; the fallback frame rate was used.',
  ANIM_DUPLICATE_MOTION:
    'An animation moves a bone twice; the later motion is kept in extras only (written back on export).',
  ANIM_BONE_MISSING:
    'Motions naming bones that are not loaded were skipped; their keys are kept in extras (written back on export).',
  TRAILING_BYTES:
    'Bytes after the last record of a file (FreeSO and Niotso never read them) were kept in extras and are written back (strict: FormatError).',
  // import: outfits (.apr / .bnd)
  MESH_MISSING: 'A binding names a mesh that was not found; its part was left out.',
  MESH_UNREADABLE: 'A linked .mesh does not parse; its part was left out.',
  TEXTURE_UNREADABLE: 'A linked texture could not be decoded; the part has no image.',
  BINDING_MISSING: 'An appearance names a binding that was not found; its part was left out.',
  BINDING_UNREADABLE: 'A linked .bnd does not parse; its part was left out.',
  BINDING_DUPLICATE: 'An appearance names a binding more than once; it was imported once.',
  BINDING_IGNORED: 'A .bnd beside a mesh does not parse; it was ignored.',
  ARCHIVE_IGNORED:
    'A .dat/.far under the resource root has the FAR magic but does not read; its entries were not searched for outfit parts by id.',
  BINDING_AMBIGUOUS: 'Several bindings name the mesh; the first was used.',
  // export
  BONE_SCALE_DROPPED: 'TSO bones have no scale: scaled nodes became unscaled bones (geometry baked at rest).',
  SKELETON_ROOT_ADDED: 'The joints had several roots; a ROOT bone was added above them.',
  EXTRAS_STALE:
    'extras.tso no longer match the mesh or animation; the file was written from the glTF data instead.',
  ANIMATION_CHANNEL_DROPPED:
    'TSO animations move and rotate bones only; scale and morph weight channels were left out.',
  ANIMATION_DROPPED: 'An animation that moves no bone was not written.',
  ANIMATION_APPROXIMATED:
    'A bone animated through non-bone parents or scale had its keys written as they are (approximate).',
  CAMERA_DROPPED: 'TSO files hold no cameras; cameras were left out.',
  TEXTURE_DROPPED:
    'Textures were not written (a plain .mesh names none; a part without a base colour texture names none in its binding).',
  BINDING_DROPPED: 'The appearance no longer names the binding of a part deleted from the document.',
  IDS_CHOSEN: 'Info: fresh file ids were chosen for files that had none.',
};
