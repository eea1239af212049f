import { FormatError, WarningCollector } from '@gltf-legacy/core';
import { decodeQ15 } from '@gltf-legacy/quantize';
import { type Accessor, Document, type Node } from '@gltf-transform/core';
import type { TsoAnimation } from './anim.js';
import type { TsoMesh } from './mesh.js';
import type { TsoSkeleton } from './skel.js';
import { skeletonParents } from './skel.js';
import {
  convertRotations,
  convertVectors,
  floatJson,
  f32Bits,
  floatsToBits,
  hasNegativeZero,
  inv,
  isIdentity,
  mat,
  mul,
  positiveZeros,
  transformPoint,
  trMatrix,
} from './space.js';

/** Options of {@link importTso}. */
export interface TsoImportOptions {
  /**
   * Unit of `.anim` durations: `auto` reads seconds when the duration is smaller than the frame
   * count (FreeSO-made files), else milliseconds (original files).
   */
  durationUnit?: 'auto' | 'ms' | 's';
  /** Frame rate used when an animation's duration is unusable. */
  fallbackFps?: number;
  /** Name of the mesh node (default: the mesh file's stem or `mesh`). */
  meshName?: string;
}

export const TSO_IMPORT_DEFAULTS: Required<Omit<TsoImportOptions, 'meshName'>> = {
  durationUnit: 'auto',
  fallbackFps: 36,
};

/** What {@link importTso} turns into a Document: any of a mesh, a skeleton and animations. */
export interface TsoImportInput {
  mesh?: TsoMesh;
  /** Several meshes (the parts of an outfit), each its own node and skin; used instead of `mesh`. */
  meshes?: { mesh: TsoMesh; name: string }[];
  skeleton?: TsoSkeleton;
  animations?: { name: string; animation: TsoAnimation }[];
}

/** The name of the helper node that parents mesh bones when no skeleton is given. */
export const BONE_GROUP_NAME = 'TSO_BONES';

/** Warning codes emitted by import. */
export const TSO_IMPORT_WARNINGS = {
  SKELETON_MISSING: 'SKELETON_MISSING',
  BONE_NOT_IN_SKELETON: 'BONE_NOT_IN_SKELETON',
  ANIM_BONE_MISSING: 'ANIM_BONE_MISSING',
  ANIM_DUPLICATE_MOTION: 'ANIM_DUPLICATE_MOTION',
  SKELETON_MISMATCH: 'SKELETON_MISMATCH',
  SKELETON_AMBIGUOUS: 'SKELETON_AMBIGUOUS',
  COMPANION_IGNORED: 'COMPANION_IGNORED',
  UNBOUND_VERTEX: 'UNBOUND_VERTEX',
  VALUE_NORMALIZED: 'VALUE_NORMALIZED',
  ANIM_DURATION_INVALID: 'ANIM_DURATION_INVALID',
  WEIGHTS_TRUNCATED: 'WEIGHTS_TRUNCATED',
} as const;

const q = (v: number) => Math.fround(v);

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

/**
 * Builds a glTF Document from a TSO mesh and/or skeleton and animations (see README for the
 * mapping). With a skeleton every bone is a joint and vertices are moved out of bone space;
 * without one, each mesh bone is a node at the origin (warning `SKELETON_MISSING`).
 *
 * ```ts
 * const warnings = new WarningCollector();
 * const doc = importTso({ mesh: readMesh(meshBytes), skeleton: readSkeleton(skelBytes) }, {}, warnings);
 * ```
 */
