/**
 * Animations of the importer: the `WeaponTriangle` node (placed on the first weapon triangle of
 * each frame) and one glTF animation per `.uc` MESH SEQUENCE (or one "All"), keyed one frame per
 * `1 / RATE` s on the morph weights (and on the weapon node), the sequence fields in extras.
 */
import type { Buffer, Document, Node, Scene } from '@gltf-transform/core';
import { objectName, uniqueNames, type WarningCollector } from '@gltf-legacy/core';
import { anivVertex, type UnrealAniv } from '../aniv.js';
import type { UnrealMeshExtras } from '../extras.js';
import { type Placement, placeUnreal, turnFront, weaponFrame } from '../transform.js';
import type { UcMesh, UcSequence } from '../uc.js';

/** Where the animations go. */
export interface AnimationContext {
  doc: Document;
  buffer: Buffer;
  aniv: UnrealAniv;
  uc: UcMesh | undefined;
  meshName: string;
  /** The mesh node and its placement. */
  node: Node;
  placement: Placement;
  trs: { translation: number[] };
  /** Frames read, and how many of them are morph targets (0: none). */
  frameCount: number;
  targetCount: number;
}

/** The weapon triangle's position and rotation at frame `f`. */
function weaponAt(
  aniv: UnrealAniv,
  placement: Placement,
  weapon: UnrealMeshExtras['weapons'][number],
  f: number,
) {
  const c = new Float64Array(9);
  for (let k = 0; k < 3; k++) anivVertex(aniv, f, weapon.vertices[k], c, k * 3);
  placeUnreal(placement, c);
  const frame = weaponFrame(c);
  if (placement.front) turnFront(frame);
  return frame;
}

/**
 * The `WeaponTriangle` node at frame 0 of the first weapon triangle (`WEAPON_TRIANGLES` when there
 * are several), or undefined when the mesh has none.
 */
export function weaponNode(
  ctx: Pick<AnimationContext, 'doc' | 'aniv' | 'placement'>,
  scene: Scene,
  weapons: UnrealMeshExtras['weapons'],
  warnings: WarningCollector,
): Node | undefined {
  if (!weapons.length) return undefined;
  const w0 = weaponAt(ctx.aniv, ctx.placement, weapons[0], 0);
  const node = ctx.doc.createNode('WeaponTriangle').setTranslation(w0.translation).setRotation(w0.rotation);
  node.setExtras({ unreal3d: { weaponTriangle: true } });
  scene.addChild(node);
  if (weapons.length > 1)
    warnings.warn(
      'WEAPON_TRIANGLES',
      `${weapons.length} weapon triangles; the WeaponTriangle node follows the first`,
    );
  return node;
}

/**
 * One glTF animation per sequence (`UC_MISSING` without a `.uc`, `SEQUENCE_OUT_OF_RANGE` for a
 * sequence past the last frame).
 *
 * ```ts
 * addSequences(ctx, weaponNode, weapons, warnings);
 * ```
 */
