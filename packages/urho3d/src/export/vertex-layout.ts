/**
 * Vertex buffers: which primitives share one (same POSITION accessor and bake), the element layout
 * of each (the hinted one of an imported model while the data still fits it, else AssetImporter's
 * order), the interleaved bytes, and UMDL masks or UMD2 descriptors.
 */
import type { AxisMap, WarningCollector } from '@gltf-legacy/core';
import type { Accessor, Root } from '@gltf-transform/core';
import {
  attributeFor,
  parseRawAttributeName,
  rawAttributeName,
  sanitizeAttribute,
  writeElement,
} from '../attributes.js';
import type { UrhoModelExtras } from '../extras.js';
import {
  descriptorOf,
  ELEMENT_TYPE_SIZES,
  ElementType,
  elementsFromDescriptors,
  elementsFromMask,
  type MdlVertexBuffer,
  maskFromElements,
  Semantic,
  type VertexElement,
} from '../mdl.js';
import { mirrorVec3 } from '../space.js';
import { sameFloats, type VPrim } from './common.js';

/** What the layout step reads besides the primitives. */
export interface LayoutContext {
  root: Root;
  warnings: WarningCollector;
  hx: UrhoModelExtras | undefined;
  /** The hinted bone mappings hold: raw blend indices are written back as they were. */
  useHintMappings: boolean;
  geomMappings: Uint32Array[];
  /** Urho3D ↔ glTF mirror (`space.ts`). */
  mirror: AxisMap;
  /** Accessors by name (raw backups), built on first use. */
  accessorsByName?: Map<string, Accessor>;
}

/** The vertex buffers of a model and which buffer each primitive uses. */
export interface VertexLayout {
  /** Primitives per vertex buffer, in buffer order. */
  groupList: VPrim[][];
  vbIndexOf: Map<VPrim, number>;
  vertexBuffers: MdlVertexBuffer[];
  /** Every buffer kept its hinted layout (the model's other hints then hold too). */
  allHinted: boolean;
  magic: 'UMDL' | 'UMD2';
}

/** Groups primitives by vertex buffer (hinted order first). */
function groupByVertexBuffer(vprims: VPrim[]): VPrim[][] {
  const groups = new Map<unknown, VPrim[]>();
  for (const vp of vprims) {
    const list = groups.get(vp.vbKey);
    if (list) list.push(vp);
    else groups.set(vp.vbKey, [vp]);
  }
  const groupList = [...groups.values()];
  // Hinted order of vertex buffers.
  const hintOrder = (g: VPrim[]) =>
    g.every((p) => p.hintVb === g[0].hintVb) && g[0].hintVb !== undefined ? g[0].hintVb : 1e9;
  groupList.sort((a, b) => hintOrder(a) - hintOrder(b));
  return groupList;
}

/** The hinted elements of buffer `v` when the group's data still fits them, else null. */
function hintedElements(
  group: VPrim[],
  vbHint: UrhoModelExtras['vertexBuffers'][number] | undefined,
): VertexElement[] | null {
  const first = group[0];
  if (!vbHint || vbHint.vertexCount !== first.vertexCount) return null;
  let elements: VertexElement[] | null;
  try {
    elements = vbHint.descriptors
      ? elementsFromDescriptors(Uint32Array.from(vbHint.descriptors))
      : elementsFromMask(vbHint.elementMask);
  } catch {
    return null;
  }
  if (!elements?.every((e) => sourceAvailable(group, e))) return null;
  // Every attribute must have a home in the hinted layout.
  const homes = new Set(elements.map((e) => attributeFor(e)[0]));
  for (const a of first.attrs.keys()) if (!a.startsWith('_URHO_') && !homes.has(a)) return null;
  return elements;
}

/** Builds every vertex buffer of the model. */
export function buildVertexBuffers(ctx: LayoutContext, vprims: VPrim[]): VertexLayout {
  const { hx, warnings } = ctx;
  const groupList = groupByVertexBuffer(vprims);
  const vbIndexOf = new Map<VPrim, number>();
  const vertexBuffers: MdlVertexBuffer[] = [];
  let allHinted = !!hx && groupList.length === hx.vertexBuffers.length;
  groupList.forEach((group, v) => {
    for (const p of group) vbIndexOf.set(p, v);
    const first = group[0];
    const vbHint = hx && first.hintVb === v ? hx.vertexBuffers[v] : undefined;
    let elements = hintedElements(group, vbHint);
    if (!elements) {
      allHinted = false;
      elements = deriveElements(first, warnings);
    }
    const stride = elements.reduce((s, e) => s + ELEMENT_TYPE_SIZES[e.type], 0);
    const data = new Uint8Array(first.vertexCount * stride);
    const rawBackups = vbHint?.raw ?? {};
    for (const e of elements) {
      const values = elementValues(ctx, group, e, rawBackups);
      writeElement(data, stride, first.vertexCount, e, values);
    }
    vertexBuffers.push({
      vertexCount: first.vertexCount,
      elementMask: 0,
      descriptors: null,
      elements,
      stride,
      morphRangeStart: 0,
      morphRangeCount: 0,
      data,
    });
  });
  const magic = describeElements(vertexBuffers, allHinted ? hx : undefined);
  return { groupList, vbIndexOf, vertexBuffers, allHinted, magic };
}

