/**
 * Numbers kept as bytes: lists of integers or float32 values that glTF has no place for (bone
 * mappings, raw codes, vertex patches) travel little-endian under `GLTF_LEGACY_kept_bytes`,
 * never as JSON number arrays in extras. One packing for every format.
 *
 * ```ts
 * setKeptNumbers(node, 'boneMapping:0', 'u32', [0, 4, 7]);
 * getKeptNumbers(node, 'boneMapping:0', 'u32'); // Uint32Array [0, 4, 7]
 * ```
 */
import type { ExtensibleProperty } from '@gltf-transform/core';
import { getKeptBytes, type KeptInfo, setKeptBytes } from './kept-bytes.js';

/** How each number is stored: u16, u32, i32 or float32 (bit pattern kept), little-endian. */
export type KeptNumberKind = 'u16' | 'u32' | 'i32' | 'f32';

/** The typed array a kind reads back as. */
export type KeptNumbers<K extends KeptNumberKind> = K extends 'u16'
  ? Uint16Array
  : K extends 'u32'
    ? Uint32Array
    : K extends 'i32'
      ? Int32Array
      : Float32Array;

const WIDTH: Record<KeptNumberKind, number> = { u16: 2, u32: 4, i32: 4, f32: 4 };

/**
 * `values` as little-endian bytes. A Float32Array keeps its bit patterns (−0, NaN payloads);
 * other values are converted as a typed array of the kind would.
 *
 * ```ts
 * numbersToBytes('u16', [1, 2]); // Uint8Array [1, 0, 2, 0]
 * ```
 */
export function numbersToBytes(kind: KeptNumberKind, values: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(values.length * WIDTH[kind]);
  const view = new DataView(bytes.buffer);
  if (kind === 'f32' && values instanceof Float32Array) {
    const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
    for (let i = 0; i < bits.length; i++) view.setUint32(i * 4, bits[i]!, true);
  } else if (kind === 'f32') for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i]!, true);
  else if (kind === 'u16')
    for (let i = 0; i < values.length; i++) view.setUint16(i * 2, values[i]! & 0xffff, true);
  else for (let i = 0; i < values.length; i++) view.setUint32(i * 4, values[i]! >>> 0, true);
  return bytes;
}

/**
 * The numbers of little-endian `bytes`, or undefined when their length is not a whole number of
 * records of `record` numbers.
 *
 * ```ts
 * bytesToNumbers('u32', bytes, 2); // pairs of u32
 * ```
 */
export function bytesToNumbers<K extends KeptNumberKind>(
  kind: K,
  bytes: Uint8Array,
  record = 1,
): KeptNumbers<K> | undefined {
  const width = WIDTH[kind];
  if (bytes.byteLength % (width * record) !== 0) return undefined;
  const n = bytes.byteLength / width;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind === 'u16') {
    const out = new Uint16Array(n);
    for (let i = 0; i < n; i++) out[i] = view.getUint16(i * 2, true);
    return out as KeptNumbers<K>;
  }
  const words = new Uint32Array(n);
  for (let i = 0; i < n; i++) words[i] = view.getUint32(i * 4, true);
  if (kind === 'f32') return new Float32Array(words.buffer) as KeptNumbers<K>;
  return (kind === 'i32' ? new Int32Array(words.buffer) : words) as KeptNumbers<K>;
}

/**
 * Keeps `values` under `key` on `holder` as little-endian `kind` (nothing when the list is empty).
 *
 * ```ts
 * setKeptNumbers(animation, 'rawCodes:y', 'u16', codes);
 * ```
 */
export function setKeptNumbers(
  holder: ExtensibleProperty,
  key: string,
  kind: KeptNumberKind,
  values: ArrayLike<number>,
  info?: KeptInfo,
): void {
  if (values.length) setKeptBytes(holder, key, numbersToBytes(kind, values), info);
}

/**
 * The numbers kept under `key` on `holder`, or undefined when nothing is kept or the bytes are not
 * whole records of `record` numbers.
 *
 * ```ts
 * const mapping = getKeptNumbers(node, 'boneMapping:0', 'u32');
 * ```
 */
export function getKeptNumbers<K extends KeptNumberKind>(
  holder: ExtensibleProperty,
  key: string,
  kind: K,
  record = 1,
): KeptNumbers<K> | undefined {
  const bytes = getKeptBytes(holder, key);
  return bytes && bytesToNumbers(kind, bytes, record);
}

/** Most bytes {@link legacyByteArray} reads from one JSON array. */
export const LEGACY_BYTES_MAX = 1 << 24;

/**
 * A byte run of a file written before kept bytes: a JSON array of 0…255 in extras (other values
 * are skipped, at most {@link LEGACY_BYTES_MAX}), or undefined when `legacy` is no array.
 *
 * ```ts
 * const trailing = getKeptBytes(mesh, 'trailing') ?? legacyByteArray(extras.trailing);
 * ```
 */
export function legacyByteArray(legacy: unknown): Uint8Array | undefined {
  if (!Array.isArray(legacy)) return undefined;
  const out = new Uint8Array(Math.min(legacy.length, LEGACY_BYTES_MAX));
  let n = 0;
  for (let i = 0; i < out.length; i++) {
    const b: unknown = legacy[i];
    if (typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255) out[n++] = b;
  }
  return n === out.length ? out : out.slice(0, n);
}
