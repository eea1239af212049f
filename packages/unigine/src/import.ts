import {
  FormatError,
  LegacyError,
  type ImportOptions,
  type ImportResult,
  WarningCollector,
  axesDeterminant,
  convertQuaternions,
  convertScale,
  convertVec3,
  extName,
  mainFile,
  stem,
} from '@gltf-legacy/core';
import {
  type Accessor,
  type Animation,
  type Buffer,
  Document,
  type Node,
  type Primitive,
} from '@gltf-transform/core';
import { rangeU16Float32Safe } from '@gltf-legacy/quantize';
import { type AnimFile, readAnim } from './anim.js';
import { UNIGINE_TO_GLTF } from './axes.js';
import { type AnimationBlock, FLAG_POS, FLAG_ROT, FLAG_SCALE } from './block.js';
import { TRS_FLOATS, type UnigineBone, unigineMagic } from './common.js';
import { type JsonF32, packF32 } from './jsonf32.js';
import { boneWorldMatrices, inverseBindMatrix } from './math.js';
import {
  coordOfTriVerts,
  decodeTangentQuats,
  gatherF32,
  gatherU8,
  gatherVec3,
  morphDeltas,
  vertexInfluences,
} from './kernels.js';
import { type MeshFile, type MeshSurface, readMesh } from './mesh.js';

/** Options of {@link importUnigine}. */
export interface UnigineImportOptions {
  /**
   * Frames per second of animations. Neither ms11 nor an10 stores a rate (the engine sets the
   * playback speed); 30 matches the 3ds Max exports the samples come from.
   */
  fps: number;
}

export const UNIGINE_IMPORT_DEFAULTS: UnigineImportOptions = { fps: 30 };

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** Raw tangent-space quaternions (i16 x, y, z, w), kept so export restores them exactly. */
export const ATTR_TBN = '_UNIGINE_TBN';
/** Coordinate-vertex index of each glTF vertex (positions and weights live per coordinate vertex). */
export const ATTR_COORD = '_UNIGINE_COORD';
/** Triangle-vertex index of each glTF vertex (only when glTF vertices are not the triangle vertices). */
export const ATTR_TRI = '_UNIGINE_TRI';
/** Raw weight records (≤ 4 influences): count, bone indices (i16), weight codes (u16). */
export const ATTR_WCOUNT = '_UNIGINE_WCOUNT';
export const ATTR_WBONES = '_UNIGINE_WBONES';
export const ATTR_WVALUES = '_UNIGINE_WVALUES';

/** What `extras.unigine` holds on the root (file-level fields glTF has no place for). */
export interface UnigineRootExtras {
  mesh?: { file: string; encoding: string; bounds: JsonF32; animationNames: string[] };
  animFiles: AnimFileExtras[];
}

export interface AnimFileExtras {
  file: string;
  encoding: string;
  bounds: JsonF32;
  bones: [string, number][];
  animationNames: string[];
  /** Bind-pose entries (10 floats, file axes) that differ from the node of the same name. */
  bindPoseOverrides?: Record<string, JsonF32>;
}

/** `extras.unigine` of a glTF animation made from a UNIGINE block. */
export interface UnigineAnimationExtras {
  source: 'mesh' | 'anim';
  file: string;
  index: number;
  name: string;
  /** Names of the animated bones, in block order. */
  bones: string[];
  componentMask: number;
  numFrames: number;
  fps: number;
  boxes?: JsonF32;
  /** u16 codes of axes whose range is too narrow for float32 ("pos0" … "scale2" → codes). */
  rawCodes?: Record<string, number[]>;
  /** Frame flags as hex (2 digits per frame × bone) when they do not follow the usual rule. */
  flags?: string;
  /** Set when some rotations had to be normalized (the file's codes are then not restorable). */
  normalized?: boolean;
}

/** `extras.unigine` of a primitive made from a surface. */
export interface UnigineSurfaceExtras {
  surface: string;
  bounds: JsonF32;
  targetNames: string[];
  numCoordVerts: number;
  numTriVerts: number;
}

const f32 = packF32;

function accessor(
  doc: Document,
  buffer: Buffer,
  type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4',
  array: Float32Array | Uint8Array | Uint16Array | Uint32Array | Int16Array,
  normalized = false,
): Accessor {
  const a = doc.createAccessor('', buffer).setArray(array);
  if (type !== 'SCALAR') a.setType(type);
  return normalized ? a.setNormalized(true) : a;
}

interface Ctx {
  doc: Document;
  buffer: Buffer;
  warnings: WarningCollector;
  fps: number;
  /**
   * Accessors shared by animation samplers: key times (`t<frames>:all` / `t<frames>:ends`) and the
   * outputs of tracks holding one value (`v<size>:<float bits>`): most bones of a clip hold still,
   * and glTF-Transform objects are the cost of an import.
   */
  shared: Map<string, Accessor>;
}

