/**
 * Urho3D's bones-per-draw limit (hardware skinning, `maxBones`, 64 by default): each geometry has
 * a bone mapping (local blend index → bone), and a geometry whose triangles use more bones than
 * the limit is split into several, each with its own vertices and mapping (`GEOMETRY_SPLIT`).
 * Format-specific rather than the shared stage's `PRIMITIVE_SPLIT`: the split renumbers
 * geometries, drops their LOD levels and must keep a hinted model's own mappings untouched.
 */
import type { WarningCollector } from '@gltf-legacy/core';
import type { UrhoModelExtras } from '../extras.js';
import { PrimitiveType } from '../mdl.js';
import { type AttrValues, primsByGeometry, usedBones, type VPrim } from './common.js';

/** True when a hinted model's bone mappings still hold: raw blend indices map to the same bones as JOINTS_0. */
export function hintMappingsHold(vprims: VPrim[], hx: UrhoModelExtras): boolean {
  return vprims.every((vp) => {
    if (!vp.joints) return true;
    if (!vp.rawBlend) return !(hx.geometries[vp.geometry]?.boneMapping.length ?? 0);
    const map = hx.geometries[vp.geometry]?.boneMapping ?? [];
    const used = new Uint8Array(vp.vertexCount);
    for (const i of vp.indices) used[i] = 1;
    for (let v = 0; v < vp.vertexCount; v++) {
      if (!used[v]) continue;
      for (let c = 0; c < 4; c++) {
        const k = v * 4 + c;
        if (!(vp.weights![k] > 0)) continue;
        const local = vp.rawBlend[k];
        const global = map.length ? map[local] : local;
        if (global !== vp.joints[k]) return false;
      }
    }
    return true;
  });
}

/**
 * Splits the geometries whose LOD 0 uses more than `maxBones` bones (`splitByBones`) and
 * renumbers all geometries; the others get their own vertex buffers (`|g<n>` keys).
 */
export function splitGeometriesByBones(
  vprims: VPrim[],
  geometryCount: number,
  maxBones: number,
  warnings: WarningCollector,
): { vprims: VPrim[]; geometryCount: number } {
  const out: VPrim[] = [];
  const splitGeoms = new Set<number>();
  for (const vp of vprims) {
    if (!vp.joints || vp.lod > 0) continue;
    if (usedBones(vp, vp.indices).size > maxBones) splitGeoms.add(vp.geometry);
  }
  let next = 0;
  const renumber = new Map<number, number[]>();
  const byGeom = primsByGeometry(vprims, geometryCount);
  for (let g = 0; g < geometryCount; g++) {
    const lod0 = byGeom[g].find((p) => p.lod === 0);
    if (splitGeoms.has(g) && lod0) {
      const chunks = splitByBones(lod0, maxBones);
      warnings.warn(
        'GEOMETRY_SPLIT',
        `a geometry uses more than ${maxBones} bones; split into ${chunks.length} geometries`,
      );
      if (byGeom[g].some((p) => p.lod > 0))
        warnings.warn('LOD_DROPPED', 'LOD levels of a split geometry were dropped');
      renumber.set(
        g,
        chunks.map(() => next++),
      );
      chunks.forEach((c, i) => {
        c.geometry = renumber.get(g)![i];
        out.push(c);
      });
    } else {
      renumber.set(g, [next++]);
      for (const p of byGeom[g]) out.push({ ...p, geometry: renumber.get(g)![0], vbKey: `${p.vbKey}|g${g}` });
    }
  }
  return { vprims: out, geometryCount: next };
}

/**
 * Each geometry's bone mapping: the hinted one, the bones its primitives use (when the skeleton
 * has more than `maxBones`), or empty (blend indices are bone numbers).
 */
export function geometryMappings(
  primsOfGeometry: VPrim[][],
  numBones: number,
  maxBones: number,
  hintMappings: UrhoModelExtras | null,
): Uint32Array[] {
  const geomMappings: Uint32Array[] = [];
  for (let g = 0; g < primsOfGeometry.length; g++) {
    if (hintMappings) geomMappings.push(Uint32Array.from(hintMappings.geometries[g]?.boneMapping ?? []));
    else if (numBones > maxBones) {
      const set = new Set<number>();
      for (const vp of primsOfGeometry[g]) for (const b of usedBones(vp, vp.indices)) set.add(b);
      geomMappings.push(Uint32Array.from([...set].sort((a, b) => a - b)));
    } else geomMappings.push(new Uint32Array(0));
  }
  return geomMappings;
}

