/**
 * Axis and handedness conversion by signed axis permutations.
 *
 * Every legacy format here differs from glTF (right-handed, +Y up) by a signed permutation of
 * the axes: a mirror of one axis, a swap of Y and Z, or both. Such a change of basis moves values
 * exactly (only signs and positions change, never rounding), so converting there and back gives
 * the same bits. When the permutation mirrors (determinant −1), triangle winding flips and
 * quaternion vector parts pick up the sign of the determinant.
 */

/** A change of basis: `out[i] = sign[i] * in[axis[i]]`. */
export interface AxisMap {
  readonly axis: readonly [number, number, number];
  readonly sign: readonly [number, number, number];
}

/** The identity basis change. */
export const IDENTITY_AXES: AxisMap = { axis: [0, 1, 2], sign: [1, 1, 1] };

/** Negates one axis (0 = X, 1 = Y, 2 = Z): the usual left-handed ⇄ right-handed mirror. */
export function mirrorAxis(axis: 0 | 1 | 2): AxisMap {
  const sign: [number, number, number] = [1, 1, 1];
  sign[axis] = -1;
  return { axis: [0, 1, 2], sign };
}

/** Builds an axis map, checking that `axis` is a permutation and `sign` holds ±1. */
export function axisMap(
  axis: readonly [number, number, number],
  sign: readonly [number, number, number],
): AxisMap {
  const seen = new Set(axis);
  if (seen.size !== 3 || ![0, 1, 2].every((a) => seen.has(a)))
    throw new RangeError(`not a permutation: ${axis}`);
  if (!sign.every((s) => s === 1 || s === -1)) throw new RangeError(`signs must be ±1: ${sign}`);
  return { axis: [...axis] as [number, number, number], sign: [...sign] as [number, number, number] };
}

/** The inverse basis change: `convert(inverseAxes(m), convert(m, v)) = v`. */
export function inverseAxes(m: AxisMap): AxisMap {
  const axis: [number, number, number] = [0, 0, 0];
  const sign: [number, number, number] = [1, 1, 1];
  for (let i = 0; i < 3; i++) {
    axis[m.axis[i]] = i;
    sign[m.axis[i]] = m.sign[i];
  }
  return { axis, sign };
}

/** Composition: apply `a` first, then `b`. */
export function composeAxes(a: AxisMap, b: AxisMap): AxisMap {
  const axis: [number, number, number] = [0, 0, 0];
  const sign: [number, number, number] = [1, 1, 1];
  for (let i = 0; i < 3; i++) {
    axis[i] = a.axis[b.axis[i]];
    sign[i] = b.sign[i] * a.sign[b.axis[i]];
  }
  return { axis, sign };
}

/** Determinant of the basis change: −1 when it mirrors (winding must flip). */
export function axesDeterminant(m: AxisMap): number {
  // Parity of the permutation times the product of signs.
  const [a, b, c] = m.axis;
  const inversions = (a > b ? 1 : 0) + (a > c ? 1 : 0) + (b > c ? 1 : 0);
  const parity = inversions % 2 === 0 ? 1 : -1;
  return parity * m.sign[0] * m.sign[1] * m.sign[2];
}

/** True when the map mirrors, i.e. triangle winding has to be flipped. */
export function axesFlipWinding(m: AxisMap): boolean {
  return axesDeterminant(m) < 0;
}

type NumArray = { length: number; [i: number]: number };

/**
 * Converts packed 3-vectors in place (positions, normals, translations, scales' axes).
 * `stride` is the distance between vectors (3 for tight arrays, 4 for tangents); `offset` the
 * first component. Float32Array and Float64Array take their own monomorphic loop (bulk vertex
 * data): same maths, same bits as the generic one.
 */
export function convertVec3(m: AxisMap, data: NumArray, stride = 3, offset = 0): void {
  const [a0, a1, a2] = m.axis;
  const [s0, s1, s2] = m.sign;
  if (data instanceof Float32Array) vec3F32(data, a0, a1, a2, s0, s1, s2, stride, offset);
  else if (data instanceof Float64Array) vec3F64(data, a0, a1, a2, s0, s1, s2, stride, offset);
  else vec3Any(data, a0, a1, a2, s0, s1, s2, stride, offset);
}

// The three loops below are one body on three array types, so that each stays monomorphic:
// measured on 1 M vec3 (Node 20), one shared loop fed Float32Array, Float64Array and arrays runs
// 1.7× slower on Float32Array than its own copy. Quaternions reuse them 4 wide; `flipWinding` the same.
function vec3F32(
  data: Float32Array,
  a0: number,
  a1: number,
  a2: number,
  s0: number,
  s1: number,
  s2: number,
  stride: number,
  offset: number,
  width = 3,
): void {
  for (let i = offset; i + width - 1 < data.length; i += stride) {
    const v0 = data[i + a0];
    const v1 = data[i + a1];
    const v2 = data[i + a2];
    data[i] = s0 * v0;
    data[i + 1] = s1 * v1;
    data[i + 2] = s2 * v2;
  }
}

