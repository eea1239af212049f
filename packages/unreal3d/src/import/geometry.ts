/**
 * Geometry of the importer: one glTF primitive per triangle group (frame 0; a glTF vertex per
 * file vertex and byte UV pair, winding reversed for the axis swap), one morph target per further
 * frame (position and normal deltas, a shared zero accessor where nothing moved), and the raw
 * positions of vertices no rendered triangle uses (kept in extras for export).
 */
import type { Accessor, Buffer, Document, Mesh, Primitive } from '@gltf-transform/core';
import { KHRMeshQuantization } from '@gltf-transform/extensions';
import {
  setKeptBytes,
  VERTEX_ANIMATION_ENCODING_DEFAULTS,
  type VertexAnimationEncoding,
} from '@gltf-legacy/core';
import { decodeByteUV } from '@gltf-legacy/quantize';
import { anivFrame, type UnrealAniv } from '../aniv.js';
import type { UnrealData } from '../data.js';
import { VERTEX_ATTRIBUTE } from '../extras.js';
import { frameNormals } from './frames.js';
import type { TriangleGroups } from './groups.js';
import type { MaterialMaker } from './materials.js';
import { deltaAccessor, encodePositionDelta, NormalDeltas } from './morph-encode.js';

/**
 * How morph targets are stored (the importer's `compact` / `float` / `frameNormals` options,
 * resolved by core's `vertexAnimationEncoding`): portable float32 (default) or compact integers.
 */
export type MorphEncoding = VertexAnimationEncoding;

export const MORPH_ENCODING_DEFAULTS: MorphEncoding = VERTEX_ANIMATION_ENCODING_DEFAULTS;

/** A primitive made from a group, with the file vertex of each of its glTF vertices. */
export interface GroupPrimitive {
  prim: Primitive;
  orig: Uint16Array;
  vcount: number;
  zero: Accessor | null;
}

/** Where the primitives go and what frame 0 looks like. */
export interface GeometryContext {
  doc: Document;
  buffer: Buffer;
  mesh: Mesh;
  data: UnrealData;
  groups: TriangleGroups;
  /** Raw positions of frame 0 (`nv·3`). */
  base: Float32Array;
  /** Smooth normals of frame 0 per file vertex, or null (option `normals: false`). */
  normals0: Float32Array | null;
}

/**
 * One primitive per triangle group, added to `ctx.mesh` in group order.
 *
 * ```ts
 * const prims = groupPrimitives(ctx, materials);
 * ```
 */