/** Splits a skinned triangle-list VPrim into chunks of at most `maxBones` bones (own vertices each). */
export function splitByBones(vp: VPrim, maxBones: number): VPrim[] {
  const per =
    vp.primitiveType === PrimitiveType.TRIANGLE_LIST
      ? 3
      : vp.primitiveType === PrimitiveType.LINE_LIST
        ? 2
        : 1;
  const { indices } = vp;
  const joints = vp.joints!;
  const weights = vp.weights!;
  // Chunks are runs of consecutive triangles: a triangle starts a new chunk when its bones would
  // take the current chunk past maxBones. `mark[b] === stamp` = bone b is in the current chunk.
  let maxJoint = 0;
  for (let i = 0; i < joints.length; i++) if (joints[i] > maxJoint) maxJoint = joints[i];
  const mark = new Int32Array(maxJoint + 1);
  let stamp = 1;
  let inChunk = 0;
  const fresh: number[] = [];
  const starts: number[] = [0];
  const usable = indices.length - (indices.length % per);
  const freshBones = () => {
    fresh.length = 0;
    for (let i = 0; i < per; i++) {
      const v = indices[at + i];
      for (let c = 0; c < 4; c++) {
        if (!(weights[v * 4 + c] > 0)) continue;
        const b = joints[v * 4 + c];
        if (mark[b] !== stamp && !fresh.includes(b)) fresh.push(b);
      }
    }
  };
  let at = 0;
  for (; at < usable; at += per) {
    freshBones();
    if (inChunk + fresh.length > maxBones && at > starts[starts.length - 1]) {
      starts.push(at);
      stamp++;
      inChunk = 0;
      freshBones();
    }
    for (const b of fresh) mark[b] = stamp;
    inChunk += fresh.length;
  }
  if (starts.length > 1 || usable > 0) starts.push(usable);
  const remap = new Int32Array(vp.vertexCount).fill(-1);
  const chunks: { idx: Uint32Array; order: Uint32Array }[] = [];
  for (let k = 0; k + 1 < starts.length; k++) {
    const from = starts[k];
    const to = starts[k + 1];
    const idx = new Uint32Array(to - from);
    const orderAll = new Uint32Array(to - from);
    let n = 0;
    for (let i = from; i < to; i++) {
      const v = indices[i];
      let r = remap[v];
      if (r < 0) {
        r = n++;
        remap[v] = r;
        orderAll[r] = v;
      }
      idx[i - from] = r;
    }
    const order = orderAll.subarray(0, n);
    for (let i = 0; i < n; i++) remap[order[i]] = -1;
    chunks.push({ idx, order });
  }
  return chunks.map(({ idx, order }, k) => {
    const sub = <T extends AttrValues>(a: T, comps: number): T => {
      const out = new (a.constructor as any)(order.length * comps) as T;
      for (let i = 0; i < order.length; i++) {
        const v = order[i];
        for (let c = 0; c < comps; c++) out[i * comps + c] = a[v * comps + c];
      }
      return out;
    };
    const attrs: VPrim['attrs'] = new Map();
    for (const [k, a] of vp.attrs) attrs.set(k, { ...a, values: sub(a.values, a.comps) });
    return {
      ...vp,
      vbKey: `${vp.vbKey}|split${k}`,
      vertexCount: order.length,
      attrs,
      joints: vp.joints ? sub(vp.joints, 4) : null,
      weights: vp.weights ? sub(vp.weights, 4) : null,
      rawBlend: null,
      indices: idx,
      targets: vp.targets.map((t) => ({
        key: t.key,
        pos: t.pos && sub(t.pos, 3),
        nrm: t.nrm && sub(t.nrm, 3),
        tan: t.tan && sub(t.tan, 3),
      })),
      hintVb: undefined,
      hintIb: undefined,
    };
  });
}
