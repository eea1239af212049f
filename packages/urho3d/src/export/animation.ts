/**
 * glTF animations → `.ani` files: one track per animated node (position / rotation / scale keys at
 * the union of its channels' key times), in Urho space, named after the bone; an imported file's
 * name, track order, channel masks, empty tracks, length and trailing bytes come back from
 * `extras.urho3d`.
 */
import {
  type AxisMap,
  clipFileName,
  objectName,
  readSampler,
  sampleAt,
  uniqueNames,
  type WarningCollector,
} from '@gltf-legacy/core';
import type { Accessor, Animation, Node, Root } from '@gltf-transform/core';
import type { AniAnimation, AniTrack } from '../ani.js';
import { keptTrailing } from '../extras.js';
import { floatFromJson, mirrorQuat, mirrorVec3 } from '../space.js';
import { sameFloats } from './common.js';

/** An exported animation file. */
export interface ExportedAnimation {
  fileName: string;
  animation: AniAnimation;
}

/**
 * Every animation of `root` that has keys, with its file stem: the imported file's (its model
 * prefix `oldBase` replaced by `name`), else `NAME_<animation>` by core's naming rule.
 */
export function exportAnimations(
  root: Root,
  name: string,
  oldBase: string | undefined,
  warnings: WarningCollector,
  nameOf: Map<Node, string>,
  mirror: AxisMap,
): ExportedAnimation[] {
  const written: { anim: Animation; animation: AniAnimation }[] = [];
  for (const anim of root.listAnimations()) {
    const a = exportAnimation(anim, warnings, nameOf, mirror);
    if (a) written.push({ anim, animation: a });
  }
  // File stems: the imported file's (its model prefix `oldBase` replaced by `name`), else core's
  // one naming rule (`NAME_<clip>`, no doubled prefix); repeats get `_2`, `_3`, … (core).
  const stems = written.map(({ anim }) => {
    const ae = (anim.getExtras() as any)?.urho3d;
    if (typeof ae?.file === 'string' && ae.file)
      return oldBase && ae.file.startsWith(oldBase) ? name + ae.file.slice(oldBase.length) : ae.file;
    const clip = objectName(anim.getName(), 'Animation', root.listAnimations().indexOf(anim));
    return clipFileName(name, clip, '');
  });
  const unique = uniqueNames(stems);
  return written.map(({ animation }, i) => ({ fileName: unique[i], animation }));
}

export function exportAnimation(
  anim: Animation,
  warnings: WarningCollector,
  nameOf: Map<Node, string>,
  mirror: AxisMap,
): AniAnimation | null {
  const ae = (anim.getExtras() as any)?.urho3d;
  const byNode = channelsByNode(anim, warnings);
  if (!byNode.size) return null;
  const tracks: AniTrack[] = [];
  let maxTime = 0;
  for (const [node, e] of byNode) {
    const track = nodeTrack(node, e, nameOf, mirror, warnings);
    if (track.keyCount) maxTime = Math.max(maxTime, track.times[track.keyCount - 1]);
    tracks.push(track);
  }
  // An animation without a single key cannot come back: import makes no channel for an empty
  // track and drops an animation without channels (glTF needs ≥ 1). Its empty tracks would be
  // written, then the whole .ani lost on re-import, so it is not written at all.
  if (!tracks.some((t) => t.keyCount > 0)) {
    warnings.warn(
      'ANIMATION_DROPPED',
      `animation "${anim.getName()}" has no keys left (empty or invalid sampler inputs); not written`,
    );
    return null;
  }
  restoreTrackOrder(ae, tracks);
  const length = ae?.length !== undefined ? floatFromJson(ae.length) : maxTime;
  return {
    // the name stored in the imported .ani (kept when the clip was named after its file)
    name: typeof ae?.name === 'string' ? ae.name : anim.getName(),
    length,
    tracks,
    ...(keptTrailing(anim, ae?.trailing) ? { trailing: keptTrailing(anim, ae?.trailing) } : {}),
    ...lastKeyShort(ae, tracks),
  };
}

/** The samplers of one animated node. */
interface NodeChannels {
  translation?: ReturnType<typeof readSampler>;
  rotation?: ReturnType<typeof readSampler>;
  scale?: ReturnType<typeof readSampler>;
  inputs: Accessor[];
}

/** The position / rotation / scale samplers of each animated node (other channels dropped with a warning). */
function channelsByNode(anim: Animation, warnings: WarningCollector): Map<Node, NodeChannels> {
  const byNode = new Map<Node, NodeChannels>();
  for (const ch of anim.listChannels()) {
    const node = ch.getTargetNode();
    const path = ch.getTargetPath();
    const sampler = ch.getSampler();
    if (!node || !sampler?.getInput() || !sampler.getOutput()) continue;
    if (path !== 'translation' && path !== 'rotation' && path !== 'scale') {
      warnings.warn(
        'ANIMATION_CHANNEL_DROPPED',
        `.ani tracks hold only position/rotation/scale; a "${path}" channel was dropped`,
      );
      continue;
    }
    let entry = byNode.get(node);
    if (!entry) byNode.set(node, (entry = { inputs: [] }));
    entry[path] = readSampler(sampler, path === 'rotation');
    entry.inputs.push(sampler.getInput()!);
  }
  return byNode;
}

