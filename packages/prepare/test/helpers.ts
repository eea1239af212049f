import { Document, Primitive } from '@gltf-transform/core';

/** A document with one mesh node holding one primitive of `positions` (and optional indices). */
export function docWith(positions: number[], indices?: number[], mode = Primitive.Mode.TRIANGLES) {
  const document = new Document();
  const buffer = document.createBuffer();
  const prim = document
    .createPrimitive()
    .setMode(mode)
    .setAttribute(
      'POSITION',
      document.createAccessor().setBuffer(buffer).setType('VEC3').setArray(new Float32Array(positions)),
    );
  if (indices)
    prim.setIndices(
      document.createAccessor().setBuffer(buffer).setType('SCALAR').setArray(new Uint16Array(indices)),
    );
  const mesh = document.createMesh('m').addPrimitive(prim);
  const node = document.createNode('n').setMesh(mesh);
  document.createScene().addChild(node);
  return { document, buffer, prim, mesh, node };
}

/** Triangles of a primitive as sorted strings of their vertex positions (order-independent comparison). */
export function triangleSet(prim: Primitive): string[] {
  const pos = prim.getAttribute('POSITION')!.getArray()!;
  const idx = prim.getIndices()?.getArray() ?? Array.from({ length: pos.length / 3 }, (_, i) => i);
  const out: string[] = [];
  for (let t = 0; t + 2 < idx.length; t += 3) {
    const tri = [0, 1, 2].map((k) => Array.from(pos.slice(idx[t + k] * 3, idx[t + k] * 3 + 3)).join(','));
    // rotate so the smallest vertex comes first (keeps winding)
    const r = tri.indexOf([...tri].sort()[0]);
    out.push([...tri.slice(r), ...tri.slice(0, r)].join(' | '));
  }
  return out.sort();
}
