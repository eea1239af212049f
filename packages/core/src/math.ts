/**
 * The few 3×3 / 4×4 helpers the mappings need (column-major, glTF order), written out instead of
 * importing gl-matrix, whose ES module index costs ~100 ms to load — a large share of a
 * whole-process conversion. Float64 throughout.
 */

export type Mat4 = Float64Array;

/** Unit quaternion [x, y, z, w] of a column-major 3×3 rotation. */
export function quatFromMat3(m: ArrayLike<number>): [number, number, number, number] {
  const trace = m[0] + m[4] + m[8];
  let x: number;
  let y: number;
  let z: number;
  let w: number;
  if (trace > 0) {
    const r = Math.sqrt(trace + 1);
    w = 0.5 * r;
    const f = 0.5 / r;
    x = (m[5] - m[7]) * f;
    y = (m[6] - m[2]) * f;
    z = (m[1] - m[3]) * f;
  } else {
    let i = 0;
    if (m[4] > m[0]) i = 1;
    if (m[8] > m[i * 3 + i]) i = 2;
    const j = (i + 1) % 3;
    const k = (i + 2) % 3;
    const out = [0, 0, 0];
    const r = Math.sqrt(m[i * 3 + i] - m[j * 3 + j] - m[k * 3 + k] + 1);
    out[i] = 0.5 * r;
    const f = 0.5 / r;
    w = (m[j * 3 + k] - m[k * 3 + j]) * f;
    out[j] = (m[j * 3 + i] + m[i * 3 + j]) * f;
    out[k] = (m[k * 3 + i] + m[i * 3 + k]) * f;
    [x, y, z] = out;
  }
  const l = Math.hypot(x, y, z, w) || 1;
  return [x / l, y / l, z / l, w / l];
}

/**
 * T · R · S as a column-major 4×4 from a translation, a rotation quaternion (x, y, z, w) and a scale.
 *
 * ```ts
 * const m = composeTRS(node.getTranslation(), node.getRotation(), node.getScale());
 * ```
 */
export function composeTRS(
  t: ArrayLike<number>,
  q: ArrayLike<number>,
  s: ArrayLike<number>,
  out: Mat4 = new Float64Array(16),
): Mat4 {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const xy = x * y2;
  const xz = x * z2;
  const yy = y * y2;
  const yz = y * z2;
  const zz = z * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  out[0] = (1 - (yy + zz)) * s[0];
  out[1] = (xy + wz) * s[0];
  out[2] = (xz - wy) * s[0];
  out[3] = 0;
  out[4] = (xy - wz) * s[1];
  out[5] = (1 - (xx + zz)) * s[1];
  out[6] = (yz + wx) * s[1];
  out[7] = 0;
  out[8] = (xz + wy) * s[2];
  out[9] = (yz - wx) * s[2];
  out[10] = (1 - (xx + yy)) * s[2];
  out[11] = 0;
  out[12] = t[0];
  out[13] = t[1];
  out[14] = t[2];
  out[15] = 1;
  return out;
}

/** a · b (column-major); `out` may alias neither input. */
export function mat4Multiply(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  out: Mat4 = new Float64Array(16),
): Mat4 {
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      out[c * 4 + r] =
        a[r] * b[c * 4] + a[4 + r] * b[c * 4 + 1] + a[8 + r] * b[c * 4 + 2] + a[12 + r] * b[c * 4 + 3];
    }
  }
  return out;
}

/** Determinant of the upper-left 3×3 (the sign says whether a transform mirrors). */
export function mat4Det3(m: ArrayLike<number>): number {
  return (
    m[0] * (m[5] * m[10] - m[9] * m[6]) -
    m[4] * (m[1] * m[10] - m[9] * m[2]) +
    m[8] * (m[1] * m[6] - m[5] * m[2])
  );
}
