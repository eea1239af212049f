/**
 * Step 4 of the export stage: joint influences per vertex. Vertices with more non-zero
 * influences than the format holds keep the largest, renormalized to sum 1 (core's
 * `readInfluences`, the one top-N selection in the repository). `sortPrimitiveWeights` of
 * `@gltf-transform/functions` is not used: it takes only multiples of four and rewrites every
 * vertex, which would change the bytes of files that already fit.
 */
import { Accessor, type Document, type Primitive, type Transform } from '@gltf-transform/core';
import { type WarningCollector, readInfluences } from '@gltf-legacy/core';
import { createAccessor } from './utils.js';

export interface LimitInfluencesOptions {
  /** Influences kept per vertex (N ≥ 1). */
  maxInfluences: number;
  /** Receives `WEIGHTS_TRUNCATED` (count: vertices). */
  warnings?: WarningCollector;
}

export const LIMIT_INFLUENCES_DEFAULTS: LimitInfluencesOptions = { maxInfluences: 4 };

/**
 * Vertices of `prim` with more than `max` non-zero weights (0 without skin attributes); with
 * `stopAt`, counting stops there (a yes/no question needs one). Reads the weight arrays as they
 * are (a normalized integer is > 0 exactly when its float is), no copy.
 */
export function countOverInfluenced(prim: Primitive, max: number, stopAt = Number.POSITIVE_INFINITY): number {
  const sets: ArrayLike<number>[] = [];
  const sizes: number[] = [];
  let slots = 0;
  for (let s = 0; ; s++) {
    const w = prim.getAttribute(`WEIGHTS_${s}`);
    const array = w?.getArray();
    if (!w || !array || !prim.getAttribute(`JOINTS_${s}`)) break;
    sets.push(array);
    sizes.push(w.getElementSize());
    slots += w.getElementSize();
  }
  if (slots <= max) return 0;
  const n = prim.getAttribute('POSITION')?.getCount() ?? 0;
  let over = 0;
  for (let v = 0; v < n && over < stopAt; v++) {
    let nonZero = 0;
    for (let s = 0; s < sets.length; s++) {
      const w = sets[s];
      const size = sizes[s];
      const end = Math.min(w.length, (v + 1) * size);
      for (let i = v * size; i < end; i++) if (w[i] > 0) nonZero++;
    }
    if (nonZero > max) over++;
  }
  return over;
}

/** True when some vertex of `document` has more than `max` influences (stops at the first). */
export function limitInfluencesNeeded(document: Document, max: number): boolean {
  for (const mesh of document.getRoot().listMeshes())
    for (const prim of mesh.listPrimitives()) if (countOverInfluenced(prim, max, 1) > 0) return true;
  return false;
}

/**
 * Keeps at most `maxInfluences` joint influences per vertex, largest first, renormalized;
 * rewrites the primitive's skin attributes as `ceil(N / 4)` JOINTS_n/WEIGHTS_n VEC4 sets.
 * Primitives that already fit are left untouched.
 *
 * ```ts
 * await document.transform(limitInfluences({ maxInfluences: 2, warnings }));
 * ```
 */
export function limitInfluences(options: Partial<LimitInfluencesOptions> = {}): Transform {
  const { maxInfluences: max, warnings } = { ...LIMIT_INFLUENCES_DEFAULTS, ...options };
  return (document: Document): void => {
    for (const mesh of document.getRoot().listMeshes()) {
      for (const prim of mesh.listPrimitives()) {
        if (countOverInfluenced(prim, max, 1) === 0) continue;
        const inf = readInfluences(prim, max);
        if (!inf) continue;
        const n = inf.weights.length / max;
        for (let s = 0; prim.getAttribute(`JOINTS_${s}`) || prim.getAttribute(`WEIGHTS_${s}`); s++) {
          prim.setAttribute(`JOINTS_${s}`, null).setAttribute(`WEIGHTS_${s}`, null);
        }
        for (let s = 0; s * 4 < max; s++) {
          const joints = new Uint16Array(n * 4);
          const weights = new Float32Array(n * 4);
          for (let v = 0; v < n; v++) {
            for (let c = 0; c < 4 && s * 4 + c < max; c++) {
              joints[v * 4 + c] = inf.joints[v * max + s * 4 + c];
              weights[v * 4 + c] = inf.weights[v * max + s * 4 + c];
            }
          }
          const make = (array: Uint16Array | Float32Array) =>
            createAccessor(document).setType(Accessor.Type.VEC4).setArray(array);
          prim.setAttribute(`JOINTS_${s}`, make(joints)).setAttribute(`WEIGHTS_${s}`, make(weights));
        }
        warnings?.warn(
          'WEIGHTS_TRUNCATED',
          `mesh "${mesh.getName()}": vertices with more than ${max} joint influences kept the ${max} largest (renormalized)`,
          inf.truncated,
        );
      }
    }
  };
}
