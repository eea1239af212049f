/**
 * File models already parsed from bytes that were written from them: a package mesh's
 * `_d.3d`/`_a.3d` (package/sources.ts) are written from models that reading the bytes back gives
 * exactly, so the importer takes the models instead of parsing the bytes again (one mapping from
 * files to glTF, without a second parse: part of a package mesh's fixed cost, issue 28).
 * Registered only when reading the bytes would give that model and no warning.
 */
import type { UnrealAniv } from './aniv.js';
import type { UnrealData } from './data.js';

const parsed = new WeakMap<Uint8Array, UnrealData | UnrealAniv>();

/**
 * Records that `bytes` read (non-strict and strict alike, without a warning) give `model`.
 *
 * ```ts
 * rememberParsed(anivBytes, aniv); // parsedData(anivBytes) / parsedAniv(anivBytes) find it
 * ```
 */
export function rememberParsed(bytes: Uint8Array, model: UnrealData | UnrealAniv): void {
  parsed.set(bytes, model);
}

/** The data model `bytes` were written from, if recorded. */
export function parsedData(bytes: Uint8Array): UnrealData | undefined {
  const m = parsed.get(bytes);
  return m && 'polys' in m ? m : undefined;
}

/** The aniv model `bytes` were written from, if recorded, when it has `numVertices` vertices. */
export function parsedAniv(bytes: Uint8Array, numVertices: number): UnrealAniv | undefined {
  const m = parsed.get(bytes);
  return m && !('polys' in m) && m.numVertices === numVertices ? m : undefined;
}
