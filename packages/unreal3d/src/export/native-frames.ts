/**
 * Vertex frames of the native path: the raw integers of every `_d.3d` vertex per frame, rebuilt
 * from the glTF positions and morph targets (each file vertex from the last glTF vertex naming it
 * through `_UNREAL_VERTEX`, else from the orphans kept in extras), rescaled on a variant change,
 * and encoded one frame at a time.
 */
import type { Primitive } from '@gltf-transform/core';
import { accessorFloats, type WarningCollector } from '@gltf-legacy/core';
import { encodeDeusExArray, encodeUnrealPackedArray } from '@gltf-legacy/quantize';
import type { AnivLayout } from '../aniv.js';
import { type UnrealMeshExtras, VERTEX_ATTRIBUTE } from '../extras.js';

/** Encoded frames (one of `packed` / `words`, by layout) and how many values were clamped. */
export interface NativeFrames {
  packed?: Uint32Array;
  words?: Int16Array;
  clamped: number;
}

/**
 * The frames of a native document, or null when a `_UNREAL_VERTEX` value names no vertex of the
 * mesh (then the document is baked). `factor`: per-axis rescale of a variant change, or null.
 *
 * ```ts
 * const frames = nativeFrames(mesh.listPrimitives(), extras, frameCount, 'packed', null, warnings);
 * ```
 */
export function nativeFrames(
  prims: Primitive[],
  E: UnrealMeshExtras,
  frameCount: number,
  layout: AnivLayout,
  factor: number[] | null,
  warnings: WarningCollector,
  keptPads?: Int16Array,
): NativeFrames | null {
  const nv = E.numVertices;
  // Frames: raw integers per original vertex, built and encoded one frame at a time. Each file
  // vertex takes its position from the last glTF vertex that names it (or from the orphans kept
  // in extras).
  const src = prims.map((p) => ({
    pos: accessorFloats(p.getAttribute('POSITION') as NonNullable<ReturnType<Primitive['getAttribute']>>),
    orig: accessorFloats(
      p.getAttribute(VERTEX_ATTRIBUTE) as NonNullable<ReturnType<Primitive['getAttribute']>>,
    ),
    targets: p.listTargets().map((t) => {
      const a = t.getAttribute('POSITION');
      return a ? accessorFloats(a) : null;
    }),
  }));
  const repP = new Int32Array(nv).fill(-1);
  const repJ = new Int32Array(nv);
  for (let pi = 0; pi < src.length; pi++) {
    const orig = src[pi].orig;
    for (let j = 0; j < orig.length; j++) {
      const v = orig[j];
      if (!(v >= 0 && v < nv)) return null;
      if (!Number.isInteger(v)) continue;
      repP[v] = pi;
      repJ[v] = j;
    }
  }
  const orphanK = new Int32Array(nv).fill(-1);
  const orphanFrames = E.orphans && E.orphans.frames.length === frameCount ? E.orphans.frames : null;
  if (orphanFrames) {
    E.orphans?.indices.forEach((v, k) => {
      if (Number.isInteger(v) && v >= 0 && v < nv) orphanK[v] = k;
    });
  }
  let missing = 0;
  for (let v = 0; v < nv; v++) if (repP[v] < 0 && orphanK[v] < 0) missing++;
  if (missing)
    warnings.warn(
      'VERTEX_MISSING',
      'vertices used by no triangle and not kept in extras were written at the origin',
      missing,
    );
  const packedOut = layout === 'packed' ? new Uint32Array(frameCount * nv) : undefined;
  const wordsOut = layout === 'packed' ? undefined : new Int16Array(frameCount * nv * 4);
  const pads = !factor ? (keptPads ?? (Array.isArray(E.pads) ? E.pads : undefined)) : undefined;
  // Per primitive, the file vertices it represents and their glTF vertex.
  const repCount = new Int32Array(src.length);
  for (let v = 0; v < nv; v++) if (orphanK[v] < 0 && repP[v] >= 0) repCount[repP[v]]++;
  const repV = Array.from(repCount, (c) => new Int32Array(c));
  repCount.fill(0);
  for (let v = 0; v < nv; v++) {
    const pi = repP[v];
    if (orphanK[v] < 0 && pi >= 0) repV[pi][repCount[pi]++] = v;
  }
  const rf = new Float64Array(nv * 3);
  let rounded = 0;
  let clamped = 0;
  for (let f = 0; f < frameCount; f++) {
    rf.fill(0);
    for (let pi = 0; pi < src.length; pi++) {
      const s = src[pi];
      fillFrame(rf, s.pos, f === 0 ? null : (s.targets[f - 1] ?? null), repV[pi], repJ);
    }
    if (orphanFrames) {
      const row = orphanFrames[f];
      for (let v = 0; v < nv; v++) {
        const k = orphanK[v];
        if (k < 0) continue;
        rf[v * 3] = row[k * 3] ?? 0;
        rf[v * 3 + 1] = row[k * 3 + 1] ?? 0;
        rf[v * 3 + 2] = row[k * 3 + 2] ?? 0;
      }
    }
    if (factor) for (let i = 0; i < rf.length; i++) rf[i] *= factor[i % 3];
    for (let i = 0; i < rf.length; i++) {
      const r = Math.round(rf[i]);
      if (Math.abs(r - rf[i]) > 1e-3) rounded++;
      rf[i] = r;
    }
    if (packedOut) clamped += encodeUnrealPackedArray(rf, packedOut.subarray(f * nv, (f + 1) * nv)).clamped;
    else if (wordsOut) {
      const e = encodeDeusExArray(rf, pads?.slice(f * nv, (f + 1) * nv));
      wordsOut.set(e.words, f * nv * 4);
      clamped += e.clamped;
    }
  }
  if (rounded)
    warnings.warn(
      'VALUE_QUANTIZED',
      'vertex coordinates that were not whole Unreal units were rounded',
      rounded,
    );
  return { packed: packedOut, words: wordsOut, clamped };
}

/** Raw Unreal X, Y, Z of the file vertices `vs` from glTF position + delta (glTF Y/Z swapped back). */
function fillFrame(
  rf: Float64Array,
  pos: Float32Array,
  d: Float32Array | null,
  vs: Int32Array,
  repJ: Int32Array,
): void {
  for (let i = 0; i < vs.length; i++) {
    const v = vs[i];
    const o = v * 3;
    const j = repJ[v] * 3;
    if (d) {
      rf[o] = pos[j] + d[j];
      rf[o + 1] = pos[j + 2] + d[j + 2];
      rf[o + 2] = pos[j + 1] + d[j + 1];
    } else {
      rf[o] = pos[j];
      rf[o + 1] = pos[j + 2];
      rf[o + 2] = pos[j + 1];
    }
  }
}
