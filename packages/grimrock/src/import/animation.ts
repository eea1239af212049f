/**
 * Import, animations: one `.animation` file → one glTF animation on the model's nodes (matched
 * by name), or the nodes of an animation imported alone.
 */
import { setKeptBytes } from '@gltf-legacy/core';
import type { Accessor, Node } from '@gltf-transform/core';
import type { AnimationFile } from '../animation.js';
import { encodeFloat } from '../arrays.js';
import { keepUnmatchedKeys, type UnmatchedItemExtras } from '../extras.js';
import { mirrorQuats, mirrorVec3, normalizeQuats } from '../mat.js';
import type { ImportContext } from './context.js';

/** One node per animation item, at the item's first key (for an animation imported alone). */
export function nodesForAnimation(ctx: ImportContext, anim: AnimationFile): Node[] {
  return anim.items.map((it) => {
    const node = ctx.doc.createNode(it.nodeName);
    if (it.positions.length >= 3) {
      const t = Array.from(it.positions.subarray(0, 3));
      mirrorVec3(t);
      node.setTranslation(t as [number, number, number]);
    }
    if (it.rotations.length >= 4) {
      const r = Array.from(it.rotations.subarray(0, 4));
      mirrorQuats(r);
      const len = Math.hypot(r[0], r[1], r[2], r[3]);
      if (len > 0 && Number.isFinite(len)) node.setRotation([r[0] / len, r[1] / len, r[2] / len, r[3] / len]);
    }
    if (it.scales.length >= 3)
      node.setScale(Array.from(it.scales.subarray(0, 3)) as [number, number, number]);
    return node;
  });
}

/**
 * Adds one glTF animation for an animation file; items are matched to nodes by name.
 *
 * ```ts
 * importAnimation(ctx, readAnimation(bytes), 'slug_attack', nodes, 30);
 * ```
 */
export function importAnimation(
  ctx: ImportContext,
  anim: AnimationFile,
  name: string,
  nodes: Node[],
  fallbackFps: number,
): void {
  const { doc, warnings } = ctx;
  const byName = new Map<string, Node>();
  for (const n of nodes) if (!byName.has(n.getName())) byName.set(n.getName(), n);
  let fps = anim.framesPerSecond;
  if (!(fps > 0) || !Number.isFinite(fps)) {
    warnings.warn('BAD_FPS', `${name}: framesPerSecond is ${fps}; using ${fallbackFps}`);
    fps = fallbackFps;
  }
  const frames = anim.numFrames;
  const matched = anim.items.filter((it) => byName.has(it.nodeName));
  const missing = anim.items.length - matched.length;
  if (missing) {
    const names = anim.items.filter((it) => !byName.has(it.nodeName)).map((it) => it.nodeName);
    warnings.warn(
      'ANIMATION_TARGET_MISSING',
      `${name}: ${missing} item(s) name no node of the model (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}); kept in extras (written back on export)`,
      missing,
    );
  }
  if (!matched.length) {
    warnings.warn(
      'ANIMATION_SKIPPED',
      `${name}: no item matches a node of the model; animation not imported`,
    );
    return;
  }
  const animation = doc.createAnimation(name);
  animation.setExtras({
    grimrock: {
      version: anim.version,
      name: anim.name,
      framesPerSecond: encodeFloat(anim.framesPerSecond),
      numFrames: frames,
      ...(missing ? { unmatchedItems: unmatchedItems(anim, byName) } : {}),
    },
  });
  // their keys, as bytes (kept bytes `unmatched:<k>`: float32 LE positions ‖ rotations ‖ scales)
  if (missing)
    keepUnmatchedKeys(
      animation,
      anim.items.filter((it) => !byName.has(it.nodeName)),
    );
  // bytes after the last item, as bytes (a buffer view of the .glb)
  if (anim.trailing) setKeptBytes(animation, 'trailing', anim.trailing);
  const times = keyTimes(ctx, frames, fps);
  let normalized = 0;
  for (const it of matched) {
    const node = byName.get(it.nodeName)!;
    const tracks = [
      ['translation', it.positions, 3],
      ['rotation', it.rotations, 4],
      ['scale', it.scales, 3],
    ] as const;
    for (const [path, data, size] of tracks) {
      const count = data.length / size;
      if (count < 1) continue;
      const keys = channelKeys(path, data, size, frames);
      normalized += keys.normalized;
      const sampler = doc
        .createAnimationSampler()
        .setInput(times(count))
        .setOutput(
          doc
            .createAccessor()
            .setType(size === 4 ? 'VEC4' : 'VEC3')
            .setArray(keys.values)
            .setBuffer(ctx.buffer),
        ); // LINEAR: glTF-Transform's default (each setter costs a graph event)
      animation.addSampler(sampler);
      animation.addChannel(
        doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler),
      );
    }
  }
  if (normalized)
    warnings.warn(
      'QUATERNION_NORMALIZED',
      `${name}: ${normalized} rotation key(s) were not unit quaternions and were normalized`,
      normalized,
    );
}

