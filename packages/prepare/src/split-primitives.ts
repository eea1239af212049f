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
  /** One more than the largest joint index (the size of a per-joint stamp array). */
  jointRange: number;
}

function vertexJoints(prim: Primitive, n: number): VertexJoints | null {
  const sets: [ArrayLike<number>, ArrayLike<number>, number][] = [];
  let slots = 0;
  for (let s = 0; ; s++) {
    const j = prim.getAttribute(`JOINTS_${s}`);
    const w = prim.getAttribute(`WEIGHTS_${s}`);
    if (!j || !w) break;
    sets.push([j.getArray()!, w.getArray()!, j.getElementSize()]);
    slots += j.getElementSize();
  }
  if (!sets.length) return null;
  const offsets = new Uint32Array(n + 1);
  const list = new Uint32Array(n * slots);
  let at = 0;
  let jointRange = 0;
  for (let v = 0; v < n; v++) {
    offsets[v] = at;
    for (const [joints, weights, size] of sets)
      for (let c = 0; c < size; c++) {
        const joint = joints[v * size + c];
        if (!(weights[v * size + c] > 0)) continue;
        let repeat = false;
        for (let i = offsets[v]; i < at && !repeat; i++) repeat = list[i] === joint;
        if (repeat) continue;
        list[at++] = joint;
        if (joint >= jointRange) jointRange = joint + 1;
      }
  }
  offsets[n] = at;
  const seen = new Uint8Array(jointRange);
  let distinct = 0;
  for (let i = 0; i < at; i++) if (!seen[list[i]]++) distinct++;
  return { offsets, list: list.subarray(0, at), distinct, jointRange };
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

/**
 * Cuts the triangle list into runs [start, end) (in triangles) that fit both budgets. Stamp
 * arrays say which vertices and joints the current run holds (`run`) and which this triangle
 * already counted (`t + 1`, negated): no allocation per triangle.
 */
function planRuns(
  indices: ArrayLike<number>,
  n: number,
  vj: VertexJoints | null,
  maxV: number,
  maxB: number,
): number[] {
  const runs: number[] = [0];
  const vRun = new Int32Array(n).fill(-1);
  const jRun = new Int32Array(vj?.jointRange ?? 0).fill(-1);
  const vTri = new Int32Array(n);
  const jTri = new Int32Array(vj?.jointRange ?? 0);
  let run = 0;
  let vCount = 0;
  let jCount = 0;
  // New vertices and joints triangle `t` brings to the current run (into newV, newJ).
  let newV = 0;
  let newJ = 0;
  const fresh = (t: number): void => {
    newV = 0;
    newJ = 0;
    for (let k = 0; k < 3; k++) {
      const v = indices[t * 3 + k];
      if (vRun[v] === run || vTri[v] === t + 1) continue;
      vTri[v] = t + 1;
      newV++;
      if (!vj) continue;
      for (let i = vj.offsets[v]; i < vj.offsets[v + 1]; i++) {
        const j = vj.list[i];
        if (jRun[j] === run || jTri[j] === t + 1) continue;
        jTri[j] = t + 1;
        newJ++;
      }
    }
  };
  const triangles = Math.floor(indices.length / 3);
  for (let t = 0; t < triangles; t++) {
    fresh(t);
    if (t > runs[runs.length - 1] && (vCount + newV > maxV || jCount + newJ > maxB)) {
      run++;
      runs.push(t);
      vCount = 0;
      jCount = 0;
      // count again against the empty run (the per-triangle marks must not hide anything)
      for (let k = 0; k < 3; k++) {
        const v = indices[t * 3 + k];
        vTri[v] = 0;
        if (vj) for (let i = vj.offsets[v]; i < vj.offsets[v + 1]; i++) jTri[vj.list[i]] = 0;
      }
      fresh(t);
    }
    for (let k = 0; k < 3; k++) {
      const v = indices[t * 3 + k];
      vRun[v] = run;
      if (vj) for (let i = vj.offsets[v]; i < vj.offsets[v + 1]; i++) jRun[vj.list[i]] = run;
    }
    vCount += newV;
    jCount += newJ;
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
  const order = new Uint32Array(Math.min(n, (t1 - t0) * 3));
  let used = 0;
  const local = new Uint32Array((t1 - t0) * 3);
  for (let i = t0 * 3; i < t1 * 3; i++) {
    const v = indices[i];
    if (remap[v] < 0) {
      remap[v] = used;
      order[used++] = v;
    }
    local[i - t0 * 3] = remap[v];
  }
  const ord = order.subarray(0, used);
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
