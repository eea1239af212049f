/**
 * Export, bounds: reading packed positions back to compute a mesh's bounding box and sphere.
 */
import type { Layout } from '../arrays.js';

/**
 * File-space position component `c` of vertex `v` read from the packed position array (0 where
 * the layout holds no float component or the bytes end: never read past the array).
 */
export function positionReader(pdv: DataView, layout: Layout): (v: number, c: number) => number {
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
export function positionsOf(pdv: DataView, n: number, layout: Layout, vmin: number[], vmax: number[]): void {
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

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Distance of the farthest vertex from `center`. */
export function radius(pos: (v: number, c: number) => number, n: number, center: Float32Array): number {
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