/**
 * The key-time accessor for a track of `count` keys, one per count (shared by the tracks): one
 * key per frame plus the last frame held until `numFrames / fps`; a single key at 0; other counts
 * spread evenly over the clip.
 */
function keyTimes(ctx: ImportContext, frames: number, fps: number): (count: number) => Accessor {
  const cache = new Map<number, Accessor>();
  return (count) => {
    let a = cache.get(count);
    if (a) return a;
    let t: Float32Array;
    if (count === 1) t = Float32Array.of(0);
    else if (count === frames) {
      t = new Float32Array(count + 1);
      for (let k = 0; k <= count; k++) t[k] = k / fps;
    } else {
      const d = frames > 0 ? frames / fps : (count - 1) / fps;
      t = new Float32Array(count);
      for (let k = 0; k < count; k++) t[k] = (k * d) / (count - 1);
      for (let k = 1; k < count; k++) if (!(t[k] > t[k - 1])) t[k] = Math.fround(t[k - 1] + 1e-4);
    }
    a = ctx.doc.createAccessor().setType('SCALAR').setArray(t).setBuffer(ctx.buffer);
    cache.set(count, a);
    return a;
  };
}

/**
 * A track's file keys as glTF output values: non-finite values → 0, the X mirror, rotations
 * normalized (counted), and the held last frame when the track has one key per frame.
 */
function channelKeys(
  path: 'translation' | 'rotation' | 'scale',
  data: Float32Array,
  size: 3 | 4,
  frames: number,
): { values: Float32Array; normalized: number } {
  const count = data.length / size;
  const hold = count > 1 && count === frames;
  const out = new Float32Array((count + (hold ? 1 : 0)) * size);
  out.set(data);
  for (let i = 0; i < out.length; i++) if (!Number.isFinite(out[i])) out[i] = 0;
  let normalized = 0;
  if (path === 'translation') mirrorVec3(out);
  if (path === 'rotation') {
    mirrorQuats(out);
    normalized = normalizeQuats(out, count);
  }
  if (hold) out.copyWithin(count * size, (count - 1) * size, count * size);
  return { values: out, normalized };
}

/**
 * The items that name no node of the model, as the file stores them (no mirror, no clean-up),
 * with their position in the item list, for `extras.grimrock.unmatchedItems`.
 */
function unmatchedItems(anim: AnimationFile, byName: Map<string, Node>): UnmatchedItemExtras[] {
  const out: UnmatchedItemExtras[] = [];
  anim.items.forEach((it, index) => {
    if (byName.has(it.nodeName)) return;
    out.push({
      index,
      nodeName: it.nodeName,
      counts: [it.positions.length, it.rotations.length, it.scales.length],
    });
  });
  return out;
}