export function addSequences(
  ctx: AnimationContext,
  weaponNode: Node | undefined,
  weapons: UnrealMeshExtras['weapons'],
  warnings: WarningCollector,
): void {
  const { doc, buffer, aniv, uc, meshName, node, placement, trs, frameCount, targetCount } = ctx;
  const weaponAtFrame = (f: number) => weaponAt(aniv, placement, weapons[0], f);
  const seqs: UcSequence[] = uc?.sequences.length
    ? uc.sequences
    : [{ name: 'All', startFrame: 0, numFrames: frameCount, rate: 30, notifies: [] }];
  if (!uc)
    warnings.warn(
      'UC_MISSING',
      `no .uc names ${meshName}: one animation "All" of ${frameCount} frames at 30 fps, scale 1`,
    );
  // Core's naming rule: a sequence's own name, `Animation<i>` without one, `_2`… for repeats.
  const names = uniqueNames(seqs.map((s, i) => objectName(s.name, 'Animation', i)));
  seqs.forEach((s, si) => {
    const anim = doc.createAnimation(names[si]);
    const ex: Record<string, unknown> = {
      seq: s.name,
      startFrame: s.startFrame,
      numFrames: s.numFrames,
      rate: s.rate,
    };
    if (s.group !== undefined) ex.group = s.group;
    if (s.notifies.length) ex.notifies = s.notifies;
    anim.setExtras({ unreal3d: ex });
    const rate = s.rate > 0 && Number.isFinite(s.rate) ? s.rate : 30;
    let num = Math.max(1, s.numFrames);
    if (s.startFrame + num > frameCount) {
      warnings.warn(
        'SEQUENCE_OUT_OF_RANGE',
        `sequence ${s.name} (frames ${s.startFrame}..${s.startFrame + s.numFrames - 1}) runs past the ${frameCount} frame(s) of the _a.3d; clamped`,
      );
      num = Math.max(1, frameCount - s.startFrame);
    }
    const start = Math.min(s.startFrame, frameCount - 1);
    const keys = num > 1 ? num + 1 : 1;
    const times = new Float32Array(keys);
    const frameOfKey = new Int32Array(keys);
    for (let k = 0; k < keys; k++) {
      times[k] = k / rate;
      frameOfKey[k] = start + (k % num);
    }
    const input = doc.createAccessor().setType('SCALAR').setArray(times).setBuffer(buffer);
    if (targetCount > 0) {
      const nt = targetCount;
      const out = new Float32Array(keys * nt);
      for (let k = 0; k < keys; k++) if (frameOfKey[k] > 0) out[k * nt + frameOfKey[k] - 1] = 1;
      const sampler = doc
        .createAnimationSampler()
        .setInput(input)
        .setOutput(doc.createAccessor().setArray(out).setBuffer(buffer))
        .setInterpolation('LINEAR');
      anim
        .addSampler(sampler)
        .addChannel(
          doc.createAnimationChannel().setTargetNode(node).setTargetPath('weights').setSampler(sampler),
        );
    }
    if (weaponNode) {
      const tr = new Float32Array(keys * 3);
      const rot = new Float32Array(keys * 4);
      for (let k = 0; k < keys; k++) {
        const wf = weaponAtFrame(frameOfKey[k]);
        tr.set(wf.translation, k * 3);
        rot.set(wf.rotation, k * 4);
      }
      const st = doc
        .createAnimationSampler()
        .setInput(input)
        .setOutput(doc.createAccessor().setType('VEC3').setArray(tr).setBuffer(buffer))
        .setInterpolation('LINEAR');
      const sr = doc
        .createAnimationSampler()
        .setInput(input)
        .setOutput(doc.createAccessor().setType('VEC4').setArray(rot).setBuffer(buffer))
        .setInterpolation('LINEAR');
      anim.addSampler(st).addSampler(sr);
      anim.addChannel(
        doc.createAnimationChannel().setTargetNode(weaponNode).setTargetPath('translation').setSampler(st),
      );
      anim.addChannel(
        doc.createAnimationChannel().setTargetNode(weaponNode).setTargetPath('rotation').setSampler(sr),
      );
    }
    if (!anim.listChannels().length) {
      // A single-frame (or static) mesh has no morph targets: a constant channel on the mesh node keeps
      // one glTF animation per sequence (glTF animations need at least one channel).
      const tr = new Float32Array(keys * 3);
      for (let k = 0; k < keys; k++) tr.set(trs.translation, k * 3);
      const st = doc
        .createAnimationSampler()
        .setInput(input)
        .setOutput(doc.createAccessor().setType('VEC3').setArray(tr).setBuffer(buffer))
        .setInterpolation('LINEAR');
      anim
        .addSampler(st)
        .addChannel(
          doc.createAnimationChannel().setTargetNode(node).setTargetPath('translation').setSampler(st),
        );
    }
  });
}
