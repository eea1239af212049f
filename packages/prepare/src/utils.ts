/** Small helpers the export-stage steps share. */
import type { Accessor, Document, Primitive } from '@gltf-transform/core';

/** A new accessor in the document's first buffer (so the prepared document can still be written as glTF). */
export function createAccessor(document: Document, name = ''): Accessor {
  const accessor = document.createAccessor(name);
  const buffer = document.getRoot().listBuffers()[0];
  if (buffer) accessor.setBuffer(buffer);
  return accessor;
}

/**
 * Gives a non-indexed primitive sequential indices (0, 1, 2, …), so that functions which would
 * otherwise weld it first (`convertPrimitiveToTriangles`, the winding flip of a mirrored
 * `transformPrimitive`) keep every vertex as it is.
 */
export function ensureIndices(document: Document, prim: Primitive): void {
  if (prim.getIndices()) return;
  const n = prim.getAttribute('POSITION')?.getCount() ?? 0;
  const indices = n > 65535 ? new Uint32Array(n) : new Uint16Array(n);
  for (let i = 0; i < n; i++) indices[i] = i;
  prim.setIndices(createAccessor(document).setType('SCALAR').setArray(indices));
}
