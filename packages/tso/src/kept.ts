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
import { getKeptBytes, setKeptBytes } from '@gltf-legacy/core';
import type { ExtensibleProperty } from '@gltf-transform/core';

/** Most legacy JSON bytes read back (the readers allocate no more than the JSON justifies). */
const MAX_LEGACY = 1 << 24;

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
 * (`legacy`: an array of 0…255 in extras; other values are skipped), else empty.
 *
 * ```ts
 * const trailing = keptRun(animation, 'trailing', x.trailing);
 * ```
 */
export function keptRun(holder: ExtensibleProperty | undefined, key: string, legacy: unknown): Uint8Array {
  const kept = holder && getKeptBytes(holder, key);
  if (kept) return kept;
  if (!Array.isArray(legacy)) return new Uint8Array(0);
  const out = new Uint8Array(Math.min(legacy.length, MAX_LEGACY));
  let n = 0;
  for (let i = 0; i < out.length; i++) {
    const b: unknown = legacy[i];
    if (typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255) out[n++] = b;
  }
  return n === out.length ? out : out.slice(0, n);
}

/**
 * Keeps 32-bit words (indices, float32 bit patterns) as little-endian bytes under `key`.
 *
 * ```ts
 * keepWords(gltfMesh, 'rawPositions', Uint32Array.of(3, 0x80000000, 0, 0));
 * ```
 */
export function keepWords(holder: ExtensibleProperty, key: string, words: ArrayLike<number>): void {
  if (!words.length) return;
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < words.length; i++) view.setUint32(i * 4, words[i] >>> 0, true);
  setKeptBytes(holder, key, bytes);
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
  const bytes = holder && getKeptBytes(holder, key);
  if (!bytes || bytes.byteLength % (4 * record) !== 0) return undefined;
  const out = new Uint32Array(bytes.byteLength / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getUint32(i * 4, true);
  return out;
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
