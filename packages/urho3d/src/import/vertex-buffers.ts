/**
 * `.mdl` vertex buffers → glTF accessors shared by every primitive that uses the buffer
 * (positions, normals, tangents mirrored; values glTF cannot hold fixed and the file values kept
 * in raw accessors), and JOINTS_0 per (vertex buffer, geometry bone mapping) as global bones.
 */
import { type AxisMap, FormatError, type WarningCollector } from '@gltf-legacy/core';
import type { Accessor, Document } from '@gltf-transform/core';
import { attributeFor, rawAttributeName, readElement, sanitizeAttribute } from '../attributes.js';
import type { MdlModel } from '../mdl.js';
import { mirrorVec3 } from '../space.js';
import { indexView } from './geometries.js';

/** The accessors of each vertex buffer, and how to get JOINTS_0 for a geometry. */
export interface VertexAccessors {
  /** Attribute name → accessor, per vertex buffer. */
  vbAttrs: Map<string, Accessor>[];
  /** Names of raw accessors holding file values that were fixed for glTF, per vertex buffer. */
  rawBackups: Record<string, string>[];
  /** JOINTS_0 of vertex buffer `v` as used by geometry `g` (null without blend indices). */
  jointsFor(v: number, g: number): Accessor | null;
  /** Weighted blend indices past the mapping / skeleton seen so far (set to bone 0). */
  badBones(): number;
}

/** Builds the accessors of every vertex buffer of `model`. */
export function importVertexBuffers(
  doc: Document,
  model: MdlModel,
  name: string,
  warnings: WarningCollector,
  mirror: AxisMap,
): VertexAccessors {
  const vbAttrs: Map<string, Accessor>[] = [];
  const vbJoints: (Uint8Array | null)[] = [];
  const needRawJoints = model.vertexBuffers.map(() => false);
  const rawBackups: Record<string, string>[] = model.vertexBuffers.map(() => ({}));
  for (const g of model.geometries)
    if (g.boneMapping.length) for (const l of g.lods) needRawJoints[l.vertexBuffer] = true;
  model.vertexBuffers.forEach((vb, v) => {
    const attrs = new Map<string, Accessor>();
    vbJoints.push(null);
    // glTF needs TEXCOORD_n / COLOR_n sets numbered 0, 1, 2… without gaps: a set after a gap
    // stays an application-specific attribute with its file values.
    const standard = new Set<string>();
    vb.elements.forEach((e) => {
      standard.add(attributeFor(e)[0]);
    });
    vb.elements.forEach((e, k) => {
      let [attr, kind] = attributeFor(e);
      const set = /^(TEXCOORD|COLOR)_(\d+)$/.exec(attr);
      if (set && Number(set[2]) > 0) {
        for (let i = 0; i < Number(set[2]); i++) {
          if (!standard.has(`${set[1]}_${i}`)) {
            attr = rawAttributeName(e);
            kind = 'raw';
            break;
          }
        }
      }
      if (attrs.has(attr)) attr = `_URHO_E${k}`;
      if (kind === 'joints' && !model.bones.length) kind = 'raw';
      const values = readElement(vb.data, vb.stride, vb.vertexCount, e);
      const acc = doc.createAccessor(`vb${v}.${attr}`);
      switch (kind) {
        case 'position':
          mirrorVec3(values, 3, mirror);
          acc.setType('VEC3').setArray(values);
          break;
        case 'normal':
        case 'tangent':
        case 'weights': {
          const raw = (values as Float32Array).slice();
          if (kind !== 'weights') mirrorVec3(values, kind === 'tangent' ? 4 : 3, mirror);
          if (sanitizeAttribute(kind, values as Float32Array)) {
            warnings.warn(
              `${kind.toUpperCase()}_SANITIZED`,
              `${attr} values were not valid glTF (unit length / ±1 handedness / weights summing to 1, finite); fixed, file values kept in a raw accessor`,
            );
            // File values as raw float bits (they may be NaN, which glTF accessors cannot hold).
            const accName = `${name}.vb${v}.raw.${attr}`;
            doc
              .createAccessor(accName)
              .setType('SCALAR')
              .setArray(new Uint16Array(raw.buffer, raw.byteOffset, raw.length * 2));
            rawBackups[v][attr] = accName;
          }
          acc.setType(kind === 'normal' ? 'VEC3' : 'VEC4').setArray(values);
          break;
        }
        case 'plain':
          acc.setType('VEC2').setArray(values);
          break;
        case 'color':
          acc
            .setType(values instanceof Uint8Array ? 'VEC4' : e.type === 3 ? 'VEC3' : 'VEC4')
            .setArray(values);
          if (values instanceof Uint8Array) acc.setNormalized(true);
          break;
        case 'joints':
          vbJoints[v] = values as Uint8Array;
          if (needRawJoints[v]) attrs.set('_URHO_BLENDINDICES', acc.setType('VEC4').setArray(values));
          else acc.dispose();
          return;
        default: {
          const n = values.length / Math.max(1, vb.vertexCount);
          acc.setType(n === 1 ? 'SCALAR' : n === 2 ? 'VEC2' : n === 3 ? 'VEC3' : 'VEC4').setArray(values);
        }
      }
      attrs.set(attr, acc);
    });
    vbAttrs.push(attrs);
  });

  // Which geometries use each vertex (JOINTS_0 of a shared buffer follow the owning geometry's mapping).
  const owner: Int32Array[] = model.vertexBuffers.map((vb) => new Int32Array(vb.vertexCount).fill(-1));
  const usedBy: Uint8Array[][] = model.geometries.map(() => []);
  model.geometries.forEach((geo, g) => {
    for (const lod of geo.lods) {
      const ib = model.indexBuffers[lod.indexBuffer];
      const vc = model.vertexBuffers[lod.vertexBuffer].vertexCount;
      const used = (usedBy[g][lod.vertexBuffer] ??= new Uint8Array(vc));
      const own = owner[lod.vertexBuffer];
      const view = indexView(ib);
      for (let i = lod.indexStart; i < lod.indexStart + lod.indexCount; i++) {
        const x = view[i];
        if (x >= vc) {
          throw new FormatError(
            `index ${x} is past the ${vc} vertices of vertex buffer ${lod.vertexBuffer}`,
            {
              code: 'BAD_INDEX',
              field: `indexBuffers[${lod.indexBuffer}][${i}]`,
            },
          );
        }
        used[x] = 1;
        if (own[x] < 0) own[x] = g;
      }
    }
  });

  // JOINTS_0 per (vertex buffer, geometry mapping), as global bone indices.
  const jointsCache = new Map<string, Accessor>();
  let bad = 0;
  const mappings = model.geometries.map((geo) => geo.boneMapping);
  const jointsFor = (v: number, g: number): Accessor | null => {
    const raw = vbJoints[v];
    if (!raw) return null;
    const mapping = model.geometries[g].boneMapping;
    const key = `${v}:${mapping.join(',')}`;
    let acc = jointsCache.get(key);
    if (acc) return acc;
    const nb = model.bones.length;
    const weights = vbAttrs[v].get('WEIGHTS_0')?.getArray() as Float32Array | undefined;
    const wide = remapJoints(raw, weights, usedBy[g][v], owner[v], mapping, mappings, nb);
    bad += wide.bad;
    const out = nb > 256 ? wide.out : Uint8Array.from(wide.out);
    acc = doc.createAccessor(`vb${v}.JOINTS_0`).setType('VEC4').setArray(out);
    jointsCache.set(key, acc);
    return acc;
  };
  return { vbAttrs, rawBackups, jointsFor, badBones: () => bad };
}