export function importTso(
  input: TsoImportInput,
  options: TsoImportOptions = {},
  warnings = new WarningCollector(),
): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('Scene');
  doc.getRoot().setDefaultScene(scene);
  const { mesh, skeleton } = input;

  // ---- bones
  const nodes: Node[] = [];
  const worlds: Float64Array[] = [];
  const byName = new Map<string, number>();
  const lookup = (name: string) => byName.get(name) ?? byName.get(name.toLowerCase());
  const register = (name: string, i: number) => {
    if (!byName.has(name)) byName.set(name, i);
    if (!byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), i);
  };
  let rootNode: Node | undefined;
  let skinRoot: Node | undefined;
  if (skeleton) {
    const parents = skeletonParents(skeleton);
    const bones = skeleton.bones;
    for (let i = 0; i < bones.length; i++) {
      const b = bones[i];
      const t = Array.from(b.translation);
      const r = Array.from(b.rotation);
      convertVectors(t);
      convertRotations(r);
      const extras: Record<string, unknown> = {
        unknown: b.unknown,
        hasProps: b.hasProps,
        props: b.props,
        canTranslate: b.canTranslate,
        canRotate: b.canRotate,
        canBlend: b.canBlend,
        wiggleValue: floatJson(b.wiggleValue),
        wigglePower: floatJson(b.wigglePower),
        parentName: b.parentName,
      };
      // Node values go through JSON, which has no −0: keep such raw values as bits.
      positiveZeros(t);
      positiveZeros(r);
      if (hasNegativeZero(b.translation) || !t.every(Number.isFinite)) {
        extras.rawTranslation = floatsToBits(b.translation);
        for (let k = 0; k < 3; k++) if (!Number.isFinite(t[k])) t[k] = 0;
      }
      if (hasNegativeZero(b.rotation)) extras.rawRotation = floatsToBits(b.rotation);
      const len = Math.hypot(r[0], r[1], r[2], r[3]);
      if (!(Math.abs(len - 1) <= 1e-6)) {
        extras.rawRotation = floatsToBits(b.rotation);
        if (len > 0 && Number.isFinite(len)) for (let k = 0; k < 4; k++) r[k] = q(r[k] / len);
        else r.splice(0, 4, 0, 0, 0, 1);
        warnings.warn(
          'VALUE_NORMALIZED',
          'a bone rotation was not a unit quaternion; normalized (raw value kept in extras)',
        );
      }
      const node = doc
        .createNode(b.name)
        .setTranslation(t as [number, number, number])
        .setRotation(r as [number, number, number, number])
        .setExtras({ tso: extras });
      nodes.push(node);
      register(b.name, i);
    }
    const locals = nodes.map((n) => trMatrix(n.getTranslation(), n.getRotation()));
    const done: (Float64Array | undefined)[] = new Array(bones.length);
    const world = (i: number): Float64Array => {
      let w = done[i];
      if (w) return w;
      const p = parents[i];
      w = p < 0 ? locals[i] : mul(world(p), locals[i]);
      done[i] = w;
      return w;
    };
    const roots = nodes.filter((_, i) => parents[i] < 0);
    // Several roots: an identity group node above them gives the joints a common root.
    const top =
      roots.length > 1 ? doc.createNode(BONE_GROUP_NAME).setExtras({ tso: { group: true } }) : scene;
    if (top !== scene) scene.addChild(top as Node);
    for (let i = 0; i < bones.length; i++) {
      worlds.push(world(i));
      if (parents[i] < 0) top.addChild(nodes[i]);
      else nodes[parents[i]].addChild(nodes[i]);
    }
    rootNode = roots[0];
    skinRoot = top === scene ? rootNode : (top as Node);
  }

  // ---- meshes (one, or the several parts of an outfit; bones are shared by name)
  const meshList = input.meshes ?? (mesh ? [{ mesh, name: options.meshName ?? 'mesh' }] : []);
  const meshNodes: Node[] = [];
  if (meshList.length) {
    let group: Node | undefined;
    if (!skeleton) {
      warnings.warn(
        'SKELETON_MISSING',
        'no .skel given: each mesh bone is a node at the origin (right for single-bone accessories; pass the skeleton for body parts)',
      );
    }
    const distinct = new Set(meshList.flatMap((m) => m.mesh.boneNames.map((n) => n.toLowerCase())));
    const grouped = meshList.length === 1 ? meshList[0].mesh.boneNames.length > 1 : distinct.size > 1;
    for (const { mesh: part, name: partName } of meshList) {
      const meshBone: number[] = [];
      for (const name of part.boneNames) {
        let i = lookup(name);
        if (i === undefined) {
          if (skeleton)
            warnings.warn(
              'BONE_NOT_IN_SKELETON',
              `mesh bone "${name}" is not in the skeleton; placed at the skeleton root`,
            );
          const node = doc.createNode(name).setExtras({ tso: { meshOnly: true } });
          i = nodes.length;
          nodes.push(node);
          register(name, i);
          if (rootNode) {
            rootNode.addChild(node);
            worlds.push(worlds[nodes.indexOf(rootNode)]);
          } else {
            if (!group && grouped) {
              group = doc.createNode(BONE_GROUP_NAME).setExtras({ tso: { group: true } });
              scene.addChild(group);
            }
            (group ?? scene).addChild(node);
            worlds.push(mat());
          }
        }
        meshBone.push(i);
      }
      const node = buildMesh(doc, buffer, part, meshBone, nodes, worlds, skinRoot, partName, warnings);
      scene.addChild(node);
      meshNodes.push(node);
    }
  }

  // ---- skin extras for the skeleton itself
  if (skeleton) {
    const skinExtras = {
      version: skeleton.version,
      name: skeleton.name,
      trailing: Array.from(skeleton.trailing),
    };
    const skins = meshNodes.map((n) => n.getSkin()).filter((x) => !!x);
    for (const skin of skins) skin.setExtras({ tso: { skeleton: skinExtras } });
    if (!skins.length && rootNode)
      rootNode.setExtras({ tso: { ...(rootNode.getExtras().tso as object), skeleton: skinExtras } });
  } else {
    for (const n of meshNodes) n.getSkin()?.setExtras({ tso: { noSkeleton: true } });
  }

  // ---- animations
  for (const { name, animation } of input.animations ?? []) {
    importAnimation(
      doc,
      buffer,
      animation,
      name,
      nodes,
      register,
      lookup,
      !meshList.length && !skeleton,
      scene,
      options,
      warnings,
    );
  }
  return doc;
}

