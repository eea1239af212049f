/**
 * Vertex-array packing shared by import and export: glTF attributes ⇄ the 15 Grimrock vertex
 * arrays. The X mirror between Grimrock (left-handed) and glTF (right-handed) lives in
 * `AXES` and is applied only through the helpers in this file and `mapping.ts`.
 */
import { accessorFloats, mirrorAxis, readInfluences } from '@gltf-legacy/core';
import type { Accessor, Primitive } from '@gltf-transform/core';
import {
  dataTypeSize,
  LITTLE_ENDIAN_HOST,
  VA_BITANGENT,
  VA_BONE_INDEX,
  VA_BONE_WEIGHT,
  VA_COLOR,
  VA_NORMAL,
  VA_POSITION,
  VA_TANGENT,
  VA_TEXCOORD0,
  VERTEX_ARRAY_COUNT,
  VERTEX_ARRAY_NAMES,
  type VertexArray,
} from './model.js';

/**
 * Grimrock → glTF basis change: mirror X (see README, "Axes"). Its own inverse.
 *
 * ```ts
 * convertVec3(AXES, positions); // (x, y, z) → (−x, y, z)
 * ```
 */
export const AXES = mirrorAxis(0);

/** `[dataType, dim, stride]` of a vertex array. */
export type Layout = [number, number, number];

/**
 * The layout our writer uses for a slot when nothing else is known.
 *
 * ```ts
 * defaultLayout(VA_BONE_INDEX); // [2, 4, 16]: int32 × 4
 * ```
 */
export function defaultLayout(slot: number): Layout {
  if (slot === VA_COLOR) return [0, 4, 4];
  if (slot >= VA_TEXCOORD0 && slot < VA_BONE_INDEX) return [3, 2, 8];
  if (slot === VA_BONE_INDEX) return [2, 4, 16];
  if (slot === VA_BONE_WEIGHT) return [3, 4, 16];
  return [3, 3, 12];
}

/**
 * Name of the custom glTF attribute that keeps a slot's raw file values.
 *
 * ```ts
 * rawAttributeName(VA_BITANGENT); // '_GRIMROCK_BITANGENT'
 * ```
 */
export function rawAttributeName(slot: number): string {
  return `_GRIMROCK_${VERTEX_ARRAY_NAMES[slot].toUpperCase()}`;
}

/**
 * Whole elements an accessor's array holds. glTF-Transform's `getCount()` divides the array
 * length by the element size, so a corrupt file (count or bufferView mutated) can leave it
 * fractional; export reads only what the array holds.
 *
 * ```ts
 * elementCount(positions); // 626
 * ```
 */
export function elementCount(a: Accessor | null | undefined): number {
  const arr = a?.getArray();
  return a && arr ? Math.floor(arr.length / a.getElementSize()) : 0;
}

/** Integer data of color and weight slots is normalized (0..255 ⇄ 0..1 for bytes). */
function normScale(slot: number, dataType: number): number {
  if (slot !== VA_COLOR && slot !== VA_BONE_WEIGHT) return 1;
  return dataType === 0 ? 255 : dataType === 1 ? 32767 : 1;
}

