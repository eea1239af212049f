/**
 * Vertex element ⇄ glTF attribute rules shared by import and export.
 */
import { ELEMENT_TYPE_SIZES, ElementType, SEMANTIC_NAMES, Semantic, type VertexElement } from './mdl.js';

export const TYPE_NAMES = ['INT', 'FLOAT', 'VECTOR2', 'VECTOR3', 'VECTOR4', 'UBYTE4', 'UBYTE4_NORM'] as const;

/** How an element's data is converted to its glTF attribute. */
export type AttributeKind =
  | 'position'
  | 'normal'
  | 'tangent'
  | 'plain'
  | 'color'
  | 'weights'
  | 'joints'
  | 'raw';

/** glTF attribute name and conversion kind of a vertex element. */
export function attributeFor(e: { type: number; semantic: number; index: number }): [string, AttributeKind] {
  const { type, semantic, index } = e;
  if (semantic === Semantic.POSITION && index === 0 && type === ElementType.VECTOR3)
    return ['POSITION', 'position'];
  if (semantic === Semantic.NORMAL && index === 0 && type === ElementType.VECTOR3)
    return ['NORMAL', 'normal'];
  if (semantic === Semantic.TANGENT && index === 0 && type === ElementType.VECTOR4)
    return ['TANGENT', 'tangent'];
  if (semantic === Semantic.TEXCOORD && type === ElementType.VECTOR2) return [`TEXCOORD_${index}`, 'plain'];
  if (
    semantic === Semantic.COLOR &&
    (type === ElementType.UBYTE4_NORM || type === ElementType.VECTOR4 || type === ElementType.VECTOR3)
  ) {
    return [`COLOR_${index}`, 'color'];
  }
  if (semantic === Semantic.BLENDWEIGHTS && index === 0 && type === ElementType.VECTOR4)
    return ['WEIGHTS_0', 'weights'];
  if (semantic === Semantic.BLENDINDICES && index === 0 && type === ElementType.UBYTE4)
    return ['JOINTS_0', 'joints'];
  return [rawAttributeName(e), 'raw'];
}

/**
 * Application-specific attribute holding an element's file values unconverted:
 * `_URHO_<SEMANTIC><index>_<TYPE>` (e.g. `_URHO_BINORMAL0_VECTOR3`), or for a semantic byte the
 * engine does not name `_URHO_SEMANTIC<semantic>_<index>_<TYPE>` (the separator keeps semantic 20
 * index 1 apart from semantic 201 index 0).
 */
export function rawAttributeName(e: { type: number; semantic: number; index: number }): string {
  const sem = SEMANTIC_NAMES[e.semantic];
  const type = TYPE_NAMES[e.type];
  return sem ? `_URHO_${sem}${e.index}_${type}` : `_URHO_SEMANTIC${e.semantic}_${e.index}_${type}`;
}

/**
 * Parses a name made by {@link rawAttributeName}; null for any other name (only the canonical
 * spelling of an element with byte-sized semantic and index parses, so that
 * `rawAttributeName(parseRawAttributeName(n)) === n`).
 */
export function parseRawAttributeName(
  name: string,
): { type: number; semantic: number; index: number } | null {
  const m = /^_URHO_(?:SEMANTIC(\d+)_|([A-Z]+?))(\d+)_([A-Z0-9_]+)$/.exec(name);
  if (!m) return null;
  const semantic = m[1] !== undefined ? Number(m[1]) : (SEMANTIC_NAMES as readonly string[]).indexOf(m[2]);
  const index = Number(m[3]);
  const type = (TYPE_NAMES as readonly string[]).indexOf(m[4]);
  if (semantic < 0 || semantic > 255 || index > 255 || type < 0) return null;
  const e = { type, semantic, index };
  return rawAttributeName(e) === name ? e : null;
}

/** Components per element of a type (INT is carried as two u16). */
export function componentsOf(type: number): number {
  return type === ElementType.INT
    ? 2
    : type === ElementType.FLOAT
      ? 1
      : type === ElementType.VECTOR2
        ? 2
        : type === ElementType.VECTOR3
          ? 3
          : 4;
}

/** True for float-typed elements. */
export function isFloatType(type: number): boolean {
  return type >= ElementType.FLOAT && type <= ElementType.VECTOR4;
}

/**
 * De-interleaves one element of a vertex buffer. Float types → Float32Array; UBYTE4(_NORM) →
 * Uint8Array (4 per vertex); INT → Uint16Array (2 per vertex, raw bits).
 */
export function readElement(
  data: Uint8Array,
  stride: number,
  vertexCount: number,
  e: VertexElement,
): Float32Array | Uint8Array | Uint16Array {
  const n = componentsOf(e.type);
  if (isFloatType(e.type)) {
    const src = data.byteOffset % 4 === 0 ? data : data.slice();
    // 32-bit words: the float bits are copied exactly (NaN payloads too)
    const f = new Uint32Array(src.buffer, src.byteOffset, (vertexCount * stride) >> 2);
    const out = new Float32Array(vertexCount * n);
    gatherWords(f, stride >> 2, e.offset >> 2, n, vertexCount, new Uint32Array(out.buffer));
    return out;
  }
  if (e.type === ElementType.INT) {
    const out = new Uint16Array(vertexCount * 2);
    for (let v = 0; v < vertexCount; v++) {
      const o = v * stride + e.offset;
      out[v * 2] = data[o] | (data[o + 1] << 8);
      out[v * 2 + 1] = data[o + 2] | (data[o + 3] << 8);
    }
    return out;
  }
  const out = new Uint8Array(vertexCount * 4);
  for (let v = 0; v < vertexCount; v++) {
    const o = v * stride + e.offset;
    out[v * 4] = data[o];
    out[v * 4 + 1] = data[o + 1];
    out[v * 4 + 2] = data[o + 2];
    out[v * 4 + 3] = data[o + 3];
  }
  return out;
}

