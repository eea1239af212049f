/**
 * Baked path: any document. Every mesh instance is merged, every animation sampled at `fps`
 * (node TRS, morph weights and skinning evaluated on the CPU) into vertex frames, and the
 * MESHMAP SCALE / MESH ORIGIN chosen so the animated bounds fill the integer range.
 */
import type { Document, Material } from '@gltf-transform/core';
import { ExportError, type WarningCollector } from '@gltf-legacy/core';
import {
  decodeByteUV,
  encodeByteUV,
  encodeDeusExArray,
  encodeUnrealPackedArray,
  UNREAL_X_MAX,
  UNREAL_Z_MAX,
} from '@gltf-legacy/quantize';
import { type AnivLayout, type UnrealAniv, vertexStride } from '../aniv.js';
import { type BakeItem, collectItems, restMirrored } from '../bake.js';
import { createDataHeader, createPolys, isWeaponType, type UnrealData } from '../data.js';
import { unreal3dLimits } from '../limits.js';
import type { Placement } from '../transform.js';
import { type UcMesh, type UcTexture, ucNumber, writeUc } from '../uc.js';
import {
  tooManyVertices,
  type UnrealExportModel,
  type UnrealExportOptions,
  UNREAL_EXPORT_DEFAULTS,
  unrealName,
  vertexLimit,
} from './common.js';
import { bakeFrames, type FramePlan, planFrames, sceneVertexCount } from './frames.js';
import { polyTypeFor, textureFor, uniqueSkinName } from './materials.js';

function encodeFrames(
  layout: AnivLayout,
  raw: Float64Array,
  pads?: number[],
): { packed?: Uint32Array; words?: Int16Array; clamped: number } {
  if (layout === 'packed') {
    const { packed, clamped } = encodeUnrealPackedArray(raw);
    return { packed, clamped };
  }
  const { words, clamped } = encodeDeusExArray(raw, pads);
  return { words, clamped };
}

/**
 * Merges vertices whose integer coordinates are equal in every frame. Returns the old → new index
 * map, the new count and the compacted frames.
 */
export function weldFrames(
  raw: Float64Array,
  frameCount: number,
  nv: number,
): { remap: Uint32Array; count: number; raw: Float64Array } {
  const remap = new Uint32Array(nv);
  const firstOf: number[] = [];
  const buckets = new Map<number, number[]>();
  const same = (a: number, b: number) => {
    for (let f = 0; f < frameCount; f++) {
      const oa = (f * nv + a) * 3;
      const ob = (f * nv + b) * 3;
      if (raw[oa] !== raw[ob] || raw[oa + 1] !== raw[ob + 1] || raw[oa + 2] !== raw[ob + 2]) return false;
    }
    return true;
  };
  for (let v = 0; v < nv; v++) {
    let h = 0x811c9dc5;
    for (let f = 0; f < frameCount; f++) {
      const o = (f * nv + v) * 3;
      h = Math.imul(h ^ (raw[o] | 0), 16777619);
      h = Math.imul(h ^ (raw[o + 1] | 0), 16777619);
      h = Math.imul(h ^ (raw[o + 2] | 0), 16777619);
    }
    const list = buckets.get(h);
    let found = -1;
    if (list) {
      for (const n of list) {
        if (same(firstOf[n], v)) {
          found = n;
          break;
        }
      }
    }
    if (found < 0) {
      found = firstOf.length;
      firstOf.push(v);
      if (list) list.push(found);
      else buckets.set(h, [found]);
    }
    remap[v] = found;
  }
  const count = firstOf.length;
  if (count === nv) return { remap, count, raw };
  const out = new Float64Array(frameCount * count * 3);
  for (let f = 0; f < frameCount; f++) {
    for (let n = 0; n < count; n++) {
      const o = (f * nv + firstOf[n]) * 3;
      const d = (f * count + n) * 3;
      out[d] = raw[o];
      out[d + 1] = raw[o + 1];
      out[d + 2] = raw[o + 2];
    }
  }
  return { remap, count, raw: out };
}

/**
 * Scale and origin that fit `[min, max]` (Unreal world units) into ±`lim` with the most precision.
 *
 * ```ts
 * fitRange(-10, 30, 1023); // { scale: 0.01955034, origin: -511.5001 }: raw = world / scale + origin
 * ```
 */
