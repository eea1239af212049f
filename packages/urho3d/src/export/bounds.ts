/**
 * The model's bounding box (every vertex of every vertex buffer; an imported model's stored box
 * while it still encloses them) and each geometry's centre (middle of the box of the vertices its
 * LODs index).
 */
import { extendBounds } from '@gltf-legacy/core';
import type { UrhoModelExtras } from '../extras.js';
import { floatFromJson } from '../space.js';
import type { VPrim } from './common.js';

/** Bounds and geometry centres. `hintedLayout`: every vertex buffer kept its hinted layout. */
export function modelBounds(
  primsOfGeometry: VPrim[][],
  groupList: VPrim[][],
  hx: UrhoModelExtras | undefined,
  hintedLayout: boolean,
): { bounds: Float32Array; geometryCenters: Float32Array } {
  const geometryCount = primsOfGeometry.length;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  const centers: number[] = [];
  for (let g = 0; g < geometryCount; g++) {
    const gmin = [Infinity, Infinity, Infinity];
    const gmax = [-Infinity, -Infinity, -Infinity];
    for (const p of primsOfGeometry[g])
      extendBounds(p.attrs.get('POSITION')!.values as Float32Array, gmin, gmax, p.indices);
    for (let c = 0; c < 3; c++) {
      if (gmin[c] > gmax[c]) gmin[c] = gmax[c] = 0;
      centers.push((gmin[c] + gmax[c]) / 2);
    }
  }
  for (const group of groupList)
    extendBounds(group[0].attrs.get('POSITION')!.values as Float32Array, min, max);
  for (let c = 0; c < 3; c++) if (min[c] > max[c]) min[c] = max[c] = 0;
  let bounds = Float32Array.from([...min, ...max]);
  if (hx?.bounds?.length === 6) {
    const hb = Float32Array.from(hx.bounds, floatFromJson);
    const encloses = [0, 1, 2].every((c) => hb[c] <= Math.fround(min[c]) && hb[c + 3] >= Math.fround(max[c]));
    if (encloses) bounds = hb;
  }
  let geometryCenters = Float32Array.from(centers);
  if (
    hx &&
    hintedLayout &&
    Array.isArray(hx.geometryCenters) &&
    hx.geometryCenters.length <= geometryCount * 3
  ) {
    geometryCenters = Float32Array.from(hx.geometryCenters, floatFromJson);
  }
  return { bounds, geometryCenters };
}
