/**
 * What both file kinds share at the field level: magics and versions, bounds, the skeleton header
 * (bones, parents, cycles), names and the bind pose.
 */
import { type ByteReader, type ByteWriter, FormatError, printable } from '@gltf-legacy/core';
import { readCount, readString, writeInt2, writeString } from './int2.js';

/** Text encoding of a file's strings: UTF-8 unless some string is not valid UTF-8. */
export type TextEncoding = 'utf8' | 'latin1';

/** A bone of the skeleton header (mesh or animation file). */
export interface UnigineBone {
  name: string;
  /** Parent bone index, −1 for a root (raw int16). */
  parent: number;
}

/** Number of floats of a bounds record: bbox min[3], max[3], sphere centre[3], radius. */
export const BOUNDS_FLOATS = 10;
/** Number of floats of a bone transform: position[3], rotation quaternion (x, y, z, w), scale[3]. */
export const TRS_FLOATS = 10;

/** Magic of the supported mesh version. */
export const MESH_MAGIC = 'ms11';
/** Magic of the supported animation version. */
export const ANIM_MAGIC = 'an10';

/**
 * Kind and version of a UNIGINE file from its first 4 bytes, or null.
 *
 * ```ts
 * unigineMagic(bytes); // { kind: 'mesh', magic: 'ms11' } — or 'ms14', 'an10', …
 * ```
 */
export function unigineMagic(bytes: Uint8Array): { kind: 'mesh' | 'anim'; magic: string } | null {
  if (bytes.length < 4) return null;
  const a = bytes[0];
  const b = bytes[1];
  const d0 = bytes[2];
  const d1 = bytes[3];
  const digit = (x: number) => x >= 0x30 && x <= 0x39;
  if (!digit(d0) || !digit(d1)) return null;
  const magic = String.fromCharCode(a, b, d0, d1);
  if (a === 0x6d && b === 0x73) return { kind: 'mesh', magic };
  if (a === 0x61 && b === 0x6e) return { kind: 'anim', magic };
  return null;
}

/**
 * Checks the magic at the start of a file. Other versions of the same kind are refused with
 * `UNSUPPORTED_VERSION`; anything else is `BAD_MAGIC`.
 */
export function expectVersion(r: ByteReader, kind: 'mesh' | 'anim'): void {
  const want = kind === 'mesh' ? MESH_MAGIC : ANIM_MAGIC;
  const found = unigineMagic(r.bytes);
  if (found && found.kind === kind && found.magic !== want) {
    const what = kind === 'mesh' ? 'mesh' : 'animation';
    throw new FormatError(
      `UNIGINE ${what} version "${found.magic}" is not supported: only "${want}" (UNIGINE 2.0-era ${kind === 'mesh' ? '.mesh' : '.anim'}) can be read. Re-export the asset from the UNIGINE editor as ${want}, or convert it with a UNIGINE SDK of that era.`,
      { code: 'UNSUPPORTED_VERSION', file: r.file, offset: 0, field: 'magic' },
    );
  }
  if (found && found.kind !== kind) {
    throw new FormatError(
      `this is a UNIGINE ${found.kind === 'mesh' ? 'mesh' : 'animation'} file ("${found.magic}"), not ${kind === 'mesh' ? 'a mesh' : 'an animation'}`,
      { code: 'WRONG_FILE_TYPE', file: r.file, offset: 0, field: 'magic' },
    );
  }
  const at = r.offset;
  const b = r.bytes.subarray(0, 4);
  if (b.length < 4 || printable(b) !== want) {
    r.need(4, 'magic');
    throw new FormatError(`expected magic "${want}", found "${printable(b)}"`, {
      code: 'BAD_MAGIC',
      file: r.file,
      offset: at,
      field: 'magic',
    });
  }
  r.offset = 4;
}

/** Reads one of the inner section magics (`ms11` / `an10` repeated between sections). */
export function expectSectionMagic(r: ByteReader, magic: string, field: string): void {
  r.expectMagic(magic, field);
}

/** Reads a bounds record as a copy (bit-exact). */
export function readBounds(r: ByteReader, field: string): Float32Array {
  return r.f32Array(BOUNDS_FLOATS, field, true);
}

export function readBones(r: ByteReader, encoding: TextEncoding): UnigineBone[] {
  const n = readCount(r, 3, 'numBones');
  const bones: UnigineBone[] = new Array(n);
  for (let i = 0; i < n; i++) {
    bones[i] = r.scope(`bones[${i}]`, () => {
      const name = readString(r, 'name', encoding);
      const parent = r.i16('parent');
      return { name, parent };
    });
  }
  return bones;
}

export function writeBones(w: ByteWriter, bones: readonly UnigineBone[], encoding: TextEncoding): void {
  writeInt2(w, bones.length);
  for (const b of bones) {
    writeString(w, b.name, encoding);
    w.i16(b.parent);
  }
}

export function readNames(
  r: ByteReader,
  countField: string,
  field: string,
  encoding: TextEncoding,
): string[] {
  const n = readCount(r, 2, countField);
  const out: string[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = readString(r, `${field}[${i}]`, encoding);
  return out;
}

export function writeNames(w: ByteWriter, names: readonly string[], encoding: TextEncoding): void {
  writeInt2(w, names.length);
  for (const s of names) writeString(w, s, encoding);
}

/**
 * Validates bone parents: each is −1 or an index of another bone, with no cycles.
 * Throws `BAD_BONE_PARENT` / `BONE_CYCLE`.
 */
export function checkBoneParents(
  bones: readonly UnigineBone[],
  file: string | undefined,
  what: string,
): void {
  const n = bones.length;
  for (let i = 0; i < n; i++) {
    const p = bones[i].parent;
    if (p !== -1 && (p < 0 || p >= n || p === i)) {
      throw new FormatError(
        `bone "${bones[i].name}" has parent ${p}, which is not a bone index (0…${n - 1}) or −1`,
        {
          code: 'BAD_BONE_PARENT',
          file,
          field: `${what}[${i}].parent`,
        },
      );
    }
  }
  // Cycle check: walk up at most n steps from every bone.
  const state = new Uint8Array(n); // 0 = unknown, 1 = on stack, 2 = reaches a root
  for (let i = 0; i < n; i++) {
    let j = i;
    const path: number[] = [];
    while (j !== -1 && state[j] === 0) {
      state[j] = 1;
      path.push(j);
      j = bones[j].parent;
    }
    if (j !== -1 && state[j] === 1) {
      throw new FormatError(`bone parents form a cycle through "${bones[j].name}"`, {
        code: 'BONE_CYCLE',
        file,
        field: `${what}[${j}].parent`,
      });
    }
    for (const k of path) state[k] = 2;
  }
}

/**
 * Reads the `numBones × 10` bind pose and rejects non-finite floats: a bone transform holding
 * NaN or ±Infinity has no meaning, and glTF node transforms cannot hold one (import would set a
 * NaN rotation; see fuzz note 1a12b46025c01540).
 *
 * ```ts
 * const bindPose = readBindPose(r, bones.length * TRS_FLOATS);
 * ```
 */
export function readBindPose(r: ByteReader, count: number): Float32Array {
  const start = r.offset;
  const bindPose = r.f32Array(count, 'bindPose', true);
  for (let i = 0; i < count; i++) {
    const v = bindPose[i];
    if (v - v !== 0)
      throw r.error(
        `bone ${Math.floor(i / TRS_FLOATS)} has a bind pose value of ${v}; bind poses must be finite`,
        `bindPose[${i}]`,
        'BAD_BIND_POSE',
        start + i * 4,
      );
  }
  return bindPose;
}
