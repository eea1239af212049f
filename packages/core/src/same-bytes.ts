/**
 * Byte equality, the one the packages share (original files, kept texture sources, vertex
 * arrays): Node's `Buffer.equals` (memcmp) where there is one, else 32-bit words then bytes.
 *
 * ```ts
 * sameBytes(new Uint8Array([1, 2]), Uint8Array.of(1, 2)); // true
 * ```
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  const n = a.byteLength;
  if (n !== b.byteLength) return false;
  const B = (
    globalThis as {
      Buffer?: { from(b: ArrayBufferLike, o: number, n: number): { equals(o: unknown): boolean } };
    }
  ).Buffer;
  if (B) return B.from(a.buffer, a.byteOffset, n).equals(B.from(b.buffer, b.byteOffset, n));
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const a32 = new Int32Array(a.buffer, a.byteOffset, n >> 2);
    const b32 = new Int32Array(b.buffer, b.byteOffset, n >> 2);
    for (let k = 0; k < a32.length; k++) if (a32[k] !== b32[k]) return false;
    i = a32.length * 4;
  }
  const x = new Uint8Array(a.buffer, a.byteOffset, n);
  const y = new Uint8Array(b.buffer, b.byteOffset, n);
  for (; i < n; i++) if (x[i] !== y[i]) return false;
  return true;
}
