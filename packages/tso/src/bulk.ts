/** True on little-endian hosts (every platform Node runs on in practice). */
export const HOST_LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Reverses the bytes of every u32 in place (big ↔ little endian), with integer ops. */
export function swapU32(a: Uint32Array): Uint32Array {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    a[i] = ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24);
  }
  return a;
}

/** Writes `a` as big-endian u32 into `dst` at `at` (memcpy + in-place swap); returns the end. */
export function putU32BE(dst: Uint8Array, at: number, a: Uint32Array): number {
  const n = a.length;
  if ((dst.byteOffset + at) % 4 === 0 && HOST_LE) {
    const view = new Uint32Array(dst.buffer, dst.byteOffset + at, n);
    view.set(a);
    swapU32(view);
  } else {
    const tmp = HOST_LE ? swapU32(a.slice()) : a;
    dst.set(new Uint8Array(tmp.buffer, tmp.byteOffset, n * 4), at);
  }
  return at + n * 4;
}

/** Writes `a` as little-endian f32 into `dst` at `at`; returns the end. */
export function putF32LE(dst: Uint8Array, at: number, a: Float32Array): number {
  if (HOST_LE) dst.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
  else {
    const v = new DataView(dst.buffer, dst.byteOffset);
    for (let i = 0; i < a.length; i++) v.setFloat32(at + i * 4, a[i], true);
  }
  return at + a.length * 4;
}