/** Bone nodes built from a skeleton header + bind pose (file axes), converted to glTF. */
function boneTRS(bindPose: Float32Array, i: number): { t: number[]; r: number[]; s: number[] } {
  const o = i * TRS_FLOATS;
  const t = [bindPose[o], bindPose[o + 1], bindPose[o + 2]];
  const r = [bindPose[o + 3], bindPose[o + 4], bindPose[o + 5], bindPose[o + 6]];
  const s = [bindPose[o + 7], bindPose[o + 8], bindPose[o + 9]];
  convertVec3(UNIGINE_TO_GLTF, t);
  convertQuaternions(UNIGINE_TO_GLTF, r);
  convertScale(UNIGINE_TO_GLTF, s);
  return { t, r, s };
}

/** True when `v` is within 1e-4 of `def` in every component but not equal to it. */
function nearDefault(v: readonly number[], def: readonly number[]): boolean {
  let equal = true;
  for (let k = 0; k < v.length; k++) {
    if (Math.abs(v[k] - def[k]) > 1e-4) return false;
    if (!Object.is(v[k], def[k])) equal = false;
  }
  return !equal;
}

function setTRS(node: Node, trs: { t: number[]; r: number[]; s: number[] }): void {
  node.setTranslation(trs.t as [number, number, number]);
  // Rotations in files are close to unit length; glTF requires unit quaternions.
  const len = Math.hypot(trs.r[0], trs.r[1], trs.r[2], trs.r[3]);
  const r = Math.abs(len - 1) < 1e-3 ? trs.r : len > 0 ? trs.r.map((v) => v / len) : [0, 0, 0, 1];
  node.setRotation(r as [number, number, number, number]);
  node.setScale(trs.s as [number, number, number]);
}

