import { ByteReader, ByteWriter, FormatError } from '@gltf-legacy/core';
import { type PropertyList, readPropertyList, writePropertyList } from './props.js';

/**
 * The Sims Online `.skel` file model (big-endian integers, little-endian floats). Bones are
 * parented by name; the root's parent is `"NULL"`.
 */

/** One skeleton bone, field for field. */
export interface TsoBone {
  /** u32 of unknown meaning, kept as-is. */
  unknown: number;
  name: string;
  /** Parent bone name, `"NULL"` for the root. */
  parentName: string;
  /** u8 flag; properties follow when it is non-zero. */
  hasProps: number;
  /** The property items (empty when `hasProps` is 0). */
  props: PropertyList;
  /** Raw translation x, y, z (TSO space: see README, X is mirrored against glTF). */
  translation: Float32Array;
  /** Raw rotation quaternion x, y, z, w as stored. */
  rotation: Float32Array;
  canTranslate: number;
  canRotate: number;
  canBlend: number;
  wiggleValue: number;
  wigglePower: number;
}

/** A `.skel` file. */
export interface TsoSkeleton {
  /** u32 version (1). */
  version: number;
  name: string;
  bones: TsoBone[];
  /** Bytes after the last bone (none expected), kept for a lossless write. */
  trailing: Uint8Array;
}

/** The parent name a root bone carries. */
export const ROOT_PARENT = 'NULL';

const MIN_BONE_BYTES = 4 + 1 + 1 + 1 + 28 + 12 + 8;

/**
 * Reads a `.skel`. Parents are resolved by name: an unknown parent or a cycle is a FormatError
 * (`BAD_PARENT`, `BONE_CYCLE`).
 *
 * ```ts
 * const skel = readSkeleton(bytes, 'adult.skel');
 * skel.bones.map((b) => b.name); // ['ROOT', 'PELVIS', …]
 * ```
 */
export function readSkeleton(bytes: Uint8Array, fileName?: string): TsoSkeleton {
  const r = new ByteReader(bytes, { file: fileName, littleEndian: false, encoding: 'latin1' });
  const version = r.u32be('version');
  const name = r.pstring8('name');
  const boneCount = r.count(r.u16be('boneCount'), MIN_BONE_BYTES, 'bones');
  const bones: TsoBone[] = new Array(boneCount);
  const starts: number[] = new Array(boneCount);
  for (let i = 0; i < boneCount; i++) {
    starts[i] = r.offset;
    bones[i] = r.scope(`bones[${i}]`, () => {
      const unknown = r.u32be('unknown');
      const boneName = r.pstring8('name');
      const parentName = r.pstring8('parentName');
      const hasProps = r.u8('hasProps');
      const props = hasProps ? readPropertyList(r, 'props') : [];
      const translation = r.f32Array(3, 'translation', true, true);
      const rotation = r.f32Array(4, 'rotation', true, true);
      return {
        unknown,
        name: boneName,
        parentName,
        hasProps,
        props,
        translation,
        rotation,
        canTranslate: r.u32be('canTranslate'),
        canRotate: r.u32be('canRotate'),
        canBlend: r.u32be('canBlend'),
        wiggleValue: r.f32le('wiggleValue'),
        wigglePower: r.f32le('wigglePower'),
      };
    });
  }
  const trailing = r.bytesCopy(r.remaining, 'trailing');
  const skel: TsoSkeleton = { version, name, bones, trailing };
  skeletonParents(skel, fileName, starts);
  return skel;
}

/**
 * Parent index of every bone (-1 for roots), resolved by exact name, then case-insensitively.
 * Throws `BAD_PARENT` for a parent that names no bone and `BONE_CYCLE` for a loop.
 *
 * ```ts
 * skeletonParents(readSkeleton(bytes)); // Int32Array [-1, 0, 1, …]
 * ```
 */
export function skeletonParents(skel: TsoSkeleton, fileName?: string, offsets?: number[]): Int32Array {
  const exact = new Map<string, number>();
  const lower = new Map<string, number>();
  skel.bones.forEach((b, i) => {
    if (!exact.has(b.name)) exact.set(b.name, i);
    if (!lower.has(b.name.toLowerCase())) lower.set(b.name.toLowerCase(), i);
  });
  const parents = new Int32Array(skel.bones.length);
  skel.bones.forEach((b, i) => {
    if (b.parentName === ROOT_PARENT) {
      parents[i] = -1;
      return;
    }
    const p = exact.get(b.parentName) ?? lower.get(b.parentName.toLowerCase());
    if (p === undefined) {
      throw new FormatError(`parent "${b.parentName}" of bone "${b.name}" is not a bone of the skeleton`, {
        code: 'BAD_PARENT',
        file: fileName,
        offset: offsets?.[i],
        field: `bones[${i}].parentName`,
      });
    }
    parents[i] = p;
  });
  // Cycle check: walk up from each bone at most boneCount steps.
  const n = parents.length;
  const state = new Uint8Array(n); // 0 unknown, 1 visiting, 2 ok
  for (let i = 0; i < n; i++) {
    let k = i;
    const chain: number[] = [];
    while (k >= 0 && state[k] === 0) {
      state[k] = 1;
      chain.push(k);
      k = parents[k];
    }
    if (k >= 0 && state[k] === 1) {
      throw new FormatError(`bone "${skel.bones[k].name}" is its own ancestor`, {
        code: 'BONE_CYCLE',
        file: fileName,
        offset: offsets?.[k],
        field: `bones[${k}].parentName`,
      });
    }
    for (const c of chain) state[c] = 2;
  }
  return parents;
}

/**
 * Writes a `.skel`; `writeSkeleton(readSkeleton(b))` equals `b`.
 *
 * ```ts
 * const bytes = writeSkeleton({ version: 1, name: 'adult', bones, trailing: new Uint8Array() });
 * ```
 */
export function writeSkeleton(skel: TsoSkeleton): Uint8Array {
  const w = new ByteWriter({
    littleEndian: false,
    encoding: 'latin1',
    capacity: 64 + skel.bones.length * 96,
  });
  w.u32be(skel.version);
  w.pstring8(skel.name);
  w.u16be(skel.bones.length);
  for (const b of skel.bones) {
    w.u32be(b.unknown);
    w.pstring8(b.name);
    w.pstring8(b.parentName);
    w.u8(b.hasProps);
    if (b.hasProps) writePropertyList(w, b.props);
    w.f32Array(b.translation, true);
    w.f32Array(b.rotation, true);
    w.u32be(b.canTranslate).u32be(b.canRotate).u32be(b.canBlend);
    w.f32le(b.wiggleValue).f32le(b.wigglePower);
  }
  w.bytes(skel.trailing);
  return w.finish();
}
