/**
 * What both directions share: the names of the custom vertex attributes import writes and export
 * reads back (raw blend records, raw positions), and the shape of a mesh's `extras.tso`.
 */

/**
 * VEC3: every real vertex's raw position (TSO axes, bone space), written instead of the sparse
 * `extras.tso.rawPositions` list when more than 1/8 of the vertices need theirs.
 */
export const RAW_POSITION_ATTRIBUTE = '_TSO_RAW_POSITION';

/** Custom attributes that carry the raw blend records per real vertex (see {@link blendAttributes}). */
export const BLEND_ATTRIBUTES = {
  /** VEC2: (blend record index + 1, raw Q1.15 weight); (0, 0) on a vertex no blend vertex pulls. */
  record: '_TSO_BLEND',
  /** VEC3: the blend vertex's raw position (TSO axes, blend bone space). */
  position: '_TSO_BLEND_POSITION',
  /** VEC3: the blend vertex's raw normal. */
  normal: '_TSO_BLEND_NORMAL',
  /** VEC3: the real vertex's raw position before blending (glTF POSITION holds the blended one). */
  realPosition: '_TSO_REAL_POSITION',
} as const;

/**
 * `extras.tso` of a mesh made by import: what export needs to give the original bytes back,
 * beside the bytes kept on the glTF mesh (`GLTF_LEGACY_kept_bytes`, see `kept.ts`): `trailing`,
 * `rawPositions` (u32 words [vertex, x, y, z bits]… of the real positions the bone-space → glTF →
 * bone-space trip does not give back) and `blend` (raw blend records no attribute can carry).
 */
export interface MeshExtras {
  version: number;
  vertexCount2: number;
  boneNames: string[];
  bindings: number[][];
  /**
   * Raw blend records: `count` of them in the `_TSO_BLEND*` vertex attributes (`attributes: true`)
   * or in the kept bytes `blend`; files written before kept bytes: JSON arrays of bit patterns.
   */
  blend:
    | { attributes: true; count: number }
    | { attributes?: undefined; count: number }
    | { attributes?: undefined; data: number[]; vertices: number[]; realPositions: number[] };
  /** Files written before kept bytes: the sparse raw positions, [vertex, x, y, z bits]…. */
  rawPositions?: number[];
  /** Every raw real position is in the `_TSO_RAW_POSITION` attribute instead. */
  rawPositionAttribute?: boolean;
  /** Files written before kept bytes: the trailing bytes (0…255 each). */
  trailing?: number[];
}
