/**
 * Axis conventions and the mesh placement, in one place.
 *
 * Unreal is left-handed, Z up, X forward, Y right; glTF is right-handed, Y up. The mapping used
 * everywhere is `gltf = (X, Z, Y)` (a swap of Y and Z, determinant −1), so triangle winding is
 * reversed once when triangles are built. The engine places a vertex as
 * `world = RotOrigin · Scale · (vertex − Origin)` (formats/unreal3d.md §4); that placement
 * becomes the glTF mesh node's TRS, so vertex data keeps the raw integers.
 */
import { axisMap } from '@gltf-legacy/core';
import { quatFromMat3 } from '@gltf-legacy/core';

/** Unreal → glTF axes (its own inverse). */
export const UNREAL_TO_GLTF = axisMap([0, 2, 1], [1, 1, 1]);

/** Converts one Unreal vector to glTF axes. */
export function toGltf(x: number, y: number, z: number): [number, number, number] {
  return [x, z, y];
}

/** Unreal rotator in `.uc` units (1/256 of a turn) → 3×3 rotation (column-major, Unreal axes). */
export function rotatorMatrix(pitch: number, yaw: number, roll: number): Float64Array {
  const k = (2 * Math.PI) / 256;
  const P = pitch * k;
  const Y = yaw * k;
  const R = roll * k;
  const [sp, cp, sy, cy, sr, cr] = [
    Math.sin(P),
    Math.cos(P),
    Math.sin(Y),
    Math.cos(Y),
    Math.sin(R),
    Math.cos(R),
  ];
  // Columns: images of the X, Y, Z axes (Unreal's FRotationMatrix rows).
  return new Float64Array([
    cp * cy,
    cp * sy,
    sp,
    sr * sp * cy - cr * sy,
    sr * sp * sy + cr * cy,
    -sr * cp,
    -(cr * sp * cy + sr * sy),
    cy * sr - cr * sp * sy,
    cr * cp,
  ]);
}

/** Mesh placement from the `.uc`. */
export interface Placement {
  scale: [number, number, number];
  origin: { x: number; y: number; z: number; pitch: number; yaw: number; roll: number };
  /** UNMIRROR=1: the engine negates X (and swaps corners, keeping faces outward). */
  unmirror?: boolean;
  /**
   * glTF metres per Unreal unit applied on top (import option `scale`, default
   * {@link UNREAL_UNIT_METRES}); absent: 1 (glTF in Unreal units). Not a `.uc` field: the file
   * numbers stay as they were.
   */
  unit?: number;
  /**
   * True (import default, option `axes: 'gltf'`): the game's forward (+X) is turned to glTF +Z
   * and its up (+Z) is glTF +Y, as the glTF spec asks ("the front of a glTF asset faces +Z"): the
   * node gets a −90° turn about glTF Y on top of the Y/Z swap. Absent: the plain swap (forward
   * +X). Not a `.uc` field.
   */
  front?: boolean;
}

/** The turn `front` adds, a −90° rotation about glTF Y: (x, y, z) → (−z, y, x). */
const FRONT_Q: [number, number, number, number] = [0, -Math.SQRT1_2, 0, Math.SQRT1_2];

/**
 * Turns a glTF translation + rotation by the `front` turn: Unreal forward +X (glTF +X after the
 * swap) to glTF +Z.
 */
export function turnFront(trs: { translation: number[]; rotation: number[] }): void {
  const [x, y, z] = trs.translation;
  trs.translation[0] = -z;
  trs.translation[1] = y;
  trs.translation[2] = x;
  const [ax, ay, az, aw] = FRONT_Q;
  const [bx, by, bz, bw] = trs.rotation;
  const clean = (v: number) => (Math.abs(v) < 1e-12 ? 0 : v);
  trs.rotation[0] = clean(aw * bx + ax * bw + ay * bz - az * by);
  trs.rotation[1] = clean(aw * by - ax * bz + ay * bw + az * bx);
  trs.rotation[2] = clean(aw * bz + ax * by - ay * bx + az * bw);
  trs.rotation[3] = clean(aw * bw - ax * bx - ay * by - az * bz);
}

/**
 * Metres per Unreal unit: 1 UU = 0.75 inch = 1.905 cm, the scale the Unreal Wiki ("General Scale
 * and Dimensions", 16 UU = 1 foot) gives for the Unreal 1 / UT games; their 78 UU player cylinder
 * comes out 1.49 m tall, a 256 UU room 4.88 m.
 */
export const UNREAL_UNIT_METRES = 0.01905;