function buildMesh(
  doc: Document,
  buffer: ReturnType<Document['createBuffer']>,
  mesh: TsoMesh,
  meshBone: number[],
  nodes: Node[],
  worlds: Float64Array[],
  skeletonRoot: Node | undefined,
  name: string,
  warnings: WarningCollector,
): Node {
  const n = mesh.uvs.length / 2;
  const blendCount = mesh.blendData.length / 2;
  // Bone (index into nodes) of every real and blend vertex.
  const vBone = new Int32Array(n).fill(-1);
  const bBone = new Int32Array(blendCount).fill(-1);
  for (const b of mesh.bindings) {
    const bone = meshBone[b.boneIndex];
    for (let k = 0; k < b.realVertexCount; k++) vBone[b.firstRealVertex + k] = bone;
    for (let k = 0; k < b.blendVertexCount; k++) bBone[b.firstBlendVertex + k] = bone;
  }
  let unbound = 0;
  const fallback = meshBone.length ? meshBone[0] : -1;
  for (let v = 0; v < n; v++) {
    if (vBone[v] < 0) {
      unbound++;
      vBone[v] = fallback;
    }
  }
  warnings.warn('UNBOUND_VERTEX', 'vertices outside every binding; bound to the first mesh bone', unbound);

  const raw = mesh.realVertices;
  const position = new Float32Array(n * 3);
  const normal = new Float32Array(n * 3);
  const I = mat();
  const boneIdentity = worlds.map((m) => isIdentity(m));
  // Each hot loop is its own function: V8 optimizes (and keeps) small functions, while one long
  // function with many loops was deoptimized and re-entered through OSR loop after loop.
  const nonUnit = placeRealVertices(raw, vBone, worlds, boneIdentity, I, position, normal);

  // Real positions that export (glTF position through the bone's inverse world, in float32)
  // would not give back bit for bit: keep their raw values so import → export is exact.
  const listed = unfaithfulPositions(raw, vBone, worlds, boneIdentity, position, mesh.blendData);
  // Few: a sparse JSON list [vertex, x, y, z bits]…; many (rotated bones lose a bit on most
  // vertices): a float32 attribute with every raw position, which costs far less than JSON.
  const rawAttribute = listed.length > 0 && listed.length > n / 8;
  const rawPositions: number[] = [];
  if (!rawAttribute)
    for (const v of listed) {
      rawPositions.push(v, f32Bits(raw[v * 6]), f32Bits(raw[v * 6 + 1]), f32Bits(raw[v * 6 + 2]));
    }

  // Skin influences: the real bone, then blend bones pulling on the vertex.
  const joints = new Uint16Array(n * 4);
  const weights = new Float32Array(n * 4);
  const blendedReal = new Float32Array(blendCount * 3);
  const truncated = applyBlends(mesh, vBone, bBone, worlds, position, joints, weights, blendedReal);
  warnings.warn(
    'WEIGHTS_TRUNCATED',
    'a real vertex has more than 3 blend vertices; extra ones ignored',
    truncated,
  );

  // Finite bone-space coordinates can still leave the float32 range once bound to a far or
  // rotated bone (or through a non-finite skeleton matrix): glTF cannot hold the result, and
  // export could not give the file back.
  const bad = firstNonFinite(position);
  if (bad >= 0)
    throw new FormatError(
      `vertex ${Math.floor(bad / 3)} bound to its bone is ${position[bad]}: outside the float32 range glTF positions hold`,
      { code: 'VERTEX_OUT_OF_RANGE', field: `realVertices[${Math.floor(bad / 3) * 6 + (bad % 3)}]` },
    );

  const indices = flippedIndices(mesh.indices, n);

  const acc = (
    array: Float32Array | Uint16Array | Uint32Array,
    type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4',
  ) => doc.createAccessor().setBuffer(buffer).setType(type).setArray(array);
  const material = doc.createMaterial('tso').setMetallicFactor(0).setRoughnessFactor(1);
  const prim = doc
    .createPrimitive()
    .setMaterial(material)
    .setIndices(acc(indices, 'SCALAR'))
    .setAttribute('POSITION', acc(position, 'VEC3'))
    .setAttribute('NORMAL', acc(normal, 'VEC3'))
    .setAttribute('TEXCOORD_0', acc(mesh.uvs.slice(), 'VEC2'));
  if (rawAttribute) prim.setAttribute(RAW_POSITION_ATTRIBUTE, acc(rawColumns(raw, 0), 'VEC3'));
  // The raw (bone-space, non-unit) normals FreeSO writes, for a lossless round trip.
  if (nonUnit) prim.setAttribute('_TSO_NORMAL', acc(rawColumns(raw, 3), 'VEC3'));
  const gltfMesh = doc.createMesh(name).addPrimitive(prim);
  gltfMesh.setExtras({
    tso: {
      version: mesh.version,
      vertexCount2: mesh.vertexCount2,
      boneNames: mesh.boneNames,
      bindings: mesh.bindings.map((b) => [
        b.boneIndex,
        b.firstRealVertex,
        b.realVertexCount,
        b.firstBlendVertex,
        b.blendVertexCount,
      ]),
      blend: blendAttributes(prim, acc, mesh, blendedReal) ?? {
        data: Array.from(mesh.blendData),
        // Float32 bit patterns (exact through JSON, including −0).
        vertices: floatsToBits(mesh.blendVertices),
        realPositions: floatsToBits(blendedReal),
      },
      ...(rawPositions.length ? { rawPositions } : {}),
      ...(rawAttribute ? { rawPositionAttribute: true } : {}),
      trailing: Array.from(mesh.trailing),
    },
  });
  const node = doc.createNode(name).setMesh(gltfMesh);
  if (meshBone.length) {
    prim.setAttribute('JOINTS_0', acc(joints, 'VEC4')).setAttribute('WEIGHTS_0', acc(weights, 'VEC4'));
    const ibm = new Float32Array(nodes.length * 16);
    for (let i = 0; i < nodes.length; i++) ibm.set(inv(worlds[i]), i * 16);
    const skin = doc.createSkin(`${name}_skin`).setInverseBindMatrices(acc(ibm, 'MAT4'));
    for (const nd of nodes) skin.addJoint(nd);
    if (skeletonRoot) skin.setSkeleton(skeletonRoot);
    node.setSkin(skin);
  }
  return node;
}

