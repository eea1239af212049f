/**
 * The `.anim` files of the export: exact from `extras.tso` when the channels are unchanged, else
 * one key per frame for every animated bone (the keys the shared stage put on the frame grid).
 */
import { ExportError, type WarningCollector, objectName, readSampler } from '@gltf-legacy/core';
import type { Animation, Node } from '@gltf-transform/core';
import type { TsoAnimation, TsoMotion } from '../anim.js';
import { bitsToFloats, convertRotations, convertVectors } from '../space.js';
import { keptRun, keptWords, wordFloats } from '../kept.js';

import { tsoAnimationFps } from '../limits.js';
import { type BoneInfo, num } from './common.js';
import type { TSO_EXPORT_DEFAULTS } from './options.js';

/** Longest animation export writes, in frames (about 7.7 hours at 36 fps). */
export const MAX_FRAMES = 1_000_000;

export function exportAnimation(
  a: Animation,
  bones: BoneInfo[],
  boneIndex: Map<Node, number>,
  o: typeof TSO_EXPORT_DEFAULTS,
  warnings: WarningCollector,
  index = 0,
): { anim: TsoAnimation; file?: string } {
  const x = a.getExtras()?.tso as Record<string, any> | undefined;
  const channels = new Map<
    string,
    { values: Float32Array; count: number; sampler: ReturnType<typeof readSampler> }
  >();
  for (const c of a.listChannels()) {
    const node = c.getTargetNode();
    const path = c.getTargetPath();
    const s = c.getSampler();
    if (!node || !s) continue;
    if (path !== 'translation' && path !== 'rotation') {
      warnings.warn(
        'ANIMATION_CHANNEL_DROPPED',
        `TSO animations move and rotate bones only; ${path} channels dropped`,
      );
      continue;
    }
    const b = boneIndex.get(node);
    if (b === undefined) continue;
    const sampler = readSampler(s, path === 'rotation');
    channels.set(`${bones[b].name.toLowerCase()}/${path}`, {
      values: sampler.values,
      count: sampler.times.length,
      sampler,
    });
  }
  if (x && Array.isArray(x.motions)) {
    const exact = restoreAnimation(x, a, channels);
    if (exact) return { anim: exact, file: typeof x.file === 'string' ? x.file : undefined };
    warnings.warn(
      'EXTRAS_STALE',
      `extras.tso of animation "${a.getName()}" no longer match its channels; written from the channels`,
    );
  }
  // Generic: one key per frame for every animated bone, at the animation's rate.
  const fps = tsoAnimationFps(a, o.fps);
  let end = 0;
  for (const ch of channels.values()) end = Math.max(end, ch.sampler.times[ch.sampler.times.length - 1] ?? 0);
  const frames = Math.max(1, Math.round(end * fps) + 1);
  if (!Number.isFinite(frames) || frames > MAX_FRAMES) {
    throw new ExportError(
      'ANIMATION_TOO_LONG',
      `animation "${a.getName()}" lasts ${end} s: ${frames} frames at ${fps} fps exceed ${MAX_FRAMES}`,
    );
  }
  const tPool: number[] = [];
  const rPool: number[] = [];
  const motions: TsoMotion[] = [];
  let approximated = 0;
  const seconds = frames / fps;
  for (const b of bones) {
    const tc = channels.get(`${b.name.toLowerCase()}/translation`);
    const rc = channels.get(`${b.name.toLowerCase()}/rotation`);
    if (!tc && !rc) continue;
    if (b.baked) approximated++;
    motions.push({
      unknown: 0,
      boneName: b.name,
      frameCount: frames,
      duration: seconds * 1000,
      hasTranslation: tc ? 1 : 0,
      hasRotation: rc ? 1 : 0,
      firstTranslation: tc ? tPool.length / 3 : -1,
      firstRotation: rc ? rPool.length / 4 : -1,
      hasProps: 0,
      props: [],
      hasTimeProps: 0,
      timeProps: [],
    });
    if (tc) for (const v of frameKeys(tc, frames, 3)) tPool.push(v);
    if (rc) for (const v of frameKeys(rc, frames, 4)) rPool.push(v);
  }
  warnings.warn(
    'ANIMATION_APPROXIMATED',
    'a bone was animated through non-bone parents or scale; its keys were written as-is',
    approximated,
  );
  return {
    anim: {
      version: 2,
      name: objectName(a.getName(), 'Animation', index),
      duration: seconds * 1000,
      distance: 0,
      isMoving: 0,
      translations: Float32Array.from(tPool),
      rotations: Float32Array.from(rPool),
      motions,
      trailing: new Uint8Array(0),
    },
  };
}

