/**
 * Float32 values in JSON extras. JSON has no −0, NaN or ±Infinity, so an array holding one of
 * those is stored as its IEEE-754 bit patterns instead (`{ bits: [...] }`); plain arrays stay
 * readable numbers. Either form restores the exact float32 values.
 */
export type JsonF32 = number[] | { bits: number[] };

/**
 * Packs float32 values for JSON.
 *
 * ```ts
 * packF32([1, 2]);  // [1, 2]
 * packF32([-0, 1]); // { bits: [2147483648, 1065353216] }
 * ```
 */
export function packF32(a: ArrayLike<number>): JsonF32 {
  const f = Float32Array.from(a as ArrayLike<number>);
  let plain = true;
  for (const v of f) if (!Number.isFinite(v) || Object.is(v, -0)) plain = false;
  if (plain) return Array.from(f);
  return { bits: Array.from(new Uint32Array(f.buffer)) };
}

/**
 * Unpacks {@link packF32} output; null when `x` is not a packed array of `length` values.
 *
 * ```ts
 * unpackF32(JSON.parse(JSON.stringify(packF32(bounds))), 10); // Float32Array equal to bounds, bit for bit
 * ```
 */
export function unpackF32(x: unknown, length: number): Float32Array | null {
  if (Array.isArray(x)) {
    if (x.length !== length || !x.every((v) => typeof v === 'number')) return null;
    return Float32Array.from(x as number[]);
  }
  if (x && typeof x === 'object' && Array.isArray((x as { bits?: unknown }).bits)) {
    const bits = (x as { bits: unknown[] }).bits;
    if (
      bits.length !== length ||
      !bits.every((v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff)
    )
      return null;
    return new Float32Array(Uint32Array.from(bits as number[]).buffer);
  }
  return null;
}