function buildPrimitive(ctx: Ctx, s: MeshSurface, si: number, boneCount: number): Primitive {
  const { doc, buffer, warnings } = ctx;
  const nc = s.targets[0].length / 3;
  const nt = s.tangents.length / 4;
  const ni = s.triIndices.length;
  if (s.coordIndices.length !== ni) {
    throw new FormatError(
      `surface "${s.name}" has ${s.coordIndices.length} coordinate indices but ${ni} triangle indices`,
      {
        code: 'INDEX_COUNT_MISMATCH',
        field: `surfaces[${si}]`,
      },
    );
  }
  if (ni % 3 !== 0)
    warnings.warn(
      'INDICES_NOT_TRIANGLES',
      `surface "${s.name}" has ${ni} indices, not a multiple of 3; the extra ones are ignored`,
    );
  // glTF vertices: (coordinate, triangle) pairs. Normally each triangle vertex has one
  // coordinate vertex and glTF vertex k is triangle vertex k.
  const coordOf = coordOfTriVerts(s.triIndices, s.coordIndices, nt);
  const simple = coordOf !== null;
  let vTri: Uint32Array;
  let vCoord: Uint32Array;
  let indices: Uint32Array;
  if (coordOf) {
    vTri = new Uint32Array(nt);
    for (let t = 0; t < nt; t++) vTri[t] = t;
    vCoord = new Uint32Array(coordOf.buffer, coordOf.byteOffset, nt);
    indices = s.triIndices.slice(0, ni - (ni % 3));
  } else {
    const map = new Map<string, number>();
    const tri: number[] = [];
    const crd: number[] = [];
    indices = new Uint32Array(ni - (ni % 3));
    for (let i = 0; i < indices.length; i++) {
      const key = `${s.coordIndices[i]},${s.triIndices[i]}`;
      let v = map.get(key);
      if (v === undefined) {
        v = tri.length;
        map.set(key, v);
        tri.push(s.triIndices[i]);
        crd.push(s.coordIndices[i]);
      }
      indices[i] = v;
    }
    vTri = new Uint32Array(tri);
    vCoord = new Uint32Array(crd);
    if (map.size !== nt)
      warnings.warn(
        'VERTICES_SPLIT',
        `surface "${s.name}": triangle vertices shared by several positions were split (or unused ones dropped)`,
      );
  }
  const n = vTri.length;
  const base = s.targets[0];
  const pos = gatherVec3(base, vCoord, n);
  convertVec3(UNIGINE_TO_GLTF, pos);
  const prim = doc.createPrimitive().setAttribute('POSITION', accessor(doc, buffer, 'VEC3', pos));
  // Tangent frame.
  if (nt > 0) {
    const nrm = new Float32Array(n * 3);
    const tan = new Float32Array(n * 4);
    const tbn = new Int16Array(n * 4);
    decodeTangentQuats(s.tangents, vTri, n, nrm, tan, tbn);
    convertVec3(UNIGINE_TO_GLTF, nrm);
    convertVec3(UNIGINE_TO_GLTF, tan, 4);
    prim.setAttribute('NORMAL', accessor(doc, buffer, 'VEC3', nrm));
    prim.setAttribute('TANGENT', accessor(doc, buffer, 'VEC4', tan));
    prim.setAttribute(ATTR_TBN, accessor(doc, buffer, 'VEC4', tbn));
  }
  const fits = (count: number, what: string): boolean => {
    if (count === 0) return false;
    if (count !== nt) {
      warnings.warn(
        'ATTRIBUTE_DROPPED',
        `surface "${s.name}": ${what} has ${count} entries for ${nt} triangle vertices; dropped`,
      );
      return false;
    }
    return true;
  };
  if (fits(s.uv0.length / 2, 'UV set 0'))
    prim.setAttribute('TEXCOORD_0', accessor(doc, buffer, 'VEC2', gatherF32(s.uv0, vTri, n, 2)));
  if (fits(s.uv1.length / 2, 'UV set 1'))
    prim.setAttribute('TEXCOORD_1', accessor(doc, buffer, 'VEC2', gatherF32(s.uv1, vTri, n, 2)));
  if (fits(s.colors.length / 4, 'colours'))
    prim.setAttribute('COLOR_0', accessor(doc, buffer, 'VEC4', gatherU8(s.colors, vTri, n, 4), true));
  // glTF forbids UNSIGNED_INT attributes: u16 when it fits, else float (exact below 2^24).
  const indexAttr = (a: Uint32Array, count: number) =>
    count <= 65536 ? new Uint16Array(a) : new Float32Array(a);
  prim.setAttribute(ATTR_COORD, accessor(doc, buffer, 'SCALAR', indexAttr(vCoord, nc)));
  if (!simple) prim.setAttribute(ATTR_TRI, accessor(doc, buffer, 'SCALAR', indexAttr(vTri, nt)));
  // Skin weights (per coordinate vertex).
  const nw = s.weightCounts.length;
  if (nw > 0 && boneCount > 0) {
    if (nw !== nc) {
      warnings.warn(
        'ATTRIBUTE_DROPPED',
        `surface "${s.name}": ${nw} weight records for ${nc} coordinate vertices; weights dropped`,
      );
    } else {
      const inf = vertexInfluences(
        s.weightCounts,
        s.weightStarts,
        s.weightBones,
        s.weightValues,
        vCoord,
        n,
        boneCount,
      );
      warnings.warn(
        'WEIGHTS_TRUNCATED',
        `surface "${s.name}": vertices with more than 4 influences kept the 4 largest`,
        inf.truncated,
      );
      warnings.warn(
        'BAD_BONE_INDEX',
        `surface "${s.name}": influences naming no bone were ignored`,
        inf.badBone,
      );
      prim.setAttribute('JOINTS_0', accessor(doc, buffer, 'VEC4', inf.joints));
      prim.setAttribute('WEIGHTS_0', accessor(doc, buffer, 'VEC4', inf.weights));
      if (inf.raw) {
        prim.setAttribute(ATTR_WCOUNT, accessor(doc, buffer, 'SCALAR', inf.wc));
        prim.setAttribute(ATTR_WBONES, accessor(doc, buffer, 'VEC4', inf.wb));
        prim.setAttribute(ATTR_WVALUES, accessor(doc, buffer, 'VEC4', inf.wv));
      }
    }
  }
  // Morph targets 1… (target 0 is the base shape).
  for (let t = 1; t < s.targets.length; t++) {
    const tp = s.targets[t];
    if (tp.length !== base.length) {
      warnings.warn(
        'MORPH_TARGET_DROPPED',
        `surface "${s.name}": morph target "${s.targetNames[t]}" has ${tp.length / 3} vertices, not ${nc}; dropped`,
      );
      continue;
    }
    const d = morphDeltas(tp, base, vCoord, n);
    convertVec3(UNIGINE_TO_GLTF, d);
    prim.addTarget(
      doc.createPrimitiveTarget(s.targetNames[t]).setAttribute('POSITION', accessor(doc, buffer, 'VEC3', d)),
    );
  }
  prim.setIndices(accessor(doc, buffer, 'SCALAR', n < 65536 ? new Uint16Array(indices) : indices));
  const material = doc.createMaterial(s.name).setMetallicFactor(0).setRoughnessFactor(0.8);
  prim.setMaterial(material);
  const extras: UnigineSurfaceExtras = {
    surface: s.name,
    bounds: f32(s.bounds),
    targetNames: s.targetNames,
    numCoordVerts: nc,
    numTriVerts: nt,
  };
  prim.setExtras({ unigine: extras });
  return prim;
}

/**
 * True when the block's flags follow the writers' rule: frame 0 stores every component of the
 * mask, later frames exactly the components whose stored value changed. Then export can
 * recompute them; otherwise they are kept in extras.
 */