/**
 * A channel's keys as `frames` TSO keys (TSO axes). The shared stage put every key on frame
 * `k / fps` from 0, so key k is frame k; a channel that ends before the clip holds its last key
 * (what glTF playback does after the last key).
 */
function frameKeys(ch: { values: Float32Array; count: number }, frames: number, size: 3 | 4): Float32Array {
  const vals = new Float32Array(frames * size);
  const last = Math.max(0, ch.count - 1);
  for (let k = 0; k < frames; k++) {
    const from = Math.min(k, last) * size;
    for (let c = 0; c < size; c++) vals[k * size + c] = ch.values[from + c] ?? 0;
  }
  if (size === 3) convertVectors(vals);
  else convertRotations(vals);
  return vals;
}

export function restoreAnimation(
  x: Record<string, any>,
  a: Animation,
  channels: Map<string, { values: Float32Array; count: number }>,
): TsoAnimation | null {
  const tCount = num(x.translationCount);
  const rCount = num(x.rotationCount);
  if (!Number.isInteger(tCount) || !Number.isInteger(rCount) || tCount < 0 || rCount < 0) return null;
  if (tCount > MAX_FRAMES * 16 || rCount > MAX_FRAMES * 16 || !Array.isArray(x.motions)) return null;
  const translations = new Float32Array(tCount * 3);
  const rotations = new Float32Array(rCount * 4);
  const motions = x.motions as TsoMotion[];
  for (const m of motions) {
    const f = m.frameCount;
    if (f === 0) continue;
    for (const [flag, first, path, pool, size, total] of [
      [m.hasTranslation, m.firstTranslation, 'translation', translations, 3, tCount],
      [m.hasRotation, m.firstRotation, 'rotation', rotations, 4, rCount],
    ] as const) {
      if (flag !== 1) continue;
      const ch = channels.get(`${String(m.boneName).toLowerCase()}/${path}`);
      if (!ch) {
        // The bone was not loaded at import: its keys are in the raw lists.
        continue;
      }
      if (ch.count !== f || first < 0 || first + f > total) return null;
      const vals = ch.values.slice(0, f * size);
      if (size === 3) convertVectors(vals);
      else convertRotations(vals);
      pool.set(vals, first * size);
    }
  }
  // Raw pool entries no channel carries: kept bytes (u32 words [index, bits…]…), else the JSON
  // lists of files written before kept bytes.
  const keptT = keptWords(a, 'rawTranslations', 4);
  const keptR = keptWords(a, 'rawRotations', 5);
  if (keptT)
    for (let i = 0; i < keptT.length; i += 4)
      if (keptT[i] < tCount) translations.set(wordFloats(keptT.subarray(i + 1, i + 4)), keptT[i] * 3);
  for (const e of keptT ? [] : legacyRaw(x.rawT, 4))
    if (e[0] < tCount) translations.set(bitsToFloats(e.slice(1, 4)), e[0] * 3);
  if (keptR)
    for (let i = 0; i < keptR.length; i += 5)
      if (keptR[i] < rCount) rotations.set(wordFloats(keptR.subarray(i + 1, i + 5)), keptR[i] * 4);
  for (const e of keptR ? [] : legacyRaw(x.rawR, 5))
    if (e[0] < rCount) rotations.set(bitsToFloats(e.slice(1, 5)), e[0] * 4);
  return {
    version: num(x.version, 2),
    name: typeof x.name === 'string' ? x.name : '',
    duration: num(x.duration),
    distance: num(x.distance),
    isMoving: num(x.isMoving),
    translations,
    rotations,
    motions: motions.map((m) => ({
      ...m,
      duration: num(m.duration),
      props: m.props ?? [],
      timeProps: m.timeProps ?? [],
    })),
    trailing: keptRun(a, 'trailing', x.trailing),
  };
}

/** The raw pool entries of a file written before kept bytes: `[index, bits…]` lists of `size` numbers. */
function legacyRaw(list: unknown, size: number): number[][] {
  if (!Array.isArray(list)) return [];
  return list.filter(
    (e): e is number[] =>
      Array.isArray(e) &&
      e.length === size &&
      Number.isInteger(e[0]) &&
      e[0] >= 0 &&
      e.every((v) => typeof v === 'number'),
  );
}
