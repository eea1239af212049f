/**
 * Urho3D / Dry animation file (`.ani`, magic `UANI`): the file model.
 */
import { ByteReader } from '@gltf-legacy/core';
import { nameBytes, readName } from './names.js';

/** Channel mask bits of a track. */
export const Channel = { POSITION: 1, ROTATION: 2, SCALE: 4 } as const;

export interface AniTrack {
  /** Bone / node name. */
  name: string;
  /** Stored bytes of a name that is not valid UTF-8. */
  nameRaw?: Uint8Array;
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
  /** Stored bytes of a name that is not valid UTF-8. */
  nameRaw?: Uint8Array;
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
  const { name, raw: nameRaw } = readName(r, 'name');
  const length = r.f32('length');
  const numTracks = r.count(r.u32('trackCount'), 6, 'trackCount');
  const tracks: AniTrack[] = [];
  const view = r.view;
  for (let t = 0; t < numTracks; t++) {
    tracks.push(
      r.scope(`tracks[${t}]`, () => {
        const { name, raw: nameRaw } = readName(r, 'name');
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
        return {
          name,
          ...(nameRaw ? { nameRaw } : {}),
          channelMask,
          keyCount,
          times,
          positions,
          rotations,
          scales,
        };
      }),
    );
  }
  const trailing = r.bytesCopy(r.remaining, 'trailing');
  return {
    name,
    ...(nameRaw ? { nameRaw } : {}),
    length,
    tracks,
    ...(trailing.byteLength ? { trailing } : {}),
  };
}

/**
 * Writes an animation. `writeAni(readAni(b))` equals `b`.
 *
 * ```ts
 * const bytes = writeAni({ name: 'Walk', length: 1, tracks: [] });
 * ```
 */
export function writeAni(anim: AniAnimation): Uint8Array {
  const name = nameBytes(anim.name, anim.nameRaw);
  const names = anim.tracks.map((t) => nameBytes(t.name, t.nameRaw));
  let size = 4 + name.length + 1 + 8 + (anim.trailing?.length ?? 0);
  anim.tracks.forEach((t, i) => {
    size += names[i].length + 1 + 5 + t.keyCount * keyRecordSize(t.channelMask);
  });
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out.set([0x55, 0x41, 0x4e, 0x49]); // UANI
  let o = 4;
  out.set(name, o);
  o += name.length + 1;
  dv.setFloat32(o, anim.length, true);
  dv.setUint32(o + 4, anim.tracks.length, true);
  o += 8;
  anim.tracks.forEach((t, i) => {
    out.set(names[i], o);
    o += names[i].length + 1;
    out[o] = t.channelMask;
    dv.setUint32(o + 1, t.keyCount, true);
    o += 5;
    const { times, positions, rotations, scales } = t;
    for (let k = 0; k < t.keyCount; k++) {
      dv.setFloat32(o, times[k], true);
      o += 4;
      if (t.channelMask & 1) {
        for (let c = 0; c < 3; c++) dv.setFloat32(o + c * 4, positions ? positions[k * 3 + c] : 0, true);
        o += 12;
      }
      if (t.channelMask & 2) {
        for (let c = 0; c < 4; c++)
          dv.setFloat32(o + c * 4, rotations ? rotations[k * 4 + c] : c === 0 ? 1 : 0, true);
        o += 16;
      }
      if (t.channelMask & 4) {
        for (let c = 0; c < 3; c++) dv.setFloat32(o + c * 4, scales ? scales[k * 3 + c] : 1, true);
        o += 12;
      }
    }
  });
  if (anim.trailing) out.set(anim.trailing, o);
  return out;
}