export function flagsFollowRule(block: AnimationBlock): boolean {
  const nb = block.bones.length;
  const mask = block.componentMask;
  const cur = new Float64Array(nb * 10);
  for (let f = 0; f < block.numFrames; f++) {
    for (let b = 0; b < nb; b++) {
      const e = f * nb + b;
      const fl = block.flags[e];
      if (fl === 0 && f > 0) continue; // stores nothing, changes nothing
      if (f === 0) {
        if (fl !== mask) return false;
      } else {
        let want = 0;
        for (let c = 0; c < 3; c++) {
          if (fl & (1 << c) ? block.positions[e * 3 + c] !== cur[b * 10 + c] : false) want |= 1 << c;
          if (fl & (16 << c) ? block.scales[e * 3 + c] !== cur[b * 10 + 7 + c] : false) want |= 16 << c;
        }
        if (fl & 8)
          for (let c = 0; c < 4; c++) if (block.rotations[e * 4 + c] !== cur[b * 10 + 3 + c]) want |= 8;
        if (want !== fl) return false;
      }
      for (let c = 0; c < 3; c++) {
        if (fl & (1 << c)) cur[b * 10 + c] = block.positions[e * 3 + c];
        if (fl & (16 << c)) cur[b * 10 + 7 + c] = block.scales[e * 3 + c];
      }
      if (fl & 8) for (let c = 0; c < 4; c++) cur[b * 10 + 3 + c] = block.rotations[e * 4 + c];
    }
  }
  return true;
}

const U2G_AXIS = UNIGINE_TO_GLTF.axis;
const U2G_SIGN = UNIGINE_TO_GLTF.sign;
const U2G_DET = axesDeterminant(UNIGINE_TO_GLTF);

/**
 * Decodes bone `b` of a block (carry-forward of unflagged components) into `pos`, `rot`, `scl`
 * (`nf × 3/4/3`, converted to glTF axes), and sets bits 1/2/4 of `changed[f]` when frame f's
 * translation/rotation/scale differs bit for bit from frame f − 1's. Returns true when some
 * rotation had to be normalized.
 */
function decodeBone(
  block: AnimationBlock,
  b: number,
  bindPose: Float32Array,
  nf: number,
  pos: Float32Array,
  rot: Float32Array,
  scl: Float32Array,
  changed: Uint8Array,
): boolean {
  const nb = block.bones.length;
  const boxes = block.boxes;
  const [a0, a1, a2] = U2G_AXIS;
  const [s0, s1, s2] = U2G_SIGN;
  const pb = new Uint32Array(pos.buffer, pos.byteOffset, pos.length);
  const rb = new Uint32Array(rot.buffer, rot.byteOffset, rot.length);
  const sb = new Uint32Array(scl.buffer, scl.byteOffset, scl.length);
  let normalized = false;
  const cur = new Float64Array(10);
  const bo = block.bones[b] * TRS_FLOATS;
  for (let k = 0; k < 10; k++)
    cur[k] = bindPose.length > bo + k ? bindPose[bo + k] : k === 6 || k >= 7 ? 1 : 0;
  for (let f = 0; f < nf; f++) {
    const e = f * nb + b;
    const fl = block.numFrames === 0 ? 0 : block.flags[e];
    const o = f * 3;
    const q = f * 4;
    if (fl === 0 && f > 0) {
      // Nothing stored: the previous frame's values, unchanged.
      for (let c = 0; c < 3; c++) {
        pb[o + c] = pb[o - 3 + c];
        sb[o + c] = sb[o - 3 + c];
      }
      for (let c = 0; c < 4; c++) rb[q + c] = rb[q - 4 + c];
      changed[f] = 0;
      continue;
    }
    for (let c = 0; c < 3; c++) {
      if (fl & (1 << c))
        cur[c] = boxes
          ? boxes[c] + (boxes[3 + c] * block.positions[e * 3 + c]) / 65535
          : block.positions[e * 3 + c];
      if (fl & (16 << c))
        cur[7 + c] = boxes
          ? boxes[6 + c] + (boxes[9 + c] * block.scales[e * 3 + c]) / 65535
          : block.scales[e * 3 + c];
    }
    if (fl & 8) {
      let len = 0;
      for (let c = 0; c < 4; c++) {
        cur[3 + c] = block.rotations[e * 4 + c] / 32767;
        len += cur[3 + c] * cur[3 + c];
      }
      len = Math.sqrt(len);
      if (Math.abs(len - 1) > 1e-3) {
        normalized = true;
        for (let c = 0; c < 4; c++) cur[3 + c] = len > 0 ? cur[3 + c] / len : c === 3 ? 1 : 0;
      }
    }
    // File axes → glTF axes (float32 first, as stored, then the signed permutation).
    pos[o] = s0 * Math.fround(cur[a0]);
    pos[o + 1] = s1 * Math.fround(cur[a1]);
    pos[o + 2] = s2 * Math.fround(cur[a2]);
    scl[o] = cur[7 + a0];
    scl[o + 1] = cur[7 + a1];
    scl[o + 2] = cur[7 + a2];
    rot[q] = U2G_DET * s0 * Math.fround(cur[3 + a0]);
    rot[q + 1] = U2G_DET * s1 * Math.fround(cur[3 + a1]);
    rot[q + 2] = U2G_DET * s2 * Math.fround(cur[3 + a2]);
    rot[q + 3] = cur[6];
    let ch = 0;
    if (f === 0) ch = 7;
    else {
      if (pb[o] !== pb[o - 3] || pb[o + 1] !== pb[o - 2] || pb[o + 2] !== pb[o - 1]) ch |= 1;
      if (
        rb[q] !== rb[q - 4] ||
        rb[q + 1] !== rb[q - 3] ||
        rb[q + 2] !== rb[q - 2] ||
        rb[q + 3] !== rb[q - 1]
      )
        ch |= 2;
      if (sb[o] !== sb[o - 3] || sb[o + 1] !== sb[o - 2] || sb[o + 2] !== sb[o - 1]) ch |= 4;
    }
    changed[f] = ch;
  }
  return normalized;
}

