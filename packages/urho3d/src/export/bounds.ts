/**
 * The model's bounding box (every vertex of every vertex buffer; an imported model's stored box
 * while it still encloses them) and each geometry's centre (middle of the box of the vertices its
 * LODs index).
 */
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
      indexedBounds(p.attrs.get('POSITION')!.values as Float32Array, p.indices, gmin, gmax);
    for (let c = 0; c < 3; c++) {
      if (gmin[c] > gmax[c]) gmin[c] = gmax[c] = 0;
      centers.push((gmin[c] + gmax[c]) / 2);
    }
  }
  for (const group of groupList) allBounds(group[0].attrs.get('POSITION')!.values as Float32Array, min, max);
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

/** Extends min/max by the vertices `indices` uses. */
export function indexedBounds(pos: Float32Array, indices: Uint32Array, min: number[], max: number[]): void {
  let x0 = min[0];
  let y0 = min[1];
  let z0 = min[2];
  let x1 = max[0];
  let y1 = max[1];
  let z1 = max[2];
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k] * 3;
    const x = pos[i];
    const y = pos[i + 1];
    const z = pos[i + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  min[0] = x0;
  min[1] = y0;
  min[2] = z0;
  max[0] = x1;
  max[1] = y1;
  max[2] = z1;
}

/** Extends min/max by every vertex. */
export function allBounds(pos: Float32Array, min: number[], max: number[]): void {
  for (let i = 0; i + 2 < pos.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      const x = pos[i + c];
      if (x < min[c]) min[c] = x;
      if (x > max[c]) max[c] = x;
    }
  }
}
