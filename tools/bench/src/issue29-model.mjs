/**
 * A 3-vertex Urho3D model (UMD2) written by hand, the same bytes as `triangleModel()` of
 * packages/cli/test/bomb.ts: one vertex buffer of 3 positions, 3 32-bit indices, one geometry.
 */
export function triangleMdl() {
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const vertices = 3;
  const indices = 3;
  const size = 4 + 4 + 4 + 4 + 4 + 8 + vertices * 12 + 4 + 8 + indices * 4 + 4 + 4 + 4 + 24 + 4 + 4 + 24 + 12;
  const b = new Uint8Array(size);
  const dv = new DataView(b.buffer);
  let o = 4;
  const u32 = (v) => {
    dv.setUint32(o, v, true);
    o += 4;
  };
  b.set([0x55, 0x4d, 0x44, 0x32]);
  for (const v of [1, vertices, 1, 3, 0, 0]) u32(v);
  b.set(new Uint8Array(positions.buffer), o);
  o += vertices * 12;
  for (const v of [1, indices, 4]) u32(v);
  for (let i = 0; i < indices; i++) dv.setUint32(o + i * 4, i, true);
  o += indices * 4;
  for (const v of [1, 0, 1, 0, 0, 0, 0, 0, indices, 0, 0]) u32(v);
  return b;
}
