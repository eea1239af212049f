/** A TSO `.anim` into a glTF animation: one LINEAR channel per motion, the raw pools in extras. */
import { type WarningCollector, clipNameFromFile } from '@gltf-legacy/core';
import type { Accessor, Document, Node } from '@gltf-transform/core';
import type { TsoAnimation } from '../anim.js';
import { convertRotations, convertVectors, floatJson } from '../space.js';
import { floatWords, keepRun, keepWords } from '../kept.js';
import { TSO_IMPORT_DEFAULTS, type TsoImportOptions } from './options.js';

/**
 * Frames per second of an animation, from its duration and largest frame count.
 *
 * ```ts
 * animationFps(readAnimation(bytes)); // { fps: 30, valid: true } for 1000 ms over 30 frames
 * ```
 */
export function animationFps(
  anim: TsoAnimation,
  options: TsoImportOptions = {},
): { fps: number; valid: boolean } {
  const o = { ...TSO_IMPORT_DEFAULTS, ...options };
  let frames = 0;
  for (const m of anim.motions) frames = Math.max(frames, m.frameCount);
  const d = anim.duration;
  if (!(d > 0) || !Number.isFinite(d) || frames === 0) return { fps: o.fallbackFps, valid: frames <= 1 };
  const seconds = o.durationUnit === 's' || (o.durationUnit === 'auto' && d < frames);
  const fps = frames / (seconds ? d : d / 1000);
  if (!Number.isFinite(fps) || fps <= 0) return { fps: o.fallbackFps, valid: false };
  return { fps, valid: true };
}

