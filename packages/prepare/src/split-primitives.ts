/**
 * Step 5 of the export stage: primitives over the format's vertex count (16-bit indices) or bone
 * palette (joints per draw call) are split into several, each taking a run of consecutive
 * triangles while both budgets last. Vertices shared across a cut are duplicated; morph targets
 * follow their vertices. `@gltf-transform/functions` has no such split.
 */
import {
  type Accessor,
  type Document,
  type Primitive,
  Primitive as P,
  type Transform,
} from '@gltf-transform/core';
import type { WarningCollector } from '@gltf-legacy/core';
import { createAccessor } from './utils.js';

export interface SplitPrimitivesOptions {
  /** Vertices per primitive. */
  maxVertices: number;
  /** Distinct joints (with a non-zero weight) per primitive. */
  maxBonesPerDraw: number;
  /** Receives `PRIMITIVE_SPLIT` (count: primitives split). */
  warnings?: WarningCollector;
}

export const SPLIT_PRIMITIVES_DEFAULTS: SplitPrimitivesOptions = {
  maxVertices: 65535,
  maxBonesPerDraw: Number.POSITIVE_INFINITY,
};

/** Per vertex, the joints it uses with a non-zero weight: `list[offsets[v]..offsets[v+1])`. */
interface VertexJoints {
  offsets: Uint32Array;
  list: Uint32Array;
  /** Distinct joints over the whole primitive. */
  distinct: number;
}

function vertexJoints(prim: Primitive, n: number): VertexJoints | null {
  const sets: [ArrayLike<number>, ArrayLike<number>, number][] = [];
  for (let s = 0; ; s++) {
    const j = prim.getAttribute(`JOINTS_${s}`);
    const w = prim.getAttribute(`WEIGHTS_${s}`);
    if (!j || !w) break;
    sets.push([j.getArray()!, w.getArray()!, j.getElementSize()]);
  }
  if (!sets.length) return null;
  const offsets = new Uint32Array(n + 1);
  const tmp: number[] = [];
  const seen = new Set<number>();
  for (let v = 0; v < n; v++) {
    offsets[v] = tmp.length;
    for (const [joints, weights, size] of sets)
      for (let c = 0; c < size; c++) {
        const joint = joints[v * size + c];
        if (weights[v * size + c] > 0 && tmp.indexOf(joint, offsets[v]) < 0) {
          tmp.push(joint);
          seen.add(joint);
        }
      }
  }
  offsets[n] = tmp.length;
  return { offsets, list: Uint32Array.from(tmp), distinct: seen.size };
}

function needsSplit(prim: Primitive, maxVertices: number, maxBones: number): boolean {
  if (prim.getMode() !== P.Mode.TRIANGLES) return false;
  const n = prim.getAttribute('POSITION')?.getCount() ?? 0;
  if (n > maxVertices) return true;
  if (!Number.isFinite(maxBones)) return false;
  return (vertexJoints(prim, n)?.distinct ?? 0) > maxBones;
}

/** True when a triangle-list primitive of `document` is over either budget. */
export function splitPrimitivesNeeded(document: Document, maxVertices: number, maxBones: number): boolean {
  for (const mesh of document.getRoot().listMeshes())
    for (const prim of mesh.listPrimitives()) if (needsSplit(prim, maxVertices, maxBones)) return true;
  return false;
}

/** Cuts the triangle list into runs [start, end) (in triangles) that fit both budgets. */
function planRuns(
  indices: ArrayLike<number>,
  n: number,
  vj: VertexJoints | null,
  maxV: number,
  maxB: number,
) {
  const runs: number[] = [0];
  const vStamp = new Int32Array(n).fill(-1);
  const jStamp = new Map<number, number>();
  let run = 0;
  let vCount = 0;
  let jCount = 0;
  const triangles = Math.floor(indices.length / 3);
  for (let t = 0; t < triangles; t++) {
    let newV = 0;
    const newJ = new Set<number>();
    for (let k = 0; k < 3; k++) {
      const v = indices[t * 3 + k];
      if (vStamp[v] === run) continue;
      newV++;
      if (vj)
        for (let i = vj.offsets[v]; i < vj.offsets[v + 1]; i++)
          if (jStamp.get(vj.list[i]) !== run) newJ.add(vj.list[i]);
    }
    if (t > runs[runs.length - 1] && (vCount + newV > maxV || jCount + newJ.size > maxB)) {
      run++;
      runs.push(t);
      vCount = 0;
      jCount = 0;
      newJ.clear();
      for (let k = 0; k < 3; k++) {
        const v = indices[t * 3 + k];
        if (vj) for (let i = vj.offsets[v]; i < vj.offsets[v + 1]; i++) newJ.add(vj.list[i]);
      }
      newV = new Set([indices[t * 3], indices[t * 3 + 1], indices[t * 3 + 2]]).size;
    }
    for (let k = 0; k < 3; k++) vStamp[indices[t * 3 + k]] = run;
    for (const j of newJ) jStamp.set(j, run);
    vCount += newV;
    jCount += newJ.size;
  }
  runs.push(triangles);
  return runs;
}