export function fitRange(min: number, max: number, lim: number): { scale: number; origin: number } {
  if (!(max >= min)) return { scale: 1, origin: 0 };
  const half = (max - min) / 2;
  const center = (max + min) / 2;
  if (half < 1e-12) return { scale: 1, origin: -center };
  let scale = half / lim;
  // A decimal that reads back exactly and is not smaller than needed.
  let s = Number(scale.toPrecision(7));
  if (s < scale) s = Number((scale * (1 + 1e-7)).toPrecision(7));
  scale = s;
  const origin = Number((-center / scale).toFixed(4));
  return { scale, origin };
}

/**
 * The baked path, whole: plans the frames on the caller's document (refusing absurd clips before
 * any sampling), runs the shared stage (`prepare(document, unreal3dLimits(fps))`: triangle lists,
 * ≤ 8 influences, static transforms baked, keys on the `fps` grid), then maps the prepared
 * document: vertex frames, quantization, texture slots, triangles, weld.
 *
 * ```ts
 * const model = await exportBaked(document, 'packed', 'Fox', 30, warnings);
 * model.uc.sequences.map((s) => s.name); // [ 'Survey', 'Walk', 'Run' ]
 * ```
 */
export async function exportBaked(
  doc: Document,
  layout: AnivLayout,
  name: string,
  fps: number,
  warnings: WarningCollector,
  options: UnrealExportOptions = {},
): Promise<UnrealExportModel> {
  const maxFrames = Math.min(0xffff, options.maxFrames ?? UNREAL_EXPORT_DEFAULTS.maxFrames);
  const plan = planFrames(doc, fps, maxFrames, sceneVertexCount(doc), warnings);
  // the shared stage is loaded on first export: it brings @gltf-transform/functions
  const { prepare } = await import('@gltf-legacy/prepare');
  const prepared = await prepare(doc, unreal3dLimits(fps), { warnings });
  return mapBaked(prepared.document, plan, layout, name, fps, warnings, options);
}

/** The map layer of the baked path: a prepared document and its frame plan → the file model. */
function mapBaked(
  doc: Document,
  plan: FramePlan,
  layout: AnivLayout,
  name: string,
  fps: number,
  warnings: WarningCollector,
  options: UnrealExportOptions,
): UnrealExportModel {
  const { items, vertices: nv } = bakeItems(doc, layout, warnings);
  // glTF metres → Unreal units, glTF +Z forward → Unreal +X.
  const unit = options.scale === undefined ? UNREAL_EXPORT_DEFAULTS.scale : Number(options.scale);
  const world = bakeFrames(doc, items, nv, plan, fps, warnings, options.axes !== 'swap', unit);
  const { raw, placement } = quantizePositions(world, layout, warnings);
  const { slots, textures, slotMaterials } = textureSlots(items);
  const polys = writeTriangles(items, slots, warnings);
  reportDroppedAttributes(items, warnings);

  // Weld vertices whose quantized positions agree in every frame (UVs live on the triangles).
  const frameCount = plan.frameCount;
  let outRaw: Float64Array = raw;
  let outNv = nv;
  if (options.weld !== false) {
    const w = weldFrames(raw, frameCount, nv);
    if (w.count < nv) {
      for (let i = 0; i < polys.vertices.length; i++) polys.vertices[i] = w.remap[polys.vertices[i]];
      outRaw = w.raw;
      outNv = w.count;
      warnings.warn(
        'VERTICES_WELDED',
        `${nv} glTF vertices became ${w.count} Unreal vertices (same position in every frame)`,
      );
    }
  }
  if (outNv > vertexLimit(layout)) throw tooManyVertices(outNv, layout);
  const enc = encodeFrames(layout, outRaw);
  const data: UnrealData = {
    header: createDataHeader(polys.types.length, outNv),
    polys,
    trailing: new Uint8Array(0),
  };
  const aniv: UnrealAniv = {
    numFrames: frameCount,
    frameSize: outNv * vertexStride(layout),
    layout,
    numVertices: outNv,
    frameCount,
    packed: enc.packed,
    words: enc.words,
    frameExtra: new Uint8Array(0),
    trailing: new Uint8Array(0),
  };
  const ucm: UcMesh = {
    name: unrealName(name, 'model'),
    unmirror: false,
    zeroTex: false,
    origin: placement.origin,
    scale: placement.scale,
    sequences: plan.sequences,
    textures,
    directives: [],
  };
  return { data, aniv, uc: ucm, ucText: writeUc(ucm, { fileBase: name }), slotMaterials };
}

