/**
 * 16-bit codecs for values in a known range. Every `encode` rounds to the nearest code, so
 * `encode(decode(q)) === q` for every 16-bit code, also after the decoded value has been stored
 * as float32 (tested exhaustively). That property is what makes byte-exact round trips possible.
 */

type Floats = { length: number; [i: number]: number };

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

// ---------------------------------------------------------------- unit normal component ⇄ u16

/**
 * Unit normal component (−1…1) → u16: `round((n·0.5 + 0.5)·65535)`, clamped (Unigine).
 * Worst-case error of decode(encode(n)) for n in [−1, 1]: 1/65535 ≈ 1.53e-5.
 */
export function encodeNormalU16(n: number): number {
  if (Number.isNaN(n)) return 32768;
  return clamp(Math.round((n * 0.5 + 0.5) * 65535), 0, 65535);
}
/** u16 → unit normal component: `q/65535·2 − 1`. */
export function decodeNormalU16(q: number): number {
  return (q / 65535) * 2 - 1;
}
/** Worst-case absolute error of a normal component through u16. */
export const NORMAL_U16_MAX_ERROR = 1 / 65535;

// ---------------------------------------------------------------- range-quantized u16

/**
 * Value in `[min, min + size]` → u16: `round((v − min)/size · 65535)`, clamped (Unigine animation).
 * Worst-case error: `size / 131070` (half a step). With `size = 0` every value encodes as 0.
 */
export function encodeRangeU16(v: number, min: number, size: number): number {
  if (!(size > 0) || Number.isNaN(v)) return 0;
  return clamp(Math.round(((v - min) / size) * 65535), 0, 65535);
}
/** u16 → value: `min + size·q/65535`. */
export function decodeRangeU16(q: number, min: number, size: number): number {
  return min + (size * q) / 65535;
}
/** Worst-case absolute error of a range-quantized u16 for a range of `size`. */
export function rangeU16MaxError(size: number): number {
  return size / 131070;
}

// ---------------------------------------------------------------- snorm i16 (quaternions)

/**
 * Quaternion component (−1…1) → i16: `round(v·32767)`, clamped to the i16 range (Unigine).
 * Worst-case error for v in [−1, 1]: 1/65534 ≈ 1.53e-5.
 */
export function encodeSnorm16(v: number): number {
  if (Number.isNaN(v)) return 0;
  return clamp(Math.round(v * 32767), -32768, 32767);
}
/** i16 → component: `q/32767` (−32768 decodes slightly below −1, and encodes back to −32768). */
export function decodeSnorm16(q: number): number {
  return q / 32767;
}
export const SNORM16_MAX_ERROR = 1 / 65534;

// ---------------------------------------------------------------- u16 weight

/** Weight (0…1) → u16: `round(w·65535)`, clamped (Unigine). Worst-case error 1/131070. */
export function encodeWeightU16(w: number): number {
  if (Number.isNaN(w)) return 0;
  return clamp(Math.round(w * 65535), 0, 65535);
}
/** u16 → weight: `q/65535`. */
export function decodeWeightU16(q: number): number {
  return q / 65535;
}
export const WEIGHT_U16_MAX_ERROR = 1 / 131070;

// ---------------------------------------------------------------- Q1.15 fixed point

/**
 * Q1.15 fixed point (0x8000 = 1.0, as in TSO blend weights) → number: `q/32768`.
 * Any integer code decodes exactly (powers of two), so float32 storage is lossless up to 2^24.
 */
export function decodeQ15(q: number): number {
  return q / 32768;
}
/** Number → Q1.15: `round(v·32768)`, clamped to `[min, max]` (default the u32 range). */
export function encodeQ15(v: number, min = 0, max = 0xffffffff): number {
  if (Number.isNaN(v)) return 0;
  return clamp(Math.round(v * 32768), min, max);
}
export const Q15_MAX_ERROR = 1 / 65536;

// ---------------------------------------------------------------- byte UV

/**
 * Unreal byte texture coordinate → [0, 1): `b/256` (the engine's own decode; see
 * formats/unreal3d.md). Exact in float32.
 */
export function decodeByteUV(b: number): number {
  return b / 256;
}
/** [0, 1) → byte: `floor(u·256)`, clamped to 0…255. Worst-case error 1/256 (< one texel step). */
export function encodeByteUV(u: number): number {
  if (Number.isNaN(u)) return 0;
  return clamp(Math.floor(u * 256), 0, 255);
}
export const BYTE_UV_MAX_ERROR = 1 / 256;

// ---------------------------------------------------------------- bulk forms

/** Decodes an array of codes with `decode` into floats (one pass, no per-value objects). */
export function decodeArray(
  codes: Floats,
  decode: (q: number) => number,
  out = new Float32Array(codes.length),
): Float32Array {
  for (let i = 0; i < codes.length; i++) out[i] = decode(codes[i]);
  return out;
}

/** Bulk {@link decodeNormalU16}. */
export function decodeNormalsU16(codes: Uint16Array, out = new Float32Array(codes.length)): Float32Array {
  for (let i = 0; i < codes.length; i++) out[i] = (codes[i] / 65535) * 2 - 1;
  return out;
}
/** Bulk {@link encodeNormalU16}. */
export function encodeNormalsU16(values: Floats, out = new Uint16Array(values.length)): Uint16Array {
  for (let i = 0; i < values.length; i++) out[i] = encodeNormalU16(values[i]);
  return out;
}
/** Bulk {@link decodeSnorm16}. */
export function decodeSnorms16(codes: Int16Array, out = new Float32Array(codes.length)): Float32Array {
  for (let i = 0; i < codes.length; i++) out[i] = codes[i] / 32767;
  return out;
}
/** Bulk {@link encodeSnorm16}. */
export function encodeSnorms16(values: Floats, out = new Int16Array(values.length)): Int16Array {
  for (let i = 0; i < values.length; i++) out[i] = encodeSnorm16(values[i]);
  return out;
}
/** Bulk {@link decodeRangeU16} with one range for all values. */
export function decodeRangesU16(
  codes: Uint16Array,
  min: number,
  size: number,
  out = new Float32Array(codes.length),
): Float32Array {
  for (let i = 0; i < codes.length; i++) out[i] = min + (size * codes[i]) / 65535;
  return out;
}
/** Bulk {@link encodeRangeU16} with one range for all values. */
export function encodeRangesU16(
  values: Floats,
  min: number,
  size: number,
  out = new Uint16Array(values.length),
): Uint16Array {
  for (let i = 0; i < values.length; i++) out[i] = encodeRangeU16(values[i], min, size);
  return out;
}

/**
 * True when every code of a range survives a trip through float32 (`encode(fround(decode(q)))
 * === q`): the quantization step `size/65535` must exceed one float32 ulp of the largest
 * magnitude in the range. When false, keep the integer codes (e.g. in extras) for byte-exact
 * round trips.
 */
export function rangeU16Float32Safe(min: number, size: number): boolean {
  if (!(size > 0)) return false;
  const mag = Math.max(Math.abs(min), Math.abs(min + size));
  const ulp = mag === 0 ? 0 : 2 ** (Math.floor(Math.log2(mag)) - 23);
  return size / 65535 > ulp;
}