function gather(document: Document, source: Accessor, order: Uint32Array): Accessor {
  const src = source.getArray()!;
  const size = source.getElementSize();
  const Ctor = src.constructor as new (n: number) => typeof src;
  const out = new Ctor(order.length * size);
  for (let i = 0; i < order.length; i++)
    for (let c = 0; c < size; c++) out[i * size + c] = src[order[i] * size + c];
  return createAccessor(document, source.getName())
    .setType(source.getType())
    .setNormalized(source.getNormalized())
    .setArray(out);
}

/** Builds the primitive for triangles [t0, t1): its own vertices, in first-use order. */
function buildRun(
  document: Document,
  prim: Primitive,
  indices: ArrayLike<number>,
  t0: number,
  t1: number,
  n: number,
) {
  const remap = new Int32Array(n).fill(-1);
  const order: number[] = [];
  const local = new Uint32Array((t1 - t0) * 3);
  for (let i = t0 * 3; i < t1 * 3; i++) {
    const v = indices[i];
    if (remap[v] < 0) {
      remap[v] = order.length;
      order.push(v);
    }
    local[i - t0 * 3] = remap[v];
  }
  const ord = Uint32Array.from(order);
  const out = document.createPrimitive().setMode(P.Mode.TRIANGLES).setMaterial(prim.getMaterial());
  out.setExtras({ ...prim.getExtras() });
  for (const s of prim.listSemantics()) out.setAttribute(s, gather(document, prim.getAttribute(s)!, ord));
  for (const target of prim.listTargets()) {
    const t = document.createPrimitiveTarget(target.getName());
    for (const s of target.listSemantics()) t.setAttribute(s, gather(document, target.getAttribute(s)!, ord));
    out.addTarget(t);
  }
  const idx = ord.length > 65535 ? local : Uint16Array.from(local);
  out.setIndices(createAccessor(document).setType('SCALAR').setArray(idx));
  return out;
}

/**
 * Splits triangle-list primitives over `maxVertices` vertices or `maxBonesPerDraw` joints.
 *
 * ```ts
 * await document.transform(splitPrimitives({ maxVertices: 65535, maxBonesPerDraw: 64, warnings }));
 * ```
 */
export function splitPrimitives(options: Partial<SplitPrimitivesOptions> = {}): Transform {
  const { maxVertices, maxBonesPerDraw, warnings } = { ...SPLIT_PRIMITIVES_DEFAULTS, ...options };
  return (document: Document): void => {
    for (const mesh of document.getRoot().listMeshes()) {
      const before = mesh.listPrimitives();
      if (!before.some((p) => needsSplit(p, maxVertices, maxBonesPerDraw))) continue;
      const after: Primitive[] = [];
      for (const prim of before) {
        mesh.removePrimitive(prim);
        if (!needsSplit(prim, maxVertices, maxBonesPerDraw)) {
          after.push(prim);
          continue;
        }
        const n = prim.getAttribute('POSITION')!.getCount();
        const indices =
          prim.getIndices()?.getArray() ?? Uint32Array.from({ length: n - (n % 3) }, (_, i) => i);
        const vj = vertexJoints(prim, n);
        const runs = planRuns(indices, n, vj, maxVertices, maxBonesPerDraw);
        for (let r = 0; r + 1 < runs.length; r++)
          after.push(buildRun(document, prim, indices, runs[r], runs[r + 1], n));
        warnings?.warn(
          'PRIMITIVE_SPLIT',
          `mesh "${mesh.getName()}": a primitive of ${n} vertices${vj ? ` using ${vj.distinct} joints` : ''} was rewritten as ${runs.length - 1} (at most ${maxVertices} vertices${Number.isFinite(maxBonesPerDraw) ? ` and ${maxBonesPerDraw} joints` : ''} each)`,
        );
      }
      for (const prim of after) mesh.addPrimitive(prim);
    }
  };
}
