/**
 * Triangle groups of the importer: the `_d.3d` triangles sorted into one glTF primitive per
 * (texture slot, poly type, flags), the weapon triangles and those naming a vertex past the last
 * kept aside, and the runs that record the file's triangle order so export writes it back as it
 * was.
 */
import type { UnrealData } from '../data.js';
import { isWeaponType } from '../data.js';
import type { UnrealMeshExtras } from '../extras.js';

/** What {@link triangleGroups} finds. */
export interface TriangleGroups {
  /** Group of each triangle (−1: a weapon triangle). */
  groupOf: Int32Array;
  /** Per group: `texture << 16 | type << 8 | flags`. */
  groupKeys: number[];
  /** Group per run of triangles and run lengths: [g, n, g, n, …]. */
  runs: number[];
  /** Raw weapon triangles in file order. */
  weapons: UnrealMeshExtras['weapons'];
  /** Raw triangles naming a vertex past the last (`INDEX_OUT_OF_RANGE`), in file order (group −2). */
  outOfRange: UnrealMeshExtras['weapons'];
  /** Non-zero for every vertex a rendered triangle names. */
  used: Uint8Array;
}

/**
 * Groups the triangles of `data` (vertices `< nv`).
 *
 * ```ts
 * const { groupKeys, runs } = triangleGroups(data, data.header.numVertices);
 * ```
 */
export function triangleGroups(data: UnrealData, nv: number): TriangleGroups {
  const { vertices, types, colors, uvs, textures, flags } = data.polys;
  const n = types.length;
  const groupOf = new Int32Array(n);
  const groupKeys: number[] = [];
  const keyIndex = new Map<number, number>();
  const runs: number[] = [];
  const weapons: UnrealMeshExtras['weapons'] = [];
  const outOfRange: UnrealMeshExtras['weapons'] = [];
  const used = new Uint8Array(nv);
  const raw = (i: number) => ({
    vertices: [vertices[i * 3], vertices[i * 3 + 1], vertices[i * 3 + 2]],
    type: types[i],
    color: colors[i],
    uvs: Array.from(uvs.subarray(i * 6, i * 6 + 6)),
    texture: textures[i],
    flags: flags[i],
  });
  for (let i = 0; i < n; i++) {
    let g: number;
    if (vertices[i * 3] >= nv || vertices[i * 3 + 1] >= nv || vertices[i * 3 + 2] >= nv) {
      g = -2;
      outOfRange.push(raw(i));
    } else if (isWeaponType(types[i])) {
      g = -1;
      weapons.push(raw(i));
    } else {
      const key = (textures[i] << 16) | (types[i] << 8) | flags[i];
      let gi = keyIndex.get(key);
      if (gi === undefined) {
        gi = groupKeys.length;
        groupKeys.push(key);
        keyIndex.set(key, gi);
      }
      g = gi;
      used[vertices[i * 3]] = 1;
      used[vertices[i * 3 + 1]] = 1;
      used[vertices[i * 3 + 2]] = 1;
    }
    groupOf[i] = g;
    if (runs.length && runs[runs.length - 2] === g) runs[runs.length - 1]++;
    else runs.push(g, 1);
  }
  return { groupOf, groupKeys, runs, weapons, outOfRange, used };
}
