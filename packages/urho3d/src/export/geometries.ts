/**
 * Index buffers and the geometry table (each geometry's LOD levels: distance, primitive type,
 * buffers, index range). An imported model keeps its own buffer sharing and index ranges while
 * every LOD still fits them; otherwise one index buffer per vertex buffer, geometry-major.
 */
import type { UrhoModelExtras } from '../extras.js';
import type { MdlGeometry, MdlIndexBuffer, MdlVertexBuffer } from '../mdl.js';
import { floatFromJson } from '../space.js';
import type { VPrim } from './common.js';

/** True when the hinted index buffers and LOD table still describe `vprims` exactly. */
function indexHintsHold(
  vprims: VPrim[],
  primsOfGeometry: VPrim[][],
  vbIndexOf: Map<VPrim, number>,
  hx: UrhoModelExtras,
): boolean {
  if (!vprims.every((p) => p.hintIb !== undefined)) return false;
  for (const p of vprims) {
    const lh = hx.geometries[p.geometry]?.lods[p.lod];
    const ibh = lh && hx.indexBuffers[lh.indexBuffer];
    if (
      !lh ||
      !ibh ||
      lh.indexCount !== p.indices.length ||
      lh.vertexBuffer !== vbIndexOf.get(p) ||
      lh.indexStart + lh.indexCount > ibh.indexCount ||
      (ibh.indexSize === 2 && p.vertexCount > 65536) ||
      lh.primitiveType !== p.primitiveType
    ) {
      return false;
    }
  }
  // Every hinted LOD level with indices must still be there (and no extra geometries).
  if (primsOfGeometry.length !== hx.geometries.length) return false;
  let all = true;
  hx.geometries.forEach((gh, g) => {
    gh.lods.forEach((lh, l) => {
      if (lh.indexCount > 0 && !primsOfGeometry[g]?.some((p) => p.lod === l)) all = false;
    });
  });
  return all;
}

/**
 * Writes the indices of every primitive and the geometry table. `hx` only when every vertex
 * buffer kept its hinted layout.
 */
export function buildGeometries(
  vprims: VPrim[],
  primsOfGeometry: VPrim[][],
  geomMappings: Uint32Array[],
  vertexBuffers: MdlVertexBuffer[],
  vbIndexOf: Map<VPrim, number>,
  hx: UrhoModelExtras | undefined,
): { indexBuffers: MdlIndexBuffer[]; geometries: MdlGeometry[] } {
  const geometryCount = primsOfGeometry.length;
  const indexBuffers: MdlIndexBuffer[] = [];
  const geometries: MdlGeometry[] = [];
  for (let g = 0; g < geometryCount; g++) geometries.push({ boneMapping: geomMappings[g], lods: [] });
  if (hx && indexHintsHold(vprims, primsOfGeometry, vbIndexOf, hx)) {
    for (const ibh of hx.indexBuffers)
      indexBuffers.push({
        indexCount: ibh.indexCount,
        indexSize: ibh.indexSize,
        data: new Uint8Array(ibh.indexCount * ibh.indexSize),
      });
    for (let g = 0; g < geometryCount; g++) {
      const gh = hx.geometries[g];
      gh.lods.forEach((lh, l) => {
        geometries[g].lods.push({ ...lh, distance: floatFromJson(lh.distance) });
        const p = primsOfGeometry[g].find((x) => x.lod === l);
        if (!p) return;
        const ib = indexBuffers[lh.indexBuffer];
        putIndices(ib.data, ib.indexSize, lh.indexStart, p.indices);
      });
    }
    return { indexBuffers, geometries };
  }
  // One index buffer per vertex buffer; geometry-major, LOD order.
  const parts: VPrim[][] = vertexBuffers.map(() => []);
  for (const p of vprims) parts[vbIndexOf.get(p)!].push(p);
  parts.forEach((list, v) => {
    list.sort((a, b) => a.geometry - b.geometry || a.lod - b.lod);
    const count = list.reduce((s, p) => s + p.indices.length, 0);
    const size = vertexBuffers[v].vertexCount > 65536 ? 4 : 2;
    const data = new Uint8Array(count * size);
    let at = 0;
    for (const p of list) {
      putIndices(data, size, at, p.indices);
      geometries[p.geometry].lods[p.lod] = {
        distance: p.distance,
        primitiveType: p.primitiveType,
        vertexBuffer: v,
        indexBuffer: v,
        indexStart: at,
        indexCount: p.indices.length,
      };
      at += p.indices.length;
    }
    indexBuffers.push({ indexCount: count, indexSize: size, data });
  });
  for (const g of geometries) g.lods = g.lods.filter(Boolean);
  return { indexBuffers, geometries };
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Writes `indices` as little-endian u16/u32 into `data` from index `at` on. */
export function putIndices(data: Uint8Array, size: number, at: number, indices: Uint32Array): void {
  if (LITTLE_ENDIAN_HOST && data.byteOffset % size === 0) {
    if (size === 2) new Uint16Array(data.buffer, data.byteOffset, data.byteLength >> 1).set(indices, at);
    else new Uint32Array(data.buffer, data.byteOffset, data.byteLength >> 2).set(indices, at);
    return;
  }
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let i = 0; i < indices.length; i++) {
    if (size === 2) dv.setUint16((at + i) * 2, indices[i], true);
    else dv.setUint32((at + i) * 4, indices[i], true);
  }
}
