/**
 * The `extras.urho3d` shapes both directions share: what a `.mdl` holds that glTF cannot (vertex
 * layouts, buffer sharing, LOD levels, bone mappings, raw file values), written by import on the
 * model's top node and read back by export.
 */
import type { Document, Node } from '@gltf-transform/core';

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
  morphs: { name: string; buffers: { vertexBuffer: number; elementMask: number; vertexCount: number }[] }[];
  /** Floats as written by `floatToJson` (-0 / NaN / Infinity as strings). */
  bounds: (number | string)[];
  geometryCenters: (number | string)[];
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
