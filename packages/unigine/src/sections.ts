/**
 * The sections `.mesh` and `.anim` share, read and written once for both: the file header
 * (magic, bounds, skeleton, animation names), the animation blocks with their bone check, the
 * closing magic, and the UTF-8 → Latin-1 fallback of a file's strings.
 */
import { type ByteReader, type ByteWriter, FormatError } from '@gltf-legacy/core';
import { type AnimationBlock, readBlock } from './block.js';
import {
  type TextEncoding,
  type UnigineBone,
  checkBoneParents,
  expectVersion,
  readBones,
  readBounds,
  readNames,
  writeBones,
  writeNames,
} from './common.js';
import { NotUtf8 } from './int2.js';

/** The header both file kinds start with. */
export interface FileHeader {
  bounds: Float32Array;
  bones: UnigineBone[];
  animationNames: string[];
}

/**
 * Reads the version magic, bounds, skeleton (parents checked) and animation names.
 *
 * ```ts
 * const { bounds, bones, animationNames } = readFileHeader(r, 'anim', 'utf8', 'walk.anim');
 * ```
 */
export function readFileHeader(
  r: ByteReader,
  kind: 'mesh' | 'anim',
  encoding: TextEncoding,
  fileName: string | undefined,
): FileHeader {
  expectVersion(r, kind);
  const bounds = readBounds(r, 'bounds');
  const bones = readBones(r, encoding);
  checkBoneParents(bones, fileName, 'bones');
  const animationNames = readNames(r, 'numAnimations', 'animationNames', encoding);
  return { bounds, bones, animationNames };
}

/** Writes what {@link readFileHeader} reads. */
export function writeFileHeader(w: ByteWriter, magic: string, h: FileHeader, encoding: TextEncoding): void {
  w.string(magic);
  w.f32Array(h.bounds);
  writeBones(w, h.bones, encoding);
  writeNames(w, h.animationNames, encoding);
}

/**
 * Reads `count` animation blocks (`quantized`: an10 range boxes, else ms11 floats) and checks
 * that every animated bone is one of `numBones` (`BAD_BONE_INDEX`, naming the `owner`).
 */
export function readAnimationBlocks(
  r: ByteReader,
  count: number,
  numBones: number,
  quantized: boolean,
  fileName: string | undefined,
  owner: 'file' | 'mesh',
): AnimationBlock[] {
  const animations: AnimationBlock[] = new Array(count);
  for (let a = 0; a < count; a++) {
    animations[a] = r.scope(`animations[${a}]`, () => readBlock(r, quantized));
    for (const b of animations[a].bones) {
      if (b < 0 || b >= numBones) {
        throw new FormatError(`animated bone index ${b} is not a bone of this ${owner} (${numBones} bones)`, {
          code: 'BAD_BONE_INDEX',
          file: fileName,
          field: `animations[${a}].boneIndices`,
        });
      }
    }
  }
  return animations;
}

/** Options of `readMesh` / `readAnim`. */
export interface ReadOptions {
  /**
   * Keep bytes after the closing magic as the file model's `trailing` (written back by the
   * writer) instead of refusing them with `TRAILING_DATA`. Default false: the file model readers
   * are strict; `importUnigine` keeps them unless `strict` (a quirk the tools tolerate, see the README).
   */
  keepTrailing?: boolean;
}

export const READ_DEFAULTS: ReadOptions = { keepTrailing: false };

/**
 * The closing magic, and nothing after it (`TRAILING_DATA`) — or, with `keepTrailing`, the bytes
 * after it (undefined when there are none).
 */
export function expectEnd(r: ByteReader, magic: string, keepTrailing = false): Uint8Array | undefined {
  r.expectMagic(magic, 'endMagic');
  if (r.eof) return undefined;
  if (!keepTrailing)
    throw r.error(`${r.remaining} unexpected byte(s) after the closing "${magic}"`, 'end', 'TRAILING_DATA');
  return r.bytes.slice(r.offset);
}

/**
 * Reads with UTF-8 strings, and again with Latin-1 when some string is not valid UTF-8.
 *
 * ```ts
 * const anim = readWithTextFallback((encoding) => readAnimWith(bytes, name, encoding));
 * ```
 */
export function readWithTextFallback<T>(read: (encoding: TextEncoding) => T): T {
  try {
    return read('utf8');
  } catch (e) {
    if (e instanceof NotUtf8) return read('latin1');
    throw e;
  }
}