/** UMDL (every layout fits the legacy mask, and the hinted file was UMDL) or UMD2; sets masks / descriptors. */
function describeElements(
  vertexBuffers: MdlVertexBuffer[],
  hx: UrhoModelExtras | undefined,
): 'UMDL' | 'UMD2' {
  let magic: 'UMDL' | 'UMD2' = 'UMDL';
  const masks = vertexBuffers.map((vb) => maskFromElements(vb.elements));
  if (hx) magic = hx.magic === 'UMDL' && masks.every((m) => m !== null) ? 'UMDL' : 'UMD2';
  else magic = masks.every((m) => m !== null) ? 'UMDL' : 'UMD2';
  vertexBuffers.forEach((vb, i) => {
    if (magic === 'UMDL') vb.elementMask = masks[i]!;
    else {
      const h = hx ? hx.vertexBuffers[i].descriptors : null;
      const desc = Uint32Array.from(vb.elements, descriptorOf);
      vb.descriptors =
        h && h.length === desc.length && h.every((d, k) => (d & 0xffffff) === desc[k])
          ? Uint32Array.from(h)
          : desc;
    }
  });
  return magic;
}

function sourceAvailable(group: VPrim[], e: VertexElement): boolean {
  const p = group[0];
  const [attr, kind] = attributeFor(e);
  if (kind === 'joints') return group.every((g) => g.joints);
  if (kind === 'weights') return group.every((g) => g.weights);
  const a = p.attrs.get(attr) ?? p.attrs.get(rawAttributeName(e));
  if (!a) return false;
  if (kind === 'color' && e.type === ElementType.UBYTE4_NORM) return true;
  if (kind === 'raw') {
    const size = ELEMENT_TYPE_SIZES[e.type];
    return a.values.BYTES_PER_ELEMENT * a.comps === size;
  }
  return true;
}

function elementValues(
  ctx: LayoutContext,
  group: VPrim[],
  e: VertexElement,
  rawBackups: Record<string, string>,
): ArrayLike<number> {
  const p = group[0];
  const n = p.vertexCount;
  const [attr, kind] = attributeFor(e);
  if (kind === 'joints') {
    if (ctx.useHintMappings && group.every((g) => g.rawBlend === group[0].rawBlend) && group[0].rawBlend)
      return group[0].rawBlend;
    // Local indices through each geometry's mapping; vertices take the first primitive using them.
    const out = new Uint8Array(n * 4);
    const done = new Uint8Array(n);
    for (const g of group) {
      if (!g.joints) continue;
      localJoints(out, done, g.joints, ctx.geomMappings[g.geometry], g.indices, false);
    }
    if (group[0].joints)
      localJoints(out, done, group[0].joints, ctx.geomMappings[group[0].geometry], null, true);
    return out;
  }
  if (kind === 'weights') {
    const w = p.weights!;
    return fromRaw(ctx, rawBackups.WEIGHTS_0, 'weights', w, 4) ?? w;
  }
  const a = p.attrs.get(attr);
  if (!a) return p.attrs.get(rawAttributeName(e))!.values; // file values kept as-is
  if (kind === 'normal' || kind === 'tangent') {
    return (
      fromRaw(ctx, rawBackups[attr], kind, a.values as Float32Array, kind === 'normal' ? 3 : 4) ?? a.values
    );
  }
  if (kind === 'color' && e.type === ElementType.UBYTE4_NORM) {
    if (a.normalizedU8) return a.values;
    const out = new Uint8Array(n * 4);
    for (let v = 0; v < n; v++) {
      for (let c = 0; c < 4; c++) {
        const x = c < a.comps ? a.values[v * a.comps + c] : 1;
        out[v * 4 + c] = Math.round(Math.min(1, Math.max(0, x)) * 255);
      }
    }
    return out;
  }
  return a.values;
}