/**
 * VEC3: every real vertex's raw position (TSO axes, bone space), written instead of the sparse
 * `extras.tso.rawPositions` list when more than 1/8 of the vertices need theirs.
 */
export const RAW_POSITION_ATTRIBUTE = '_TSO_RAW_POSITION';

/** Custom attributes that carry the raw blend records per real vertex (see {@link blendAttributes}). */
export const BLEND_ATTRIBUTES = {
  /** VEC2: (blend record index + 1, raw Q1.15 weight); (0, 0) on a vertex no blend vertex pulls. */
  record: '_TSO_BLEND',
  /** VEC3: the blend vertex's raw position (TSO axes, blend bone space). */
  position: '_TSO_BLEND_POSITION',
  /** VEC3: the blend vertex's raw normal. */
  normal: '_TSO_BLEND_NORMAL',
  /** VEC3: the real vertex's raw position before blending (glTF POSITION holds the blended one). */
  realPosition: '_TSO_REAL_POSITION',
} as const;

/**
 * The raw blend records as float32 vertex attributes of the primitive (binary in the .glb, and
 * they travel with their vertex) instead of JSON number arrays in extras, which were half of a
 * .glb's bytes for FreeSO-style meshes. Possible when every blend record pulls on a different
 * real vertex and weights and record counts fit a float32 exactly (< 2²⁴) — true of FreeSO files
 * and of our exports; otherwise returns undefined and the records stay in extras.
 */
