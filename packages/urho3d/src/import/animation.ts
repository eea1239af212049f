/**
 * `.ani` → glTF animation: one channel per track and channel (position / rotation / scale) on the
 * bone of the same name (or, for an animation alone, a node per track); the file's name, length,
 * track order and channel masks kept in `extras.urho3d` for export.
 */
import { type AxisMap, clipNameFromFile, setKeptBytes, type WarningCollector } from '@gltf-legacy/core';
import type { Document, Node } from '@gltf-transform/core';
import type { AniAnimation } from '../ani.js';
import { floatToJson, mirrorQuat, mirrorVec3 } from '../space.js';

const fround = Math.fround;

/** One animation file to import beside the model. */
export interface UrhoAnimationInput {
  /** File stem, e.g. `Jack_Walk`; kept so export writes the same file name. */
  fileName: string;
  animation: AniAnimation;
}

/** Adds the animation of `input` to `doc`. */
export function importAnimation(
  doc: Document,
  input: UrhoAnimationInput,
  top: Node,
  nodesByName: Map<string, Node>,
  haveModel: boolean,
  warnings: WarningCollector,
  mirror: AxisMap,
  modelStem = '',
) {
  const ani = input.animation;
  // The clip is named after its file, the way core names clips (`Kachujin_Walk.ani` beside
  // `Kachujin.mdl` → `Walk`); the name stored inside the .ani (often the DCC's `Armature`) is kept
  // in extras for export.
  const clipName = clipNameFromFile(input.fileName, modelStem) || ani.name;
  const anim = doc.createAnimation(clipName);
  let matched = 0;
  let unmatched = 0;
  let holder: Node | null = null;
  for (const track of ani.tracks) {
    let node = nodesByName.get(track.name);
    if (!node && !haveModel) {
      // Animation alone: one node per track.
      if (!holder) {
        holder = doc.createNode(`${ani.name}_tracks`);
        top.addChild(holder);
      }
      node = doc.createNode(track.name);
      holder.addChild(node);
      nodesByName.set(track.name, node);
    }
    if (!node) {
      unmatched++;
      continue;
    }
    if (!track.keyCount) continue;
    let ok = track.times[0] >= 0;
    for (let k = 1; k < track.keyCount && ok; k++) ok = track.times[k] > track.times[k - 1];
    if (!ok) {
      warnings.warn(
        'ANIMATION_KEYS_UNSORTED',
        `track "${track.name}" of "${ani.name}" has non-increasing key times; skipped`,
      );
      continue;
    }
    matched++;
    const times = doc
      .createAccessor(`${ani.name}.${track.name}.time`)
      .setType('SCALAR')
      .setArray(track.times.slice());
    const add = (path: 'translation' | 'rotation' | 'scale', values: Float32Array, type: 'VEC3' | 'VEC4') => {
      const sampler = doc
        .createAnimationSampler()
        .setInput(times)
        .setOutput(doc.createAccessor(`${ani.name}.${track.name}.${path}`).setType(type).setArray(values))
        .setInterpolation('LINEAR');
      anim
        .addSampler(sampler)
        .addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
    };
    if (track.positions) {
      const p = track.positions.slice();
      mirrorVec3(p, 3, mirror);
      add('translation', p, 'VEC3');
      if (holder && node.getParentNode() === holder) node.setTranslation([p[0], p[1], p[2]]);
    }
    if (track.rotations) {
      const src = track.rotations;
      const q = new Float32Array(track.keyCount * 4);
      let fixed = 0;
      for (let k = 0; k < track.keyCount; k++) {
        q[k * 4] = src[k * 4 + 1];
        q[k * 4 + 1] = src[k * 4 + 2];
        q[k * 4 + 2] = src[k * 4 + 3];
        q[k * 4 + 3] = src[k * 4];
        const len = Math.hypot(q[k * 4], q[k * 4 + 1], q[k * 4 + 2], q[k * 4 + 3]);
        if (Math.abs(len - 1) > 1e-6) {
          fixed++;
          for (let c = 0; c < 4; c++)
            q[k * 4 + c] = len > 1e-12 ? fround(q[k * 4 + c] / len) : c === 3 ? 1 : 0;
        }
      }
      if (fixed)
        warnings.warn(
          'ROTATION_NORMALIZED',
          'animation rotation keys were not unit quaternions; normalized',
          fixed,
        );
      mirrorQuat(q, mirror);
      add('rotation', q, 'VEC4');
    }
    if (track.scales) add('scale', track.scales.slice(), 'VEC3');
  }
  if (unmatched) {
    warnings.warn(
      'ANIMATION_TRACK_UNMATCHED',
      `${unmatched} track(s) of animation "${ani.name}" (${input.fileName}) name no bone; skipped`,
    );
  }
  if (!matched) {
    warnings.warn(
      'ANIMATION_DROPPED',
      `animation "${ani.name}" (${input.fileName}) drives no bone of the model; dropped`,
    );
    anim.dispose();
    return;
  }
  anim.setExtras({
    urho3d: {
      file: input.fileName,
      ...(clipName !== ani.name ? { name: ani.name } : {}),
      length: floatToJson(ani.length),
      tracks: ani.tracks.map((t) => [t.name, t.channelMask, t.keyCount]),
      ...(ani.missingBytes ? { missingBytes: ani.missingBytes } : {}),
    },
  });
  // bytes after the last track, as bytes (a buffer view of the .glb)
  if (ani.trailing) setKeptBytes(anim, 'trailing', ani.trailing);
}
