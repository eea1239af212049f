/**
 * The `extras.grimrock` shapes both directions share: what import writes on scenes, nodes, meshes
 * and animations so that export can write the original bytes back, and `gx`, the one reader of
 * them. JSON-safe float encoding for those extras lives in `arrays.ts` (`encodeFloat`).
 */
import {
  bytesToNumbers,
  getKeptBytes,
  getKeptNumbers,
  listKeptBytes,
  numbersToBytes,
  setKeptBytes,
  setKeptNumbers,
} from '@gltf-legacy/core';
import type { ExtensibleProperty } from '@gltf-transform/core';
import { decodeFloats, type Layout, type NonFinitePatch } from './arrays.js';
import type { Segment } from './model.js';

/** `extras.grimrock` of the scene. */
export interface GrimrockSceneExtras {
  modelName?: string;
  modelVersion?: number;
  animationOnly?: boolean;
  /** Bytes after the last node of the `.model` (quirk `TRAILING_BYTES`). */
  trailing?: unknown;
}

/** `extras.grimrock` of a node. */
export interface GrimrockNodeExtras {
  matrix?: unknown;
  synthetic?: boolean;
  meshEntity?: { castShadow?: number; emissiveColor?: unknown; emptyMesh?: EmptyMeshExtras };
}

/** `extras.grimrock` of a mesh. */
export interface MeshExtras {
  version?: number;
  arrays?: Layout[];
  bounds?: { center: unknown; radius: unknown; min: unknown; max: unknown };
  vertexMin?: unknown;
  vertexMax?: unknown;
  /**
   * Files written before kept bytes: the non-finite bit patterns of raw arrays, by array name.
   * Now kept as bytes on the mesh (`nonFinite:<array name>`, see {@link keepNonFinite}).
   */
  nonFinite?: Record<string, NonFinitePatch[]>;
}

/** A mesh with no triangle, kept as its header on the node (`meshEntity.emptyMesh`). */
export interface EmptyMeshExtras extends MeshExtras {
  numVertices: number;
  indices: number[];
  segments: Segment[];
}

/** `extras.grimrock` of an animation. */
export interface AnimExtras {
  version?: number;
  name?: string;
  framesPerSecond?: unknown;
  numFrames?: number;
  /** Bytes after the last item (quirk `TRAILING_BYTES`). */
  trailing?: unknown;
  /** Items naming no node of the model (e.g. LoG2's `Armature` helper), written back by export. */
  unmatchedItems?: UnmatchedItemExtras[];
}

/**
 * An animation item import could not attach to a node. Its keys (file units) are kept bytes
 * `unmatched:<k>` of the animation (k: its place in `unmatchedItems`): float32 little-endian
 * positions, then rotations, then scales, `counts` floats each.
 */
export interface UnmatchedItemExtras {
  /** Its position in the file's item list. */
  index: number;
  nodeName: string;
  /** How many floats of positions, rotations and scales the kept bytes hold. */
  counts?: [number, number, number];
  /** Files written before kept bytes: the keys as JSON-safe floats (`encodeFloats`). */
  positions?: unknown[];
  rotations?: unknown[];
  scales?: unknown[];
}

/**
 * The object's `extras.grimrock`, or undefined when it has none (or not an object).
 *
 * ```ts
 * gx<MeshExtras>(mesh)?.arrays; // the imported vertex layouts
 * ```
 */
export function gx<T>(o: { getExtras(): Record<string, unknown> }): T | undefined {
  const e = o.getExtras()?.grimrock;
  return e && typeof e === 'object' ? (e as T) : undefined;
}

/**
 * The bytes kept after a model or animation: `GLTF_LEGACY_kept_bytes` key `trailing` of `holder`
 * (its scene or animation), else (files written before the extension) the `trailing` extras — an
 * array of 0..255 — as bytes, or undefined when absent or not such an array.
 *
 * ```ts
 * keptBytes([0, 0, 0, 0]); // Uint8Array(4)
 * keptBytes(undefined, scene); // the scene's kept trailing bytes
 * ```
 */
export function keptBytes(a: unknown, holder?: ExtensibleProperty): Uint8Array | undefined {
  const kept = holder && getKeptBytes(holder, 'trailing');
  if (kept?.byteLength) return kept;
  if (!Array.isArray(a) || !a.length || !a.every((b) => Number.isInteger(b) && b >= 0 && b <= 255))
    return undefined;
  return Uint8Array.from(a as number[]);
}