function fromRaw(
  ctx: LayoutContext,
  accName: string | undefined,
  kind: 'normal' | 'tangent' | 'weights',
  current: Float32Array,
  comps: number,
) {
  if (!accName) return null;
  if (!ctx.accessorsByName) {
    ctx.accessorsByName = new Map();
    for (const a of ctx.root.listAccessors())
      if (!ctx.accessorsByName.has(a.getName())) ctx.accessorsByName.set(a.getName(), a);
  }
  const acc = ctx.accessorsByName.get(accName);
  const arr = acc?.getArray();
  if (!(arr instanceof Uint16Array) || arr.length !== current.length * 2) return null;
  const raw = new Float32Array(arr.slice().buffer);
  const check = raw.slice();
  if (kind !== 'weights') mirrorVec3(check, comps, ctx.mirror);
  sanitizeAttribute(kind, check);
  if (kind !== 'weights') mirrorVec3(check, comps, ctx.mirror); // back to Urho space, where `current` is
  return sameFloats(check, current) ? raw : null;
}

/**
 * Blend indices local to a geometry's bone mapping (bones missing from it → 0). Fills the
 * vertices `indices` lists (or every vertex when `all`) that are not `done` yet, marking them.
 */
export function localJoints(
  out: Uint8Array,
  done: Uint8Array,
  joints: Uint16Array,
  mapping: Uint32Array,
  indices: Uint32Array | null,
  all: boolean,
): void {
  let inv: Int32Array | null = null;
  if (mapping.length) {
    let max = 0;
    for (let i = 0; i < joints.length; i++) if (joints[i] > max) max = joints[i];
    inv = new Int32Array(max + 1);
    // a bone listed twice in the mapping takes its last position
    for (let i = 0; i < mapping.length; i++) if (mapping[i] <= max) inv[mapping[i]] = i;
  }
  const fill = (v: number) => {
    for (let c = 0; c < 4; c++) {
      const k = v * 4 + c;
      out[k] = inv ? inv[joints[k]] : joints[k];
    }
  };
  if (all) {
    const n = done.length;
    for (let v = 0; v < n; v++) if (!done[v]) fill(v);
    return;
  }
  for (let i = 0; i < indices!.length; i++) {
    const v = indices![i];
    if (!done[v]) {
      fill(v);
      done[v] = 1;
    }
  }
}

/** The AssetImporter element order for a primitive's attributes (fits the UMDL mask when it can). */
export function deriveElements(p: VPrim, warnings: WarningCollector): VertexElement[] {
  const els: { type: number; semantic: number; index: number }[] = [];
  const has = (a: string) => p.attrs.has(a);
  els.push({ type: ElementType.VECTOR3, semantic: Semantic.POSITION, index: 0 });
  if (has('NORMAL')) els.push({ type: ElementType.VECTOR3, semantic: Semantic.NORMAL, index: 0 });
  const sets = (prefix: string) =>
    [...p.attrs.keys()]
      .filter((k) => k.startsWith(prefix))
      .map((k) => Number(k.slice(prefix.length)))
      .sort((a, b) => a - b);
  for (const c of sets('COLOR_'))
    els.push({ type: ElementType.UBYTE4_NORM, semantic: Semantic.COLOR, index: c });
  for (const t of sets('TEXCOORD_')) {
    if (p.attrs.get(`TEXCOORD_${t}`)!.comps !== 2) continue;
    els.push({ type: ElementType.VECTOR2, semantic: Semantic.TEXCOORD, index: t });
  }
  if (has('TANGENT')) els.push({ type: ElementType.VECTOR4, semantic: Semantic.TANGENT, index: 0 });
  if (p.joints && p.weights) {
    els.push({ type: ElementType.VECTOR4, semantic: Semantic.BLENDWEIGHTS, index: 0 });
    els.push({ type: ElementType.UBYTE4, semantic: Semantic.BLENDINDICES, index: 0 });
  }
  for (const k of p.attrs.keys()) {
    if (!k.startsWith('_URHO_')) continue;
    const e = parseRawAttributeName(k);
    const a = p.attrs.get(k)!;
    // Only a canonical name parses (see rawAttributeName), so elementValues finds it again; an
    // element already written from a standard attribute is not written twice.
    const dup = e && els.some((x) => x.type === e.type && x.semantic === e.semantic && x.index === e.index);
    if (e && !dup && a.values.BYTES_PER_ELEMENT * a.comps === ELEMENT_TYPE_SIZES[e.type]) els.push(e);
    else warnings.warn('ATTRIBUTE_DROPPED', `attribute ${k} has no Urho3D vertex element; dropped`);
  }
  let offset = 0;
  return els.map((e) => {
    const out = { ...e, offset };
    offset += ELEMENT_TYPE_SIZES[e.type];
    return out;
  });
}
