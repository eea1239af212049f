/**
 * Poses a whole glTF scene on the CPU: node TRS animations, morph weights and skinning, giving
 * world-space positions of every triangle-mesh instance at any animation time. Used by export to
 * turn skinned / node / morph animation into Unreal vertex frames, on a document the shared
 * export stage has prepared (triangle lists, ≤ 8 influences, keys on the frame grid).
 */
import type { Animation, Document, Mesh, Node, Primitive, Skin } from '@gltf-transform/core';
import {
  accessorFloats,
  readInfluences,
  readSampler,
  sampleAt,
  type SamplerData,
  type WarningCollector,
} from '@gltf-legacy/core';
import { UNREAL3D_LIMITS } from './limits.js';
import { composeTRS, type Mat4, mat4Det3, mat4Multiply } from '@gltf-legacy/core';

/** One primitive of one node, flattened to triangles. */
export interface BakeItem {
  node: Node;
  mesh: Mesh;
  prim: Primitive;
  /** Local positions (3·n). */
  positions: Float32Array;
  /** Morph target position deltas (3·n each). */
  targets: Float32Array[];
  /** TEXCOORD_0 (2·n) or null. */
  uvs: Float32Array | null;
  /** Triangle list indices into this item's vertices. */
  indices: Uint32Array;
  skin: Skin | null;
  joints?: Uint16Array;
  weights?: Float32Array;
  maxInfluences: number;
  /** Cached skin joints and inverse bind matrices (filled by {@link poseAt}). */
  jointNodes?: Node[];
  ibm?: Float32Array | null;
  /** Offset of this item's first vertex in the merged vertex list. */
  base: number;
}

/**
 * The triangle list of a TRIANGLES primitive (a whole number of triangles), or null for any
 * other mode: the shared export stage has already turned strips and fans into lists and left
 * points and lines out (`PRIMITIVE_TRIANGULATED`, `PRIMITIVE_DROPPED`).
 */
function triangleIndices(prim: Primitive, count: number): Uint32Array | null {
  if (prim.getMode() !== 4) return null;
  const idx = prim.getIndices();
  const src = idx ? accessorFloats(idx) : null;
  const n = src ? src.length : count;
  const out = new Uint32Array(n - (n % 3));
  for (let i = 0; i < out.length; i++) out[i] = src ? src[i] : i;
  return out;
}

/**
 * Collects the triangle primitives of every mesh node in the default scene (or all roots).
 * Primitives of other modes are skipped: on a prepared document there are none. (`_warnings` is
 * kept for callers; the steps that warned here are the shared stage's now.)
 */
export function collectItems(
  doc: Document,
  _warnings: WarningCollector,
  skip?: (node: Node) => boolean,
): BakeItem[] {
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const nodes: Node[] = [];
  if (scene) scene.traverse((n) => nodes.push(n));
  else for (const n of root.listNodes()) nodes.push(n);
  const items: BakeItem[] = [];
  let base = 0;
  for (const node of nodes) {
    const mesh = node.getMesh();
    if (!mesh || skip?.(node)) continue;
    for (const prim of mesh.listPrimitives()) {
      const pos = prim.getAttribute('POSITION');
      if (!pos) continue;
      const count = pos.getCount();
      const indices = triangleIndices(prim, count);
      if (!indices) continue;
      const targets: Float32Array[] = [];
      for (const t of prim.listTargets()) {
        const a = t.getAttribute('POSITION');
        targets.push(a ? accessorFloats(a) : new Float32Array(count * 3));
      }
      const uvAcc = prim.getAttribute('TEXCOORD_0');
      const skin = node.getSkin();
      // The shared stage has limited influences to UNREAL3D_LIMITS.maxInfluences (8).
      const inf = skin ? readInfluences(prim, UNREAL3D_LIMITS.maxInfluences) : null;
      items.push({
        node,
        mesh,
        prim,
        positions: accessorFloats(pos),
        targets,
        uvs: uvAcc ? accessorFloats(uvAcc) : null,
        indices,
        skin: inf ? skin : null,
        joints: inf?.joints,
        weights: inf?.weights,
        maxInfluences: inf?.max ?? 0,
        base,
      });
      base += count;
    }
  }
  return items;
}

interface Channel {
  node: Node;
  path: string;
  data: SamplerData;
}

/** Samplers of one animation, read once. */
export interface AnimationTracks {
  channels: Channel[];
  duration: number;
}

const PATH_SIZE: Record<string, number> = { translation: 3, rotation: 4, scale: 3 };

/**
 * Reads an animation's channels for sampling. A channel whose keys cannot be sampled (times not
 * finite and increasing, or fewer output values than keys × element size) is dropped with a
 * `ANIMATION_CHANNEL_DROPPED` warning.
 */
export function readTracks(anim: Animation, warnings?: WarningCollector): AnimationTracks {
  const channels: Channel[] = [];
  let duration = 0;
  let dropped = 0;
  for (const ch of anim.listChannels()) {
    const node = ch.getTargetNode();
    const sampler = ch.getSampler();
    const path = ch.getTargetPath();
    if (!node || !sampler || !path) continue;
    let size = PATH_SIZE[path];
    if (path === 'weights') {
      const mesh = node.getMesh();
      size = mesh?.listPrimitives()[0]?.listTargets().length ?? mesh?.getWeights().length ?? 0;
      if (!size) continue;
    }
    if (!size) continue;
    const data = readSampler(sampler, path === 'rotation', size);
    const perKey = data.interpolation === 'CUBICSPLINE' ? 3 : 1;
    const { times } = data;
    let ok = times.length > 0 && data.values.length >= times.length * size * perKey;
    for (let k = 0; ok && k < times.length; k++)
      if (!Number.isFinite(times[k]) || (k > 0 && times[k] < times[k - 1])) ok = false;
    if (!ok) {
      dropped++;
      continue;
    }
    duration = Math.max(duration, times[times.length - 1]);
    channels.push({ node, path, data });
  }
  if (dropped)
    warnings?.warn(
      'ANIMATION_CHANNEL_DROPPED',
      'animation channels whose key times are not finite and increasing, or whose output has fewer values than keys, were ignored',
      dropped,
    );
  return { channels, duration };
}