export function groupPrimitives(ctx: GeometryContext, materials: MaterialMaker): GroupPrimitive[] {
  const { doc, buffer, mesh, base, normals0 } = ctx;
  const { groupOf, groupKeys } = ctx.groups;
  const { vertices, colors, uvs } = ctx.data.polys;
  const n = groupOf.length;
  const nv = ctx.data.header.numVertices;
  const materialFor = materials.materialFor;
  const counts = new Int32Array(groupKeys.length);
  for (let i = 0; i < n; i++) if (groupOf[i] >= 0) counts[groupOf[i]]++;
  const head = new Int32Array(nv).fill(-1);
  const prims: GroupPrimitive[] = [];
  for (let g = 0; g < groupKeys.length; g++) {
    const key = groupKeys[g];
    const tex = key >> 16;
    const type = (key >> 8) & 0xff;
    const flag = key & 0xff;
    const tri = counts[g];
    const orig = new Uint16Array(tri * 3);
    const uvKey = new Uint16Array(tri * 3);
    const next = new Int32Array(tri * 3);
    const uvOut = new Float32Array(tri * 6);
    const idx = new Uint32Array(tri * 3);
    let vcount = 0;
    let t = 0;
    let color = -1;
    let mixedColor = false;
    const triColors = new Uint8Array(tri);
    for (let i = 0; i < n; i++) {
      if (groupOf[i] !== g) continue;
      if (color < 0) color = colors[i];
      else if (colors[i] !== color) mixedColor = true;
      triColors[t] = colors[i];
      for (let c = 0; c < 3; c++) {
        const v = vertices[i * 3 + c];
        const U = uvs[i * 6 + c * 2];
        const V = uvs[i * 6 + c * 2 + 1];
        const key = (U << 8) | V;
        // Chain of this group's glTF vertices made from file vertex v (usually 1–3 long).
        let ni = head[v];
        while (ni >= 0 && uvKey[ni] !== key) ni = next[ni];
        if (ni < 0) {
          ni = vcount++;
          uvKey[ni] = key;
          next[ni] = head[v];
          head[v] = ni;
          orig[ni] = v;
          uvOut[ni * 2] = decodeByteUV(U);
          uvOut[ni * 2 + 1] = decodeByteUV(V);
        }
        // Reverse winding (the axis swap mirrors): corners 0, 2, 1.
        idx[t * 3 + (c === 0 ? 0 : 3 - c)] = ni;
      }
      t++;
    }
    for (let j = 0; j < vcount; j++) head[orig[j]] = -1;
    const pos = new Float32Array(vcount * 3);
    for (let j = 0; j < vcount; j++) {
      const o = orig[j] * 3;
      pos[j * 3] = base[o];
      pos[j * 3 + 1] = base[o + 2];
      pos[j * 3 + 2] = base[o + 1];
    }
    const gOrig = orig.slice(0, vcount);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(pos).setBuffer(buffer))
      .setAttribute(
        'TEXCOORD_0',
        doc
          .createAccessor()
          .setType('VEC2')
          .setArray(uvOut.slice(0, vcount * 2))
          .setBuffer(buffer),
      )
      .setAttribute(
        VERTEX_ATTRIBUTE,
        doc.createAccessor().setType('SCALAR').setArray(gOrig).setBuffer(buffer),
      )
      .setIndices(
        doc
          .createAccessor()
          .setType('SCALAR')
          .setArray(vcount < 65536 ? new Uint16Array(idx) : idx)
          .setBuffer(buffer),
      )
      .setMaterial(materialFor(tex, type));
    if (normals0) {
      const nrm = new Float32Array(vcount * 3);
      for (let j = 0; j < vcount; j++) {
        const o = gOrig[j] * 3;
        nrm[j * 3] = normals0[o];
        nrm[j * 3 + 1] = normals0[o + 1];
        nrm[j * 3 + 2] = normals0[o + 2];
      }
      prim.setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(nrm).setBuffer(buffer));
    }
    const pextra: Record<string, unknown> = { textureNum: tex, type, flags: flag };
    // per-triangle colours (when they differ): one byte per triangle, kept bytes `colors`
    if (!mixedColor) pextra.color = Math.max(0, color);
    prim.setExtras({ unreal3d: pextra });
    if (mixedColor) setKeptBytes(prim, 'colors', triColors);
    mesh.addPrimitive(prim);
    prims.push({ prim, orig: gOrig, vcount, zero: null });
  }
  return prims;
}

/** The file vertices no rendered triangle uses, and their raw X, Y, Z per frame as kept. */
export interface Orphans {
  indices: number[];
  frames: number[][];
  /** Appends one frame's row (nothing when there are no orphans). */
  keep(frame: Float32Array): void;
}

/** The orphan vertices of `used` (non-zero: used by a rendered triangle). */
export function orphanVertices(used: Uint8Array): Orphans {
  const nv = used.length;
  const orphanIdx: number[] = [];
  for (let v = 0; v < nv; v++) if (!used[v]) orphanIdx.push(v);
  const orphanFrames: number[][] = [];
  const keepOrphans = (fr: Float32Array) => {
    if (!orphanIdx.length) return;
    const row = new Array<number>(orphanIdx.length * 3);
    for (let k = 0; k < orphanIdx.length; k++) {
      const o = orphanIdx[k] * 3;
      row[k * 3] = fr[o];
      row[k * 3 + 1] = fr[o + 1];
      row[k * 3 + 2] = fr[o + 2];
    }
    orphanFrames.push(row);
  };

  return { indices: orphanIdx, frames: orphanFrames, keep: keepOrphans };
}