/** Packs `src` (`dim` components per vertex, file units) into a vertex array of `layout`. */
export function packArray(
  layout: Layout,
  n: number,
  src: ArrayLike<number> | null,
  srcDim: number,
): VertexArray {
  const [dataType, dim, stride] = layout;
  const size = dataTypeSize(dataType) ?? 1;
  const data = new Uint8Array(n * stride);
  if (
    src instanceof Float32Array &&
    n > 0 &&
    dataType === 3 &&
    srcDim === dim &&
    stride === dim * 4 &&
    LITTLE_ENDIAN_HOST
  ) {
    new Float32Array(data.buffer).set(src.subarray(0, n * dim));
  } else if (src && n > 0 && dataType === 2 && srcDim === dim && stride === dim * 4 && LITTLE_ENDIAN_HOST) {
    const out = new Int32Array(data.buffer);
    // Small unsigned integers (glTF JOINTS) fit int32 exactly: one native copy.
    if (src instanceof Uint16Array || src instanceof Uint8Array) out.set(src.subarray(0, out.length));
    else for (let i = 0; i < out.length; i++) out[i] = clampRound(src[i], -2147483648, 2147483647);
  } else if (src && n > 0) {
    const dv = new DataView(data.buffer);
    const m = Math.min(dim, srcDim, Math.floor(stride / size));
    for (let v = 0; v < n; v++) {
      const o = v * stride;
      for (let c = 0; c < m; c++) {
        const x = src[v * srcDim + c];
        const at = o + c * size;
        if (dataType === 3) dv.setFloat32(at, x, true);
        else if (dataType === 0) dv.setUint8(at, clampRound(x, 0, 255));
        else if (dataType === 1) dv.setInt16(at, clampRound(x, -32768, 32767), true);
        else if (dataType === 2) dv.setInt32(at, clampRound(x, -2147483648, 2147483647), true);
      }
    }
  }
  return { dataType, dim, stride, data };
}

function clampRound(x: number, lo: number, hi: number): number {
  if (Number.isNaN(x)) return 0;
  return Math.min(hi, Math.max(lo, Math.round(x)));
}

/**
 * File-unit values of slot `slot` derived from a glTF primitive's standard attributes (the export
 * direction), or null when the primitive has nothing for it. `layout` picks the units.
 */
export function deriveSlot(
  prim: Primitive,
  slot: number,
  layout: Layout,
  skinned: boolean,
  stats?: PackStats,
  into?: Float32Array,
): { values: ArrayLike<number>; dim: number } | null {
  const n = elementCount(prim.getAttribute('POSITION'));
  const get = (name: string) => {
    const a = prim.getAttribute(name);
    return a && elementCount(a) === n ? a : null;
  };
  const mirrored = (name: string, comps: number) => {
    const a = get(name);
    if (!a) return null;
    const f = accessorFloats(a);
    const out = into && into.length === n * 3 ? into : new Float32Array(n * 3);
    // Exact: only signs change (X mirrored).
    for (let v = 0, i = 0, o = 0; v < n; v++, i += comps, o += 3) {
      out[o] = -f[i];
      out[o + 1] = f[i + 1];
      out[o + 2] = f[i + 2];
    }
    return out;
  };
  switch (slot) {
    case VA_POSITION: {
      const p = mirrored('POSITION', 3);
      return p && { values: p, dim: 3 };
    }
    case VA_NORMAL: {
      const p = mirrored('NORMAL', 3);
      return p && { values: p, dim: 3 };
    }
    case VA_TANGENT: {
      const p = mirrored('TANGENT', 4);
      return p && { values: p, dim: 3 };
    }
    case VA_BITANGENT: {
      const na = get('NORMAL');
      const ta = get('TANGENT');
      if (!na || !ta) return null;
      const nf = accessorFloats(na);
      const tf = accessorFloats(ta);
      const out = into && into.length === n * 3 ? into : new Float32Array(n * 3);
      for (let v = 0; v < n; v++) {
        const nx = nf[v * 3];
        const ny = nf[v * 3 + 1];
        const nz = nf[v * 3 + 2];
        const tx = tf[v * 4];
        const ty = tf[v * 4 + 1];
        const tz = tf[v * 4 + 2];
        const w = tf[v * 4 + 3] < 0 ? -1 : 1;
        // glTF: bitangent = cross(N, T) * w; then mirror X back to Grimrock.
        out[v * 3] = -(ny * tz - nz * ty) * w;
        out[v * 3 + 1] = (nz * tx - nx * tz) * w;
        out[v * 3 + 2] = (nx * ty - ny * tx) * w;
      }
      return { values: out, dim: 3 };
    }
    case VA_COLOR: {
      const a = get('COLOR_0');
      if (!a) return null;
      const f = accessorFloats(a);
      const comps = a.getElementSize();
      const s = normScale(slot, layout[0]);
      const out = new Float32Array(n * 4);
      for (let v = 0; v < n; v++) {
        for (let c = 0; c < 4; c++) out[v * 4 + c] = (c < comps ? f[v * comps + c] : 1) * s;
      }
      return { values: out, dim: 4 };
    }
    case VA_BONE_INDEX:
    case VA_BONE_WEIGHT: {
      if (!skinned) return null;
      const inf = influences(prim, stats);
      if (!inf) return null;
      if (slot === VA_BONE_INDEX) return { values: inf.joints, dim: 4 };
      const s = normScale(slot, layout[0]);
      const out = s === 1 ? inf.weights : Float32Array.from(inf.weights, (x) => x * s);
      return { values: out, dim: 4 };
    }
    default: {
      if (slot >= VA_TEXCOORD0 && slot < VA_BONE_INDEX) {
        const a = get(`TEXCOORD_${slot - VA_TEXCOORD0}`);
        return a ? { values: accessorFloats(a), dim: 2 } : null;
      }
      return null;
    }
  }
}