/**
 * Frames a LINEAR track needs as keys: the first, the last, and every frame whose value differs
 * (bit for bit) from a neighbour's (`changed[f] & bit`: frame f differs from f − 1). Frames
 * inside a run of equal values are dropped: the line between the run's two ends is that value,
 * so the animation is unchanged. Writes the kept frames to `keep` and returns how many.
 */
export function keyFramesOf(changed: Uint8Array, bit: number, nf: number, keep: Uint32Array): number {
  let n = 0;
  for (let f = 0; f < nf; f++)
    if (f === 0 || f === nf - 1 || changed[f] & bit || changed[f + 1] & bit) keep[n++] = f;
  return n;
}

/** Key times `frame / fps` of the first `n` frames listed in `frames`. */
function frameTimes(frames: Uint32Array, n: number, fps: number): Float32Array {
  const t = new Float32Array(n);
  for (let k = 0; k < n; k++) t[k] = frames[k] / fps;
  return t;
}

function blockToAnimation(
  ctx: Ctx,
  block: AnimationBlock,
  boneNames: readonly string[],
  bindPose: Float32Array,
  nodeByName: Map<string, Node>,
  meta: { source: 'mesh' | 'anim'; file: string; index: number; name: string; glName: string },
): Animation {
  const { doc, buffer, warnings, fps } = ctx;
  const nb = block.bones.length;
  const nf = Math.max(1, block.numFrames);
  const anim = doc.createAnimation(meta.glName);
  // Key times, made on demand and shared: every frame, or the two ends (constant tracks), else
  // per track.
  const times = (which: 'all' | 'ends', n: number): Accessor => {
    const key = `t${nf}:${which}`;
    let a = ctx.shared.get(key);
    if (!a) {
      a = accessor(doc, buffer, 'SCALAR', frameTimes(keep, n, fps));
      ctx.shared.set(key, a);
    }
    return a;
  };
  const pos = new Float32Array(nf * 3);
  const rot = new Float32Array(nf * 4);
  const scl = new Float32Array(nf * 3);
  const keep = new Uint32Array(nf);
  const changed = new Uint8Array(nf + 1);
  let normalized = false;
  const mask = block.componentMask;
  const animated: string[] = [];
  let missing = 0;
  // Bones no frame after the first stores anything for hold still: frame 0 is the whole track
  // (one pass over the flags, in file order).
  const moving = new Uint8Array(nb);
  const flags = block.flags;
  for (let f = 1, e = nb; f < block.numFrames; f++)
    for (let b = 0; b < nb; b++, e++) if (flags[e] & 0x7f) moving[b] = 1;
  for (let b = 0; b < nb; b++) {
    const name = boneNames[block.bones[b]];
    animated.push(name);
    const node = nodeByName.get(name);
    const still = !moving[b];
    if (decodeBone(block, b, bindPose, still ? 1 : nf, pos, rot, scl, changed)) normalized = true;
    if (!node) {
      missing++;
      continue;
    }
    const add = (path: 'translation' | 'rotation' | 'scale', data: Float32Array, size: number) => {
      let n: number;
      if (still) {
        n = nf > 1 ? 2 : 1;
        keep[0] = 0;
        keep[1] = nf - 1;
      } else n = keyFramesOf(changed, size === 4 ? 2 : path === 'scale' ? 4 : 1, nf, keep);
      let input: Accessor;
      let out: Accessor;
      if (n === nf && !still) {
        input = times('all', nf);
        out = accessor(doc, buffer, size === 4 ? 'VEC4' : 'VEC3', data.slice());
      } else {
        input =
          n === nf
            ? times('all', nf)
            : n === 2
              ? times('ends', 2)
              : accessor(doc, buffer, 'SCALAR', frameTimes(keep, n, fps));
        const values = new Float32Array(n * size);
        for (let k = 0; k < n; k++)
          for (let c = 0; c < size; c++) values[k * size + c] = data[(still ? 0 : keep[k]) * size + c];
        // One value held over the clip: share the output with equal tracks.
        const bits = new Uint32Array(values.buffer);
        let one = n <= 2;
        for (let c = 0; c < size && one && n === 2; c++) if (bits[c] !== bits[size + c]) one = false;
        if (one) {
          let key = `v${n}:`;
          for (let c = 0; c < size; c++) key += `${bits[c]},`;
          let shared = ctx.shared.get(key);
          if (!shared) {
            shared = accessor(doc, buffer, size === 4 ? 'VEC4' : 'VEC3', values);
            ctx.shared.set(key, shared);
          }
          out = shared;
        } else out = accessor(doc, buffer, size === 4 ? 'VEC4' : 'VEC3', values);
      }
      const sampler = doc.createAnimationSampler().setInput(input).setOutput(out); // LINEAR is the default
      anim
        .addSampler(sampler)
        .addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
    };
    if (mask & FLAG_POS) add('translation', pos, 3);
    if (mask & FLAG_ROT) add('rotation', rot, 4);
    if (mask & FLAG_SCALE) add('scale', scl, 3);
  }
  warnings.warn(
    'TRACK_DROPPED',
    `${meta.file}: animation "${meta.name}" has tracks for bones the model does not have; dropped`,
    missing,
  );
  const extras: UnigineAnimationExtras = {
    source: meta.source,
    file: meta.file,
    index: meta.index,
    name: meta.name,
    bones: animated,
    componentMask: mask,
    numFrames: block.numFrames,
    fps,
  };
  if (!flagsFollowRule(block))
    extras.flags = Array.from(block.flags, (f) => f.toString(16).padStart(2, '0')).join('');
  if (normalized) {
    extras.normalized = true;
    warnings.warn(
      'VALUE_NORMALIZED',
      `${meta.file}: animation "${meta.name}" has rotations far from unit length; normalized`,
    );
  }
  if (block.boxes) {
    const boxes = block.boxes;
    extras.boxes = f32(boxes);
    // Axes whose range is too narrow for float32: keep the codes for a byte-exact export.
    const raw: Record<string, number[]> = {};
    const keep = (
      kind: 'pos' | 'scale',
      bit: number,
      c: number,
      min: number,
      size: number,
      codes: Uint16Array,
    ) => {
      if (!(mask & bit)) return;
      if (size > 0 && Number.isFinite(min) && rangeU16Float32Safe(min, size)) return;
      let allZero = true;
      for (let e = c; e < codes.length && allZero; e += 3) if (codes[e] !== 0) allZero = false;
      if (allZero && size === 0) return;
      // Codes with unflagged frames carried forward (what the frame holds, not what is stored).
      const list: number[] = new Array(codes.length / 3);
      const nbk = block.bones.length;
      for (let e = 0; e < list.length; e++)
        list[e] = block.flags[e] & bit ? codes[e * 3 + c] : e >= nbk ? list[e - nbk] : 0;
      raw[`${kind}${c}`] = list;
    };
    for (let c = 0; c < 3; c++) {
      keep('pos', 1 << c, c, boxes[c], boxes[3 + c], block.positions as Uint16Array);
      keep('scale', 16 << c, c, boxes[6 + c], boxes[9 + c], block.scales as Uint16Array);
    }
    if (Object.keys(raw).length) extras.rawCodes = raw;
  }
  anim.setExtras({ unigine: extras });
  return anim;
}

