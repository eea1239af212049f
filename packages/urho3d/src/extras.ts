/**
 * The `extras.urho3d` shapes both directions share: what a `.mdl` holds that glTF cannot (vertex
 * layouts, buffer sharing, LOD levels, bone mappings, raw file values), written by import on the
 * model's top node and read back by export.
 */
import { getKeptBytes, getKeptNumbers, legacyByteArray, setKeptNumbers } from '@gltf-legacy/core';
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
    /**
     * The geometry's bone indices. In the JSON only while it has at most
     * {@link BONE_MAPPING_JSON_MAX} entries; a longer one is kept as bytes (u32 little-endian,
     * `GLTF_LEGACY_kept_bytes` key `boneMapping:<geometry>` of the top node) and
     * {@link modelExtrasOf} puts it back here.
     */
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
  /**
   * In the JSON only while it has at most {@link BONE_MAPPING_JSON_MAX} numbers (5 geometries);
   * more are kept bytes `geometryCenters` of the top node (float32 LE), which
   * {@link modelExtrasOf} puts back here.
   */
  geometryCenters: (number | string)[];
  /** Files written before `GLTF_LEGACY_kept_bytes`: the bytes after the model (now kept bytes `trailing` of the node). */
  trailing?: number[];
}

/** `extras.urho3d.model` as written: a geometry's `boneMapping` is absent when it is kept as bytes. */
export type UrhoModelExtrasJson = Omit<UrhoModelExtras, 'geometries' | 'geometryCenters'> & {
  geometries: (Omit<UrhoModelExtras['geometries'][number], 'boneMapping'> & { boneMapping?: number[] })[];
  geometryCenters?: (number | string)[];
};

/** Longest bone mapping written as a JSON array; longer ones are kept as bytes (no number tables in extras). */
export const BONE_MAPPING_JSON_MAX = 16;

/**
 * The top node carrying `extras.urho3d.model` and those extras (a copy whose geometries all have
 * their `boneMapping`, from the kept bytes when it is not in the JSON), or null (a foreign
 * document).
 *
 * ```ts
 * const hint = modelExtrasOf(doc); // hint?.extras.geometries[0].boneMapping: number[]
 * ```
 */
export function modelExtrasOf(doc: Document): { top: Node; extras: UrhoModelExtras } | null {
  for (const n of doc.getRoot().listNodes()) {
    const e = (n.getExtras() as any)?.urho3d?.model;
    if (e && Array.isArray(e.vertexBuffers) && Array.isArray(e.geometries)) {
      const geometries = (e.geometries as unknown[]).map((g, i) =>
        g && typeof g === 'object' && !Array.isArray((g as { boneMapping?: unknown }).boneMapping)
          ? { ...g, boneMapping: keptBoneMapping(n, i) }
          : g,
      );
      const geometryCenters = Array.isArray(e.geometryCenters) ? e.geometryCenters : keptCenters(n);
      return { top: n, extras: { ...e, geometries, geometryCenters } as UrhoModelExtras };
    }
  }
  return null;
}

/** The bone mapping of geometry `g` kept as bytes on `top` (u32 little-endian), else empty. */
function keptBoneMapping(top: Node, g: number): number[] {
  return Array.from(getKeptNumbers(top, `boneMapping:${g}`, 'u32') ?? []);
}

/** The geometry centres kept as bytes on `top` (float32 LE), in `floatToJson`'s form; undefined when none. */
function keptCenters(top: Node): (number | string)[] | undefined {
  const bits = getKeptNumbers(top, 'geometryCenters', 'u32');
  if (!bits) return undefined;
  const values = new Float32Array(bits.buffer);
  return Array.from(values, (f, i) => {
    if (!Number.isNaN(f)) return floatToJson(f);
    return bits[i] === 0x7fc00000 ? 'NaN' : `NaN:${bits[i]!.toString(16).padStart(8, '0')}`;
  });
}

/**
 * Keeps the bone mappings longer than {@link BONE_MAPPING_JSON_MAX} and more than that many
 * geometry centre coordinates as bytes on `top` (those {@link modelExtrasFromMdl} leaves out of
 * the JSON).
 *
 * ```ts
 * keepBoneMappings(top, model);
 * ```
 */
export function keepBoneMappings(top: Node, model: MdlModel): void {
  // bit patterns, not values (a NaN keeps its payload), little-endian
  if (model.geometryCenters.length > BONE_MAPPING_JSON_MAX)
    setKeptNumbers(top, 'geometryCenters', 'f32', model.geometryCenters);
  model.geometries.forEach((g, i) => {
    if (g.boneMapping.length > BONE_MAPPING_JSON_MAX)
      setKeptNumbers(top, `boneMapping:${i}`, 'u32', g.boneMapping);
  });
}

/** What import records of `model` (`rawBackups`: raw accessor names per vertex buffer). */
export function modelExtrasFromMdl(
  model: MdlModel,
  rawBackups: Record<string, string>[],
): UrhoModelExtrasJson {
  const extras: UrhoModelExtrasJson = {
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
      // a long mapping goes to the kept bytes (keepBoneMappings); modelExtrasOf reads it back
      ...(g.boneMapping.length <= BONE_MAPPING_JSON_MAX ? { boneMapping: Array.from(g.boneMapping) } : {}),
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
    ...(model.geometryCenters.length <= BONE_MAPPING_JSON_MAX
      ? { geometryCenters: floatsToJson(model.geometryCenters) }
      : {}),
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
  return legacyByteArray(legacy);
}
