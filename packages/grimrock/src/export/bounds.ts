/**
 * Export, bounds: a mesh's bounding box and sphere — the imported ones while the vertex extent is
 * unchanged (byte-exact round trips), else computed from the packed positions.
 */
import { decodeFloat, decodeFloats, type Layout } from '../arrays.js';
import type { MeshExtras } from '../extras.js';
import { LITTLE_ENDIAN_HOST, type MeshData, type VertexArray } from '../model.js';

type Bounds = Pick<MeshData, 'boundCenter' | 'boundRadius' | 'boundMin' | 'boundMax'>;

/**
 * Bounds of `numVertices` packed positions; the imported bounds (`extras.grimrock.bounds`) while
 * the positions still span the extent import saw.
 *
 * ```ts
 * const { boundMin, boundMax, boundCenter, boundRadius } = meshBounds(arrays[VA_POSITION], n, extras);
 * ```
 */
export function meshBounds(positions: VertexArray, numVertices: number, ex: MeshExtras | undefined): Bounds {
  const pl: Layout = [positions.dataType, positions.dim, positions.stride];
  const pdv = new DataView(positions.data.buffer, positions.data.byteOffset, positions.data.byteLength);
  const vmin = [Infinity, Infinity, Infinity];
  const vmax = [-Infinity, -Infinity, -Infinity];
  positionsOf(pdv, numVertices, pl, vmin, vmax);
  const b = ex?.bounds && {
    center: decodeFloats(ex.bounds.center, 3),
    radius: decodeFloat(ex.bounds.radius),
    min: decodeFloats(ex.bounds.min, 3),
    max: decodeFloats(ex.bounds.max, 3),
  };
  const fmin = decodeFloats(ex?.vertexMin, 3) ?? b?.min;
  const fmax = decodeFloats(ex?.vertexMax, 3) ?? b?.max;
  if (
    b?.center &&
    b.min &&
    b.max &&
    b.radius !== undefined &&
    fmin &&
    fmax &&
    vmin.every((x, c) => Math.fround(x) === fmin[c]) &&
    vmax.every((x, c) => Math.fround(x) === fmax[c])
  ) {
    return {
      boundCenter: Float32Array.from(b.center),
      boundRadius: b.radius,
      boundMin: Float32Array.from(b.min),
      boundMax: Float32Array.from(b.max),
    };
  }
  for (let c = 0; c < 3; c++) {
    if (!Number.isFinite(vmin[c])) vmin[c] = 0;
    if (!Number.isFinite(vmax[c])) vmax[c] = 0;
  }
  const boundCenter = Float32Array.from([0, 1, 2].map((c) => (vmin[c] + vmax[c]) / 2));
  return {
    boundMin: Float32Array.from(vmin),
    boundMax: Float32Array.from(vmax),
    boundCenter,
    boundRadius: radius(positionReader(pdv, pl), numVertices, boundCenter),
  };
}

/**
 * File-space position component `c` of vertex `v` read from the packed position array (0 where
 * the layout holds no float component or the bytes end: never read past the array).
 */
function positionReader(pdv: DataView, layout: Layout): (v: number, c: number) => number {
  const dims = layout[0] === 3 ? Math.min(3, layout[1]) : 0;
  const stride = layout[2];
  if (LITTLE_ENDIAN_HOST && pdv.byteOffset % 4 === 0 && stride % 4 === 0 && stride > 0) {
    // aligned: a float view instead of a DataView call per value
    const f = new Float32Array(pdv.buffer, pdv.byteOffset, pdv.byteLength >> 2);
    const s4 = stride >> 2;
    const end = pdv.byteLength;
    return (v, c) => (c < dims && v * stride + dims * 4 <= end ? f[v * s4 + c] : 0);
  }
  return (v, c) => {
    const at = v * stride + c * 4;
    return c < dims && v * stride + dims * 4 <= pdv.byteLength ? pdv.getFloat32(at, true) : 0;
  };
}

/** Per-component min/max of the packed positions (only components the layout holds). */
function positionsOf(pdv: DataView, n: number, layout: Layout, vmin: number[], vmax: number[]): void {
  const dims = Math.min(3, layout[1]);
  if (layout[0] !== 3) return;
  const at = positionReader(pdv, layout);
  for (let v = 0; v < n && v * layout[2] + dims * 4 <= pdv.byteLength; v++) {
    for (let c = 0; c < dims; c++) {
      const x = at(v, c);
      if (x < vmin[c]) vmin[c] = x;
      if (x > vmax[c]) vmax[c] = x;
    }
  }
}

/** Distance of the farthest vertex from `center`. */
function radius(pos: (v: number, c: number) => number, n: number, center: Float32Array): number {
  let r2 = 0;
  for (let v = 0; v < n; v++) {
    const dx = pos(v, 0) - center[0];
    const dy = pos(v, 1) - center[1];
    const dz = pos(v, 2) - center[2];
    const d = dx * dx + dy * dy + dz * dz;
    if (d > r2) r2 = d;
  }
  return Math.sqrt(r2);
}