/**
 * Names of the `.anim` siblings of a mesh: `NAME.anim` and `NAME_*.anim` (case-insensitive).
 *
 * ```ts
 * animCompanions('arm.mesh', ['arm.anim', 'arm.mesh', 'leg.anim']); // ['arm.anim']
 * ```
 */
export function animCompanions(name: string, siblings: readonly string[]): string[] {
  const base = stem(name).toLowerCase();
  return siblings.filter((s) => {
    if (extName(s) !== '.anim') return false;
    const st = stem(s).toLowerCase();
    return st === base || st.startsWith(`${base}_`);
  });
}

function bindPoseFloats(bindPose: Float32Array, i: number): number[] {
  return Array.from(bindPose.subarray(i * TRS_FLOATS, (i + 1) * TRS_FLOATS));
}

/**
 * Builds a glTF document from a parsed mesh (optional) and parsed animation files.
 *
 * ```ts
 * const { document } = toDocument(readMesh(bytes, 'arm.mesh'), 'arm.mesh', [{ file: 'arm.anim', anim: readAnim(animBytes) }]);
 * ```
 */
export function toDocument(
  mesh: MeshFile | null,
  meshName: string,
  anims: { file: string; anim: AnimFile }[],
  options: Partial<UnigineImportOptions> = {},
  warnings = new WarningCollector(),
): ImportResult {
  const fps = options.fps ?? UNIGINE_IMPORT_DEFAULTS.fps;
  if (!(fps > 0) || !Number.isFinite(fps))
    throw new LegacyError('BAD_OPTION', `fps must be a positive number, got ${fps}`);
  const doc = new Document();
  doc.createBuffer();
  const buffer = doc.getRoot().listBuffers()[0];
  const ctx: Ctx = { doc, buffer, warnings, fps, shared: new Map() };
  const scene = doc.createScene(stem(meshName));
  doc.getRoot().setDefaultScene(scene);
  const rootExtras: UnigineRootExtras = { animFiles: [] };
  const nodeByName = new Map<string, Node>();
  // Bind-pose floats (file axes) of every bone node, by name, to detect per-file differences.
  const bindByName = new Map<string, number[]>();
  const addSkeleton = (bones: readonly UnigineBone[], bindPose: Float32Array, animOnly: boolean): Node[] => {
    const nodes: Node[] = [];
    const created = new Set<Node>();
    for (let i = 0; i < bones.length; i++) {
      const existing = animOnly ? nodeByName.get(bones[i].name) : undefined;
      if (existing) {
        nodes.push(existing);
        continue;
      }
      const node = doc.createNode(bones[i].name);
      created.add(node);
      const nodeExtras: Record<string, unknown> = {};
      if (bindPose.length >= (i + 1) * TRS_FLOATS) {
        const trs = boneTRS(bindPose, i);
        setTRS(node, trs);
        const raw = bindPoseFloats(bindPose, i);
        bindByName.set(bones[i].name, raw);
        // glTF writers drop a TRS part within ~1e-5 of its default, and JSON has no −0: keep
        // the exact floats in such cases.
        if (
          nearDefault(trs.t, [0, 0, 0]) ||
          nearDefault(trs.r, [0, 0, 0, 1]) ||
          nearDefault(trs.s, [1, 1, 1]) ||
          [...raw, ...trs.t, ...trs.r, ...trs.s].some((v) => Object.is(v, -0)) ||
          Math.abs(Math.hypot(...trs.r) - 1) >= 1e-3
        ) {
          nodeExtras.bind = packF32(raw);
        }
      }
      if (animOnly) nodeExtras.animOnly = true;
      if (Object.keys(nodeExtras).length) node.setExtras({ unigine: nodeExtras });
      if (!nodeByName.has(bones[i].name)) nodeByName.set(bones[i].name, node);
      nodes.push(node);
    }
    for (let i = 0; i < bones.length; i++) {
      if (!created.has(nodes[i])) continue; // bone of the mesh or of an earlier file
      const p = bones[i].parent;
      if (p >= 0) nodes[p].addChild(nodes[i]);
      else scene.addChild(nodes[i]);
    }
    return nodes;
  };

  if (mesh) {
    rootExtras.mesh = {
      file: meshName,
      encoding: mesh.encoding,
      bounds: f32(mesh.bounds),
      animationNames: mesh.animationNames,
    };
    const boneNodes = addSkeleton(mesh.bones, mesh.bindPose, false);
    const gmesh = doc.createMesh(stem(meshName));
    const maxTargets = Math.max(0, ...mesh.surfaces.map((s) => s.targets.length - 1));
    mesh.surfaces.forEach((s, si) => {
      const prim = buildPrimitive(ctx, s, si, mesh.bones.length);
      // glTF needs the same target count on every primitive of a mesh: pad with zero targets.
      const pos = prim.getAttribute('POSITION');
      for (let t = prim.listTargets().length; t < maxTargets; t++) {
        const zero = new Float32Array((pos?.getCount() ?? 0) * 3);
        prim.addTarget(
          doc.createPrimitiveTarget(`pad_${t}`).setAttribute('POSITION', accessor(doc, buffer, 'VEC3', zero)),
        );
      }
      gmesh.addPrimitive(prim);
    });
    if (maxTargets > 0)
      gmesh.setExtras({
        targetNames:
          mesh.surfaces.find((s) => s.targets.length - 1 === maxTargets)?.targetNames.slice(1) ?? [],
      });
    const meshNode = doc.createNode(stem(meshName)).setMesh(gmesh);
    scene.addChild(meshNode);
    if (mesh.bones.length) {
      // Inverse bind matrices from the bind pose (glTF axes).
      const world = boneWorldMatrices(
        mesh.bones.map((b) => b.parent),
        (j) => ({
          t: boneNodes[j].getTranslation(),
          r: boneNodes[j].getRotation(),
          s: boneNodes[j].getScale(),
        }),
      );
      const ibm = new Float32Array(mesh.bones.length * 16);
      for (let i = 0; i < mesh.bones.length; i++) {
        const inv = inverseBindMatrix(world[i]);
        if (inv) ibm.set(inv, i * 16);
        else {
          warnings.warn(
            'SINGULAR_BIND_POSE',
            `bone "${mesh.bones[i].name}" has a singular bind pose; identity inverse bind matrix used`,
          );
          ibm.set(IDENTITY, i * 16);
        }
      }
      const skin = doc
        .createSkin(stem(meshName))
        .setInverseBindMatrices(doc.createAccessor().setType('MAT4').setArray(ibm).setBuffer(buffer));
      for (const n of boneNodes) skin.addJoint(n);
      const roots = mesh.bones
        .map((b, i) => (b.parent < 0 ? boneNodes[i] : null))
        .filter((n): n is Node => n !== null);
      if (roots.length === 1) skin.setSkeleton(roots[0]);
      else if (roots.length > 1) {
        // glTF wants the joints under one common root: group the root bones under a plain node.
        const group = doc
          .createNode(`${stem(meshName)}_skeleton`)
          .setExtras({ unigine: { skeletonRoot: true } });
        scene.addChild(group);
        for (const r of roots) {
          scene.removeChild(r);
          group.addChild(r);
        }
        skin.setSkeleton(group);
      }
      meshNode.setSkin(skin);
    }
    mesh.animations.forEach((block, a) => {
      blockToAnimation(
        ctx,
        block,
        mesh.bones.map((b) => b.name),
        mesh.bindPose,
        nodeByName,
        {
          source: 'mesh',
          file: meshName,
          index: a,
          name: mesh.animationNames[a],
          glName: mesh.animationNames[a],
        },
      );
    });
  }

  for (const { file, anim } of anims) {
    // Bones the model lacks become plain nodes, so every track keeps a target.
    if (mesh && !anim.bones.some((b) => mesh.bones.some((m) => m.name === b.name))) {
      warnings.warn(
        'ANIMATION_UNMATCHED',
        `${file} animates none of the bones of ${meshName}; its skeleton was added as separate nodes`,
      );
    }
    addSkeleton(anim.bones, anim.bindPose, true);
    const overrides: Record<string, JsonF32> = {};
    anim.bones.forEach((b, i) => {
      const mine = bindPoseFloats(anim.bindPose, i);
      const theirs = bindByName.get(b.name);
      if (!theirs || theirs.some((v, k) => !Object.is(v, mine[k]))) overrides[String(i)] = packF32(mine);
    });
    const fx: AnimFileExtras = {
      file,
      encoding: anim.encoding,
      bounds: f32(anim.bounds),
      bones: anim.bones.map((b) => [b.name, b.parent]),
      animationNames: anim.animationNames,
    };
    if (Object.keys(overrides).length) fx.bindPoseOverrides = overrides;
    rootExtras.animFiles.push(fx);
    const base = mesh ? stem(meshName) : '';
    let suffix = stem(file);
    if (base && suffix.toLowerCase().startsWith(`${base.toLowerCase()}_`))
      suffix = suffix.slice(base.length + 1);
    anim.animations.forEach((block, a) => {
      const animName = anim.animationNames[a];
      const glName = anim.animations.length === 1 && suffix !== base ? suffix : `${suffix}/${animName}`;
      blockToAnimation(
        ctx,
        block,
        anim.bones.map((b) => b.name),
        anim.bindPose,
        nodeByName,
        { source: 'anim', file, index: a, name: animName, glName },
      );
    });
  }
  doc.getRoot().setExtras({ unigine: rootExtras });
  return { document: doc, warnings: warnings.list() };
}