/** Counters filled while packing (for export warnings). */
export interface PackStats {
  /** Vertices whose weights were renormalized. */
  renormalized: number;
}

/** Influences computed once per primitive and packing pass (both bone slots use them). */
const influenceCache = new WeakMap<Primitive, Influences4 | null>();

/** Four joints and weights per vertex (read-only: they may be the accessors' own arrays). */
interface Influences4 {
  joints: ArrayLike<number>;
  weights: ArrayLike<number>;
}

function influences(prim: Primitive, stats?: PackStats): Influences4 | null {
  if (influenceCache.has(prim)) return influenceCache.get(prim)!;
  const r = computeInfluences(prim, stats);
  influenceCache.set(prim, r);
  return r;
}

/**
 * The 4 influences per vertex (the shared export stage already kept at most 4 non-zero ones). A
 * single JOINTS_0/WEIGHTS_0 set whose weights sum to 1 is copied unchanged (order and zero-weight
 * joints kept); anything else (weights not summing to 1, a second set of zero weights) goes
 * through core `readInfluences`, renormalized.
 */
function computeInfluences(prim: Primitive, stats?: PackStats): Influences4 | null {
  const n = elementCount(prim.getAttribute('POSITION'));
  const j0 = prim.getAttribute('JOINTS_0');
  const w0 = prim.getAttribute('WEIGHTS_0');
  if (!j0 || !w0) return null;
  if (
    !prim.getAttribute('JOINTS_1') &&
    j0.getElementSize() === 4 &&
    w0.getElementSize() === 4 &&
    elementCount(j0) === n &&
    elementCount(w0) === n
  ) {
    // Read in place: joint indices are integers (never normalized), weights as floats.
    const ja = j0.getArray();
    const joints = ja && !j0.getNormalized() ? ja : accessorFloats(j0);
    const weights = accessorFloats(w0);
    let ok = true;
    for (let v = 0; v < n && ok; v++) {
      const s = weights[v * 4] + weights[v * 4 + 1] + weights[v * 4 + 2] + weights[v * 4 + 3];
      if (Math.abs(s - 1) > 1e-5) ok = false;
    }
    if (ok) return { joints, weights };
  }
  const inf = readInfluences(prim, 4);
  if (!inf) return null;
  if (stats) stats.renormalized += inf.renormalized;
  return { joints: inf.joints, weights: inf.weights };
}

/** Bit patterns of non-finite floats: `[componentIndex, uint32 bits]` pairs. */
export type NonFinitePatch = [number, number];

/**
 * Builds the 15 vertex arrays of a primitive: raw `_GRIMROCK_*` attributes win (then their
 * non-finite patches are applied), else values derived from standard attributes, else zeros
 * for slots the layout marks as used. `only` limits the slots; `each` receives each array as it
 * is built (the returned arrays then have empty data).
 */
