/** Small float64 helpers for tangent frames and bone transforms (no per-vertex objects). */

/** Rotates (0,0,1) and (1,0,0) by the unit quaternion (x, y, z, w); writes normal and tangent. */
export function quatToNormalTangent(
  x: number,
  y: number,
  z: number,
  w: number,
  n: Float32Array,
  no: number,
  t: Float32Array,
  to: number,
): void {
  n[no] = 2 * (x * z + w * y);
  n[no + 1] = 2 * (y * z - w * x);
  n[no + 2] = 1 - 2 * (x * x + y * y);
  t[to] = 1 - 2 * (y * y + z * z);
  t[to + 1] = 2 * (x * y + w * z);
  t[to + 2] = 2 * (x * z - w * y);
}

/**
 * Quaternion (x, y, z, w) of the rotation whose matrix has columns `c0`, `c1`, `c2`
 * (must be orthonormal and right-handed). Written to `out`.
 */
export function quatFromBasis(
  c0x: number,
  c0y: number,
  c0z: number,
  c1x: number,
  c1y: number,
  c1z: number,
  c2x: number,
  c2y: number,
  c2z: number,
  out: Float64Array,
): void {
  // m[row][col]: m00 = c0x, m10 = c0y, m20 = c0z, m01 = c1x, …
  const trace = c0x + c1y + c2z;
  let x: number;
  let y: number;
  let z: number;
  let w: number;
  if (trace > 0) {
    const s = Math.sqrt(trace + 1) * 2;
    w = 0.25 * s;
    x = (c1z - c2y) / s;
    y = (c2x - c0z) / s;
    z = (c0y - c1x) / s;
  } else if (c0x > c1y && c0x > c2z) {
    const s = Math.sqrt(1 + c0x - c1y - c2z) * 2;
    w = (c1z - c2y) / s;
    x = 0.25 * s;
    y = (c1x + c0y) / s;
    z = (c2x + c0z) / s;
  } else if (c1y > c2z) {
    const s = Math.sqrt(1 + c1y - c0x - c2z) * 2;
    w = (c2x - c0z) / s;
    x = (c1x + c0y) / s;
    y = 0.25 * s;
    z = (c2y + c1z) / s;
  } else {
    const s = Math.sqrt(1 + c2z - c0x - c1y) * 2;
    w = (c0y - c1x) / s;
    x = (c2x + c0z) / s;
    y = (c2y + c1z) / s;
    z = 0.25 * s;
  }
  const len = Math.sqrt(x * x + y * y + z * z + w * w) || 1;
  out[0] = x / len;
  out[1] = y / len;
  out[2] = z / len;
  out[3] = w / len;
}
