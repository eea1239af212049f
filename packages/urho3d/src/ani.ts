/**
 * Urho3D / Dry animation file (`.ani`, magic `UANI`): the file model.
 */
import { ByteReader, ByteWriter } from '@gltf-legacy/core';

/** Channel mask bits of a track. */
export const Channel = { POSITION: 1, ROTATION: 2, SCALE: 4 } as const;

export interface AniTrack {
  /** Bone / node name. */
  name: string;
  /** 1 position, 2 rotation, 4 scale (other bits kept, they carry no data). */
  channelMask: number;
  keyCount: number;
  /** Key times in seconds. */
  times: Float32Array;
  /** 3 floats per key, or null without the position bit. */
  positions: Float32Array | null;
  /** 4 floats per key in file order (w, x, y, z), or null. */
  rotations: Float32Array | null;
  /** 3 floats per key, or null. */
  scales: Float32Array | null;
}

export interface AniAnimation {
  name: string;
  /** Length in seconds. */
  length: number;
  tracks: AniTrack[];
  /** Bytes after the last track (the engine ignores them); kept for byte-exact writing. */
  trailing?: Uint8Array;
}

/** Bytes of one keyframe for a channel mask. */
export function keyRecordSize(mask: number): number {
  return 4 + (mask & 1 ? 12 : 0) + (mask & 2 ? 16 : 0) + (mask & 4 ? 12 : 0);
}

/**
 * Reads a `.ani` file.
 *
 * ```ts
 * const anim = readAni(bytes, 'Jack_Walk.ani');
 * console.log(anim.name, anim.length, anim.tracks.length);
 * ```
 */
export function readAni(bytes: Uint8Array, fileName?: string): AniAnimation {
  const r = new ByteReader(bytes, { file: fileName });
  r.expectMagic('UANI');
  const name = r.cstring('name');
  const length = r.f32('length');
  const numTracks = r.count(r.u32('trackCount'), 6, 'trackCount');
  const tracks: AniTrack[] = [];
  const view = r.view;
  for (let t = 0; t < numTracks; t++) {
    tracks.push(
      r.scope(`tracks[${t}]`, () => {
        const name = r.cstring('name');
        const channelMask = r.u8('channelMask');
        const keyCount = r.u32('keyCount');
        r.count(keyCount, keyRecordSize(channelMask), 'keyCount');
        const times = new Float32Array(keyCount);
        const positions = channelMask & 1 ? new Float32Array(keyCount * 3) : null;
        const rotations = channelMask & 2 ? new Float32Array(keyCount * 4) : null;
        const scales = channelMask & 4 ? new Float32Array(keyCount * 3) : null;
        let o = r.offset;
        for (let k = 0; k < keyCount; k++) {
          times[k] = view.getFloat32(o, true);
          o += 4;
          if (positions) {
            for (let c = 0; c < 3; c++) positions[k * 3 + c] = view.getFloat32(o + c * 4, true);
            o += 12;
          }
          if (rotations) {
            for (let c = 0; c < 4; c++) rotations[k * 4 + c] = view.getFloat32(o + c * 4, true);
            o += 16;
          }
          if (scales) {
            for (let c = 0; c < 3; c++) scales[k * 3 + c] = view.getFloat32(o + c * 4, true);
            o += 12;
          }
        }
        r.offset = o;
        return { name, channelMask, keyCount, times, positions, rotations, scales };
      }),
    );
  }
  const trailing = r.bytesCopy(r.remaining, 'trailing');
  return { name, length, tracks, ...(trailing.byteLength ? { trailing } : {}) };
}

/**
 * Writes an animation. `writeAni(readAni(b))` equals `b`.
 *
 * ```ts
 * const bytes = writeAni({ name: 'Walk', length: 1, tracks: [] });
 * ```
 */
export function writeAni(anim: AniAnimation): Uint8Array {
  let size = 64;
  for (const t of anim.tracks) size += 16 + t.name.length * 3 + t.keyCount * keyRecordSize(t.channelMask);
  const w = new ByteWriter({ capacity: size });
  w.string('UANI');
  w.cstring(anim.name);
  w.f32(anim.length);
  w.u32(anim.tracks.length);
  for (const t of anim.tracks) {
    w.cstring(t.name);
    w.u8(t.channelMask);
    w.u32(t.keyCount);
    const { times, positions, rotations, scales } = t;
    for (let k = 0; k < t.keyCount; k++) {
      w.f32(times[k]);
      if (t.channelMask & 1) for (let c = 0; c < 3; c++) w.f32(positions ? positions[k * 3 + c] : 0);
      if (t.channelMask & 2)
        for (let c = 0; c < 4; c++) w.f32(rotations ? rotations[k * 4 + c] : c === 0 ? 1 : 0);
      if (t.channelMask & 4) for (let c = 0; c < 3; c++) w.f32(scales ? scales[k * 3 + c] : 1);
    }
  }
  if (anim.trailing) w.bytes(anim.trailing);
  return w.finish();
}
