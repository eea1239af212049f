/**
 * Vertex frames of the baked path, Unreal's own key layout: one `.uc` sequence per glTF
 * animation, one vertex frame per `1 / fps` s, every mesh posed on the CPU (node TRS, morph
 * weights, skinning: `bake.ts`). The frame plan is made on the caller's document before the shared
 * stage runs, so an absurd clip is refused (`TOO_MANY_FRAMES`, `TOO_MUCH_ANIMATION`) before any
 * sampling; the frames are then posed from the prepared document, whose keys the stage has put on
 * the `fps` grid (`ANIMATION_RESAMPLED`).
 */
import type { Document, Node } from '@gltf-transform/core';
import { objectName, uniqueNames, type WarningCollector } from '@gltf-legacy/core';
import { type BakeItem, poseAt, readTracks } from '../bake.js';
import type { UcSequence } from '../uc.js';
import { tooManyFrames, UNREAL_MAX_VERTEX_FRAMES, unrealName } from './common.js';

/** Which animation each sequence bakes, and how many frames. */
export interface FramePlan {
  sequences: UcSequence[];
  /** Per sequence: index of its glTF animation (−1: the rest pose), in sequence order. */
  clips: { animation: number; frames: number }[];
  /** Total vertex frames. */
  frameCount: number;
}

/**
 * Vertices the baked mesh will have before welding: every POSITION of every mesh node of the
 * default scene (or of all nodes), as `collectItems` will find them.
 */
export function sceneVertexCount(doc: Document): number {
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const nodes: Node[] = [];
  if (scene) scene.traverse((n) => nodes.push(n));
  else nodes.push(...root.listNodes());
  let count = 0;
  for (const node of nodes)
    for (const prim of node.getMesh()?.listPrimitives() ?? [])
      count += prim.getAttribute('POSITION')?.getCount() ?? 0;
  return count;
}

/**
 * One sequence per animation with a usable channel, `round(duration · fps)` frames each (at least
 * one), named by core's naming rule (`objectName`, `uniqueNames`) as UnrealScript identifiers; the rest pose alone when there is none. Channels that cannot be
 * sampled are reported here (`ANIMATION_CHANNEL_DROPPED`, see `readTracks`). Refuses before any
 * sampling when the frames exceed `maxFrames` or `frames × vertices` exceeds
 * {@link UNREAL_MAX_VERTEX_FRAMES}.
 *
 * ```ts
 * const plan = planFrames(document, 30, 4096, sceneVertexCount(document));
 * plan.sequences.map((s) => s.numFrames); // e.g. [ 53, 24 ]
 * ```
 */
export function planFrames(
  doc: Document,
  fps: number,
  maxFrames: number,
  vertices: number,
  warnings?: WarningCollector,
): FramePlan {
  const sequences: UcSequence[] = [];
  const clips: FramePlan['clips'] = [];
  const budget = Math.min(maxFrames, Math.floor(UNREAL_MAX_VERTEX_FRAMES / Math.max(1, vertices)));
  let frameCount = 0;
  doc
    .getRoot()
    .listAnimations()
    .forEach((anim, animation) => {
      const tracks = readTracks(anim, warnings);
      if (!tracks.channels.length) return;
      const frames = Math.max(1, Math.round(tracks.duration * fps));
      if (frameCount + frames > budget)
        throw tooManyFrames(frameCount + frames, vertices, maxFrames, budget, fps);
      // Core's naming rule (objectName, then uniqueNames below), made an UnrealScript identifier.
      const name = unrealName(objectName(anim.getName(), 'Animation', animation), `Animation${animation}`);
      sequences.push({ name, startFrame: frameCount, numFrames: frames, rate: fps, notifies: [] });
      clips.push({ animation, frames });
      frameCount += frames;
    });
  uniqueNames(sequences.map((s) => s.name)).forEach((name, i) => {
    sequences[i].name = name;
  });
  if (!sequences.length) {
    sequences.push({ name: 'All', startFrame: 0, numFrames: 1, rate: fps, notifies: [] });
    clips.push({ animation: -1, frames: 1 });
    frameCount = 1;
  }
  return { sequences, clips, frameCount };
}

/**
 * Poses `items` (of the prepared document `doc`) at every frame of `plan`, in Unreal axes (`front`:
 * glTF +Z forward is Unreal +X, glTF −X is +Y, +Y is +Z; else glTF X, Z, Y) and Unreal units
 * (glTF units ÷ `unit`): `frameCount × vertices × 3` values. Non-finite coordinates are written
 * as 0 (`VALUE_INVALID`).
 */
export function bakeFrames(
  doc: Document,
  items: BakeItem[],
  vertices: number,
  plan: FramePlan,
  fps: number,
  warnings: WarningCollector,
  front = true,
  unit = 1,
): Float64Array {
  const k = 1 / unit;
  const world = new Float64Array(plan.frameCount * vertices * 3);
  const tmp = new Float64Array(vertices * 3);
  const parents = new Map<Node, Node | null>();
  const animations = doc.getRoot().listAnimations();
  let f = 0;
  for (const clip of plan.clips) {
    const tracks = clip.animation >= 0 ? readTracks(animations[clip.animation]) : null;
    for (let i = 0; i < clip.frames; i++, f++) {
      poseAt(items, tracks, i / fps, tmp, parents);
      const o = f * vertices * 3;
      if (front)
        // glTF +Z forward, +Y up, −X right → Unreal X forward, Z up, Y right.
        for (let v = 0; v < vertices; v++) {
          world[o + v * 3] = tmp[v * 3 + 2] * k;
          world[o + v * 3 + 1] = -tmp[v * 3] * k;
          world[o + v * 3 + 2] = tmp[v * 3 + 1] * k;
        }
      else
        for (let v = 0; v < vertices; v++) {
          world[o + v * 3] = tmp[v * 3] * k;
          world[o + v * 3 + 1] = tmp[v * 3 + 2] * k;
          world[o + v * 3 + 2] = tmp[v * 3 + 1] * k;
        }
    }
  }
  let bad = 0;
  for (let i = 0; i < world.length; i++) {
    if (!Number.isFinite(world[i])) {
      world[i] = 0;
      bad++;
    }
  }
  if (bad) warnings.warn('VALUE_INVALID', 'non-finite vertex coordinates were written as 0', bad);
  return world;
}
