/**
 * The an10 `.anim` file model: `readAnim` / `writeAnim`, byte for byte (the sections it shares
 * with `.mesh` are in `sections.ts`).
 */
import { ByteReader, ByteWriter } from '@gltf-legacy/core';
import { type AnimationBlock, writeBlock } from './block.js';
import { ANIM_MAGIC, type TextEncoding, TRS_FLOATS, type UnigineBone, readBindPose } from './common.js';
import {
  READ_DEFAULTS,
  type ReadOptions,
  expectEnd,
  readAnimationBlocks,
  readFileHeader,
  readWithTextFallback,
  writeFileHeader,
} from './sections.js';

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
  /** Bytes after the closing magic (read only with `keepTrailing`; written back after it). */
  trailing?: Uint8Array;
}

function readAnimWith(
  bytes: Uint8Array,
  fileName: string | undefined,
  encoding: TextEncoding,
  options: ReadOptions,
): AnimFile {
  const r = new ByteReader(bytes, { file: fileName });
  const { bounds, bones, animationNames } = readFileHeader(r, 'anim', encoding, fileName);
  r.expectMagic(ANIM_MAGIC, 'headerEndMagic');
  const bindPose = readBindPose(r, bones.length * TRS_FLOATS);
  const animations = readAnimationBlocks(r, animationNames.length, bones.length, true, fileName, 'file');
  const trailing = expectEnd(r, ANIM_MAGIC, options.keepTrailing);
  const anim: AnimFile = { magic: 'an10', encoding, bounds, bones, animationNames, bindPose, animations };
  if (trailing) anim.trailing = trailing;
  return anim;
}

/**
 * Reads an an10 `.anim` file. Other versions (an11, an12, …) throw `UNSUPPORTED_VERSION`.
 *
 * ```ts
 * const anim = readAnim(fs.readFileSync('actor_00_idle.anim'), 'actor_00_idle.anim');
 * anim.animations[0].numFrames;
 * ```
 */
export function readAnim(
  bytes: Uint8Array,
  fileName?: string,
  options: ReadOptions = READ_DEFAULTS,
): AnimFile {
  return readWithTextFallback((encoding) => readAnimWith(bytes, fileName, encoding, options));
}

/**
 * Writes an {@link AnimFile} as an10 bytes. `writeAnim(readAnim(b))` equals `b`.
 *
 * ```ts
 * fs.writeFileSync('walk.anim', writeAnim(anim));
 * ```
 */
export function writeAnim(anim: AnimFile): Uint8Array {
  const w = new ByteWriter({ capacity: 1024 + anim.bindPose.byteLength + (anim.trailing?.length ?? 0) });
  writeFileHeader(w, ANIM_MAGIC, anim, anim.encoding);
  w.string(ANIM_MAGIC);
  w.f32Array(anim.bindPose);
  for (const a of anim.animations) writeBlock(w, a);
  w.string(ANIM_MAGIC);
  if (anim.trailing) w.bytes(anim.trailing);
  return w.finish();
}