/** One node's channels as one .ani track: keys at the union of their times, in Urho space. */
function nodeTrack(
  node: Node,
  e: NodeChannels,
  nameOf: Map<Node, string>,
  mirror: AxisMap,
  warnings: WarningCollector,
): AniTrack {
  const samplers = [e.translation, e.rotation, e.scale].filter(Boolean) as ReturnType<typeof readSampler>[];
  // The shared stage made every channel LINEAR; a node's channels may still have their own key
  // times, and a .ani track has one time list: sample each at the union (exact for linear keys).
  const first = samplers[0].times;
  const shared = samplers.every((s) => sameFloats(s.times, first));
  let times: Float32Array;
  if (shared) times = first.slice();
  else {
    const set = new Set<number>();
    for (const s of samplers) for (const t of s.times) set.add(t);
    times = Float32Array.from([...set].sort((a, b) => a - b));
  }
  // .ani keys need finite, strictly increasing times (invalid glTF can have others): keep those.
  let ordered = true;
  for (let k = 0; k < times.length && ordered; k++) {
    ordered = Number.isFinite(times[k]) && times[k] >= 0 && (k === 0 || times[k] > times[k - 1]);
  }
  if (!ordered) {
    times = Float32Array.from(
      [...new Set(times)].filter((t) => Number.isFinite(t) && t >= 0).sort((a, b) => a - b),
    );
    warnings.warn(
      'ANIMATION_KEYS_DROPPED',
      'animation key times that were negative, not finite or not increasing were dropped or sorted',
    );
  }
  const n = times.length;
  const tmp = [0, 0, 0, 0];
  const sample = (
    s: ReturnType<typeof readSampler> | undefined,
    size: number,
    direct: boolean,
  ): Float32Array | null => {
    if (!s) return null;
    if (direct) return s.values.slice(0, n * size);
    const out = new Float32Array(n * size);
    for (let k = 0; k < n; k++) {
      sampleAt(s, times[k], tmp);
      for (let c = 0; c < size; c++) out[k * size + c] = tmp[c];
    }
    return out;
  };
  const direct = shared && ordered;
  const positions = sample(e.translation, 3, direct);
  if (positions) mirrorVec3(positions, 3, mirror);
  const q = sample(e.rotation, 4, direct);
  let rotations: Float32Array | null = null;
  if (q) {
    mirrorQuat(q, mirror);
    // Unit quaternions, as import makes them (keys within 1e-6 of unit length stay as they are).
    for (let k = 0; k < n; k++) {
      const len = Math.hypot(q[k * 4], q[k * 4 + 1], q[k * 4 + 2], q[k * 4 + 3]);
      if (Math.abs(len - 1) > 1e-6) {
        for (let c = 0; c < 4; c++)
          q[k * 4 + c] = len > 1e-12 ? Math.fround(q[k * 4 + c] / len) : c === 3 ? 1 : 0;
      }
    }
    rotations = new Float32Array(n * 4);
    for (let k = 0; k < n; k++) {
      rotations[k * 4] = q[k * 4 + 3];
      rotations[k * 4 + 1] = q[k * 4];
      rotations[k * 4 + 2] = q[k * 4 + 1];
      rotations[k * 4 + 3] = q[k * 4 + 2];
    }
  }
  const scales = sample(e.scale, 3, direct);
  return {
    name: nameOf.get(node) ?? node.getName(),
    channelMask: (positions ? 1 : 0) | (rotations ? 2 : 0) | (scales ? 4 : 0),
    keyCount: n,
    times,
    positions,
    rotations,
    scales,
  };
}

/** The file's track order, channel masks and empty tracks, from `extras.urho3d.tracks`. */
function restoreTrackOrder(ae: any, tracks: AniTrack[]): void {
  if (!Array.isArray(ae?.tracks)) return;
  const ordered: AniTrack[] = [];
  for (const [tn, mask, count] of ae.tracks as [string, number, number][]) {
    const t = tracks.find((x) => x.name === tn && !ordered.includes(x));
    if (t) {
      if ((mask & 7) === t.channelMask) t.channelMask = mask;
      ordered.push(t);
    } else if (count === 0) {
      ordered.push({
        name: tn,
        channelMask: mask,
        keyCount: 0,
        times: new Float32Array(0),
        positions: null,
        rotations: null,
        scales: null,
      });
    }
  }
  for (const t of tracks) if (!ordered.includes(t)) ordered.push(t);
  tracks.splice(0, tracks.length, ...ordered);
}

/**
 * The file's short last key (quirk `ANI_LAST_KEY_SHORT`, recorded by import as
 * `extras.urho3d.missingBytes`): written short again while the last track is the one the file
 * had, with the same key count, so the round trip gives the original bytes.
 */
function lastKeyShort(ae: any, tracks: AniTrack[]): { missingBytes?: number } {
  const n = ae?.missingBytes;
  const recorded = Array.isArray(ae?.tracks) ? ae.tracks[ae.tracks.length - 1] : undefined;
  const last = tracks[tracks.length - 1];
  if (!Number.isInteger(n) || n <= 0 || !recorded || !last) return {};
  return recorded[0] === last.name && recorded[2] === last.keyCount ? { missingBytes: n } : {};
}
