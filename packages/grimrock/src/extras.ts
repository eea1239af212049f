/**
 * The `extras.grimrock` shapes both directions share: what import writes on scenes, nodes, meshes
 * and animations so that export can write the original bytes back, and `gx`, the one reader of
 * them. JSON-safe float encoding for those extras lives in `arrays.ts` (`encodeFloat`).
 */
import { getKeptBytes } from '@gltf-legacy/core';
import type { ExtensibleProperty } from '@gltf-transform/core';
import type { Layout, NonFinitePatch } from './arrays.js';
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

/** An animation item import could not attach to a node, in file units (JSON-safe floats). */
export interface UnmatchedItemExtras {
  /** Its position in the file's item list. */
  index: number;
  nodeName: string;
  positions: unknown[];
  rotations: unknown[];
  scales: unknown[];
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
