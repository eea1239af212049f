/**
 * Export of glTF animations: the limits the shared stage gets (keys on frames need no step), the
 * guard against absurd clips, `.anim` file names and per-file rest poses.
 */
import {
  type AnimationLimits,
  ExportError,
  type WarningCollector,
  clipFileName,
  objectName,
} from '@gltf-legacy/core';
import type { Animation, Document, Node } from '@gltf-transform/core';
import type { AnimationBlock } from '../block.js';
import type { UnigineBone } from '../common.js';
import {
  type AnimFileExtras,
  type UnigineAnimationExtras,
  type UnigineRootExtras,
  withKeptBlockCodes,
} from '../extras.js';
import { unpackF32 } from '../jsonf32.js';
import { UNIGINE_LIMITS } from '../limits.js';
import { unigineExtras } from './common.js';
import { buildBlock, tracksOf } from './block.js';
import { MAX_BLOCK_ENTRIES, type Track, keysOnFrames } from './frames.js';
import { type Skeleton, nodeBind } from './skeleton.js';

export function overrideOf(header: AnimFileExtras | undefined, i: number): number[] | null {
  const o = unpackF32(header?.bindPoseOverrides?.[String(i)], 10);
  return o ? Array.from(o) : null;
}

/**
 * The animation limits to give the shared stage for `document`. UNIGINE stores every frame; the
 * clips our importer made keep LINEAR keys on frames only where values change, which the map
 * layer fills in exactly, so a document whose clips are all such gets `sampling: 'any'` (no step,
 * byte-exact round trips). Otherwise the stage samples onto the frame grid at the clips' one rate
 * (`ANIMATION_RESAMPLED`, as for every format), each clip at its own imported rate (a per-clip
 * `fps` function when they differ). Refuses an absurd clip
 * (`ANIMATION_TOO_LONG`) before the stage would sample it.
 *
 * ```ts
 * const animation = animationLimits(document, 30); // { sampling: 'grid', fps: 30, … } for a foreign clip
 * ```
 */
export function animationLimits(document: Document, fps: number): AnimationLimits {
  const base = UNIGINE_LIMITS.animation!;
  const rates = new Set<number>();
  let onFrames = true;
  for (const anim of document.getRoot().listAnimations()) {
    const rate = clipRate(anim, fps);
    rates.add(rate);
    // Only our own clips skip the stage: a foreign clip's frames between its keys are sampled.
    if (!unigineExtras(anim)) onFrames = false;
    for (const s of anim.listSamplers()) {
      const times = s.getInput()?.getArray();
      const interpolation = s.getInterpolation() ?? 'LINEAR';
      if (!base.interpolations.includes(interpolation) || (times && !keysOnFrames(times, rate)))
        onFrames = false;
    }
  }
  if (onFrames) return { ...base, sampling: 'any' };
  // The stage would sample every frame of every channel: refuse an absurd clip before it does.
  for (const anim of document.getRoot().listAnimations()) {
    const rate = clipRate(anim, fps);
    const frames = Math.max(1, Math.round(animDuration(anim) * rate) + 1);
    const nodes = new Set(anim.listChannels().map((c) => c.getTargetNode())).size;
    if (!Number.isFinite(frames) || frames * nodes > MAX_BLOCK_ENTRIES)
      throw tooLong(anim, frames, nodes, rate);
  }
  // One rate for every clip, or each clip's own (the stage asks with the clone's animations,
  // whose extras carry the same imported rate).
  if (rates.size <= 1) return { ...base, fps: rates.size ? [...rates][0] : fps };
  return { ...base, fps: (anim: Animation) => clipRate(anim, fps) };
}

/** A clip's frame rate: the imported one (extras), else the export option. */
function clipRate(anim: Animation, fps: number): number {
  const ex = (unigineExtras(anim) ?? {}) as Partial<UnigineAnimationExtras>;
  return typeof ex.fps === 'number' && ex.fps > 0 ? ex.fps : fps;
}

export function tooLong(anim: Animation, frames: number, bones: number, fps: number): ExportError {
  return new ExportError(
    'ANIMATION_TOO_LONG',
    `animation "${anim.getName()}" would need ${frames} frames × ${bones} animated bones at ${fps} fps; UNIGINE stores every frame of every animated bone, and more than ${MAX_BLOCK_ENTRIES} frame entries per animation would be an absurd file (shorten the clip or export with a lower fps)`,
  );
}

