import {
  Accessor,
  type AnimationSampler,
  type Document,
  type Node,
  type Primitive,
} from '@gltf-transform/core';
import { ExportError } from './errors.js';

/**
 * Helpers over glTF-Transform documents that every exporter needs: reading accessors as floats,
 * gathering skin influences, sampling animations at arbitrary times, and counting what a
 * document holds.
 */

/** An accessor's values as floats, de-normalizing normalized integer data. */
export function accessorFloats(accessor: Accessor): Float32Array {
  const array = accessor.getArray();
  if (!array) return new Float32Array(0);
  if (array instanceof Float32Array) return array;
  const out = new Float32Array(array.length);
  if (!accessor.getNormalized()) {
    for (let i = 0; i < array.length; i++) out[i] = array[i];
    return out;
  }
  const ct = accessor.getComponentType();
  const scale =
    ct === Accessor.ComponentType.UNSIGNED_BYTE
      ? 1 / 255
      : ct === Accessor.ComponentType.BYTE
        ? 1 / 127
        : ct === Accessor.ComponentType.UNSIGNED_SHORT
          ? 1 / 65535
          : ct === Accessor.ComponentType.SHORT
            ? 1 / 32767
            : 1;
  const signed = ct === Accessor.ComponentType.BYTE || ct === Accessor.ComponentType.SHORT;
  for (let i = 0; i < array.length; i++) out[i] = signed ? Math.max(array[i] * scale, -1) : array[i] * scale;
  return out;
}

/** Skin influences of a primitive, at most `max` per vertex, sorted by weight, renormalized. */
export interface Influences {
  /** `vertexCount * max` joint indices (into the skin's joint list). */
  joints: Uint16Array;
  /** `vertexCount * max` weights, each vertex's summing to 1 (or all 0 when it had none). */
  weights: Float32Array;
  max: number;
  /** Vertices that had more than `max` non-zero influences (the smallest were dropped). */
  truncated: number;
  /** Vertices whose weights did not sum to 1 (±1e-3) before renormalizing. */
  renormalized: number;
}

/**
 * The first `k` passes of a selection sort of `count` (weight, joint) pairs by descending weight,
 * in place: afterwards `weights[0..k)` hold the `k` largest, largest first. Ties keep the first
 * one found (strict `>`), exactly as a full selection sort would leave those `k` slots; the order
 * of the rest is unspecified. No allocation: the hot loop of every influence reader.
 *
 * ```ts
 * const w = new Float64Array([0.2, 0.5, 0.3]);
 * const j = new Float64Array([7, 8, 9]);
 * sortInfluencesDesc(w, j, 3, 2); // w = [0.5, 0.3, …], j = [8, 9, …]
 * ```
 */
export function sortInfluencesDesc(
  weights: Float64Array,
  joints: Float64Array,
  count: number,
  k: number,
): void {
  const top = Math.min(k, count);
  for (let a = 0; a < top; a++) {
    let best = a;
    for (let b = a + 1; b < count; b++) if (weights[b] > weights[best]) best = b;
    if (best !== a) {
      const tw = weights[a];
      weights[a] = weights[best];
      weights[best] = tw;
      const tj = joints[a];
      joints[a] = joints[best];
      joints[best] = tj;
    }
  }
}

/**
 * Key for a joint read past the end of a short JOINTS_n accessor (`undefined` in the original
 * array version): not a float32 value, so it never equals a real joint, yet equal to itself so
 * such joints still merge with each other, and it converts to joint 0 in a Uint16Array as
 * `undefined` did (1e300 is a multiple of 2^16).
 */
const MISSING_JOINT = 1e300;

/**
 * Gathers JOINTS_n/WEIGHTS_n of a primitive into at most `max` influences per vertex, keeping the
 * largest and renormalizing. Returns null if the primitive has no skin attributes.
 *
 * Weights ≤ 0 or NaN are skipped, repeated joints merged (weights added in float64), the rest
 * ordered by {@link sortInfluencesDesc}; typed arrays only, nothing allocated per vertex.
 *
 * ```ts
 * const inf = readInfluences(prim, 4);
 * if (inf?.truncated) warnings.warn('WEIGHTS_TRUNCATED', 'kept the 4 largest influences', inf.truncated);
 * ```
 */