/**
 * Adds frames 1‥`targetCount` of `aniv` as morph targets `Frame1`… of every primitive, one
 * decoded frame (and its normals) in memory at a time; each frame's orphan row goes to `orphans`.
 *
 * ```ts
 * addFrameTargets(ctx, prims, aniv, targetCount, orphans);
 * ```
 */
export function addFrameTargets(
  ctx: GeometryContext,
  prims: GroupPrimitive[],
  aniv: UnrealAniv,
  targetCount: number,
  orphans: Orphans,
  encoding: MorphEncoding = MORPH_ENCODING_DEFAULTS,
): void {
  const { doc, buffer, base, normals0 } = ctx;
  const { compact } = encoding;
  const withNormals = normals0 !== null && encoding.frameNormals;
  const nv = ctx.data.header.numVertices;
  const vertices = ctx.data.polys.vertices;
  const rendered = new Uint8Array(ctx.groups.groupOf.length);
  for (let i = 0; i < rendered.length; i++) rendered[i] = ctx.groups.groupOf[i] >= 0 ? 1 : 0;
  const keepOrphans = orphans.keep;
  // Morph targets, frame by frame (one decoded frame and its normals in memory at a time). A
  // delta that is zero everywhere (static frames, rigid moves for normals) shares one zero
  // accessor per primitive instead of a new one per frame: an all-zero sparse accessor, which
  // the writer gives no bytes at all (no buffer view: zeros, core glTF) — float32 (portable) or,
  // compact, normalized BYTE as before issue 30.
  const zeroOf = (p: (typeof prims)[number]): Accessor => {
    p.zero ??= doc
      .createAccessor()
      .setType('VEC3')
      .setArray(compact ? new Int8Array(p.vcount * 3) : new Float32Array(p.vcount * 3))
      .setNormalized(compact)
      .setSparse(true)
      .setBuffer(buffer);
    return p.zero;
  };
  let maxCount = 0;
  for (const p of prims) maxCount = Math.max(maxCount, p.vcount);
  // The writer gives all sparse accessors of a buffer one index type, by the largest index.
  const idxBytes = maxCount <= 255 ? 1 : maxCount <= 65535 ? 2 : 4;
  const scratch = new Int32Array(maxCount * 3);
  const normalDeltas = withNormals && normals0 ? new NormalDeltas(normals0, !compact, idxBytes) : null;
  const fr = new Float32Array(nv * 3);
  const nf = withNormals ? new Float32Array(nv * 3) : null;
  let quantized = false;
  for (let f = 1; f <= targetCount; f++) {
    anivFrame(aniv, f, fr);
    keepOrphans(fr);
    let moved = false;
    for (let i = 0; i < nv * 3; i++) {
      if (fr[i] !== base[i]) {
        moved = true;
        break;
      }
    }
    if (moved && nf) {
      frameNormals(fr, nv, vertices, rendered, nf);
      normalDeltas?.setFrame(nf);
    }
    for (const p of prims) {
      const { orig, vcount } = p;
      const target = doc.createPrimitiveTarget(`Frame${f}`);
      let dPos: Accessor | null = null;
      let dNrm: Accessor | null = null;
      if (moved) {
        const d = encodePositionDelta(fr, base, orig, vcount, scratch, idxBytes, !compact);
        if (d) {
          dPos = deltaAccessor(doc, buffer, d);
          quantized ||= !(d.array instanceof Float32Array);
        }
        // Not skipped when this primitive did not move: its normals also follow neighbours.
        if (normalDeltas) {
          const dn = normalDeltas.encode(orig, vcount);
          if (dn) {
            dNrm = deltaAccessor(doc, buffer, dn);
            quantized ||= dn.normalized;
          }
        }
      }
      target.setAttribute('POSITION', dPos ?? zeroOf(p));
      if (withNormals) target.setAttribute('NORMAL', dNrm ?? zeroOf(p));
      p.prim.addTarget(target);
    }
  }
  // Only the compact mode writes integer POSITION/NORMAL deltas (the zero accessor included).
  if (quantized || (compact && prims.some((p) => p.zero)))
    doc.createExtension(KHRMeshQuantization).setRequired(true);
}
