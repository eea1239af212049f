import { ByteReader, ByteWriter, FormatError } from '@gltf-legacy/core';
import { type AnimationBlock, readBlock, writeBlock } from './block.js';
import {
  ANIM_MAGIC,
  type TextEncoding,
  TRS_FLOATS,
  type UnigineBone,
  checkBoneParents,
  expectVersion,
  readBones,
  readBindPose,
  readBounds,
  readNames,
  writeBones,
  writeNames,
} from './common.js';
import { NotUtf8 } from './int2.js';

/** An an10 `.anim` file, field for field. */
export interface AnimFile {
  magic: 'an10';
  encoding: TextEncoding;
  /** bbox/sphere record (samples hold "empty" bounds: 1e9 / −1e9, radius −1). */
  bounds: Float32Array;
  /** The skeleton the animation was made for. */
  bones: UnigineBone[];
  animationNames: string[];
  /** `numBones × 10` bind pose: position[3], rotation (x, y, z, w), scale[3]. */
  bindPose: Float32Array;
  /** One quantized block per animation. */
  animations: AnimationBlock[];
}

function readAnimWith(bytes: Uint8Array, fileName: string | undefined, encoding: TextEncoding): AnimFile {
  const r = new ByteReader(bytes, { file: fileName });
  expectVersion(r, 'anim');
  const bounds = readBounds(r, 'bounds');
  const bones = readBones(r, encoding);
  checkBoneParents(bones, fileName, 'bones');
  const animationNames = readNames(r, 'numAnimations', 'animationNames', encoding);
  r.expectMagic(ANIM_MAGIC, 'headerEndMagic');
  const bindPose = readBindPose(r, bones.length * TRS_FLOATS);
  const animations: AnimationBlock[] = new Array(animationNames.length);
  for (let a = 0; a < animationNames.length; a++) {
    animations[a] = r.scope(`animations[${a}]`, () => readBlock(r, true));
    for (const b of animations[a].bones) {
      if (b < 0 || b >= bones.length) {
        throw new FormatError(`animated bone index ${b} is not a bone of this file (${bones.length} bones)`, {
          code: 'BAD_BONE_INDEX',
          file: fileName,
          field: `animations[${a}].boneIndices`,
        });
      }
    }
  }
  r.expectMagic(ANIM_MAGIC, 'endMagic');
  if (!r.eof)
    throw r.error(
      `${r.remaining} unexpected byte(s) after the closing "${ANIM_MAGIC}"`,
      'end',
      'TRAILING_DATA',
    );
  return { magic: 'an10', encoding, bounds, bones, animationNames, bindPose, animations };
}

/**
 * Reads an an10 `.anim` file. Other versions (an11, an12, …) throw `UNSUPPORTED_VERSION`.
 *
 * ```ts
 * const anim = readAnim(fs.readFileSync('actor_00_idle.anim'), 'actor_00_idle.anim');
 * anim.animations[0].numFrames;
 * ```
 */
export function readAnim(bytes: Uint8Array, fileName?: string): AnimFile {
  try {
    return readAnimWith(bytes, fileName, 'utf8');
  } catch (e) {
    if (e instanceof NotUtf8) return readAnimWith(bytes, fileName, 'latin1');
    throw e;
  }
}

/**
 * Writes an {@link AnimFile} as an10 bytes. `writeAnim(readAnim(b))` equals `b`.
 *
 * ```ts
 * fs.writeFileSync('walk.anim', writeAnim(anim));
 * ```
 */
export function writeAnim(anim: AnimFile): Uint8Array {
  const w = new ByteWriter({ capacity: 1024 + anim.bindPose.byteLength });
  w.string(ANIM_MAGIC);
  w.f32Array(anim.bounds);
  writeBones(w, anim.bones, anim.encoding);
  writeNames(w, anim.animationNames, anim.encoding);
  w.string(ANIM_MAGIC);
  w.f32Array(anim.bindPose);
  for (const a of anim.animations) writeBlock(w, a);
  w.string(ANIM_MAGIC);
  return w.finish();
}