export function readInfluences(prim: Primitive, max: number): Influences | null {
  const jsets: Float32Array[] = [];
  const wsets: Float32Array[] = [];
  const sizes: number[] = [];
  let cap = 0;
  for (let s = 0; ; s++) {
    const j = prim.getAttribute(`JOINTS_${s}`);
    const w = prim.getAttribute(`WEIGHTS_${s}`);
    if (!j || !w) break;
    jsets.push(accessorFloats(j));
    wsets.push(accessorFloats(w));
    const size = j.getElementSize();
    sizes.push(size);
    cap += size;
  }
  if (!sizes.length) return null;
  const n = prim.getAttribute('POSITION')?.getCount() ?? 0;
  const joints = new Uint16Array(n * max);
  const weights = new Float32Array(n * max);
  const cj = new Float64Array(cap);
  const cw = new Float64Array(cap);
  const numSets = sizes.length;
  let truncated = 0;
  let renormalized = 0;
  for (let v = 0; v < n; v++) {
    let len = 0;
    for (let s = 0; s < numSets; s++) {
      const js = jsets[s];
      const ws = wsets[s];
      const size = sizes[s];
      const base = v * size;
      for (let k = 0; k < size; k++) {
        const wt = ws[base + k];
        if (!(wt > 0)) continue;
        const jt = base + k < js.length ? js[base + k] : MISSING_JOINT;
        let at = 0;
        while (at < len && cj[at] !== jt) at++; // indexOf: strict equality (NaN never matches)
        if (at < len) cw[at] += wt;
        else {
          cj[len] = jt;
          cw[len++] = wt;
        }
      }
    }
    // A full sort: the renormalization check sums every influence in sorted order.
    sortInfluencesDesc(cw, cj, len, len);
    if (len > max) truncated++;
    const k = Math.min(max, len);
    let sum = 0;
    for (let i = 0; i < len; i++) sum += cw[i];
    let kept = 0;
    for (let i = 0; i < k; i++) kept += cw[i];
    if (Math.abs(sum - 1) > 1e-3 && len) renormalized++;
    for (let i = 0; i < k; i++) {
      joints[v * max + i] = cj[i];
      weights[v * max + i] = kept > 0 ? cw[i] / kept : 0;
    }
  }
  return { joints, weights, max, truncated, renormalized };
}

function slerp(
  out: Float64Array | number[],
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
  t: number,
): void {
  let bx = b[bo];
  let by = b[bo + 1];
  let bz = b[bo + 2];
  let bw = b[bo + 3];
  const ax = a[ao];
  const ay = a[ao + 1];
  const az = a[ao + 2];
  const aw = a[ao + 3];
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) {
    cos = -cos;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  let s0: number;
  let s1: number;
  if (1 - cos > 1e-6) {
    const omega = Math.acos(Math.min(1, cos));
    const sin = Math.sin(omega);
    s0 = Math.sin((1 - t) * omega) / sin;
    s1 = Math.sin(t * omega) / sin;
  } else {
    s0 = 1 - t;
    s1 = t;
  }
  const x = s0 * ax + s1 * bx;
  const y = s0 * ay + s1 * by;
  const z = s0 * az + s1 * bz;
  const w = s0 * aw + s1 * bw;
  const len = Math.hypot(x, y, z, w) || 1;
  out[0] = x / len;
  out[1] = y / len;
  out[2] = z / len;
  out[3] = w / len;
}

/** Keyframes of a sampler read once, for repeated sampling. */
export interface SamplerData {
  times: Float32Array;
  values: Float32Array;
  /** Components per value (3 for translation/scale, 4 for rotation, N for morph weights). */
  size: number;
  interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
  /** Treat values as unit quaternions (slerp, normalize). */
  quaternion: boolean;
}

/** Reads a sampler's keyframes. `size` is the element count per key (weights: target count). */
export function readSampler(sampler: AnimationSampler, quaternion: boolean, size?: number): SamplerData {
  const input = sampler.getInput();
  const output = sampler.getOutput();
  const times = input ? accessorFloats(input) : new Float32Array(0);
  const values = output ? accessorFloats(output) : new Float32Array(0);
  const interpolation = (sampler.getInterpolation() ?? 'LINEAR') as SamplerData['interpolation'];
  const perKey = interpolation === 'CUBICSPLINE' ? 3 : 1;
  const elem =
    size ?? (times.length ? values.length / times.length / perKey : (output?.getElementSize() ?? 1));
  return { times, values, size: elem, interpolation, quaternion };
}

/**
 * Samples keyframes at time `t` (clamped to the key range) into `out`, following glTF's rules for
 * LINEAR (slerp for quaternions), STEP and CUBICSPLINE (Hermite, quaternions normalized).
 */