function blendAttributes(
  prim: ReturnType<Document['createPrimitive']>,
  acc: (array: Float32Array, type: 'VEC2' | 'VEC3') => Accessor,
  mesh: TsoMesh,
  blendedReal: Float32Array,
): { attributes: true; count: number } | undefined {
  const n = mesh.uvs.length / 2;
  const count = mesh.blendData.length / 2;
  if (count === 0 || count >= 1 << 24) return undefined;
  const record = new Float32Array(n * 2);
  for (let j = 0; j < count; j++) {
    const weight = mesh.blendData[j * 2];
    const t = mesh.blendData[j * 2 + 1];
    if (weight >= 1 << 24 || record[t * 2] !== 0) return undefined;
    record[t * 2] = j + 1;
    record[t * 2 + 1] = weight;
  }
  const position = new Float32Array(n * 3);
  const normal = new Float32Array(n * 3);
  const real = new Float32Array(n * 3);
  const bv = mesh.blendVertices;
  for (let j = 0; j < count; j++) {
    const t = mesh.blendData[j * 2 + 1];
    for (let c = 0; c < 3; c++) {
      position[t * 3 + c] = bv[j * 6 + c];
      normal[t * 3 + c] = bv[j * 6 + 3 + c];
      real[t * 3 + c] = blendedReal[j * 3 + c];
    }
  }
  prim
    .setAttribute(BLEND_ATTRIBUTES.record, acc(record, 'VEC2'))
    .setAttribute(BLEND_ATTRIBUTES.position, acc(position, 'VEC3'))
    .setAttribute(BLEND_ATTRIBUTES.normal, acc(normal, 'VEC3'))
    .setAttribute(BLEND_ATTRIBUTES.realPosition, acc(real, 'VEC3'));
  return { attributes: true, count };
}

