/**
 * The `extras.urho3d` shapes both directions share: what a `.mdl` holds that glTF cannot (vertex
 * layouts, buffer sharing, LOD levels, bone mappings, raw file values), written by import on the
 * model's top node and read back by export.
 */
import { getKeptBytes } from '@gltf-legacy/core';
import type { Document, ExtensibleProperty, Node } from '@gltf-transform/core';
import type { MdlModel } from './mdl.js';
import { floatsToJson, floatToJson, uniformZeroSigns } from './space.js';

/** Top-node `extras.urho3d.model`: what the .mdl holds that glTF cannot. */
export interface UrhoModelExtras {
  magic: 'UMDL' | 'UMD2';
  vertexBuffers: {
    vertexCount: number;
    elementMask: number;
    descriptors: number[] | null;
    morphRangeStart: number;
    morphRangeCount: number;
    /** Names of accessors holding file values (as u16 pairs of float bits) that were fixed for glTF. */
    raw?: Record<string, string>;
  }[];
  indexBuffers: { indexCount: number; indexSize: number }[];
  geometries: {
    boneMapping: number[];
    lods: {
      distance: number | string;
      primitiveType: number;
      vertexBuffer: number;
      indexBuffer: number;
      indexStart: number;
      indexCount: number;
    }[];
  }[];
  morphs: {
    name: string;
    buffers: {
      vertexBuffer: number;
      elementMask: number;
      vertexCount: number;
      /**
       * Per channel, the sign bits (x 1, y 2, z 4) of every listed zero delta when they are all the
       * same and not +0 (`uniformZeroSigns`); glTF holds those deltas as +0 (a sparse target drops them).
       */
      zeroSigns?: { positions?: number; normals?: number; tangents?: number };
    }[];
  }[];
  /** Floats as written by `floatToJson` (-0 / NaN / Infinity as strings). */
  bounds: (number | string)[];
  geometryCenters: (number | string)[];
  /** Files written before `GLTF_LEGACY_kept_bytes`: the bytes after the model (now kept bytes `trailing` of the node). */
  trailing?: number[];
}

/** The top node carrying `extras.urho3d.model` and those extras, or null (a foreign document). */
export function modelExtrasOf(doc: Document): { top: Node; extras: UrhoModelExtras } | null {
  for (const n of doc.getRoot().listNodes()) {
    const e = (n.getExtras() as any)?.urho3d?.model;
    if (e && Array.isArray(e.vertexBuffers) && Array.isArray(e.geometries))
      return { top: n, extras: e as UrhoModelExtras };
  }
  return null;
}

/** What import records of `model` (`rawBackups`: raw accessor names per vertex buffer). */
export function modelExtrasFromMdl(model: MdlModel, rawBackups: Record<string, string>[]): UrhoModelExtras {
  const extras: UrhoModelExtras = {
    magic: model.magic,
    vertexBuffers: model.vertexBuffers.map((vb, v) => ({
      vertexCount: vb.vertexCount,
      elementMask: vb.elementMask,
      descriptors: vb.descriptors ? Array.from(vb.descriptors) : null,
      morphRangeStart: vb.morphRangeStart,
      morphRangeCount: vb.morphRangeCount,
      ...(Object.keys(rawBackups[v]).length ? { raw: rawBackups[v] } : {}),
    })),
    indexBuffers: model.indexBuffers.map((ib) => ({ indexCount: ib.indexCount, indexSize: ib.indexSize })),
    geometries: model.geometries.map((g) => ({
      boneMapping: Array.from(g.boneMapping),
      lods: g.lods.map((l) => ({ ...l, distance: floatToJson(l.distance) })),
    })),
    morphs: model.morphs.map((m) => ({
      name: m.name,
      buffers: m.buffers.map((b) => {
        const zeroSigns: { positions?: number; normals?: number; tangents?: number } = {};
        for (const key of ['positions', 'normals', 'tangents'] as const) {
          const p = b[key] ? uniformZeroSigns(b[key]) : 0;
          if (p) zeroSigns[key] = p;
        }
        return {
          vertexBuffer: b.vertexBuffer,
          elementMask: b.elementMask,
          vertexCount: b.vertexCount,
          ...(Object.keys(zeroSigns).length ? { zeroSigns } : {}),
        };
      }),
    })),
    bounds: floatsToJson(model.bounds),
    geometryCenters: floatsToJson(model.geometryCenters),
  };
  return extras;
}

/**
 * The bytes kept after a model or animation (`GLTF_LEGACY_kept_bytes` key `trailing` of its node
 * or animation), else those of files written before the extension (`legacy`: an array of 0..255
 * in `extras.urho3d`), else undefined.
 *
 * ```ts
 * const trailing = keptTrailing(anim, (anim.getExtras() as any).urho3d?.trailing);
 * ```
 */
export function keptTrailing(holder: ExtensibleProperty, legacy: unknown): Uint8Array | undefined {
  const kept = getKeptBytes(holder, 'trailing');
  if (kept) return kept;
  return Array.isArray(legacy) ? Uint8Array.from(legacy as number[]) : undefined;
}
