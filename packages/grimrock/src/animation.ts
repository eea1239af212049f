/**
 * File model of Legend of Grimrock `.animation` files (magic `ANIM`). Version 1 (Grimrock 1):
 * one key per frame holding position, rotation and scale. Version 2 (Grimrock 2): separate
 * counted arrays of positions, rotations and scales per item (1 entry = constant channel).
 */
import { ByteReader, ByteWriter } from '@gltf-legacy/core';
import { type GrimrockReadOptions, readString, trailingBytes, writeString } from './model.js';

export interface AnimationItem {
  /** Name of the node the item animates. */
  nodeName: string;
  /** `n * 3` floats (x, y, z). In version 1 all three channels have the same key count. */
  positions: Float32Array;
  /** `n * 4` floats (x, y, z, w). */
  rotations: Float32Array;
  /** `n * 3` floats. */
  scales: Float32Array;
}

export interface AnimationFile {
  /** `ANIM`. */
  magic: string;
  /** 1 = Grimrock 1 layout, 2 = Grimrock 2 layout. */
  version: number;
  name: string;
  framesPerSecond: number;
  numFrames: number;
  items: AnimationItem[];
  /** Bytes after the last item (a quirk read with `TRAILING_BYTES`), written back as they were. */
  trailing?: Uint8Array;
}

/**
 * True when the bytes start with `ANIM`.
 *
 * ```ts
 * isAnimation(bytes); // true for any .animation, version 1 or 2
 * ```
 */
export function isAnimation(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x41 && bytes[1] === 0x4e && bytes[2] === 0x49 && bytes[3] === 0x4d
  );
}

/**
 * Reads a `.animation` file (version 1 or 2; other versions throw `UNSUPPORTED_VERSION`).
 *
 * ```ts
 * const anim = readAnimation(bytes, 'skeleton_warrior_axe_walk.animation');
 * anim.numFrames / anim.framesPerSecond; // duration in seconds
 * ```
 */
export function readAnimation(
  bytes: Uint8Array,
  fileName?: string,
  options: GrimrockReadOptions = {},
): AnimationFile {
  const r = new ByteReader(bytes, { file: fileName });
  r.expectMagic('ANIM', 'magic');
  const versionAt = r.offset;
  const version = r.i32('version');
  if (version !== 1 && version !== 2) {
    throw r.error(
      `animation version ${version} is not supported (1 = Grimrock 1, 2 = Grimrock 2)`,
      'version',
      'UNSUPPORTED_VERSION',
      versionAt,
    );
  }
  const name = readString(r, 'name');
  const framesPerSecond = r.f32('framesPerSecond');
  const numFrames = r.i32('numFrames');
  const numItems = r.i32('numItems');
  r.count(numItems, version === 1 ? 8 : 16, 'items');
  const items: AnimationItem[] = [];
  for (let i = 0; i < numItems; i++) {
    items.push(
      r.scope(`items[${i}]`, () => {
        const nodeName = readString(r, 'nodeName');
        if (version === 1) {
          const n = r.i32('numKeys');
          r.count(n, 40, 'keys');
          const positions = new Float32Array(n * 3);
          const rotations = new Float32Array(n * 4);
          const scales = new Float32Array(n * 3);
          const dv = r.view;
          let o = r.offset;
          for (let k = 0; k < n; k++) {
            for (let c = 0; c < 3; c++, o += 4) positions[k * 3 + c] = dv.getFloat32(o, true);
            for (let c = 0; c < 4; c++, o += 4) rotations[k * 4 + c] = dv.getFloat32(o, true);
            for (let c = 0; c < 3; c++, o += 4) scales[k * 3 + c] = dv.getFloat32(o, true);
          }
          r.skip(n * 40, 'keys');
          return { nodeName, positions, rotations, scales };
        }
        const np = r.i32('numPositions');
        r.count(np, 12, 'positions');
        const positions = r.f32Array(np * 3, 'positions', true);
        const nr = r.i32('numRotations');
        r.count(nr, 16, 'rotations');
        const rotations = r.f32Array(nr * 4, 'rotations', true);
        const ns = r.i32('numScales');
        r.count(ns, 12, 'scales');
        const scales = r.f32Array(ns * 3, 'scales', true);
        return { nodeName, positions, rotations, scales };
      }),
    );
  }
  const trailing = trailingBytes(r, 'item', options);
  return {
    magic: 'ANIM',
    version,
    name,
    framesPerSecond,
    numFrames,
    items,
    ...(trailing ? { trailing } : {}),
  };
}

/**
 * Writes a `.animation` file in its `version` layout. Version 1 needs the same key count in all
 * three channels of an item (throws a RangeError otherwise).
 *
 * ```ts
 * const bytes = writeAnimation(readAnimation(original)); // byte-identical
 * ```
 */
export function writeAnimation(anim: AnimationFile): Uint8Array {
  let size = 64;
  for (const it of anim.items)
    size += 24 + it.nodeName.length * 3 + (it.positions.length + it.rotations.length + it.scales.length) * 4;
  const w = new ByteWriter({ capacity: size });
  w.string('ANIM');
  w.i32(anim.version);
  writeString(w, anim.name);
  w.f32(anim.framesPerSecond);
  w.i32(anim.numFrames);
  w.i32(anim.items.length);
  for (const it of anim.items) {
    writeString(w, it.nodeName);
    const np = it.positions.length / 3;
    const nr = it.rotations.length / 4;
    const ns = it.scales.length / 3;
    if (anim.version === 1) {
      if (np !== nr || np !== ns) {
        throw new RangeError(
          `version 1 item "${it.nodeName}" needs equal key counts (positions ${np}, rotations ${nr}, scales ${ns})`,
        );
      }
      w.i32(np);
      const key = new Float32Array(10);
      for (let k = 0; k < np; k++) {
        key.set(it.positions.subarray(k * 3, k * 3 + 3), 0);
        key.set(it.rotations.subarray(k * 4, k * 4 + 4), 3);
        key.set(it.scales.subarray(k * 3, k * 3 + 3), 7);
        w.f32Array(key);
      }
    } else {
      w.i32(np).f32Array(it.positions);
      w.i32(nr).f32Array(it.rotations);
      w.i32(ns).f32Array(it.scales);
    }
  }
  if (anim.trailing) w.bytes(anim.trailing);
  return w.finish();
}