/** Real vertices out of bone space: glTF positions and unit normals; true when raw normals must be kept. */
function placeRealVertices(
  raw: Float32Array,
  vBone: Int32Array,
  worlds: Float64Array[],
  boneIdentity: boolean[],
  I: Float64Array,
  position: Float32Array,
  normal: Float32Array,
): boolean {
  let nonUnit = false;
  const n = position.length / 3;
  for (let v = 0; v < n; v++) {
    const x = -raw[v * 6];
    const y = raw[v * 6 + 1];
    const z = raw[v * 6 + 2];
    const nx = -raw[v * 6 + 3];
    const ny = raw[v * 6 + 4];
    const nz = raw[v * 6 + 5];
    const m = vBone[v] >= 0 ? worlds[vBone[v]] : I;
    // An identity bone copies exactly (arithmetic would turn −0 into +0).
    const identity = vBone[v] >= 0 ? boneIdentity[vBone[v]] : true;
    let dx = nx;
    let dy = ny;
    let dz = nz;
    if (identity) {
      position[v * 3] = x;
      position[v * 3 + 1] = y;
      position[v * 3 + 2] = z;
    } else {
      position[v * 3] = m[0] * x + m[4] * y + m[8] * z + m[12];
      position[v * 3 + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
      position[v * 3 + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
      dx = m[0] * nx + m[4] * ny + m[8] * nz;
      dy = m[1] * nx + m[5] * ny + m[9] * nz;
      dz = m[2] * nx + m[6] * ny + m[10] * nz;
    }
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (len > 0) {
      normal[v * 3] = dx / len;
      normal[v * 3 + 1] = dy / len;
      normal[v * 3 + 2] = dz / len;
    } else normal[v * 3 + 1] = 1;
    // Keep raw normals when the glTF normal would not give the same bits back (FreeSO writes
    // normals of length 3; bones with a skeleton rotate them).
    if (
      !nonUnit &&
      (!identity ||
        !Object.is(-normal[v * 3], raw[v * 6 + 3]) ||
        !Object.is(normal[v * 3 + 1], raw[v * 6 + 4]) ||
        !Object.is(normal[v * 3 + 2], raw[v * 6 + 5]))
    ) {
      nonUnit = true;
    }
  }

  return nonUnit;
}

/** Real vertices whose position the float32 trip glTF → bone space would not give back bit for bit. */
function unfaithfulPositions(
  raw: Float32Array,
  vBone: Int32Array,
  worlds: Float64Array[],
  boneIdentity: boolean[],
  position: Float32Array,
  blendData: Uint32Array,
): number[] {
  const n = position.length / 3;
  const blendCount = blendData.length / 2;
  const listed: number[] = [];
  const back = new Float64Array(3);
  const inverses = new Map<number, Float64Array>();
  // Blend targets are restored from blend.realPositions instead.
  const target = new Uint8Array(n);
  for (let j = 0; j < blendCount; j++) target[blendData[j * 2 + 1]] = 1;
  for (let v = 0; v < n; v++) {
    const b = vBone[v];
    if (b < 0 || boneIdentity[b] || target[v]) continue;
    let m = inverses.get(b);
    if (!m) inverses.set(b, (m = inv(worlds[b])));
    transformPoint(m, position, v * 3, back, 0);
    if (
      !Object.is(Math.fround(back[0]), -raw[v * 6]) ||
      !Object.is(Math.fround(back[1]), raw[v * 6 + 1]) ||
      !Object.is(Math.fround(back[2]), raw[v * 6 + 2])
    )
      listed.push(v);
  }
  return listed;
}

/**
 * Blend vertices pull their real vertex toward the blend bone (positions blended in place), and
 * give it a second influence; `blendedReal` gets the unblended real positions. Returns how many
 * blend vertices found no free influence slot.
 */
function applyBlends(
  mesh: TsoMesh,
  vBone: Int32Array,
  bBone: Int32Array,
  worlds: Float64Array[],
  position: Float32Array,
  joints: Uint16Array,
  weights: Float32Array,
  blendedReal: Float32Array,
): number {
  const n = vBone.length;
  const blendCount = mesh.blendData.length / 2;
  const raw = mesh.realVertices;
  const src = new Float64Array(3);
  for (let v = 0; v < n; v++) {
    joints[v * 4] = Math.max(0, vBone[v]);
    weights[v * 4] = 1;
  }
  const blendPos = new Float64Array(3);
  let truncated = 0;
  for (let j = 0; j < blendCount; j++) {
    const target = mesh.blendData[j * 2 + 1];
    const w = Math.min(1, decodeQ15(mesh.blendData[j * 2]));
    for (let c = 0; c < 3; c++) blendedReal[j * 3 + c] = raw[target * 6 + c];
    const bone = bBone[j];
    if (bone < 0) continue;
    for (let c = 0; c < 3; c++) src[c] = mesh.blendVertices[j * 6 + c];
    src[0] = -src[0];
    transformPoint(worlds[bone], src, 0, blendPos, 0);
    for (let c = 0; c < 3; c++)
      position[target * 3 + c] = (1 - w) * position[target * 3 + c] + w * blendPos[c];
    // Scale the existing influences by (1 − w) and add the blend bone with w.
    let slot = -1;
    for (let k = 0; k < 4; k++) weights[target * 4 + k] *= 1 - w;
    for (let k = 0; k < 4 && slot < 0; k++)
      if (weights[target * 4 + k] > 0 && joints[target * 4 + k] === bone) slot = k;
    for (let k = 0; k < 4 && slot < 0; k++) if (weights[target * 4 + k] === 0) slot = k;
    if (slot < 0) {
      truncated++;
      continue;
    }
    joints[target * 4 + slot] = bone;
    weights[target * 4 + slot] += w;
  }
  return truncated;
}

/** Index of the first coordinate that is NaN or ±∞, or -1. */
function firstNonFinite(a: Float32Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] - a[i] !== 0) return i;
  return -1;
}

