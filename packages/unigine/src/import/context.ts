/**
 * The state one import shares between its steps (document, buffer, warnings, rate, shared
 * accessors) and the accessor helper.
 */
import type { WarningCollector } from '@gltf-legacy/core';
import type { Accessor, Buffer, Document } from '@gltf-transform/core';
import { packF32 } from '../jsonf32.js';

export const f32 = packF32;

export function accessor(
  doc: Document,
  buffer: Buffer,
  type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4',
  array: Float32Array | Uint8Array | Uint16Array | Uint32Array | Int16Array,
  normalized = false,
): Accessor {
  const a = doc.createAccessor('', buffer).setArray(array);
  if (type !== 'SCALAR') a.setType(type);
  return normalized ? a.setNormalized(true) : a;
}

export interface Ctx {
  doc: Document;
  buffer: Buffer;
  warnings: WarningCollector;
  fps: number;
  /** Refuse the quirks the engine tolerates (`ImportOptions.strict`). */
  strict: boolean;
  /**
   * Write rotation outputs as normalized SHORT where the file's int16 codes fit it exactly
   * (`ImportOptions.compact`); else (the portable default, issue 30) float32.
   */
  compact: boolean;
  /**
   * Accessors shared by animation samplers: key times (`t<frames>:all` / `t<frames>:ends`, and
   * `k<frames>:<kept frames>` for the others) and the outputs of tracks holding one value
   * (`v<size>:<float bits>`, `s…` for normalized SHORT ones): most bones of a clip hold still,
   * and glTF-Transform objects are the cost of an import.
   */
  shared: Map<string, Accessor>;
}