export function sampleAt(s: SamplerData, t: number, out: Float64Array | number[]): void {
  const { times, values, size } = s;
  const n = times.length;
  if (n === 0) return;
  const cubic = s.interpolation === 'CUBICSPLINE';
  const stride = cubic ? size * 3 : size;
  const valueIndex = (k: number) => k * stride + (cubic ? size : 0);
  if (t <= times[0] || n === 1) {
    for (let c = 0; c < size; c++) out[c] = values[valueIndex(0) + c];
    return;
  }
  if (t >= times[n - 1]) {
    for (let c = 0; c < size; c++) out[c] = values[valueIndex(n - 1) + c];
    return;
  }
  // Binary search for the segment [k, k+1] holding t.
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  const t0 = times[lo];
  const t1 = times[hi];
  const dt = t1 - t0;
  const u = dt > 0 ? (t - t0) / dt : 0;
  if (s.interpolation === 'STEP') {
    for (let c = 0; c < size; c++) out[c] = values[valueIndex(lo) + c];
    return;
  }
  if (!cubic) {
    if (s.quaternion && size === 4) {
      slerp(out, values, valueIndex(lo), values, valueIndex(hi), u);
      return;
    }
    for (let c = 0; c < size; c++)
      out[c] = values[valueIndex(lo) + c] * (1 - u) + values[valueIndex(hi) + c] * u;
    return;
  }
  const u2 = u * u;
  const u3 = u2 * u;
  const h00 = 2 * u3 - 3 * u2 + 1;
  const h10 = u3 - 2 * u2 + u;
  const h01 = -2 * u3 + 3 * u2;
  const h11 = u3 - u2;
  const p0 = lo * stride + size;
  const m0 = lo * stride + 2 * size; // out-tangent of key lo
  const p1 = hi * stride + size;
  const m1 = hi * stride; // in-tangent of key hi
  for (let c = 0; c < size; c++) {
    out[c] =
      h00 * values[p0 + c] + h10 * dt * values[m0 + c] + h01 * values[p1 + c] + h11 * dt * values[m1 + c];
  }
  if (s.quaternion && size === 4) {
    const len = Math.hypot(out[0], out[1], out[2], out[3]) || 1;
    for (let c = 0; c < 4; c++) out[c] /= len;
  }
}

/** What a document holds, as counted by the CLI's tables and reports. */
export interface DocumentStats {
  meshes: number;
  primitives: number;
  /** Vertices over all primitives of all meshes (each mesh counted once). */
  vertices: number;
  /** Triangles of TRIANGLES/STRIP/FAN primitives. */
  triangles: number;
  /** Joints of all skins. */
  joints: number;
  /** The largest morph target count of any primitive. */
  morphTargets: number;
  animations: number;
  materials: number;
}

/** Counts meshes, vertices, triangles, joints, morph targets and animations of a document. */
export function documentStats(doc: Document): DocumentStats {
  const root = doc.getRoot();
  let primitives = 0;
  let vertices = 0;
  let triangles = 0;
  let morphTargets = 0;
  for (const mesh of root.listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      primitives++;
      const count = prim.getAttribute('POSITION')?.getCount() ?? 0;
      vertices += count;
      const n = prim.getIndices()?.getCount() ?? count;
      const mode = prim.getMode();
      if (mode === 4) triangles += Math.floor(n / 3);
      else if (mode === 5 || mode === 6) triangles += Math.max(0, n - 2);
      morphTargets = Math.max(morphTargets, prim.listTargets().length);
    }
  }
  let joints = 0;
  for (const skin of root.listSkins()) joints += skin.listJoints().length;
  return {
    meshes: root.listMeshes().length,
    primitives,
    vertices,
    triangles,
    joints,
    morphTargets,
    animations: root.listAnimations().length,
    materials: root.listMaterials().length,
  };
}

/**
 * Checks that the document's nodes form trees, as glTF requires (every node has at most one
 * parent, no node is its own ancestor). NodeIO reads such files without complaint; an exporter
 * walking the hierarchy would loop or recurse forever. Throws `ExportError` `NODE_CYCLE` (or
 * `NODE_SHARED`, a safety net: glTF-Transform's addChild already moves a node from its old
 * parent); linear in the number of nodes.
 *
 * ```ts
 * assertNodeTrees(doc); // first thing in an exporter
 * ```
 */
export function assertNodeTrees(doc: Document): void {
  const nodes = doc.getRoot().listNodes();
  const index = new Map<Node, number>();
  for (let i = 0; i < nodes.length; i++) index.set(nodes[i], i);
  const parent = new Int32Array(nodes.length).fill(-1);
  const label = (i: number) => `node ${i}${nodes[i].getName() ? ` "${nodes[i].getName()}"` : ''}`;
  for (let i = 0; i < nodes.length; i++) {
    for (const child of nodes[i].listChildren()) {
      const c = index.get(child);
      if (c === undefined) continue;
      if (c === i)
        throw new ExportError('NODE_CYCLE', `${label(i)} is its own child: glTF nodes must form trees`);
      if (parent[c] !== -1)
        throw new ExportError(
          'NODE_SHARED',
          `${label(c)} is a child of both ${label(parent[c])} and ${label(i)}: glTF nodes must form trees`,
        );
      parent[c] = i;
    }
  }
  // each node has at most one parent: follow the parents, 1 = on the current path, 2 = cleared
  const state = new Uint8Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    let j = i;
    while (j !== -1 && state[j] === 0) {
      state[j] = 1;
      j = parent[j];
    }
    if (j !== -1 && state[j] === 1)
      throw new ExportError('NODE_CYCLE', `${label(j)} is its own ancestor: glTF nodes must form trees`);
    for (let k = i; k !== -1 && state[k] === 1; k = parent[k]) state[k] = 2;
  }
}