export function importAnimation(
  doc: Document,
  buffer: ReturnType<Document['createBuffer']>,
  anim: TsoAnimation,
  fileName: string,
  nodes: Node[],
  register: (name: string, i: number) => void,
  lookup: (name: string) => number | undefined,
  createNodes: boolean,
  scene: ReturnType<Document['createScene']>,
  options: TsoImportOptions,
  warnings: WarningCollector,
): void {
  const { fps, valid } = animationFps(anim, options);
  if (!valid)
    warnings.warn(
      'ANIM_DURATION_INVALID',
      `animation "${anim.name || fileName}" has no usable duration; assumed ${fps} fps`,
    );
  const gAnim = doc.createAnimation(anim.name || clipNameFromFile(fileName, options.meshName ?? ''));
  const times = new Map<number, ReturnType<Document['createAccessor']>>();
  const timeAccessor = (frames: number) => {
    let a = times.get(frames);
    if (!a) {
      const t = new Float32Array(frames);
      for (let k = 0; k < frames; k++) t[k] = k / fps;
      a = doc.createAccessor().setBuffer(buffer).setType('SCALAR').setArray(t);
      times.set(frames, a);
    }
    return a;
  };
  /** One LINEAR sampler over `frames` keys and its channel on `target`. */
  const addLinearChannel = (
    target: Node,
    path: 'translation' | 'rotation',
    out: Accessor,
    frames: number,
  ) => {
    const s = doc
      .createAnimationSampler()
      .setInput(timeAccessor(frames))
      .setOutput(out)
      .setInterpolation('LINEAR');
    gAnim
      .addSampler(s)
      .addChannel(doc.createAnimationChannel().setTargetNode(target).setTargetPath(path).setSampler(s));
  };
  const tCount = anim.translations.length / 3;
  const rCount = anim.rotations.length / 4;
  const coveredT = new Uint8Array(tCount);
  const coveredR = new Uint8Array(rCount);
  // Raw pool entries kept as bytes (kept.ts): u32 words [index, x, y, z (, w) bits]….
  const rawR: number[] = [];
  let missing = 0;
  let duplicate = 0;
  const animated = new Set<string>();
  for (const m of anim.motions) {
    let i = lookup(m.boneName);
    if (i === undefined && createNodes) {
      i = nodes.length;
      const node = doc.createNode(m.boneName);
      nodes.push(node);
      register(m.boneName, i);
      scene.addChild(node);
    }
    if (i === undefined) {
      missing++;
      continue;
    }
    const target = nodes[i];
    const f = m.frameCount;
    if (f === 0) continue;
    // glTF allows one channel per node and path: a second motion for the same bone stays raw.
    const dupT = m.hasTranslation === 1 && animated.has(`${i}/t`);
    const dupR = m.hasRotation === 1 && animated.has(`${i}/r`);
    if (dupT || dupR) duplicate++;
    if (m.hasTranslation === 1 && !dupT) {
      animated.add(`${i}/t`);
      const values = anim.translations.slice(m.firstTranslation * 3, (m.firstTranslation + f) * 3);
      convertVectors(values);
      coveredT.fill(1, m.firstTranslation, m.firstTranslation + f);
      const out = doc.createAccessor().setBuffer(buffer).setType('VEC3').setArray(values);
      addLinearChannel(target, 'translation', out, f);
    }
    if (m.hasRotation === 1 && !dupR) {
      animated.add(`${i}/r`);
      const values = anim.rotations.slice(m.firstRotation * 4, (m.firstRotation + f) * 4);
      convertRotations(values);
      for (let k = 0; k < f; k++) {
        const len = Math.hypot(values[k * 4], values[k * 4 + 1], values[k * 4 + 2], values[k * 4 + 3]);
        if (Math.abs(len - 1) > 1e-6) {
          const at = m.firstRotation + k;
          rawR.push(at, ...floatWords(anim.rotations.subarray(at * 4, at * 4 + 4)));
          for (let c = 0; c < 4; c++) values[k * 4 + c] = len > 0 ? values[k * 4 + c] / len : c === 3 ? 1 : 0;
          warnings.warn(
            'VALUE_NORMALIZED',
            'an animation rotation was not a unit quaternion; normalized (raw value kept in extras)',
          );
        }
      }
      coveredR.fill(1, m.firstRotation, m.firstRotation + f);
      const out = doc.createAccessor().setBuffer(buffer).setType('VEC4').setArray(values);
      addLinearChannel(target, 'rotation', out, f);
    }
  }
  warnings.warn(
    'ANIM_DUPLICATE_MOTION',
    `"${anim.name || fileName}" animates a bone twice; the later motion is kept only in extras`,
    duplicate,
  );
  warnings.warn(
    'ANIM_BONE_MISSING',
    `motions of "${anim.name || fileName}" name bones that are not loaded; skipped`,
    missing,
  );
  gAnim.setExtras({
    tso: {
      file: fileName,
      version: anim.version,
      name: anim.name,
      duration: floatJson(anim.duration),
      distance: floatJson(anim.distance),
      isMoving: anim.isMoving,
      translationCount: tCount,
      rotationCount: rCount,
      fps,
      motions: anim.motions.map((m) => ({ ...m, duration: floatJson(m.duration) })),
    },
  });
  if (!gAnim.listChannels().length) {
    gAnim.dispose();
    return;
  }
  // Pool entries no channel carries are kept raw so export can rebuild the pools exactly.
  keepWords(gAnim, 'rawTranslations', uncoveredWords(anim.translations, 3, coveredT));
  keepWords(gAnim, 'rawRotations', uncoveredWords(anim.rotations, 4, coveredR, rawR));
  keepRun(gAnim, 'trailing', anim.trailing);
}

/**
 * The pool entries (`width` floats each) that `covered` leaves out, as u32 words [index, bits of
 * the floats]…, after the words `before` (entries kept for another reason).
 */
function uncoveredWords(
  pool: Float32Array,
  width: number,
  covered: Uint8Array,
  before: readonly number[] = [],
): Uint32Array {
  let n = 0;
  for (let k = 0; k < covered.length; k++) if (!covered[k]) n++;
  const bits = new Uint32Array(pool.buffer, pool.byteOffset, pool.length);
  const out = new Uint32Array(before.length + n * (1 + width));
  out.set(before);
  let o = before.length;
  for (let k = 0; k < covered.length; k++) {
    if (covered[k]) continue;
    out[o++] = k;
    for (let c = 0; c < width; c++) out[o++] = bits[k * width + c]!;
  }
  return out;
}