function vec3F64(
  data: Float64Array,
  a0: number,
  a1: number,
  a2: number,
  s0: number,
  s1: number,
  s2: number,
  stride: number,
  offset: number,
  width = 3,
): void {
  for (let i = offset; i + width - 1 < data.length; i += stride) {
    const v0 = data[i + a0];
    const v1 = data[i + a1];
    const v2 = data[i + a2];
    data[i] = s0 * v0;
    data[i + 1] = s1 * v1;
    data[i + 2] = s2 * v2;
  }
}

function vec3Any(
  data: NumArray,
  a0: number,
  a1: number,
  a2: number,
  s0: number,
  s1: number,
  s2: number,
  stride: number,
  offset: number,
  width = 3,
): void {
  for (let i = offset; i + width - 1 < data.length; i += stride) {
    const v0 = data[i + a0];
    const v1 = data[i + a1];
    const v2 = data[i + a2];
    data[i] = s0 * v0;
    data[i + 1] = s1 * v1;
    data[i + 2] = s2 * v2;
  }
}

/** Converts scale vectors in place (the axes permute; scales keep their sign). */
export function convertScale(m: AxisMap, data: NumArray, stride = 3): void {
  const [a0, a1, a2] = m.axis;
  for (let i = 0; i + 2 < data.length; i += stride) {
    const v0 = data[i + a0];
    const v1 = data[i + a1];
    const v2 = data[i + a2];
    data[i] = v0;
    data[i + 1] = v1;
    data[i + 2] = v2;
  }
}

/** Converts glTF tangents (xyz + handedness w) in place: xyz as vectors, w times the determinant. */
export function convertTangents(m: AxisMap, data: NumArray): void {
  convertVec3(m, data, 4, 0);
  const d = axesDeterminant(m);
  if (d < 0) for (let i = 3; i < data.length; i += 4) data[i] = -data[i];
}

/**
 * Converts quaternions (x, y, z, w) in place. Under a basis change P the rotation R becomes
 * P R Pᵀ; for a signed permutation the vector part transforms as an axial vector
 * (det(P) · P v) and w is unchanged.
 */
export function convertQuaternions(m: AxisMap, data: NumArray, stride = 4): void {
  const d = axesDeterminant(m);
  const [a0, a1, a2] = m.axis;
  const [s0, s1, s2] = m.sign;
  // d * s * v evaluates as (d * s) * v: the same bits with the product hoisted.
  const q0 = d * s0;
  const q1 = d * s1;
  const q2 = d * s2;
  // The vector part is a signed permutation like a vec3's: the same kernels, 4 wide.
  if (data instanceof Float32Array) vec3F32(data, a0, a1, a2, q0, q1, q2, stride, 0, 4);
  else if (data instanceof Float64Array) vec3F64(data, a0, a1, a2, q0, q1, q2, stride, 0, 4);
  else vec3Any(data, a0, a1, a2, q0, q1, q2, stride, 0, 4);
}

/**
 * Converts column-major 4×4 matrices (glTF order) in place: M' = P M Pᵀ. Works for node and
 * inverse-bind matrices; translation converts as a vector.
 */
export function convertMat4(m: AxisMap, data: NumArray, stride = 16): void {
  const tmp = new Float64Array(16);
  for (let base = 0; base + 15 < data.length; base += stride) {
    for (let c = 0; c < 4; c++) {
      for (let r = 0; r < 4; r++) {
        // Row r of P M Pᵀ takes row axis[r] of M with sign[r]; column c takes column axis[c].
        const rr = r < 3 ? m.axis[r] : 3;
        const cc = c < 3 ? m.axis[c] : 3;
        const sr = r < 3 ? m.sign[r] : 1;
        const sc = c < 3 ? m.sign[c] : 1;
        tmp[c * 4 + r] = sr * sc * data[base + cc * 4 + rr];
      }
    }
    for (let k = 0; k < 16; k++) data[base + k] = tmp[k];
  }
}

/**
 * Reverses the winding of a triangle list in place by swapping the 2nd and 3rd index of each
 * triangle. Applying it twice restores the input. Uint32Array and Uint16Array take their own
 * monomorphic loop.
 */
export function flipWinding(indices: NumArray): void {
  if (indices instanceof Uint32Array) flipU32(indices);
  else if (indices instanceof Uint16Array) flipU16(indices);
  else flipAny(indices);
}

function flipU32(indices: Uint32Array): void {
  for (let i = 0; i + 2 < indices.length; i += 3) {
    const t = indices[i + 1];
    indices[i + 1] = indices[i + 2];
    indices[i + 2] = t;
  }
}

function flipU16(indices: Uint16Array): void {
  for (let i = 0; i + 2 < indices.length; i += 3) {
    const t = indices[i + 1];
    indices[i + 1] = indices[i + 2];
    indices[i + 2] = t;
  }
}

function flipAny(indices: NumArray): void {
  for (let i = 0; i + 2 < indices.length; i += 3) {
    const t = indices[i + 1];
    indices[i + 1] = indices[i + 2];
    indices[i + 2] = t;
  }
}
