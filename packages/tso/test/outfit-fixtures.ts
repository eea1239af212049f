/**
 * A small hand-made outfit (our writers, deterministic): the hand cube on R_HAND with a 4×4
 * 24-bit BMP texture, its binding and an appearance, laid out like FreeSO's Avatar folder.
 * Written to test-assets/tso/outfit by test/outfit-assets.test.ts.
 */
import { writeAppearance, writeBinding, writeMesh } from '../src/index.js';
import { handCube } from './fixtures.js';

/** 4×4 RGBA, rows top-down: a red/green/blue/white checker with a grey ramp. */
export function cubePixels(): Uint8Array {
  const out = new Uint8Array(4 * 4 * 4);
  const colours = [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
    [255, 255, 255],
  ];
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 4; x++) {
      const c = (x + y) % 2 === 0 ? colours[(x + y * 2) % 4] : [x * 60, y * 60, 30];
      out.set([...c, 255], (y * 4 + x) * 4);
    }
  return out;
}

/** A 24-bit bottom-up BMP of {@link cubePixels} (BITMAPINFOHEADER, rows padded to 4 bytes). */
export function cubeBmp(): Uint8Array {
  const w = 4;
  const h = 4;
  const row = w * 3; // 12, already a multiple of 4
  const size = 54 + row * h;
  const b = new Uint8Array(size);
  const dv = new DataView(b.buffer);
  b[0] = 0x42;
  b[1] = 0x4d;
  dv.setUint32(2, size, true);
  dv.setUint32(10, 54, true);
  dv.setUint32(14, 40, true);
  dv.setInt32(18, w, true);
  dv.setInt32(22, h, true);
  dv.setUint16(26, 1, true);
  dv.setUint16(28, 24, true);
  dv.setUint32(34, row * h, true);
  const px = cubePixels();
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const src = (y * w + x) * 4;
      const dst = 54 + (h - 1 - y) * row + x * 3;
      b[dst] = px[src + 2];
      b[dst + 1] = px[src + 1];
      b[dst + 2] = px[src];
    }
  return b;
}

/** The outfit's files by root-relative path (ids 0x00c0be01… chosen by hand). */
export function cubeOutfit(): Map<string, Uint8Array> {
  return new Map([
    ['Meshes/hand-cube.00c0be0100000009.mesh', writeMesh(handCube())],
    ['Textures/hand-cube.00c0be0200000014.bmp', cubeBmp()],
    [
      'Bindings/hand-cube.00c0be030000000b.bnd',
      writeBinding({
        version: 1,
        boneName: 'R_HAND',
        mesh: { kind: 8, group: 0, file: 0x00c0be01, type: 9 },
        texture: { kind: 8, group: 0, file: 0x00c0be02, type: 0x14 },
        trailing: new Uint8Array(0),
      }),
    ],
    [
      'Appearances/hand-cube.00c0be040000000c.apr',
      writeAppearance({
        version: 1,
        thumbnailFileId: 0,
        thumbnailTypeId: 0,
        bindings: [{ fileId: 0x00c0be03, typeId: 0xb }],
        trailing: new Uint8Array(0),
      }),
    ],
  ]);
}