/** The unit factor of a placement (1 when absent or not a positive finite number). */
export function placementUnit(p: Placement): number {
  const u = p.unit;
  return typeof u === 'number' && u > 0 && Number.isFinite(u) ? u : 1;
}

/** glTF TRS of the mesh node for a placement. */
export function placementTRS(p: Placement): {
  translation: [number, number, number];
  rotation: [number, number, number, number];
  scale: [number, number, number];
} {
  const u = placementUnit(p);
  const sx = p.scale[0] * (p.unmirror ? -1 : 1) * u;
  const s = [sx, p.scale[1] * u, p.scale[2] * u];
  const R = rotatorMatrix(p.origin.pitch, p.origin.yaw, p.origin.roll);
  const o = [p.origin.x, p.origin.y, p.origin.z];
  // t_u = −R·S·o
  const so = [s[0] * o[0], s[1] * o[1], s[2] * o[2]];
  const tu = [0, 0, 0];
  for (let r = 0; r < 3; r++) tu[r] = -(R[r] * so[0] + R[3 + r] * so[1] + R[6 + r] * so[2]);
  // Conjugate by P (swap rows/cols 1 and 2).
  const perm = [0, 2, 1];
  const Rg = new Float64Array(9);
  for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) Rg[c * 3 + r] = R[perm[c] * 3 + perm[r]];
  const q = quatFromMat3(Rg);
  const clean = (v: number) => (Math.abs(v) < 1e-12 ? 0 : v);
  const out: {
    translation: [number, number, number];
    rotation: [number, number, number, number];
    scale: [number, number, number];
  } = {
    translation: [clean(tu[0]), clean(tu[2]), clean(tu[1])],
    rotation: [clean(q[0]), clean(q[1]), clean(q[2]), clean(q[3]) || (q[0] || q[1] || q[2] ? 0 : 1)],
    scale: [s[0], s[2], s[1]],
  };
  if (p.front) turnFront(out);
  return out;
}

/**
 * Applies a placement to raw Unreal positions (in place), giving world coordinates in Unreal axes
 * (in metres when the placement has a `unit`).
 */
export function placeUnreal(p: Placement, xyz: Float32Array | Float64Array): void {
  const R = rotatorMatrix(p.origin.pitch, p.origin.yaw, p.origin.roll);
  const u = placementUnit(p);
  const s = [p.scale[0] * (p.unmirror ? -1 : 1) * u, p.scale[1] * u, p.scale[2] * u];
  for (let i = 0; i + 2 < xyz.length; i += 3) {
    const a = s[0] * (xyz[i] - p.origin.x);
    const b = s[1] * (xyz[i + 1] - p.origin.y);
    const c = s[2] * (xyz[i + 2] - p.origin.z);
    xyz[i] = R[0] * a + R[3] * b + R[6] * c;
    xyz[i + 1] = R[1] * a + R[4] * b + R[7] * c;
    xyz[i + 2] = R[2] * a + R[5] * b + R[8] * c;
  }
}

/**
 * The weapon attachment frame of the v200 renderer from three Unreal world corners: origin =
 * midpoint of corners 0 and 2, X toward corner 1, Y = X × (c0 − c2), Z = Y × X. Returned as a
 * glTF translation + rotation (converted to glTF axes).
 */
export function weaponFrame(c: ArrayLike<number>): {
  translation: [number, number, number];
  rotation: [number, number, number, number];
} {
  const o = [(c[0] + c[6]) / 2, (c[1] + c[7]) / 2, (c[2] + c[8]) / 2];
  const norm = (v: number[]) => {
    const l = Math.hypot(v[0], v[1], v[2]);
    return l > 1e-12 ? [v[0] / l, v[1] / l, v[2] / l] : null;
  };
  const cross = (a: number[], b: number[]) => [
    a[1] * b[2] - a[2] * b[1],
    a[2] * b[0] - a[0] * b[2],
    a[0] * b[1] - a[1] * b[0],
  ];
  const X = norm([c[3] - o[0], c[4] - o[1], c[5] - o[2]]);
  const d = [c[0] - c[6], c[1] - c[7], c[2] - c[8]];
  const Y = X ? norm(cross(X, d)) : null;
  const translation = toGltf(o[0], o[1], o[2]);
  if (!X || !Y) return { translation, rotation: [0, 0, 0, 1] };
  const Z = cross(Y, X);
  // Columns in glTF axes: P·X, P·Y, P·Z (det(P)·det[X Y Z] = (−1)(−1) = +1).
  const q = quatFromMat3([X[0], X[2], X[1], Y[0], Y[2], Y[1], Z[0], Z[2], Z[1]]);
  return { translation, rotation: [q[0], q[1], q[2], q[3]] };
}