export function packArrays(
  prim: Primitive,
  layouts: Layout[],
  skinned: boolean,
  nonFinite: Record<string, NonFinitePatch[]> = {},
  stats?: PackStats,
  only?: (slot: number) => boolean,
  each?: (slot: number, array: VertexArray) => void,
): VertexArray[] {
  const n = elementCount(prim.getAttribute('POSITION'));
  const out: VertexArray[] = [];
  influenceCache.delete(prim);
  for (let slot = 0; slot < VERTEX_ARRAY_COUNT; slot++) {
    const layout = layouts[slot];
    if (!layout || layout[2] <= 0 || (only && !only(slot))) {
      out.push({
        dataType: layout?.[0] ?? 0,
        dim: layout?.[1] ?? 0,
        stride: layout?.[2] ?? 0,
        data: new Uint8Array(0),
      });
      continue;
    }
    const raw = prim.getAttribute(rawAttributeName(slot));
    let src: { values: ArrayLike<number>; dim: number } | null = null;
    // Float 3-vectors derived from standard attributes are written straight into the array.
    const direct =
      !raw &&
      n > 0 &&
      layout[0] === 3 &&
      layout[1] === 3 &&
      layout[2] === 12 &&
      LITTLE_ENDIAN_HOST &&
      slot >= VA_POSITION &&
      slot <= VA_BITANGENT;
    const into = direct ? new Float32Array(n * 3) : undefined;
    if (raw && elementCount(raw) === n) src = { values: accessorFloats(raw), dim: raw.getElementSize() };
    else src = deriveSlot(prim, slot, layout, skinned, stats, into);
    const arr =
      into && (!src || src.values === into)
        ? { dataType: 3, dim: 3, stride: 12, data: new Uint8Array(into.buffer) }
        : packArray(layout, n, src?.values ?? null, src?.dim ?? 0);
    const patches = nonFinite[VERTEX_ARRAY_NAMES[slot]];
    if (patches && raw && (layout[0] === 3 || layout[0] === 2)) {
      const dv = new DataView(arr.data.buffer);
      for (const [i, bits] of patches) {
        const v = Math.floor(i / layout[1]);
        const c = i % layout[1];
        const at = v * layout[2] + c * 4;
        if (at + 4 <= arr.data.byteLength) dv.setUint32(at, bits >>> 0, true);
      }
    }
    if (each) {
      // streamed: only one packed array alive at a time
      each(slot, arr);
      out.push({ ...arr, data: new Uint8Array(0) });
    } else out.push(arr);
  }
  influenceCache.delete(prim);
  return out;
}

/** A float in extras: a JSON number, or `"-0"`, `"NaN"`, `"Infinity"`, `"-Infinity"` (JSON cannot hold them). */
export type JsonFloat = number | string;

/** Floats → JSON-safe values that keep −0 and non-finite values exactly. */
export function encodeFloats(a: ArrayLike<number>): JsonFloat[] {
  return Array.from(a, encodeFloat);
}

export function encodeFloat(x: number): JsonFloat {
  return Object.is(x, -0) || !Number.isFinite(x) ? String(Object.is(x, -0) ? '-0' : x) : x;
}

/** Inverse of {@link encodeFloats}; undefined unless `a` holds `n` such values. */
export function decodeFloats(a: unknown, n: number): number[] | undefined {
  if (!Array.isArray(a) || a.length !== n) return undefined;
  const out: number[] = [];
  for (const x of a) {
    const v = decodeFloat(x);
    if (v === undefined) return undefined;
    out.push(v);
  }
  return out;
}

export function decodeFloat(x: unknown): number | undefined {
  if (typeof x === 'number') return x;
  if (typeof x === 'string' && /^(-0|NaN|-?Infinity)$/.test(x)) return Number(x);
  return undefined;
}
