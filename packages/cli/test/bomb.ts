import { createPak, compressPakData, PAK_BLOCK_SIZE, writePak } from '@gltf-legacy/urho3d';

/**
 * A UMD2 model written by hand: one vertex buffer of `vertices` positions (all zero), one index
 * buffer of `indices` 32-bit indices (all zero; 0, 1, 2, … when `positions` are given), one geometry drawing them as a triangle list.
 * Mostly zeros, so it compresses ~250:1 in a ULZ4 package.
 */
export function zeroModel(vertices: number, indices: number, positions?: Float32Array): Uint8Array {
  const size = 4 + 4 + 4 + 4 + 4 + 8 + vertices * 12 + 4 + 8 + indices * 4 + 4 + 4 + 4 + 24 + 4 + 4 + 24 + 12;
  const b = new Uint8Array(size);
  const dv = new DataView(b.buffer);
  let o = 0;
  const u32 = (v: number) => {
    dv.setUint32(o, v, true);
    o += 4;
  };
  b.set([0x55, 0x4d, 0x44, 0x32]); // UMD2
  o = 4;
  u32(1); // vertex buffers
  u32(vertices);
  u32(1); // elements
  u32(3); // Vector3, POSITION
  u32(0);
  u32(0); // morph range
  if (positions) b.set(new Uint8Array(positions.buffer, positions.byteOffset, positions.byteLength), o);
  o += vertices * 12;
  u32(1); // index buffers
  u32(indices);
  u32(4);
  if (positions) for (let i = 0; i < indices; i++) dv.setUint32(o + i * 4, i % vertices, true);
  o += indices * 4;
  u32(1); // geometries
  u32(0); // bone mapping
  u32(1); // lods
  u32(0); // distance
  u32(0); // triangle list
  u32(0);
  u32(0);
  u32(0);
  u32(indices);
  u32(0); // morphs
  u32(0); // bones
  o += 24 + 12; // bounds, geometry centre
  if (o !== size) throw new Error(`zeroModel: wrote ${o} of ${size}`);
  return b;
}

/** A triangle as a small valid model. */
export function triangleModel(): Uint8Array {
  return zeroModel(3, 3, new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
}

/** A ULZ4 package of these entries. */
export function ulz4Pak(entries: [string, Uint8Array][]): Uint8Array {
  return writePak(createPak(new Map(entries), { compress: true }));
}

/**
 * A ULZ4 package with one entry of `blocks` × 32 KiB zero bytes, built from one compressed block
 * repeated (nothing of that size is ever allocated here): a decompression bomb of any size.
 */
export function zeroBombPak(name: string, blocks: number): Uint8Array {
  const block = compressPakData(new Uint8Array(PAK_BLOCK_SIZE));
  const stored = new Uint8Array(block.length * blocks);
  for (let i = 0; i < blocks; i++) stored.set(block, i * block.length);
  const pak = createPak(new Map([[name, new Uint8Array(1)]]), { compress: true });
  pak.entries[0].stored = stored;
  pak.entries[0].size = blocks * PAK_BLOCK_SIZE;
  return writePak(pak);
}
