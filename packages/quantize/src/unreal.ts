/**
 * Unreal Engine 1 vertex packing (formats/unreal3d.md §frames).
 *
 * Standard layout: one u32 per vertex, X = bits 0–10, Y = bits 11–21, Z = bits 22–31, each a
 * two's-complement signed field (X, Y in −1024…1023, Z in −512…511). Deus Ex layout: three i16
 * (X, Y, Z) and an i16 pad, 8 bytes per vertex.
 */

export const UNREAL_X_MIN = -1024;
export const UNREAL_X_MAX = 1023;
export const UNREAL_Z_MIN = -512;
export const UNREAL_Z_MAX = 511;

/** Sign-extends the low `bits` bits of `v`. */
function sext(v: number, bits: number): number {
  const shift = 32 - bits;
  return (v << shift) >> shift;
}

/** Unpacks one u32 into integer X, Y, Z (written to `out` at `o`). */
export function decodeUnrealPacked(v: number, out: { [i: number]: number }, o = 0): void {
  out[o] = sext(v & 0x7ff, 11);
  out[o + 1] = sext((v >>> 11) & 0x7ff, 11);
  out[o + 2] = sext((v >>> 22) & 0x3ff, 10);
}

/**
 * Packs integer X, Y, Z into one u32. Values are rounded and clamped to the field ranges; use
 * {@link unrealPackedFits} first to detect clamping.
 */
export function encodeUnrealPacked(x: number, y: number, z: number): number {
  const cx = Math.max(UNREAL_X_MIN, Math.min(UNREAL_X_MAX, Math.round(x) || 0));
  const cy = Math.max(UNREAL_X_MIN, Math.min(UNREAL_X_MAX, Math.round(y) || 0));
  const cz = Math.max(UNREAL_Z_MIN, Math.min(UNREAL_Z_MAX, Math.round(z) || 0));
  return ((cx & 0x7ff) | ((cy & 0x7ff) << 11) | ((cz & 0x3ff) << 22)) >>> 0;
}

/** True when rounded X, Y, Z fit the 11/11/10 fields without clamping. */
export function unrealPackedFits(x: number, y: number, z: number): boolean {
  const rx = Math.round(x);
  const ry = Math.round(y);
  const rz = Math.round(z);
  return (
    rx >= UNREAL_X_MIN &&
    rx <= UNREAL_X_MAX &&
    ry >= UNREAL_X_MIN &&
    ry <= UNREAL_X_MAX &&
    rz >= UNREAL_Z_MIN &&
    rz <= UNREAL_Z_MAX
  );
}

/** Bulk unpack: `packed.length` vertices → `3·length` floats (integer-valued). */
export function decodeUnrealPackedArray(
  packed: Uint32Array,
  out = new Float32Array(packed.length * 3),
): Float32Array {
  for (let i = 0, o = 0; i < packed.length; i++, o += 3) {
    const v = packed[i];
    out[o] = ((v & 0x7ff) << 21) >> 21;
    out[o + 1] = (((v >>> 11) & 0x7ff) << 21) >> 21;
    out[o + 2] = v >> 22;
  }
  return out;
}

/** Bulk pack of `3·n` values (rounded, clamped). Returns how many components were clamped. */
export function encodeUnrealPackedArray(
  xyz: ArrayLike<number>,
  out = new Uint32Array(Math.floor(xyz.length / 3)),
): { packed: Uint32Array; clamped: number } {
  let clamped = 0;
  for (let i = 0, o = 0; o < out.length; i += 3, o++) {
    if (!unrealPackedFits(xyz[i], xyz[i + 1], xyz[i + 2])) clamped++;
    out[o] = encodeUnrealPacked(xyz[i], xyz[i + 1], xyz[i + 2]);
  }
  return { packed: out, clamped };
}

/** Deus Ex layout: decodes `4·n` i16 (X, Y, Z, pad) into `3·n` floats. */
export function decodeDeusExArray(
  words: Int16Array,
  out = new Float32Array((words.length >> 2) * 3),
): Float32Array {
  for (let i = 0, o = 0; i + 3 < words.length; i += 4, o += 3) {
    out[o] = words[i];
    out[o + 1] = words[i + 1];
    out[o + 2] = words[i + 2];
  }
  return out;
}

/** Deus Ex layout: encodes `3·n` values (rounded, clamped to i16) with the given pads (default 0). */
export function encodeDeusExArray(
  xyz: ArrayLike<number>,
  pads?: ArrayLike<number>,
): { words: Int16Array; clamped: number } {
  const n = Math.floor(xyz.length / 3);
  const words = new Int16Array(n * 4);
  let clamped = 0;
  for (let v = 0; v < n; v++) {
    for (let c = 0; c < 3; c++) {
      const r = Math.round(xyz[v * 3 + c]) || 0;
      if (r < -32768 || r > 32767) clamped++;
      words[v * 4 + c] = Math.max(-32768, Math.min(32767, r));
    }
    words[v * 4 + 3] = pads ? pads[v] : 0;
  }
  return { words, clamped };
}