export function animDuration(anim: Animation): number {
  let d = 0;
  for (const s of anim.listSamplers()) {
    const input = s.getInput();
    if (input) d = Math.max(d, input.getMax([0])[0] ?? 0);
  }
  return d;
}

/** A glTF animation and its UNIGINE extras (empty for foreign ones). */
export interface AnimEntry {
  anim: Animation;
  ex: Partial<UnigineAnimationExtras>;
}

/** What every animation block of one export shares, and the quantization error it gathers. */
export interface AnimationContext {
  skel: Skeleton;
  nodeByName: Map<string, Node>;
  fps: number;
  warnings: WarningCollector;
  maxPos: number;
  maxRot: number;
  /** True when some block was quantized from foreign (or normalized) values. */
  lossy: boolean;
  /** Tracks `sampleFrames` had to sample off the frames (defensive: the stage puts keys on frames). */
  resampled: number;
}

export function animationContext(
  skel: Skeleton,
  nodeByName: Map<string, Node>,
  fps: number,
  warnings: WarningCollector,
): AnimationContext {
  return { skel, nodeByName, fps, warnings, maxPos: 0, maxRot: 0, lossy: false, resampled: 0 };
}

/**
 * Mesh-embedded animations (imported from a `.mesh`, written back into it when there are
 * surfaces) and `.anim` file groups: the imported file name (renamed with `name` when it began
 * with the mesh's), `NAME.anim` for a re-imported lone `.anim`, else `NAME_<animation>.anim`.
 */
export function groupAnimations(
  document: Document,
  rx: Partial<UnigineRootExtras>,
  name: string,
  hasSurfaces: boolean,
): { meshAnims: AnimEntry[]; fileGroups: Map<string, AnimEntry[]> } {
  const root = document.getRoot();
  const meshAnims: AnimEntry[] = [];
  const fileGroups = new Map<string, AnimEntry[]>();
  const meshStem = rx.mesh?.file ? rx.mesh.file.replace(/\.[^.]*$/, '') : null;
  for (const anim of root.listAnimations()) {
    const ex = (unigineExtras(anim) ?? {}) as Partial<UnigineAnimationExtras>;
    if (ex.source === 'mesh' && hasSurfaces) {
      meshAnims.push({ anim, ex });
      continue;
    }
    let file: string;
    if (ex.source === 'anim' && typeof ex.file === 'string') {
      file = ex.file;
      if (meshStem && file.toLowerCase().startsWith(meshStem.toLowerCase()))
        file = name + file.slice(meshStem.length);
      else if (!meshStem && (rx.animFiles?.length ?? 0) === 1) file = `${name}.anim`;
    } else {
      // core's one naming rule: `Animation<i>` when unnamed, file-safe, no doubled model prefix.
      file = clipFileName(
        name,
        objectName(anim.getName(), 'Animation', root.listAnimations().indexOf(anim)),
        '.anim',
      );
    }
    const g = fileGroups.get(file) ?? [];
    g.push({ anim, ex });
    fileGroups.set(file, g);
  }
  return { meshAnims, fileGroups };
}

/** Bind pose (file axes) of the node named `n`: the skeleton's, else the node's TRS; null: no such node. */
export function bindOfName(ctx: AnimationContext, n: string): number[] | null {
  const node = ctx.nodeByName.get(n);
  if (!node) return null;
  const i = ctx.skel.index.get(node);
  if (i !== undefined) return ctx.skel.bind[i];
  return nodeBind(node);
}

/**
 * The bones a block animates: the imported list when every name is still a bone, else the bones
 * of the animation's tracks plus those whose node TRS differs from their rest pose (UNIGINE
 * plays the bind pose for bones without tracks, glTF their node TRS).
 */
