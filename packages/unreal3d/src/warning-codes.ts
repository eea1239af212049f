/**
 * The warning codes only the Unreal package emits (the shared ones, such as the export stage's
 * `PRIMITIVE_TRIANGULATED` or `VALUE_QUANTIZED`, are core's `SHARED_WARNING_CODES`), each with
 * its meaning; `gltf-legacy warnings` prints them. The README's warning table says for each import
 * code whether its data survives the round trip through extras.
 */
import type { WarningCodeTable } from '@gltf-legacy/core';

/**
 * Unreal's own warning codes.
 *
 * ```ts
 * import { WARNING_CODES } from '@gltf-legacy/unreal3d';
 * WARNING_CODES.SKIN_BAKED; // 'Skinned meshes were baked …'
 * ```
 */
export const WARNING_CODES: WarningCodeTable = {
  // import: files as the game accepted them
  FILE_TRUNCATED:
    'A _d.3d ends before its last whole triangle, or an _a.3d before its last whole frame: the whole ones were read, the header count kept in extras.',
  FILE_TOO_LONG: 'Bytes after the last triangle or frame were kept in extras and written back.',
  FRAME_PADDING: 'Every _a.3d frame carries bytes after its vertices; kept in extras and written back.',
  ANIV_TRUNCATED:
    'The last _a.3d frame is a few bytes short: its missing vertices were taken from the previous frame; the short length is kept in extras (strict: FormatError).',
  INDEX_OUT_OF_RANGE:
    'A _d.3d triangle names vertex numVertices (one past the end), which the game accepted: it was left out of the glTF and kept in extras (strict: FormatError).',
  SEQUENCE_OUT_OF_RANGE: 'A .uc sequence runs past the frames of the _a.3d; its glTF animation was clamped.',
  UC_MISSING: 'No .uc names the mesh: one animation "All" at 30 fps and scale 1 were assumed.',
  UC_SEARCH_LIMITED: 'The search for the class file naming the mesh was cut short (too many files).',
  WEAPON_TRIANGLES: 'The mesh has several weapon triangles; the WeaponTriangle node follows the first.',
  TEXTURE_INVALID: 'A skin file could not be decoded; the material has no image.',
  MESH_SKIPPED:
    'A package mesh of a kind this reader does not convert (SkeletalMesh) was left out; inspect names it.',
  // export
  SKIN_BAKED: 'Skinned meshes were baked into vertex frames (Unreal 1 meshes have no bones).',
  VERTICES_WELDED: 'glTF vertices with the same position in every frame became one Unreal vertex.',
  VERTEX_MISSING: 'Vertices used by no triangle and not kept in extras were written at the origin.',
  VALUE_CLAMPED: 'Vertex coordinates outside the packed 11/11/10-bit range were clamped.',
  VALUE_INVALID: 'Non-finite vertex coordinates were written as 0.',
  UV_CLAMPED: 'Texture coordinates outside [0, 1) were clamped (Unreal byte UVs cannot tile).',
  ANIMATION_CHANNEL_DROPPED:
    'Animation channels whose key times are not finite and increasing, or whose output is too short, were ignored.',
  TEXTURE_DROPPED: 'An image that could not be decoded or written as a skin was left out.',
  TEXTURE_RESIZED:
    'A skin whose sides are not powers of two was resampled to the nearest (UCC refuses others).',
};