/**
 * The triangle primitives of every mesh node, checked: some geometry, every index below its
 * primitive's vertex count (`INDEX_OUT_OF_RANGE`), not hopelessly many vertices before welding.
 */
function bakeItems(
  doc: Document,
  layout: AnivLayout,
  warnings: WarningCollector,
): { items: BakeItem[]; vertices: number } {
  const items = collectItems(doc, warnings, (n) => n.getName() === 'WeaponTriangle' && !n.getMesh());
  let nv = 0;
  for (const it of items) nv += it.positions.length / 3;
  if (!items.length || nv === 0)
    throw new ExportError('NO_GEOMETRY', 'the document has no triangle mesh to write');
  for (const it of items) {
    const count = it.positions.length / 3;
    for (let k = 0; k < it.indices.length; k++)
      if (it.indices[k] >= count)
        throw new ExportError(
          'INDEX_OUT_OF_RANGE',
          `mesh "${it.mesh.getName()}": index ${it.indices[k]} is not below the primitive's ${count} vertices`,
        );
  }
  // Before welding, allow a few times the limit (glTF splits vertices at UV/normal seams).
  if (nv > vertexLimit(layout) * 8) throw tooManyVertices(nv, layout);
  if (items.some((it) => it.skin))
    warnings.warn(
      'SKIN_BAKED',
      'skinned meshes were baked into vertex frames (Unreal 1 meshes have no bones)',
    );
  return { items, vertices: nv };
}

/**
 * MESHMAP SCALE / MESH ORIGIN per axis so the animated bounds fill the layout's integer range,
 * and the rounded integers (`VALUE_QUANTIZED` with the worst error).
 */
function quantizePositions(
  world: Float64Array,
  layout: AnivLayout,
  warnings: WarningCollector,
): { raw: Float64Array; placement: Placement } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let c = 0; c < 3; c++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = c; i < world.length; i += 3) {
      const v = world[i];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    min[c] = lo;
    max[c] = hi;
  }
  const lims = layout === 'packed' ? [UNREAL_X_MAX, UNREAL_X_MAX, UNREAL_Z_MAX] : [32767, 32767, 32767];
  const fit = [0, 1, 2].map((c) => fitRange(min[c], max[c], lims[c]));
  const placement: Placement = {
    scale: [fit[0].scale, fit[1].scale, fit[2].scale],
    origin: { x: fit[0].origin, y: fit[1].origin, z: fit[2].origin, pitch: 0, yaw: 0, roll: 0 },
  };
  const raw = new Float64Array(world.length);
  let worst = 0;
  // One pass per axis with the scale and origin in locals (a hot loop: frames × vertices).
  for (let c = 0; c < 3; c++) {
    const s = fit[c].scale;
    const o = fit[c].origin;
    for (let i = c; i < world.length; i += 3) {
      const w = world[i];
      const q = Math.round(w / s + o);
      raw[i] = q;
      const err = Math.abs(s * (q - o) - w);
      if (err > worst) worst = err;
    }
  }
  warnings.warn(
    'VALUE_QUANTIZED',
    `positions were quantized to the ${layout === 'packed' ? '11/11/10-bit' : '16-bit'} grid (MESHMAP SCALE ${placement.scale.map((v) => ucNumber(v)).join(' ')}); worst error ${worst.toPrecision(4)} Unreal units`,
  );
  return { raw, placement };
}

/** Materials → texture slots (the `.uc` skins), in the order the primitives first draw them. */
function textureSlots(items: BakeItem[]): {
  slots: Map<Material | null, number>;
  textures: UcTexture[];
  slotMaterials: Map<number, Material | null>;
} {
  const slots = new Map<Material | null, number>();
  const textures: UcTexture[] = [];
  const slotMaterials = new Map<number, Material | null>();
  for (const it of items) {
    const m = it.prim.getMaterial();
    // A material that draws no rendered triangle gets no slot: the importer would make no
    // material for it, so its skin would not come back (fuzz 5c46fcbd).
    if (slots.has(m) || it.indices.length < 3 || isWeaponType(polyTypeFor(m))) continue;
    const ex = (m?.getExtras() as { unreal3d?: { textureNum?: number } } | undefined)?.unreal3d;
    let num = typeof ex?.textureNum === 'number' ? ex.textureNum : slots.size;
    while ([...slots.values()].includes(num) && typeof ex?.textureNum !== 'number') num++;
    if (num > 255)
      throw new ExportError('TOO_MANY_MATERIALS', 'an Unreal mesh has at most 256 texture slots');
    slots.set(m, num);
    if (!textures.some((t) => t.num === num)) {
      textures.push(uniqueSkinName(textureFor(m, num), m, textures, slotMaterials));
      slotMaterials.set(num, m);
    }
  }
  return { slots, textures, slotMaterials };
}