/**
 * Writes the world-space positions (glTF axes) of every item at time `t` of `tracks` (or the rest
 * pose when null) into `out` (3 floats per merged vertex).
 */
export function poseAt(
  items: BakeItem[],
  tracks: AnimationTracks | null,
  t: number,
  out: Float64Array,
  parents?: Map<Node, Node | null>,
): void {
  const local = new Map<Node, { t: number[]; r: number[]; s: number[]; w?: number[] }>();
  const trsOf = (n: Node) => {
    let v = local.get(n);
    if (!v) {
      v = { t: [...n.getTranslation()], r: [...n.getRotation()], s: [...n.getScale()] };
      local.set(n, v);
    }
    return v;
  };
  if (tracks) {
    const tmp: number[] = [];
    for (const ch of tracks.channels) {
      const v = trsOf(ch.node);
      tmp.length = ch.data.size;
      sampleAt(ch.data, t, tmp);
      if (ch.path === 'translation') v.t = tmp.slice(0, 3);
      else if (ch.path === 'rotation') v.r = tmp.slice(0, 4);
      else if (ch.path === 'scale') v.s = tmp.slice(0, 3);
      else if (ch.path === 'weights') v.w = tmp.slice(0, ch.data.size);
    }
  }
  const world = new Map<Node, Mat4>();
  const worldOf = (n: Node): Mat4 => {
    const cached = world.get(n);
    if (cached) return cached;
    const v = trsOf(n);
    let m = composeTRS(v.t, v.r, v.s);
    let parent = parents?.get(n);
    if (parent === undefined) {
      parent = n.getParentNode();
      parents?.set(n, parent);
    }
    if (parent) m = mat4Multiply(worldOf(parent), m);
    world.set(n, m);
    return m;
  };
  for (const it of items) {
    const n = it.positions.length / 3;
    const v = local.get(it.node);
    const weights = v?.w ?? (it.node.getWeights().length ? it.node.getWeights() : it.mesh.getWeights());
    const morphed = new Float64Array(it.positions);
    for (let k = 0; k < it.targets.length; k++) {
      const w = weights[k] ?? 0;
      if (!w) continue;
      const d = it.targets[k];
      for (let i = 0; i < morphed.length; i++) morphed[i] += w * d[i];
    }
    const o = it.base * 3;
    if (it.skin && it.joints && it.weights) {
      it.jointNodes ??= it.skin.listJoints();
      const joints = it.jointNodes;
      if (it.ibm === undefined) {
        const ibmAcc = it.skin.getInverseBindMatrices();
        it.ibm = ibmAcc ? accessorFloats(ibmAcc) : null;
      }
      const ibm = it.ibm;
      const jm = new Float64Array(joints.length * 16);
      const m = new Float64Array(16);
      for (let j = 0; j < joints.length; j++) {
        if (ibm) mat4Multiply(worldOf(joints[j]), ibm.subarray(j * 16, j * 16 + 16), m);
        else m.set(worldOf(joints[j]));
        jm.set(m, j * 16);
      }
      const K = it.maxInfluences;
      for (let i = 0; i < n; i++) {
        const x = morphed[i * 3];
        const y = morphed[i * 3 + 1];
        const z = morphed[i * 3 + 2];
        let ox = 0;
        let oy = 0;
        let oz = 0;
        let wsum = 0;
        for (let k = 0; k < K; k++) {
          const w = it.weights[i * K + k];
          if (!w) continue;
          const b = it.joints[i * K + k] * 16;
          if (b + 16 > jm.length) continue;
          ox += w * (jm[b] * x + jm[b + 4] * y + jm[b + 8] * z + jm[b + 12]);
          oy += w * (jm[b + 1] * x + jm[b + 5] * y + jm[b + 9] * z + jm[b + 13]);
          oz += w * (jm[b + 2] * x + jm[b + 6] * y + jm[b + 10] * z + jm[b + 14]);
          wsum += w;
        }
        if (wsum === 0) {
          const M = worldOf(it.node);
          ox = M[0] * x + M[4] * y + M[8] * z + M[12];
          oy = M[1] * x + M[5] * y + M[9] * z + M[13];
          oz = M[2] * x + M[6] * y + M[10] * z + M[14];
        }
        out[o + i * 3] = ox;
        out[o + i * 3 + 1] = oy;
        out[o + i * 3 + 2] = oz;
      }
    } else {
      const M = worldOf(it.node);
      for (let i = 0; i < n; i++) {
        const x = morphed[i * 3];
        const y = morphed[i * 3 + 1];
        const z = morphed[i * 3 + 2];
        out[o + i * 3] = M[0] * x + M[4] * y + M[8] * z + M[12];
        out[o + i * 3 + 1] = M[1] * x + M[5] * y + M[9] * z + M[13];
        out[o + i * 3 + 2] = M[2] * x + M[6] * y + M[10] * z + M[14];
      }
    }
  }
}

/** True when the node's rest world matrix mirrors (negative determinant). */
export function restMirrored(node: Node): boolean {
  return mat4Det3(node.getWorldMatrix()) < 0;
}
