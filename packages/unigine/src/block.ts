/**
 * The animation block file model, shared by `.mesh` (float variant) and `.anim` (an10, u16 codes
 * in range boxes): frame flags, per-frame components, `readBlock` / `writeBlock`.
 */
import type { ByteReader, ByteWriter } from '@gltf-legacy/core';
import { readCount, readInt2, writeInt2 } from './int2.js';

/** Frame flag bits: which components a frame stores for a bone. */
export const FLAG_POS_X = 0x01;
export const FLAG_POS_Y = 0x02;
export const FLAG_POS_Z = 0x04;
export const FLAG_ROT = 0x08;
export const FLAG_SCALE_X = 0x10;
export const FLAG_SCALE_Y = 0x20;
export const FLAG_SCALE_Z = 0x40;
export const FLAG_POS = FLAG_POS_X | FLAG_POS_Y | FLAG_POS_Z;
export const FLAG_SCALE = FLAG_SCALE_X | FLAG_SCALE_Y | FLAG_SCALE_Z;

/**
 * One animation's animated-bone block. `.anim` (an10) files quantize positions and scales to u16
 * inside range boxes; animations embedded in `.mesh` (ms11) store them as f32 and have no boxes.
 * Components a frame does not flag are stored as 0 here (the file omits them; decoders carry the
 * previous frame's value forward).
 */
export interface AnimationBlock {
  /** Animated bones as indices into the file's bone list (raw int16). */
  bones: Int16Array;
  /**
   * Quantized variant only: position offset[3], position size[3], scale offset[3], scale size[3]
   * (`value = offset + size · q / 65535`). Null in the float variant.
   */
  boxes: Float32Array | null;
  /** OR of every component bit the frames use (u8). */
  componentMask: number;
  numFrames: number;
  /** `numFrames × bones.length` flag bytes, frame-major. */
  flags: Uint8Array;
  /** `numFrames × bones × 3` position codes (u16, quantized) or values (f32, float variant). */
  positions: Uint16Array | Float32Array;
  /** `numFrames × bones × 4` rotation quaternion codes (x, y, z, w; value = q / 32767). */
  rotations: Int16Array;
  /** `numFrames × bones × 3` scale codes (u16) or values (f32). */
  scales: Uint16Array | Float32Array;
}

/** Reads an animated-bone block; `quantized` selects the `.anim` (u16 + boxes) variant. */
export function readBlock(r: ByteReader, quantized: boolean): AnimationBlock {
  const nb = readCount(r, 2, 'numAnimatedBones');
  const bones = r.i16Array(nb, 'boneIndices', true);
  const boxes = quantized ? r.f32Array(12, 'boxes', true) : null;
  const componentMask = r.u8('componentMask');
  const framesAt = r.offset;
  const numFrames = readInt2(r, 'numFrames');
  if (numFrames < 0) throw r.error(`negative frame count ${numFrames}`, 'numFrames', 'BAD_COUNT', framesAt);
  const entries = numFrames * nb;
  if (nb > 0) r.count(entries, 1, 'frames');
  const flags = new Uint8Array(entries);
  const positions = quantized ? new Uint16Array(entries * 3) : new Float32Array(entries * 3);
  const rotations = new Int16Array(entries * 4);
  const scales = quantized ? new Uint16Array(entries * 3) : new Float32Array(entries * 3);
  const bytes = r.bytes;
  const view = r.view;
  const comp = quantized ? 2 : 4;
  let o = r.offset;
  const end = bytes.length;
  for (let e = 0; e < entries; e++) {
    if (o >= end) {
      r.offset = o;
      r.scope(`frames[${Math.floor(e / nb)}][${e % nb}]`, () => r.need(1, 'flags'));
    }
    const f = bytes[o];
    if (f === 0) {
      // A run of entries storing nothing: zero flags (already zero here), no values.
      const stop = Math.min(end, o + (entries - e));
      let z = o + 1;
      while (z < stop && bytes[z] === 0) z++;
      e += z - o - 1;
      o = z;
      continue;
    }
    o++;
    flags[e] = f;
    if ((f & 0x7f) === 0) continue;
    let size = 0;
    if (f & 1) size += comp;
    if (f & 2) size += comp;
    if (f & 4) size += comp;
    if (f & 8) size += 8;
    if (f & 16) size += comp;
    if (f & 32) size += comp;
    if (f & 64) size += comp;
    if (o + size > end) {
      r.offset = o;
      r.scope(`frames[${Math.floor(e / nb)}][${e % nb}]`, () => r.need(size, 'values'));
    }
    for (let c = 0; c < 3; c++) {
      if (f & (1 << c)) {
        positions[e * 3 + c] = quantized ? view.getUint16(o, true) : view.getFloat32(o, true);
        o += comp;
      }
    }
    if (f & 8) {
      for (let c = 0; c < 4; c++) rotations[e * 4 + c] = view.getInt16(o + c * 2, true);
      o += 8;
    }
    for (let c = 0; c < 3; c++) {
      if (f & (16 << c)) {
        scales[e * 3 + c] = quantized ? view.getUint16(o, true) : view.getFloat32(o, true);
        o += comp;
      }
    }
  }
  r.offset = o;
  return { bones, boxes, componentMask, numFrames, flags, positions, rotations, scales };
}

/** Bytes of the values a flag byte stores: [quantized (u16), float] × 128 flag values. */
const VALUE_BYTES = (() => {
  const t = new Uint8Array(256);
  for (let f = 0; f < 128; f++) {
    let n = 0;
    for (let c = 0; c < 7; c++) if (f & (1 << c)) n++;
    const rot = f & 8 ? 1 : 0;
    t[f] = (n - rot) * 2 + rot * 8;
    t[128 + f] = (n - rot) * 4 + rot * 8;
  }
  return t;
})();

/**
 * Writes an animated-bone block (the variant follows `block.boxes`). The frame entries are
 * measured first and written into one buffer (a flag byte per frame and bone, then its values).
 */
export function writeBlock(w: ByteWriter, block: AnimationBlock): void {
  const quantized = block.boxes !== null;
  const nb = block.bones.length;
  writeInt2(w, nb);
  w.i16Array(block.bones);
  if (block.boxes) w.f32Array(block.boxes);
  w.u8(block.componentMask);
  writeInt2(w, block.numFrames);
  const entries = block.numFrames * nb;
  const { flags, positions, rotations, scales } = block;
  const table = quantized ? 0 : 128;
  let size = entries;
  for (let e = 0; e < entries; e++) size += VALUE_BYTES[table + (flags[e] & 0x7f)];
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let o = 0;
  for (let e = 0; e < entries; e++) {
    const f = flags[e];
    out[o++] = f;
    if ((f & 0x7f) === 0) continue;
    for (let c = 0; c < 3; c++) {
      if (f & (1 << c)) {
        if (quantized) {
          view.setUint16(o, positions[e * 3 + c], true);
          o += 2;
        } else {
          view.setFloat32(o, positions[e * 3 + c], true);
          o += 4;
        }
      }
    }
    if (f & 8) {
      for (let c = 0; c < 4; c++) view.setInt16(o + c * 2, rotations[e * 4 + c], true);
      o += 8;
    }
    for (let c = 0; c < 3; c++) {
      if (f & (16 << c)) {
        if (quantized) {
          view.setUint16(o, scales[e * 3 + c], true);
          o += 2;
        } else {
          view.setFloat32(o, scales[e * 3 + c], true);
          o += 4;
        }
      }
    }
  }
  w.bytes(out);
}