/**
 * The `_d.3d` triangles: merged vertex numbers (corners 1 and 2 swapped for the axis swap, unless
 * the node mirrors), byte UVs (`VALUE_QUANTIZED`, `UV_CLAMPED`), poly type and texture slot.
 */
function writeTriangles(
  items: BakeItem[],
  slots: Map<Material | null, number>,
  warnings: WarningCollector,
): ReturnType<typeof createPolys> {
  let tris = 0;
  for (const it of items) tris += it.indices.length / 3;
  if (tris > 0xffff)
    throw new ExportError('TOO_MANY_TRIANGLES', `${tris} triangles exceed the 65535 a _d.3d can hold`);
  // A _d.3d needs a rendered (non-weapon) triangle: lists shorter than 3 indices give none.
  if (!items.some((it) => it.indices.length >= 3 && !isWeaponType(polyTypeFor(it.prim.getMaterial()))))
    throw new ExportError(
      'NO_GEOMETRY',
      'the document has no triangle to write (only empty or degenerate primitives)',
    );
  const polys = createPolys(tris);
  let t = 0;
  let uvErr = 0;
  let uvClamped = 0;
  let noUv = 0;
  const uvByte = (u: number) => {
    const b = encodeByteUV(u);
    if (u < 0 || u >= 1 + 1 / 512) uvClamped++;
    else {
      const e = Math.abs(decodeByteUV(b) - u);
      if (e > uvErr) uvErr = e;
    }
    return b;
  };
  for (const it of items) {
    const m = it.prim.getMaterial();
    const type = polyTypeFor(m);
    const tex = slots.get(m) ?? 0;
    const mirrored = !it.skin && restMirrored(it.node);
    if (!it.uvs) noUv++;
    const idx = it.indices;
    for (let k = 0; k + 2 < idx.length; k += 3) {
      const corners = mirrored ? [idx[k], idx[k + 1], idx[k + 2]] : [idx[k], idx[k + 2], idx[k + 1]];
      for (let c = 0; c < 3; c++) {
        const v = corners[c];
        polys.vertices[t * 3 + c] = it.base + v;
        polys.uvs[t * 6 + c * 2] = it.uvs ? uvByte(it.uvs[v * 2]) : 0;
        polys.uvs[t * 6 + c * 2 + 1] = it.uvs ? uvByte(it.uvs[v * 2 + 1]) : 0;
      }
      polys.types[t] = type;
      polys.textures[t] = tex;
      t++;
    }
  }
  if (uvErr > 0)
    warnings.warn(
      'VALUE_QUANTIZED',
      `texture coordinates were quantized to bytes (1/256); worst error ${uvErr.toPrecision(3)}`,
    );
  if (uvClamped)
    warnings.warn(
      'UV_CLAMPED',
      'texture coordinates outside [0, 1) were clamped (Unreal byte UVs cannot tile)',
      uvClamped,
    );
  if (noUv) warnings.warn('ATTRIBUTE_DROPPED', 'primitives without TEXCOORD_0 got UV 0,0', noUv);
  return polys;
}

/** Vertex attributes an Unreal mesh has no place for (`ATTRIBUTE_DROPPED`). */
function reportDroppedAttributes(items: BakeItem[], warnings: WarningCollector): void {
  if (items.some((it) => it.prim.getAttribute('NORMAL')))
    warnings.warn('ATTRIBUTE_DROPPED', 'normals are not stored (the engine computes them)');
  if (items.some((it) => it.prim.getAttribute('COLOR_0')))
    warnings.warn('ATTRIBUTE_DROPPED', 'vertex colors cannot be stored');
}
