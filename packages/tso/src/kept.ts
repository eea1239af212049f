/**
 * TSO's kept bytes: the byte runs glTF has no place for (trailing pads after a `.mesh`, `.skel`,
 * `.anim`, `.bnd`, `.apr`; raw float32 bit patterns export needs back) travel as bytes in the
 * `.glb`, under core's `GLTF_LEGACY_kept_bytes` extension, never as JSON number arrays in extras.
 * Keys (see the README's "Kept bytes" table): `trailing` on a mesh, skin or animation,
 * `skeletonTrailing` on a bone node, `bndTrailing` on a mesh node, `aprTrailing` on the scene,
 * `rawPositions` and `blend` on a mesh, `rawTranslations` / `rawRotations` on an animation.
 * Files written before the extension kept the same data as number arrays in `extras.tso` (and
 * `extras.tsoBinding` / `extras.tsoAppearance`): the readers here still take those.
 */
import {
  getKeptBytes,
  getKeptNumbers,
  legacyByteArray,
  setKeptBytes,
  setKeptNumbers,
} from '@gltf-legacy/core';
import type { ExtensibleProperty } from '@gltf-transform/core';

/**
 * Keeps `bytes` under `key` on `holder` when there are any (an empty run keeps nothing).
 *
 * ```ts
 * keepRun(gltfMesh, 'trailing', mesh.trailing);
 * ```
 */
export function keepRun(holder: ExtensibleProperty, key: string, bytes: Uint8Array): void {
  if (bytes.byteLength) setKeptBytes(holder, key, bytes);
}

/**
 * The bytes kept under `key` on `holder`, else those of a file written before kept bytes
 * (`legacy`: an array of 0…255 in extras, core's `legacyByteArray`), else empty.
 *
 * ```ts
 * const trailing = keptRun(animation, 'trailing', x.trailing);
 * ```
 */
export function keptRun(holder: ExtensibleProperty | undefined, key: string, legacy: unknown): Uint8Array {
  return (holder && getKeptBytes(holder, key)) ?? legacyByteArray(legacy) ?? new Uint8Array(0);
}

/**
 * Keeps 32-bit words (indices, float32 bit patterns) as little-endian bytes under `key`.
 *
 * ```ts
 * keepWords(gltfMesh, 'rawPositions', Uint32Array.of(3, 0x80000000, 0, 0));
 * ```
 */
export function keepWords(holder: ExtensibleProperty, key: string, words: ArrayLike<number>): void {
  setKeptNumbers(holder, key, 'u32', words);
}

/**
 * The 32-bit words kept under `key` (little-endian), undefined when nothing is kept or the byte
 * count is not a multiple of 4 × `record` (a record of `record` words each).
 *
 * ```ts
 * keptWords(gltfMesh, 'rawPositions', 4); // Uint32Array [vertex, x, y, z bits, …]
 * ```
 */
export function keptWords(
  holder: ExtensibleProperty | undefined,
  key: string,
  record = 1,
): Uint32Array | undefined {
  return holder && getKeptNumbers(holder, key, 'u32', record);
}

/**
 * Float32 values as 32-bit words (their bit patterns, −0 and NaN payloads included).
 *
 * ```ts
 * floatWords(Float32Array.of(-0)); // Uint32Array [0x80000000]
 * ```
 */
export function floatWords(values: Float32Array): Uint32Array {
  return new Uint32Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
}

/**
 * 32-bit words as the float32 values whose bit patterns they are.
 *
 * ```ts
 * wordFloats(Uint32Array.of(0x3f800000)); // Float32Array [1]
 * ```
 */
export function wordFloats(words: Uint32Array): Float32Array {
  return new Float32Array(words.buffer.slice(words.byteOffset, words.byteOffset + words.byteLength));
}