function gatherWords(f: Uint32Array, s4: number, o4: number, n: number, count: number, out: Uint32Array) {
  if (n === 3) {
    for (let v = 0, i = 0, b = o4; v < count; v++, i += 3, b += s4) {
      out[i] = f[b];
      out[i + 1] = f[b + 1];
      out[i + 2] = f[b + 2];
    }
    return;
  }
  for (let v = 0, i = 0; v < count; v++) {
    const base = v * s4 + o4;
    for (let c = 0; c < n; c++) out[i++] = f[base + c];
  }
}

/** Interleaves one element's values into vertex bytes (inverse of {@link readElement}). */
export function writeElement(
  out: Uint8Array,
  stride: number,
  vertexCount: number,
  e: VertexElement,
  values: ArrayLike<number>,
): void {
  const n = componentsOf(e.type);
  if (isFloatType(e.type)) {
    const f = new Float32Array(out.buffer, out.byteOffset, (vertexCount * stride) >> 2);
    const s4 = stride >> 2;
    const o4 = e.offset >> 2;
    if (values instanceof Float32Array) {
      writeFloats(f, s4, o4, n, vertexCount, values);
      return;
    }
    for (let v = 0, i = 0; v < vertexCount; v++) {
      const base = v * s4 + o4;
      for (let c = 0; c < n; c++) f[base + c] = values[i++];
    }
    return;
  }
  if (values instanceof Uint8Array && n === 4 && e.type !== ElementType.INT) {
    writeBytes4(out, stride, e.offset, vertexCount, values);
    return;
  }
  if (e.type === ElementType.INT) {
    for (let v = 0; v < vertexCount; v++) {
      const o = v * stride + e.offset;
      const a = values[v * 2];
      const b = values[v * 2 + 1];
      out[o] = a & 255;
      out[o + 1] = a >>> 8;
      out[o + 2] = b & 255;
      out[o + 3] = b >>> 8;
    }
    return;
  }
  for (let v = 0; v < vertexCount; v++) {
    const o = v * stride + e.offset;
    for (let c = 0; c < 4; c++) out[o + c] = values[v * 4 + c];
  }
}

// The common cases of writeElement with monomorphic typed arrays.
function writeFloats(
  f: Float32Array,
  s4: number,
  o4: number,
  n: number,
  count: number,
  values: Float32Array,
) {
  if (n === 3) {
    for (let v = 0, i = 0, b = o4; v < count; v++, i += 3, b += s4) {
      f[b] = values[i];
      f[b + 1] = values[i + 1];
      f[b + 2] = values[i + 2];
    }
    return;
  }
  for (let v = 0, i = 0; v < count; v++) {
    const base = v * s4 + o4;
    for (let c = 0; c < n; c++) f[base + c] = values[i++];
  }
}

function writeBytes4(out: Uint8Array, stride: number, offset: number, count: number, values: Uint8Array) {
  for (let v = 0, o = offset, i = 0; v < count; v++, o += stride, i += 4) {
    out[o] = values[i];
    out[o + 1] = values[i + 1];
    out[o + 2] = values[i + 2];
    out[o + 3] = values[i + 3];
  }
}

/** Element size in bytes. */
export function elementSize(type: number): number {
  return ELEMENT_TYPE_SIZES[type];
}

/**
 * Makes NORMAL (size 3), TANGENT (size 4) or WEIGHTS (size 4) values valid glTF in place:
 * unit xyz, w = ±1, weights summing to 1. Returns true when anything changed.
 */
export function sanitizeAttribute(kind: 'normal' | 'tangent' | 'weights', v: Float32Array): boolean {
  let changed = false;
  if (kind === 'weights') {
    for (let i = 0; i + 3 < v.length; i += 4) {
      let s = 0;
      for (let c = 0; c < 4; c++) {
        if (!(v[i + c] >= 0)) {
          v[i + c] = 0;
          changed = true;
        }
        s += v[i + c];
      }
      if (Math.abs(s - 1) > 2e-6) {
        changed = true;
        if (s > 0) for (let c = 0; c < 4; c++) v[i + c] /= s;
        else v.set([1, 0, 0, 0], i);
      }
    }
    return changed;
  }
  const stride = kind === 'tangent' ? 4 : 3;
  for (let i = 0; i + stride - 1 < v.length; i += stride) {
    const x = v[i];
    const y = v[i + 1];
    const z = v[i + 2];
    // Clearly unit length by the cheap sqrt (it is within a few ulps of Math.hypot): keep as is.
    const quick = Math.sqrt(x * x + y * y + z * z);
    const unit = Math.abs(quick - 1) <= 1e-5 - 1e-12 || Math.abs(Math.hypot(x, y, z) - 1) <= 1e-5;
    if (!unit) {
      const len = Math.hypot(x, y, z);
      changed = true;
      if (len > 1e-12 && Number.isFinite(len)) {
        v[i] /= len;
        v[i + 1] /= len;
        v[i + 2] /= len;
      } else v.set(kind === 'tangent' ? [1, 0, 0] : [0, 1, 0], i);
    }
    if (kind === 'tangent' && v[i + 3] !== 1 && v[i + 3] !== -1) {
      changed = true;
      v[i + 3] = v[i + 3] < 0 ? -1 : 1;
    }
  }
  return changed;
}
