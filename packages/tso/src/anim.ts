import { ByteReader, ByteWriter, FormatError } from '@gltf-legacy/core';
import { type PropertyList, readPropertyList, writePropertyList } from './props.js';

/**
 * The Sims Online `.anim` file model (big-endian integers, little-endian floats). Translations
 * and rotations live in two shared pools; each motion (one bone) points at a run of them.
 */

/** A timed property list item: an event at a frame. */
export interface TsoTimeProperty {
  /** i32 frame id. */
  id: number;
  props: PropertyList;
}

/** One motion: the keyframes of one bone. */
export interface TsoMotion {
  /** u32 of unknown meaning, kept as-is. */
  unknown: number;
  boneName: string;
  frameCount: number;
  duration: number;
  /** u8 flag; 1 means `translations[firstTranslation + k]` animates frame k. */
  hasTranslation: number;
  /** u8 flag; 1 means `rotations[firstRotation + k]` animates frame k. */
  hasRotation: number;
  firstTranslation: number;
  firstRotation: number;
  /** u8 flag; 1 means `props` follows. */
  hasProps: number;
  props: PropertyList[];
  /** u8 flag; 1 means `timeProps` follows. */
  hasTimeProps: number;
  timeProps: TsoTimeProperty[][];
}

/** An `.anim` file, field for field. */
export interface TsoAnimation {
  /** u32 version (2). */
  version: number;
  /** Name (u16-length Pascal string). */
  name: string;
  /** Duration: milliseconds in original files, seconds in some FreeSO-made ones. */
  duration: number;
  distance: number;
  isMoving: number;
  /** Pool of `translationCount * 3` raw floats. */
  translations: Float32Array;
  /** Pool of `rotationCount * 4` raw floats (x, y, z, w). */
  rotations: Float32Array;
  motions: TsoMotion[];
  /** Bytes after the last motion (none expected), kept for a lossless write. */
  trailing: Uint8Array;
}

const MIN_MOTION_BYTES = 4 + 1 + 4 + 4 + 1 + 1 + 4 + 4 + 1 + 1;

/**
 * Reads an `.anim`. Motions whose flag is 1 must point inside the pools (`BAD_INDEX`).
 *
 * ```ts
 * const anim = readAnimation(bytes, 'a2o-wave.anim');
 * anim.motions[0].boneName; // 'R_ARM'
 * ```
 */
