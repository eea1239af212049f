/**
 * Rotation outputs as glTF normalized SHORT (issue 19): UNIGINE stores bone rotations as int16
 * codes `c / 32767`, which glTF core allows as an animation sampler output for rotation
 * (`SHORT`, normalized: a client decodes `max(c / 32767, −1)`). Written so only where that decodes
 * to exactly the float32 the float path would hold.
 */

import { decodeSnorm16, encodeSnorm16 } from '@gltf-legacy/quantize';

/**
 * The int16 codes of `values` when every value is exactly `Math.fround(c / 32767)` for a code
 * `c` in −32767…32767 (what glTF's normalized SHORT decodes to, as float32), else null. −32768 is
 * refused: glTF clamps it to −1, and −32768/32767 is what the file meant. Zeros of either sign
 * become code 0 (the exporter writes −0 and +0 as the same code).
 *
 * ```ts
 * exactSnorm16(Float32Array.of(0, 0, Math.fround(1 / 32767), 1)); // Int16Array [0, 0, 1, 32767]
 * exactSnorm16(Float32Array.of(0.5)); // null: 0.5 is no code / 32767
 * ```
 */
export function exactSnorm16(values: Float32Array): Int16Array | null {
  const codes = new Int16Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const c = encodeSnorm16(v);
    if (c === -32768 || Math.fround(decodeSnorm16(c)) !== v) return null;
    codes[i] = c;
  }
  return codes;
}