/**
 * JOINTS_0 (global bone numbers) of a vertex buffer for geometry mapping `mapping`: a vertex the
 * geometry uses (or no geometry owns) goes through `mapping`, others through their owner's.
 * Indices past the mapping / skeleton become 0 (`bad` counts weighted ones of used vertices);
 * weighted repeats (bad data) get the lowest bone not on the vertex, as glTF needs distinct joints.
 */
function remapJoints(
  raw: Uint8Array,
  weights: Float32Array | undefined,
  used: Uint8Array | undefined,
  own: Int32Array,
  mapping: Uint32Array,
  mappings: Uint32Array[],
  nb: number,
): { out: Uint16Array; bad: number } {
  const out = new Uint16Array(raw.length);
  let bad = 0;
  for (let x = 0; x < raw.length >> 2; x++) {
    const u = used ? used[x] : 0;
    const map = u || own[x] < 0 ? mapping : mappings[own[x]];
    const ml = map.length;
    for (let c = 0; c < 4; c++) {
      const i = x * 4 + c;
      const local = raw[i];
      const global = ml ? (local < ml ? map[local] : nb) : local;
      if (global < nb) out[i] = global;
      else {
        out[i] = 0;
        if (weights && weights[i] > 0 && u) bad++;
      }
    }
    if (!weights) continue;
    for (let c = 1; c < 4; c++) {
      const i = x * 4 + c;
      if (!(weights[i] > 0)) continue;
      for (let p = 0; p < c; p++) {
        if (out[x * 4 + p] === out[i] && weights[x * 4 + p] > 0) {
          let j = 0;
          for (; j < nb; j++) {
            let taken = false;
            for (let k = 0; k < 4; k++) if (k !== c && out[x * 4 + k] === j) taken = true;
            if (!taken) break;
          }
          out[i] = j < nb ? j : out[i];
          break;
        }
      }
    }
  }
  return { out, bad };
}
