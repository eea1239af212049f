/**
 * Urho3D / Dry animation file (`.ani`, magic `UANI`): the file model.
 */
import { ByteReader, type WarningCollector } from '@gltf-legacy/core';
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
  /**
   * Bytes the file's last key was short of (the quirk `ANI_LAST_KEY_SHORT`): the key was padded
   * from the previous one on reading, and writing leaves these bytes off again.
   */
  missingBytes?: number;
}

/** Options of {@link readAni}. */
export interface ReadAniOptions {
  /** Refuse a short last key (`FormatError`) instead of reading it with a warning. Default false. */
  strict?: boolean;
  /** Receives the `ANI_LAST_KEY_SHORT` warning. */
  warnings?: WarningCollector;
}

/** Thrown inside {@link readAni} when only the last key of the last track is cut short. */
class ShortLastKey {
  constructor(
    readonly missing: number,
    readonly record: number,
    readonly keyCount: number,
    readonly track: string,
  ) {}
}

/** Bytes of one keyframe for a channel mask. */
export function keyRecordSize(mask: number): number {
  return 4 + (mask & 1 ? 12 : 0) + (mask & 2 ? 16 : 0) + (mask & 4 ? 12 : 0);
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Copies key records (`per` words each: time, then xyz / wxyz / xyz per channel present) between
 * `words` and the channel arrays, as 32-bit words; `toWords` picks the direction. A channel in the
 * record without an array is written as its default (rotation 1,0,0,0; scale 1,1,1).
 */
function copyKeyWords(
  words: Uint32Array,
  per: number,
  keyCount: number,
  times: Float32Array,
  positions: Float32Array | null,
  rotations: Float32Array | null,
  scales: Float32Array | null,
  toWords: boolean,
  mask = (positions ? 1 : 0) | (rotations ? 2 : 0) | (scales ? 4 : 0),
): void {
  const w32 = (a: Float32Array | null) => (a ? new Uint32Array(a.buffer, a.byteOffset, a.length) : null);
  const t = w32(times)!;
  const p = w32(positions);
  const q = w32(rotations);
  const sc = w32(scales);
  const ONE = 0x3f800000;
  for (let k = 0, o = 0; k < keyCount; k++, o += per) {
    let i = o;
    if (toWords) words[i] = t[k];
    else t[k] = words[i];
    i++;
    if (mask & 1) {
      for (let c = 0; c < 3; c++) {
        if (!toWords) p![k * 3 + c] = words[i + c];
        else words[i + c] = p ? p[k * 3 + c] : 0;
      }
      i += 3;
    }
    if (mask & 2) {
      for (let c = 0; c < 4; c++) {
        if (!toWords) q![k * 4 + c] = words[i + c];
        else words[i + c] = q ? q[k * 4 + c] : c === 0 ? ONE : 0;
      }
      i += 4;
    }
    if (mask & 4) {
      for (let c = 0; c < 3; c++) {
        if (!toWords) sc![k * 3 + c] = words[i + c];
        else words[i + c] = sc ? sc[k * 3 + c] : ONE;
      }
    }
  }
}

/**
 * Reads a `.ani` file.
 *
 * ```ts
 * const anim = readAni(bytes, 'Jack_Walk.ani');
 * console.log(anim.name, anim.length, anim.tracks.length);
 * ```
 */
export function readAni(bytes: Uint8Array, fileName?: string, options: ReadAniOptions = {}): AniAnimation {
  if (options.strict) return readAniBytes(bytes, fileName, false);
  try {
    return readAniBytes(bytes, fileName, true);
  } catch (e) {
    if (!(e instanceof ShortLastKey)) throw e;
    // Urho3D's Animation::BeginLoad reads keys without checking for the end of the file, so the
    // game loads such a file; we give the missing bytes of the key the previous key's values
    // (zero for a track's only key), and writing leaves them off again.
    const padded = new Uint8Array(bytes.length + e.missing);
    padded.set(bytes);
    if (e.keyCount > 1) for (let i = bytes.length; i < padded.length; i++) padded[i] = padded[i - e.record];
    const out = readAniBytes(padded, fileName, false);
    options.warnings?.warn(
      'ANI_LAST_KEY_SHORT',
      `${fileName ?? '.ani'}: the last key of track "${e.track}" ends ${e.missing} bytes past the end of the file (offset ${bytes.length}); padded from the previous key, as the game reads it`,
      e.missing,
    );
    return { ...out, missingBytes: e.missing };
  }
}

function readAniBytes(bytes: Uint8Array, fileName: string | undefined, tolerant: boolean): AniAnimation {
  const r = new ByteReader(bytes, { file: fileName });
  r.expectMagic('UANI');
  const { name, raw: nameRaw } = readName(r, 'name');
  const length = r.f32('length');
  const numTracks = r.count(r.u32('trackCount'), 6, 'trackCount');
  const tracks: AniTrack[] = [];
  for (let t = 0; t < numTracks; t++) {
    tracks.push(
      r.scope(`tracks[${t}]`, () => {
        const { name, raw: nameRaw } = readName(r, 'name');
        const channelMask = r.u8('channelMask');
        const keyCount = r.u32('keyCount');
        const rec = keyRecordSize(channelMask);
        const short = keyCount * rec - r.remaining;
        if (tolerant && t === numTracks - 1 && short > 0 && short < rec && keyCount > 0)
          throw new ShortLastKey(short, rec, keyCount, name);
        r.count(keyCount, rec, 'keyCount');
        const times = new Float32Array(keyCount);
        const positions = channelMask & 1 ? new Float32Array(keyCount * 3) : null;
        const rotations = channelMask & 2 ? new Float32Array(keyCount * 4) : null;
        const scales = channelMask & 4 ? new Float32Array(keyCount * 3) : null;
        // Byte copies (not float reads) keep every bit, NaN payloads included.
        const src = r.bytes;
        const tb = new Uint8Array(times.buffer);
        const pb = positions && new Uint8Array(positions.buffer);
        const rb = rotations && new Uint8Array(rotations.buffer);
        const sb = scales && new Uint8Array(scales.buffer);
        let o = r.offset;
        if (LITTLE_ENDIAN_HOST) {
          // one aligned copy of the key records, then 32-bit words (every bit kept)
          const per = keyRecordSize(channelMask) >> 2;
          const words = new Uint32Array(keyCount * per);
          new Uint8Array(words.buffer).set(src.subarray(o, o + keyCount * per * 4));
          copyKeyWords(words, per, keyCount, times, positions, rotations, scales, false);
          o += keyCount * per * 4;
        } else {
          for (let k = 0; k < keyCount; k++) {
            for (let b = 0; b < 4; b++) tb[k * 4 + b] = src[o + b];
            o += 4;
            if (pb) {
              for (let b = 0; b < 12; b++) pb[k * 12 + b] = src[o + b];
              o += 12;
            }
            if (rb) {
              for (let b = 0; b < 16; b++) rb[k * 16 + b] = src[o + b];
              o += 16;
            }
            if (sb) {
              for (let b = 0; b < 12; b++) sb[k * 12 + b] = src[o + b];
              o += 12;
            }
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

/** Every channel array present is long enough for the track's keys (else the byte path). */
function channelsFit(t: AniTrack): boolean {
  return (
    (!t.positions || t.positions.length >= t.keyCount * 3) &&
    (!t.rotations || t.rotations.length >= t.keyCount * 4) &&
    (!t.scales || t.scales.length >= t.keyCount * 3)
  );
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
    if (LITTLE_ENDIAN_HOST && times.length >= t.keyCount && channelsFit(t)) {
      const per = keyRecordSize(t.channelMask) >> 2;
      const words = new Uint32Array(t.keyCount * per);
      copyKeyWords(words, per, t.keyCount, times, positions, rotations, scales, true, t.channelMask & 7);
      out.set(new Uint8Array(words.buffer), o);
      o += words.byteLength;
      return;
    }
    const u8 = (a: Float32Array | null) => (a ? new Uint8Array(a.buffer, a.byteOffset, a.byteLength) : null);
    const tb = u8(times)!;
    const pb = u8(positions);
    const rb = u8(rotations);
    const sb = u8(scales);
    for (let k = 0; k < t.keyCount; k++) {
      for (let b = 0; b < 4; b++) out[o + b] = tb[k * 4 + b];
      o += 4;
      if (t.channelMask & 1) {
        if (pb) for (let b = 0; b < 12; b++) out[o + b] = pb[k * 12 + b];
        o += 12;
      }
      if (t.channelMask & 2) {
        if (rb) for (let b = 0; b < 16; b++) out[o + b] = rb[k * 16 + b];
        else dv.setFloat32(o, 1, true);
        o += 16;
      }
      if (t.channelMask & 4) {
        if (sb) for (let b = 0; b < 12; b++) out[o + b] = sb[k * 12 + b];
        else for (let c = 0; c < 3; c++) dv.setFloat32(o + c * 4, 1, true);
        o += 12;
      }
    }
  });
  if (anim.trailing) out.set(anim.trailing, o);
  const cut = anim.missingBytes ?? 0;
  return cut > 0 && cut < out.length && !anim.trailing && readsBackPadded(out, cut, anim.tracks.at(-1))
    ? out.slice(0, out.length - cut)
    : out;
}

/**
 * Whether the last `cut` bytes of `out` are what {@link readAni} pads a file cut short there with
 * (the previous key's bytes, zeros for a track's only key): only then does leaving them off keep
 * the values. An edited last key (e.g. a rotation normalized on import) is written whole.
 */
function readsBackPadded(out: Uint8Array, cut: number, last: AniTrack | undefined): boolean {
  if (!last) return false;
  const record = keyRecordSize(last.channelMask);
  if (cut >= record) return false;
  const end = out.length;
  for (let i = end - cut; i < end; i++)
    if (out[i] !== (last.keyCount > 1 ? out[i - record] : 0)) return false;
  return true;
}
