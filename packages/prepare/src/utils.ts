/** Small helpers the export-stage steps share. */
import type { Accessor, Document } from '@gltf-transform/core';

/** A new accessor in the document's first buffer (so the prepared document can still be written as glTF). */
export function createAccessor(document: Document, name = ''): Accessor {
  const accessor = document.createAccessor(name);
  const buffer = document.getRoot().listBuffers()[0];
  if (buffer) accessor.setBuffer(buffer);
  return accessor;
}
