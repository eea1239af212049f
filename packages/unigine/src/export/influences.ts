/**
 * Export of skin influences per glTF vertex: the imported raw u16 codes, or the prepared
 * JOINTS/WEIGHTS (at most 4 per vertex after the shared stage) mapped to bones and quantized.
 */
import { readInfluences, type WarningCollector } from '@gltf-legacy/core';
import { encodeWeightU16 } from '@gltf-legacy/quantize';
import type { Primitive, Skin } from '@gltf-transform/core';
import { ATTR_WBONES, ATTR_WCOUNT, ATTR_WVALUES } from '../extras.js';
import { intArray } from './coordinates.js';
import { quantizeInfluences4 } from './kernels.js';
import type { Skeleton } from './skeleton.js';

/** Influences per glTF vertex: count, bone indices and u16 weight codes (4 slots each). */
export interface Influences {
  count: Uint8Array;
  bones: Int16Array;
  values: Uint16Array;
}

/**
 * Step 3: influences per glTF vertex as bone indices + u16 codes — the imported raw codes, or
 * the prepared JOINTS/WEIGHTS (at most 4 non-zero per vertex after the shared stage) quantized.
 */
export function surfaceInfluences(
  prim: Primitive,
  skin: Skin,
  skel: Skeleton,
  n: number,
  warnings: WarningCollector,
): Influences | null {
  const rc = intArray(prim, ATTR_WCOUNT, n);
  const rb = intArray(prim, ATTR_WBONES, n);
  const rv = intArray(prim, ATTR_WVALUES, n);
  if (rc && rb && rv && rb.length === n * 4 && rv.length === n * 4)
    return { count: new Uint8Array(rc), bones: new Int16Array(rb), values: new Uint16Array(rv) };
  const joints = skin.listJoints();
  const boneOfJoint = Int32Array.from(joints, (j) => skel.index.get(j) ?? -1);
  const ja = prim.getAttribute('JOINTS_0');
  const wa = prim.getAttribute('WEIGHTS_0');
  const jarr = ja?.getArray();
  const warr = wa?.getArray();
  let quantized = -1;
  const count = new Uint8Array(n);
  const bones = new Int16Array(n * 4);
  const values = new Uint16Array(n * 4);
  if (
    ja &&
    wa &&
    !(prim.getAttribute('JOINTS_1') && prim.getAttribute('WEIGHTS_1')) &&
    (jarr instanceof Uint8Array || jarr instanceof Uint16Array) &&
    !ja.getNormalized() &&
    warr instanceof Float32Array &&
    ja.getElementSize() === 4 &&
    wa.getElementSize() === 4 &&
    jarr.length === n * 4 &&
    warr.length === n * 4
  ) {
    // The usual single set of 4: readInfluences + quantization fused (same codes).
    quantized = quantizeInfluences4(jarr, warr, boneOfJoint, n, count, bones, values);
  } else {
    // Any other layout (the stage left at most 4 non-zero influences per vertex).
    const inf = readInfluences(prim, 4);
    if (inf) {
      quantized = 0;
      for (let v = 0; v < n; v++) {
        let k = 0;
        for (let i = 0; i < 4; i++) {
          const w = inf.weights[v * 4 + i];
          const code = encodeWeightU16(w);
          if (code === 0) continue;
          const b = boneOfJoint[inf.joints[v * 4 + i]] ?? -1;
          if (b < 0) continue;
          bones[v * 4 + k] = b;
          values[v * 4 + k] = code;
          k++;
          if (w > 0) quantized++;
        }
        count[v] = k;
      }
    }
  }
  if (quantized < 0) return null;
  warnings.warn(
    'VALUE_QUANTIZED',
    `skin weights quantized to u16 (error ≤ ${(1 / 131070).toExponential(2)})`,
    quantized ? 1 : 0,
  );
  return { count, bones, values };
}