export function readAnimation(bytes: Uint8Array, fileName?: string): TsoAnimation {
  const r = new ByteReader(bytes, { file: fileName, littleEndian: false, encoding: 'latin1' });
  const version = r.u32be('version');
  const name = r.pstring16('name', false);
  const duration = r.f32le('duration');
  const distance = r.f32le('distance');
  const isMoving = r.u8('isMoving');
  const tCount = r.count(r.u32be('translationCount'), 12, 'translations');
  const translations = r.f32Array(tCount * 3, 'translations', true, true);
  const rCount = r.count(r.u32be('rotationCount'), 16, 'rotations');
  const rotations = r.f32Array(rCount * 4, 'rotations', true, true);
  const motionCount = r.count(r.u32be('motionCount'), MIN_MOTION_BYTES, 'motions');
  const motions: TsoMotion[] = new Array(motionCount);
  for (let i = 0; i < motionCount; i++) {
    const at = r.offset;
    motions[i] = r.scope(`motions[${i}]`, () => {
      const unknown = r.u32be('unknown');
      const boneName = r.pstring8('boneName');
      const frameCount = r.u32be('frameCount');
      const mDuration = r.f32le('duration');
      const hasTranslation = r.u8('hasTranslation');
      const hasRotation = r.u8('hasRotation');
      const firstTranslation = r.i32be('firstTranslation');
      const firstRotation = r.i32be('firstRotation');
      const hasProps = r.u8('hasProps');
      let props: PropertyList[] = [];
      if (hasProps === 1) {
        const n = r.count(r.u32be('propListCount'), 4, 'props');
        props = new Array(n);
        for (let k = 0; k < n; k++) props[k] = readPropertyList(r, `props[${k}]`);
      }
      const hasTimeProps = r.u8('hasTimeProps');
      let timeProps: TsoTimeProperty[][] = [];
      if (hasTimeProps === 1) {
        const n = r.count(r.u32be('timePropListCount'), 4, 'timeProps');
        timeProps = new Array(n);
        for (let k = 0; k < n; k++) {
          timeProps[k] = r.scope(`timeProps[${k}]`, () => {
            const m = r.count(r.u32be('count'), 8, 'items');
            const items: TsoTimeProperty[] = new Array(m);
            for (let j = 0; j < m; j++) {
              const id = r.i32be(`items[${j}].id`);
              items[j] = { id, props: readPropertyList(r, `items[${j}].props`) };
            }
            return items;
          });
        }
      }
      return {
        unknown,
        boneName,
        frameCount,
        duration: mDuration,
        hasTranslation,
        hasRotation,
        firstTranslation,
        firstRotation,
        hasProps,
        props,
        hasTimeProps,
        timeProps,
      };
    });
    const m = motions[i];
    if (m.hasTranslation === 1 && (m.firstTranslation < 0 || m.firstTranslation + m.frameCount > tCount)) {
      throw new FormatError(
        `translations ${m.firstTranslation}+${m.frameCount} exceed the pool of ${tCount}`,
        {
          code: 'BAD_INDEX',
          file: fileName,
          offset: at,
          field: `motions[${i}].firstTranslation`,
        },
      );
    }
    if (m.hasRotation === 1 && (m.firstRotation < 0 || m.firstRotation + m.frameCount > rCount)) {
      throw new FormatError(`rotations ${m.firstRotation}+${m.frameCount} exceed the pool of ${rCount}`, {
        code: 'BAD_INDEX',
        file: fileName,
        offset: at,
        field: `motions[${i}].firstRotation`,
      });
    }
  }
  const trailing = r.bytesCopy(r.remaining, 'trailing');
  return { version, name, duration, distance, isMoving, translations, rotations, motions, trailing };
}

/**
 * Writes an `.anim`; `writeAnimation(readAnimation(b))` equals `b`.
 *
 * ```ts
 * const bytes = writeAnimation(anim);
 * ```
 */
export function writeAnimation(anim: TsoAnimation): Uint8Array {
  const w = new ByteWriter({
    littleEndian: false,
    encoding: 'latin1',
    capacity: 256 + anim.translations.length * 4 + anim.rotations.length * 4 + anim.motions.length * 64,
  });
  w.u32be(anim.version);
  w.pstring16(anim.name, false);
  w.f32le(anim.duration).f32le(anim.distance).u8(anim.isMoving);
  w.u32be(anim.translations.length / 3);
  w.f32Array(anim.translations, true);
  w.u32be(anim.rotations.length / 4);
  w.f32Array(anim.rotations, true);
  w.u32be(anim.motions.length);
  for (const m of anim.motions) {
    w.u32be(m.unknown);
    w.pstring8(m.boneName);
    w.u32be(m.frameCount);
    w.f32le(m.duration);
    w.u8(m.hasTranslation).u8(m.hasRotation);
    w.i32be(m.firstTranslation).i32be(m.firstRotation);
    w.u8(m.hasProps);
    if (m.hasProps === 1) {
      w.u32be(m.props.length);
      for (const p of m.props) writePropertyList(w, p);
    }
    w.u8(m.hasTimeProps);
    if (m.hasTimeProps === 1) {
      w.u32be(m.timeProps.length);
      for (const list of m.timeProps) {
        w.u32be(list.length);
        for (const item of list) {
          w.i32be(item.id);
          writePropertyList(w, item.props);
        }
      }
    }
  }
  w.bytes(anim.trailing);
  return w.finish();
}