function animatedBones(
  ctx: AnimationContext,
  anim: Animation,
  ex: Partial<UnigineAnimationExtras>,
  bones: UnigineBone[],
  rest: number[][],
  tracks: Map<Node, Track>,
  nodeOfBone: (i: number) => Node | undefined,
): number[] {
  const { skel, nodeByName } = ctx;
  const boneOfName = new Map<string, number>();
  bones.forEach((b, i) => {
    if (!boneOfName.has(b.name)) boneOfName.set(b.name, i);
  });
  if (Array.isArray(ex.bones) && ex.bones.every((b) => boneOfName.has(b)))
    return ex.bones.map((b) => boneOfName.get(b) as number);
  const boneIdx: number[] = [];
  for (const [node] of tracks) {
    const i =
      bones === skel.bones
        ? skel.index.get(node)
        : nodeByName.get(node.getName()) === node
          ? boneOfName.get(node.getName())
          : undefined;
    if (i === undefined) {
      ctx.warnings.warn(
        'TRACK_DROPPED',
        `animation "${anim.getName()}": tracks of node "${node.getName()}", which is not a bone, were dropped`,
      );
      continue;
    }
    boneIdx.push(i);
  }
  const listed = new Set(boneIdx);
  bones.forEach((_, i) => {
    const node = nodeOfBone(i);
    if (listed.has(i) || !node) return;
    const now = nodeBind(node);
    if (now.some((v, k) => Math.abs(v - rest[i][k]) > 1e-6 * Math.max(1, Math.abs(v)))) boneIdx.push(i);
  });
  return boneIdx.sort((a, b) => a - b);
}

/**
 * One glTF animation → an animation block over `bones` (the mesh skeleton, or an `.anim` file's
 * bone list) with rest poses `rest`; null (ANIMATION_DROPPED) when it animates no bone.
 * `quantized`: an10 range boxes (`.anim`), else ms11 floats.
 */
export function animationBlock(
  ctx: AnimationContext,
  anim: Animation,
  ex: Partial<UnigineAnimationExtras>,
  bones: UnigineBone[],
  rest: number[][],
  quantized: boolean,
): AnimationBlock | null {
  const { skel, nodeByName, warnings } = ctx;
  const tracks = tracksOf(anim, warnings);
  const foreign = !unigineExtras(anim);
  // The skeleton's own bones map by node; bone lists from extras map by name.
  const nodeOfBone = (i: number): Node | undefined =>
    bones === skel.bones ? skel.nodes[i] : nodeByName.get(bones[i].name);
  const boneIdx = animatedBones(ctx, anim, ex, bones, rest, tracks, nodeOfBone);
  if (!boneIdx.length && !Array.isArray(ex.bones)) {
    warnings.warn('ANIMATION_DROPPED', `animation "${anim.getName()}" animates no bone; dropped`);
    return null;
  }
  const exFps = typeof ex.fps === 'number' && ex.fps > 0 ? ex.fps : ctx.fps;
  const frames =
    typeof ex.numFrames === 'number' && ex.numFrames >= 0
      ? ex.numFrames
      : Math.max(1, Math.round(animDuration(anim) * exFps) + 1);
  if (!Number.isFinite(frames) || frames * boneIdx.length > MAX_BLOCK_ENTRIES)
    throw tooLong(anim, frames, boneIdx.length, exFps);
  const trackList = boneIdx.map((i) => {
    const node = nodeOfBone(i);
    return node ? (tracks.get(node) ?? null) : null;
  });
  const fixes = boneIdx.map((i) => {
    const node = nodeOfBone(i);
    const si = node ? skel.index.get(node) : undefined;
    return si !== undefined && foreign ? skel.parentFix[si] : null;
  });
  // Components without a track: glTF shows the node's own TRS, which for documents from other
  // tools need not be the bind pose (our own documents have node TRS = bind pose).
  const fillRest = boneIdx.map((i) => {
    const node = nodeOfBone(i);
    return foreign && node ? nodeBind(node) : rest[i];
  });
  // raw flags and narrow-axis codes kept as bytes, in the form the block writer reads
  const exk = withKeptBlockCodes(anim, ex);
  const res = buildBlock(trackList, boneIdx, fillRest, fixes, frames, exFps, quantized, exk, () => {
    ctx.resampled++;
  });
  if (foreign || ex.normalized) {
    ctx.lossy = true;
    ctx.maxPos = Math.max(ctx.maxPos, res.maxPosError);
    ctx.maxRot = Math.max(ctx.maxRot, res.maxRotError);
  }
  return res.block;
}

/** The export's animation warnings: tracks sampled off the frames, and the quantization error. */
export function reportAnimations(ctx: AnimationContext, fps: number): void {
  if (ctx.resampled)
    ctx.warnings.warn(
      'ANIMATION_RESAMPLED',
      `animation tracks whose keys do not fall on ${fps} fps frames were resampled`,
      ctx.resampled,
    );
  if (ctx.lossy) {
    ctx.warnings.warn(
      'VALUE_QUANTIZED',
      `animations quantized to an10 (u16 positions/scales in range boxes, i16 rotations): worst error ${ctx.maxPos.toExponential(2)} units, ${ctx.maxRot.toExponential(2)} per quaternion component`,
    );
  }
}
