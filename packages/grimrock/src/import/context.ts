/**
 * Import, shared state: the document, its one buffer and the warnings every import step writes
 * to, and the accessor helper they share.
 */
import type { WarningCollector } from '@gltf-legacy/core';
import type { Accessor, Buffer, Document } from '@gltf-transform/core';

export interface ImportContext {
  doc: Document;
  buffer: Buffer;
  warnings: WarningCollector;
  /** `ImportOptions.strict`: refuse the quirks import otherwise reads with a warning. */
  strict?: boolean;
}

export function floatAccessor(
  ctx: ImportContext,
  type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4',
  array: Float32Array,
): Accessor {
  return ctx.doc.createAccessor().setType(type).setArray(array).setBuffer(ctx.buffer);
}

export const VEC_TYPES = ['SCALAR', 'SCALAR', 'VEC2', 'VEC3', 'VEC4'] as const;
