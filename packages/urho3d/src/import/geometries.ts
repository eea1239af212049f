/**
 * `.mdl` geometries → glTF primitives: LOD 0 of every geometry in the visible mesh, level L in a
 * mesh `NAME_LOD<L>` (`extras.urho3d.lodLevel`), each primitive tagged with its geometry and level
 * and given a placeholder material per geometry; indices in glTF winding (strips and fans as
 * triangle lists).
 */
import { FormatError, type WarningCollector } from '@gltf-legacy/core';
import type { Accessor, Document, Material, Mesh, Primitive, Skin } from '@gltf-transform/core';
import { type MdlModel, PrimitiveType } from '../mdl.js';
import { flipTriangles } from '../space.js';
import type { VertexAccessors } from './vertex-buffers.js';

/** Builds the meshes (index = LOD level; level 0 first) of `model`. */
export function importGeometries(
  doc: Document,
  model: MdlModel,
  name: string,
  vb: VertexAccessors,
  morphTargets: Map<string, Accessor>[][],
  skin: Skin | null,
  warnings: WarningCollector,
): { meshes: Mesh[]; anyJoints: boolean } {
  const materials: Material[] = model.geometries.map((_, g) =>
    doc
      .createMaterial(`${name}_geometry${g}`)
      .setMetallicFactor(0)
      .setRoughnessFactor(1)
      .setExtras({ urho3d: { placeholder: true } }),
  );
  const meshes: Mesh[] = [];
  const meshFor = (level: number): Mesh => {
    while (meshes.length <= level) {
      const m = doc.createMesh(meshes.length ? `${name}_LOD${meshes.length}` : name);
      if (meshes.length) m.setExtras({ urho3d: { lodLevel: meshes.length } });
      meshes.push(m);
    }
    return meshes[level];
  };
  meshFor(0);
  let anyJoints = false;
  model.geometries.forEach((geo, g) => {
    geo.lods.forEach((lod, l) => {
      if (lod.indexCount === 0) return; // kept in the model extras
      const prim = buildPrimitive(doc, model, lod, `${name}.g${g}.lod${l}`);
      if (!prim) return;
      for (const [attr, acc] of vb.vbAttrs[lod.vertexBuffer]) prim.setAttribute(attr, acc);
      const joints = vb.jointsFor(lod.vertexBuffer, g);
      if (joints && skin) {
        prim.setAttribute('JOINTS_0', joints);
        anyJoints = true;
      }
      if (l === 0) {
        for (const [mi, targets] of morphTargets.entries()) {
          const t = doc.createPrimitiveTarget(model.morphs[mi].name);
          for (const [attr, acc] of targets[lod.vertexBuffer]) t.setAttribute(attr, acc);
          prim.addTarget(t);
        }
      }
      prim.setMaterial(materials[g]);
      prim.setExtras({ urho3d: { geometry: g, lod: l } });
      meshFor(l).addPrimitive(prim);
    });
  });
  if (model.morphs.length) meshes[0].setExtras({ targetNames: model.morphs.map((m) => m.name) });
  for (const m of meshes.slice(1)) if (!m.listPrimitives().length) m.dispose();
  const badBones = vb.badBones();
  if (badBones)
    warnings.warn(
      'BAD_BONE_INDEX',
      'a vertex blend index points past the bone mapping / skeleton; set to bone 0',
      badBones,
    );
  return { meshes, anyJoints };
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** An index buffer's values as u16/u32 (a view when aligned on a little-endian host). */
export function indexView(ib: MdlModel['indexBuffers'][number]): Uint16Array | Uint32Array {
  const n = Math.floor(ib.data.byteLength / ib.indexSize);
  if (LITTLE_ENDIAN_HOST) {
    const src = ib.data.byteOffset % ib.indexSize === 0 ? ib.data : ib.data.slice();
    return ib.indexSize === 2
      ? new Uint16Array(src.buffer, src.byteOffset, n)
      : new Uint32Array(src.buffer, src.byteOffset, n);
  }
  const dv = new DataView(ib.data.buffer, ib.data.byteOffset, ib.data.byteLength);
  const out = ib.indexSize === 2 ? new Uint16Array(n) : new Uint32Array(n);
  for (let i = 0; i < n; i++)
    out[i] = ib.indexSize === 2 ? dv.getUint16(i * 2, true) : dv.getUint32(i * 4, true);
  return out;
}

function buildPrimitive(
  doc: Document,
  model: MdlModel,
  lod: MdlModel['geometries'][number]['lods'][number],
  label: string,
): Primitive | null {
  const ib = model.indexBuffers[lod.indexBuffer];
  const vertexCount = model.vertexBuffers[lod.vertexBuffer].vertexCount;
  const src = ib.data.subarray(
    lod.indexStart * ib.indexSize,
    (lod.indexStart + lod.indexCount) * ib.indexSize,
  );
  const aligned = src.byteOffset % ib.indexSize === 0 ? src : src.slice();
  const view =
    ib.indexSize === 2
      ? new Uint16Array(aligned.buffer, aligned.byteOffset, lod.indexCount)
      : new Uint32Array(aligned.buffer, aligned.byteOffset, lod.indexCount);
  for (let i = 0; i < view.length; i++) {
    if (view[i] >= vertexCount) {
      throw new FormatError(
        `index ${view[i]} is past the ${vertexCount} vertices of vertex buffer ${lod.vertexBuffer}`,
        {
          code: 'BAD_INDEX',
          field: `indexBuffers[${lod.indexBuffer}][${lod.indexStart + i}]`,
        },
      );
    }
  }
  let indices: Uint16Array | Uint32Array;
  let mode: number;
  switch (lod.primitiveType) {
    case PrimitiveType.TRIANGLE_LIST:
      indices = view.slice();
      flipTriangles(indices);
      mode = 4;
      break;
    case PrimitiveType.TRIANGLE_STRIP:
    case PrimitiveType.TRIANGLE_FAN: {
      const n = Math.max(0, view.length - 2);
      indices = view instanceof Uint16Array ? new Uint16Array(n * 3) : new Uint32Array(n * 3);
      for (let i = 0; i < n; i++) {
        let a: number;
        let b: number;
        const c = view[i + 2];
        if (lod.primitiveType === PrimitiveType.TRIANGLE_FAN) {
          a = view[0];
          b = view[i + 1];
        } else if (i % 2 === 0) {
          a = view[i];
          b = view[i + 1];
        } else {
          a = view[i + 1];
          b = view[i];
        }
        indices[i * 3] = a;
        indices[i * 3 + 1] = c;
        indices[i * 3 + 2] = b; // reversed winding
      }
      mode = 4;
      break;
    }
    case PrimitiveType.LINE_LIST:
      indices = view.slice();
      mode = 1;
      break;
    case PrimitiveType.LINE_STRIP:
      indices = view.slice();
      mode = 3;
      break;
    default:
      indices = view.slice();
      mode = 0;
  }
  if (!indices.length) return null;
  return doc
    .createPrimitive()
    .setMode(mode as 0)
    .setIndices(doc.createAccessor(`${label}.indices`).setType('SCALAR').setArray(indices));
}