/** Key prefix of the non-finite patches kept as bytes on a mesh (`nonFinite:tangent`, …). */
const NON_FINITE_KEY = 'nonFinite:';

/**
 * Keeps the non-finite bit patterns of a mesh's raw arrays as bytes (`GLTF_LEGACY_kept_bytes`
 * key `nonFinite:<array name>` of the mesh: u32 little-endian pairs [value index, float32 bits]),
 * not as JSON number arrays in extras.
 *
 * ```ts
 * keepNonFinite(mesh, { tangent: [[0, 0x7fc00000]] });
 * ```
 */
export function keepNonFinite(mesh: ExtensibleProperty, nonFinite: Record<string, NonFinitePatch[]>): void {
  for (const [name, patches] of Object.entries(nonFinite)) {
    setKeptNumbers(mesh, `${NON_FINITE_KEY}${name}`, 'u32', patches.flat());
  }
}

/**
 * The non-finite patches of a mesh: those kept as bytes ({@link keepNonFinite}), else the JSON
 * of files written before (`legacy`: `extras.grimrock.nonFinite`), else none.
 *
 * ```ts
 * const patches = keptNonFinite(mesh, gx<MeshExtras>(mesh)?.nonFinite);
 * ```
 */
export function keptNonFinite(mesh: ExtensibleProperty, legacy: unknown): Record<string, NonFinitePatch[]> {
  const out: Record<string, NonFinitePatch[]> = {};
  for (const key of listKeptBytes(mesh)) {
    if (!key.startsWith(NON_FINITE_KEY)) continue;
    const words = getKeptNumbers(mesh, key, 'u32', 2);
    if (!words) continue;
    out[key.slice(NON_FINITE_KEY.length)] = Array.from({ length: words.length / 2 }, (_, k) => [
      words[2 * k]!,
      words[2 * k + 1]!,
    ]);
  }
  if (Object.keys(out).length || !legacy || typeof legacy !== 'object') return out;
  return legacy as Record<string, NonFinitePatch[]>;
}

/**
 * Keeps the keys of the animation items no node takes as bytes on `animation`
 * (`unmatched:<k>`: float32 LE positions ‖ rotations ‖ scales, see {@link UnmatchedItemExtras}).
 *
 * ```ts
 * keepUnmatchedKeys(animation, [item]);
 * ```
 */
export function keepUnmatchedKeys(
  animation: ExtensibleProperty,
  items: { positions: Float32Array; rotations: Float32Array; scales: Float32Array }[],
): void {
  items.forEach((it, k) => {
    const all = new Float32Array(it.positions.length + it.rotations.length + it.scales.length);
    all.set(it.positions);
    all.set(it.rotations, it.positions.length);
    all.set(it.scales, it.positions.length + it.rotations.length);
    // kept even when empty: `counts` [0, 0, 0] then reads back as an item with no keys
    setKeptBytes(animation, `unmatched:${k}`, numbersToBytes('f32', all));
  });
}

/**
 * The keys of the `k`-th unmatched item: from the kept bytes (split by `counts`), else the JSON
 * of files written before; undefined when neither holds them.
 *
 * ```ts
 * const keys = keptUnmatchedKeys(animation, 0, ex.unmatchedItems[0]);
 * ```
 */
export function keptUnmatchedKeys(
  animation: ExtensibleProperty,
  k: number,
  item: UnmatchedItemExtras | undefined,
): { positions: Float32Array; rotations: Float32Array; scales: Float32Array } | undefined {
  const b = getKeptBytes(animation, `unmatched:${k}`);
  const c = item?.counts;
  if (b && Array.isArray(c) && c.length === 3 && c.every((x) => Number.isInteger(x) && x >= 0)) {
    const all = bytesToNumbers('f32', b);
    if (!all || all.length !== c[0] + c[1] + c[2]) return undefined;
    return {
      positions: all.slice(0, c[0]),
      rotations: all.slice(c[0], c[0] + c[1]),
      scales: all.slice(c[0] + c[1]),
    };
  }
  const positions = decodeFloats(item?.positions, item?.positions?.length ?? -1);
  const rotations = decodeFloats(item?.rotations, item?.rotations?.length ?? -1);
  const scales = decodeFloats(item?.scales, item?.scales?.length ?? -1);
  if (!positions || !rotations || !scales) return undefined;
  return {
    positions: Float32Array.from(positions),
    rotations: Float32Array.from(rotations),
    scales: Float32Array.from(scales),
  };
}
