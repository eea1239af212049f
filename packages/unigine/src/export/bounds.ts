/**
 * Bounds of the written mesh: box + sphere per surface (kept from extras when still valid) and
 * their union for the mesh.
 */
import { extendBounds } from '@gltf-legacy/core';
import { unpackF32 } from '../jsonf32.js';
import { CHUNK } from '../kernels.js';

export const EMPTY_BOX = [1e9, 1e9, 1e9, -2e9, -2e9, -2e9];

function f32Bounds(min: number[], max: number[], center: number[], radius: number): Float32Array {
  return Float32Array.from([...min, ...max, ...center, radius]);
}

/** bbox + bounding sphere (bbox centre, farthest point) of packed positions. */
export function computeBounds(p: Float32Array): Float32Array {
  const n = Math.floor(p.length / 3);
  if (p.length / 3 === 0) return new Float32Array(10);
  const box = Float64Array.of(p[0], p[1], p[2], p[0], p[1], p[2]);
  for (let from = 0; from < n; from += CHUNK)
    extendBounds(p, box, box.subarray(3), undefined, from, Math.min(n, from + CHUNK));
  const cx = Math.fround((box[0] + box[3]) / 2);
  const cy = Math.fround((box[1] + box[4]) / 2);
  const cz = Math.fround((box[2] + box[5]) / 2);
  let r2 = 0;
  for (let from = 0; from < n; from += CHUNK)
    r2 = farthestRange(p, from, Math.min(n, from + CHUNK), cx, cy, cz, r2);
  return Float32Array.of(box[0], box[1], box[2], box[3], box[4], box[5], cx, cy, cz, Math.sqrt(r2));
}

/** Largest squared distance from (cx, cy, cz) over points `from … to−1` and `r2`. */
function farthestRange(
  p: Float32Array,
  from: number,
  to: number,
  cx: number,
  cy: number,
  cz: number,
  r2: number,
): number {
  let m = r2;
  for (let v = from; v < to; v++) {
    const dx = p[v * 3] - cx;
    const dy = p[v * 3 + 1] - cy;
    const dz = p[v * 3 + 2] - cz;
    m = Math.max(m, dx * dx + dy * dy + dz * dz);
  }
  return m;
}

/** Keeps stored bounds when their box still matches the data (they carry the sphere exactly). */
export function chooseBounds(computed: Float32Array, stored: unknown): Float32Array {
  const s = unpackF32(stored, 10);
  if (s) {
    let same = true;
    for (let i = 0; i < 6; i++) if (!Object.is(s[i], computed[i])) same = false;
    if (same) return s;
  }
  return computed;
}

/** Mesh bounds: union box; sphere grown to hold every surface sphere. */
export function unionBounds(list: Float32Array[]): Float32Array {
  if (!list.length) return f32Bounds([0, 0, 0], [0, 0, 0], [0, 0, 0], 0);
  const min = [list[0][0], list[0][1], list[0][2]];
  const max = [list[0][3], list[0][4], list[0][5]];
  let c = [list[0][6], list[0][7], list[0][8]];
  let r = list[0][9];
  for (const b of list) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], b[k]);
      max[k] = Math.max(max[k], b[3 + k]);
    }
  }
  for (const b of list.slice(1)) {
    const d = Math.hypot(b[6] - c[0], b[7] - c[1], b[8] - c[2]);
    if (d + b[9] <= r) continue;
    if (d + r <= b[9]) {
      c = [b[6], b[7], b[8]];
      r = b[9];
      continue;
    }
    const nr = (d + r + b[9]) / 2;
    const k = d > 0 ? (nr - r) / d : 0;
    c = [c[0] + (b[6] - c[0]) * k, c[1] + (b[7] - c[1]) * k, c[2] + (b[8] - c[2]) * k];
    r = nr;
  }
  return f32Bounds(min, max, c, r);
}