/** Triangles with the 2nd and 3rd index swapped (the X mirror reverses the winding). */
function flippedIndices(ix: Uint32Array, vertices: number): Uint16Array | Uint32Array {
  const out = vertices < 65536 ? new Uint16Array(ix.length) : new Uint32Array(ix.length);
  for (let i = 0; i < ix.length; i += 3) {
    out[i] = ix[i];
    out[i + 1] = ix[i + 2];
    out[i + 2] = ix[i + 1];
  }
  return out;
}

/** Columns `from…from+2` of the 6-float raw vertex records, packed as VEC3. */
function rawColumns(raw: Float32Array, from: number): Float32Array {
  const n = raw.length / 6;
  const out = new Float32Array(n * 3);
  for (let v = 0; v < n; v++) {
    out[v * 3] = raw[v * 6 + from];
    out[v * 3 + 1] = raw[v * 6 + from + 1];
    out[v * 3 + 2] = raw[v * 6 + from + 2];
  }
  return out;
}

function importAnimation(
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
  const gAnim = doc.createAnimation(anim.name || fileName);
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
  const rawR: number[][] = [];
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
          rawR.push([at, ...floatsToBits(anim.rotations.subarray(at * 4, at * 4 + 4))]);
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
  // Pool entries no channel carries are kept raw so export can rebuild the pools exactly.
  const rawT: number[][] = [];
  for (let k = 0; k < tCount; k++)
    if (!coveredT[k]) rawT.push([k, ...floatsToBits(anim.translations.subarray(k * 3, k * 3 + 3))]);
  for (let k = 0; k < rCount; k++)
    if (!coveredR[k]) rawR.push([k, ...floatsToBits(anim.rotations.subarray(k * 4, k * 4 + 4))]);
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
      rawT,
      rawR,
      trailing: Array.from(anim.trailing),
    },
  });
  if (!gAnim.listChannels().length) gAnim.dispose();
}