/**
 * Imports a UNIGINE `.mesh` (ms11) with its `.anim` (an10) companions, or a lone `.anim`, into a
 * glTF-Transform Document.
 *
 * ```ts
 * const files = new Map([['actor_00.mesh', meshBytes], ['actor_00_idle.anim', idleBytes]]);
 * const { document, warnings } = importUnigine(files, { main: 'actor_00.mesh', fps: 30 });
 * ```
 */
export function importUnigine(
  files: Map<string, Uint8Array>,
  options: ImportOptions & Partial<UnigineImportOptions> = {},
): ImportResult {
  const warnings = new WarningCollector();
  const [name, bytes] = mainFile(files, options);
  const kind = unigineMagic(bytes)?.kind;
  const anims: { file: string; anim: AnimFile }[] = [];
  let mesh: MeshFile | null = null;
  if (kind === 'anim') {
    anims.push({ file: name, anim: readAnim(bytes, name) });
  } else {
    mesh = readMesh(bytes, name);
  }
  for (const [file, b] of files) {
    if (file === name) continue;
    if (extName(file) !== '.anim' || unigineMagic(b)?.kind !== 'anim') {
      warnings.warn('COMPANION_IGNORED', `${file} is not a UNIGINE .anim file; ignored`);
      continue;
    }
    try {
      anims.push({ file, anim: readAnim(b, file) });
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      warnings.warn('COMPANION_IGNORED', `${file} could not be read (${e.code}: ${e.detail}); ignored`);
    }
  }
  anims.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return toDocument(
    mesh,
    name,
    anims,
    { fps: options.fps === undefined ? undefined : Number(options.fps) },
    warnings,
  );
}
