/**
 * Mapping: Grimrock file model → glTF-Transform Document.
 */
import {
  FormatError,
  type FileSet,
  type ImportOptions,
  mainFile,
  stem,
  WarningCollector,
  type Warning,
} from '@gltf-legacy/core';
import {
  type Accessor,
  type Buffer,
  Document,
  type Material,
  type Node,
  type Primitive,
} from '@gltf-transform/core';
import { type AnimationFile, isAnimation, readAnimation } from './animation.js';
import {
  AXES,
  encodeFloat,
  encodeFloats,
  type Layout,
  type NonFinitePatch,
  packArrays,
  rawAttributeName,
  sameBytes,
} from './arrays.js';
import { mat4x3ToGltf, mat4x3ToTRS, mirrorQuats, mirrorVec3, UNIT_TOLERANCE } from './mat.js';
import {
  isModel,
  type MeshEntity,
  type ModelFile,
  readModel,
  VA_BITANGENT,
  VA_BONE_INDEX,
  VA_BONE_WEIGHT,
  VA_COLOR,
  VA_NORMAL,
  VA_POSITION,
  VA_TANGENT,
  VA_TEXCOORD0,
  VERTEX_ARRAY_NAMES,
  hasVertexValues,
  type VertexArray,
  vertexArrayValues,
} from './model.js';
import { convertVec3, flipWinding } from '@gltf-legacy/core';

/** Options of {@link importGrimrock}. */
export interface GrimrockImportOptions extends ImportOptions {
  /** Frames per second used when an animation file stores a non-positive rate. Default 30. */
  fps?: number;
}

export const GRIMROCK_IMPORT_DEFAULTS = { fps: 30 } as const;

/** Tolerance on |Σweights − 1| under which weights are kept bit for bit. */
const WEIGHT_TOLERANCE = 1e-5;

export interface ImportContext {
  doc: Document;
  buffer: Buffer;
  warnings: WarningCollector;
}

function floatAccessor(
  ctx: ImportContext,
  type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4',
  array: Float32Array,
): Accessor {
  return ctx.doc.createAccessor().setType(type).setArray(array).setBuffer(ctx.buffer);
}

const VEC_TYPES = ['SCALAR', 'SCALAR', 'VEC2', 'VEC3', 'VEC4'] as const;

/**
 * Imports a `.model` (with `.animation` companions) or a lone `.animation` into a glTF
 * Document.
 *
 * ```ts
 * const files = new Map([['skeleton_warrior_axe.model', modelBytes], ['skeleton_warrior_axe_walk.animation', animBytes]]);
 * const { document, warnings } = importGrimrock(files, { main: 'skeleton_warrior_axe.model' });
 * ```
 */
export function importGrimrock(
  files: FileSet,
  options: GrimrockImportOptions = {},
): { document: Document; warnings: Warning[] } {
  const [mainName, mainBytes] = mainFile(files, options);
  const warnings = new WarningCollector();
  const doc = new Document();
  const buffer = doc.createBuffer();
  const ctx: ImportContext = { doc, buffer, warnings };
  const scene = doc.createScene(stem(mainName));
  doc.getRoot().setDefaultScene(scene);
  const fallbackFps = Number(options.fps ?? GRIMROCK_IMPORT_DEFAULTS.fps) || 30;

  let nodes: Node[];
  if (isModel(mainBytes)) {
    const model = readModel(mainBytes, mainName);
    nodes = importModel(ctx, model, mainName);
    for (const n of nodes) if (!n.getParentNode()) scene.addChild(n);
  } else if (isAnimation(mainBytes)) {
    const anim = readAnimation(mainBytes, mainName);
    nodes = nodesForAnimation(ctx, anim);
    for (const n of nodes) scene.addChild(n);
    scene.setExtras({ grimrock: { animationOnly: true } });
    for (const other of files.keys()) {
      if (other !== mainName)
        warnings.warn(
          'COMPANION_IGNORED',
          `${other} ignored: an animation imported alone takes no companions`,
        );
    }
    importAnimation(ctx, anim, stem(mainName), nodes, fallbackFps);
    return { document: doc, warnings: warnings.list() };
  } else {
    throw new FormatError('not a Grimrock model (MDL1) or animation (ANIM) file', {
      code: 'BAD_MAGIC',
      file: mainName,
      offset: 0,
      field: 'magic',
    });
  }

  fixSkinRoots(ctx, scene);
  // Material Lua and textures in the set (an exported folder) are read through `resources`.
  const resource = /\.(?:lua|dds|tga|png|jpe?g)$/i;
  const companions = [...files.keys()].filter((n) => n !== mainName && !resource.test(n)).sort();
  for (const name of companions) {
    const bytes = files.get(name)!;
    if (!isAnimation(bytes)) {
      warnings.warn('COMPANION_IGNORED', `${name} is not a Grimrock .animation file; ignored`);
      continue;
    }
    const anim = readAnimation(bytes, name);
    importAnimation(ctx, anim, stem(name), nodes, fallbackFps);
  }
  if (!doc.getRoot().listAccessors().length) buffer.dispose();
  return { document: doc, warnings: warnings.list() };
}

/**
 * glTF needs the joints of a skin under one common root. When a model's bones are separate
 * top-level nodes (e.g. `log2_rc_lever.model`), they are grouped under one identity node marked
 * `extras.grimrock.synthetic` (export leaves it out again).
 */
function fixSkinRoots(ctx: ImportContext, scene: import('@gltf-transform/core').Scene): void {
  let group: Node | null = null;
  for (const skin of ctx.doc.getRoot().listSkins()) {
    const tops = new Set<Node>();
    for (const j of skin.listJoints()) {
      let t = j;
      for (let p = t.getParentNode(); p; p = p.getParentNode()) t = p;
      tops.add(t);
    }
    if (tops.size < 2) continue;
    if (!group) {
      group = ctx.doc.createNode('grimrock_skeleton_root').setExtras({ grimrock: { synthetic: true } });
      scene.addChild(group);
    }
    for (const t of tops) {
      if (t === group) continue;
      scene.removeChild(t);
      group.addChild(t);
    }
  }
}

/** One node per animation item, at the item's first key (for an animation imported alone). */
function nodesForAnimation(ctx: ImportContext, anim: AnimationFile): Node[] {
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
 * Builds the node tree, meshes and skins of a model into `ctx.doc`. Returns the nodes in file order.
 *
 * ```ts
 * const nodes = importModel(ctx, readModel(bytes), 'slug.model');
 * ```
 */
export function importModel(ctx: ImportContext, model: ModelFile, fileName: string): Node[] {
  const { doc } = ctx;
  doc
    .getRoot()
    .listScenes()[0]
    ?.setExtras({ grimrock: { modelVersion: model.version, modelName: stem(fileName) } });
  const nodes = model.nodes.map((n) => {
    const node = doc.createNode(n.name);
    const { t, r, s } = mat4x3ToTRS(n.localToParent);
    node.setTranslation(t).setRotation(r).setScale(s);
    node.setExtras({ grimrock: { matrix: encodeFloats(n.localToParent) } });
    return node;
  });
  model.nodes.forEach((n, i) => {
    if (n.parent >= 0) nodes[n.parent].addChild(nodes[i]);
  });
  const materials = new Map<string, Material>();
  model.nodes.forEach((n, i) => {
    if (!n.meshEntity) return;
    importMeshEntity(ctx, n.meshEntity, nodes, i, n.name, materials, fileName);
  });
  return nodes;
}

function importMeshEntity(
  ctx: ImportContext,
  e: MeshEntity,
  nodes: Node[],
  nodeIndex: number,
  name: string,
  materials: Map<string, Material>,
  fileName: string,
): void {
  const { doc, warnings } = ctx;
  const node = nodes[nodeIndex];
  const m = e.mesh;
  const n = m.numVertices;
  const layouts: Layout[] = m.arrays.map((a) => [a.dataType, a.dim, a.stride]);
  const entityExtras: Record<string, unknown> = {
    castShadow: e.castShadow,
    emissiveColor: encodeFloats(e.emissiveColor),
  };
  const meshExtras: Record<string, unknown> = {
    version: m.version,
    arrays: layouts,
    bounds: {
      center: encodeFloats(m.boundCenter),
      radius: encodeFloat(m.boundRadius),
      min: encodeFloats(m.boundMin),
      max: encodeFloats(m.boundMax),
    },
  };
  const nodeExtras = node.getExtras() as { grimrock: Record<string, unknown> };
  nodeExtras.grimrock.meshEntity = entityExtras;

  // Index range check.
  const bad = firstBadIndex(m.indices, n);
  if (bad >= 0) {
    const i = bad;
    const x = m.indices[i];
    throw new FormatError(`index ${x} is outside the ${n} vertices`, {
      code: 'BAD_INDEX',
      file: fileName,
      field: `nodes[${nodeIndex}].meshEntity.mesh.indices[${i}]`,
    });
  }
  if (n === 0 || m.indices.length < 3) {
    // Nothing glTF can draw: keep the (tiny) mesh header in extras.
    entityExtras.emptyMesh = {
      ...meshExtras,
      numVertices: n,
      indices: Array.from(m.indices),
      segments: m.segments,
    };
    warnings.warn('EMPTY_MESH', `mesh "${name}" has no triangles; kept in extras only`);
    return;
  }

  // Vertex arrays are decoded on use, each into a fresh array the mapping then owns (no
  // second copy): which slots hold values, then `comps` per slot.
  const present = m.arrays.map((a) => hasVertexValues(a, n));
  const comps = (slot: number, count: number, pad = 0): Float32Array | null => {
    const v = present[slot] ? vertexArrayValues(m.arrays[slot], n) : null;
    return v ? components(v, layouts[slot][1], n, count, pad) : null;
  };
  const attrs = new Map<string, Accessor>();
  const pos = comps(VA_POSITION, 3);
  // Vertex extent in file space (before sanitizing), to tell later whether geometry changed.
  const vmin = [Infinity, Infinity, Infinity];
  const vmax = [-Infinity, -Infinity, -Infinity];
  if (pos) extent(pos, n, Math.min(3, layouts[VA_POSITION][1]), vmin, vmax);
  if (!pos)
    throw new FormatError(`mesh "${name}" has no usable position array`, {
      code: 'NO_POSITIONS',
      file: fileName,
      field: `nodes[${nodeIndex}].meshEntity.mesh.arrays[0]`,
    });
  // Slots whose packing export would reproduce bit for bit without checking: float arrays in
  // the writer's own layout that import only mirrors (an exact sign flip) and did not clean up.
  const exact = new Set<number>();
  const plainFloat = (slot: number, dim: number) =>
    layouts[slot][0] === 3 && layouts[slot][1] === dim && layouts[slot][2] === dim * 4;
  if (sanitize(pos) === 0 && plainFloat(VA_POSITION, 3)) exact.add(VA_POSITION);
  convertVec3(AXES, pos);
  attrs.set('POSITION', floatAccessor(ctx, 'VEC3', pos));
  const nor = comps(VA_NORMAL, 3);
  if (nor) {
    convertVec3(AXES, nor);
    if (unitize(nor, n, 3, 0, 1, 0) === 0 && plainFloat(VA_NORMAL, 3)) exact.add(VA_NORMAL);
    attrs.set('NORMAL', floatAccessor(ctx, 'VEC3', nor));
  }
  const tan3 = comps(VA_TANGENT, 3);
  if (tan3) {
    const bit = comps(VA_BITANGENT, 3);
    const tan = components(tan3, 3, n, 4, 1);
    convertVec3(AXES, tan, 4);
    if (unitize(tan, n, 4, 1, 0, 0) === 0 && plainFloat(VA_TANGENT, 3)) exact.add(VA_TANGENT);
    if (bit) convertVec3(AXES, bit);
    tangentSigns(tan, nor, bit, n);
    attrs.set('TANGENT', floatAccessor(ctx, 'VEC4', tan));
  }
  if (present[VA_COLOR]) {
    const [dt, dim] = layouts[VA_COLOR];
    if (dt === 0 && dim === 4) {
      attrs.set(
        'COLOR_0',
        doc
          .createAccessor()
          .setType('VEC4')
          .setArray(vertexArrayValues(m.arrays[VA_COLOR], n) as Uint8Array)
          .setNormalized(true)
          .setBuffer(ctx.buffer),
      );
    } else {
      const c = comps(VA_COLOR, 4, dt === 0 ? 255 : 1)!;
      const s = dt === 0 ? 1 / 255 : dt === 1 ? 1 / 32767 : 1;
      for (let i = 0; i < c.length; i++)
        c[i] = Math.min(1, Math.max(0, Number.isFinite(c[i]) ? c[i] * s : 0));
      attrs.set('COLOR_0', floatAccessor(ctx, 'VEC4', c));
    }
  }
  for (let k = 0; k < 8; k++) {
    const uv = comps(VA_TEXCOORD0 + k, 2);
    if (!uv) continue;
    if (sanitize(uv) === 0 && plainFloat(VA_TEXCOORD0 + k, 2)) exact.add(VA_TEXCOORD0 + k);
    attrs.set(`TEXCOORD_${k}`, floatAccessor(ctx, 'VEC2', uv));
  }
  const skinned = e.bones.length > 0 && present[VA_BONE_INDEX] && present[VA_BONE_WEIGHT];
  if (skinned) {
    const bi = comps(VA_BONE_INDEX, 4)!;
    const bw = comps(VA_BONE_WEIGHT, 4)!;
    sanitize(bw);
    const ws = layouts[VA_BONE_WEIGHT][0];
    if (ws === 0 || ws === 1) for (let i = 0; i < bw.length; i++) bw[i] /= ws === 0 ? 255 : 32767;
    const joints = new Uint16Array(n * 4);
    const fixed = fixWeights(bi, bw, joints, n, e.bones.length);
    if (fixed)
      warnings.warn(
        'WEIGHTS_NORMALIZED',
        `mesh "${name}": ${fixed} vertex weight set(s) did not sum to 1 and were normalized (unweighted vertices bound to the first bone)`,
        1,
      );
    attrs.set('JOINTS_0', doc.createAccessor().setType('VEC4').setArray(joints).setBuffer(ctx.buffer));
    attrs.set('WEIGHTS_0', floatAccessor(ctx, 'VEC4', bw));
  }

  // Primitives: one per segment, sharing the vertex attributes.
  const mesh = doc.createMesh(name);
  const big = n > 65535;
  const prims: Primitive[] = [];
  m.segments.forEach((seg, si) => {
    let first = seg.firstIndex;
    let count = seg.count * 3;
    if (first < 0 || count <= 0 || first >= m.indices.length || seg.primitiveType !== 2) {
      warnings.warn(
        'SEGMENT_DROPPED',
        `mesh "${name}" segment ${si} ("${seg.material}") is empty, out of range or not a triangle list; dropped`,
      );
      return;
    }
    if (first + count > m.indices.length) {
      warnings.warn('SEGMENT_CLAMPED', `mesh "${name}" segment ${si} runs past the index array; clamped`);
      count = Math.floor((m.indices.length - first) / 3) * 3;
      first = Math.max(0, first);
    }
    if (count < 3) return;
    const src = m.indices.subarray(first, first + count);
    const idx = big ? new Uint32Array(src) : new Uint16Array(src);
    flipWinding(idx);
    const prim = doc
      .createPrimitive()
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(idx).setBuffer(ctx.buffer));
    for (const [k, a] of attrs) prim.setAttribute(k, a);
    let mat = materials.get(seg.material);
    if (!mat) {
      mat = doc.createMaterial(seg.material).setMetallicFactor(0).setRoughnessFactor(1);
      materials.set(seg.material, mat);
    }
    prim.setMaterial(mat);
    mesh.addPrimitive(prim);
    prims.push(prim);
  });
  if (!prims.length) {
    entityExtras.emptyMesh = { ...meshExtras, numVertices: 0, indices: [], segments: m.segments };
    warnings.warn('EMPTY_MESH', `mesh "${name}" has no drawable segment; kept in extras only`);
    return;
  }
  node.setMesh(mesh);

  if (e.bones.length) {
    const skin = doc.createSkin(name);
    const ibm = new Float32Array(16 * e.bones.length);
    e.bones.forEach((b, i) => {
      skin.addJoint(nodes[b.nodeIndex]);
      ibm.set(mat4x3ToGltf(b.invRestMatrix), i * 16);
    });
    skin.setInverseBindMatrices(floatAccessor(ctx, 'MAT4', ibm));
    if (skinned) node.setSkin(skin);
    else {
      entityExtras.unboundSkin = true;
      warnings.warn(
        'SKIN_WITHOUT_WEIGHTS',
        `mesh "${name}" has bones but no bone index/weight arrays; skin kept unattached`,
      );
    }
  }

  // Which slots the standard attributes cannot reproduce exactly: keep their raw file values.
  const nonFinite: Record<string, NonFinitePatch[]> = {};
  const prim0 = prims[0];
  const rawSlots = new Set<number>();
  packArrays(
    prim0,
    layouts,
    skinned,
    {},
    undefined,
    (slot) => !exact.has(slot),
    (slot, packed) => {
      const orig = m.arrays[slot];
      if (orig.stride > 0 && !sameBytes(packed.data, orig.data)) rawSlots.add(slot);
    },
  );
  for (const slot of rawSlots) {
    const orig = m.arrays[slot];
    const v = present[slot] ? vertexArrayValues(orig, n) : null;
    const dim = layouts[slot][1];
    if (!v || dim < 1 || dim > 4) {
      warnings.warn(
        'ARRAY_NOT_PRESERVED',
        `mesh "${name}" vertex array ${VERTEX_ARRAY_NAMES[slot]} has a layout glTF cannot keep exactly; export will rewrite it`,
      );
      continue;
    }
    const { raw, patches } = rawValues(v, orig, dim);
    if (patches.length) nonFinite[VERTEX_ARRAY_NAMES[slot]] = patches;
    const acc = floatAccessor(ctx, VEC_TYPES[dim], raw);
    for (const p of prims) p.setAttribute(rawAttributeName(slot), acc);
  }
  if (Object.keys(nonFinite).length) meshExtras.nonFinite = nonFinite;
  if (rawSlots.size)
    packArrays(
      prim0,
      layouts,
      skinned,
      nonFinite,
      undefined,
      (s) => rawSlots.has(s),
      (slot, packed) => {
        const orig = m.arrays[slot];
        if (orig.stride > 0 && !sameBytes(packed.data, orig.data)) {
          warnings.warn(
            'ARRAY_NOT_PRESERVED',
            `mesh "${name}" vertex array ${VERTEX_ARRAY_NAMES[slot]} will not round-trip byte for byte`,
          );
        }
      },
    );
  // Bounds: remember the vertex extent when the stored bounds are something else, so export
  // can tell whether the geometry changed.
  const b = { min: Array.from(m.boundMin), max: Array.from(m.boundMax) };
  if (!vmin.every((x, c) => x === b.min[c]) || !vmax.every((x, c) => x === b.max[c])) {
    meshExtras.vertexMin = encodeFloats(vmin);
    meshExtras.vertexMax = encodeFloats(vmax);
  }
  mesh.setExtras({ grimrock: meshExtras });
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
      `${name}: ${missing} item(s) name no node of the model (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}); ignored`,
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
    },
  });
  const timeCache = new Map<number, Accessor>();
  const times = (count: number): Accessor => {
    let a = timeCache.get(count);
    if (a) return a;
    let t: Float32Array;
    if (count === 1) t = Float32Array.of(0);
    else if (count === frames) {
      // One key per frame, then the last frame held until numFrames / fps.
      t = new Float32Array(count + 1);
      for (let k = 0; k <= count; k++) t[k] = k / fps;
    } else {
      const d = frames > 0 ? frames / fps : (count - 1) / fps;
      t = new Float32Array(count);
      for (let k = 0; k < count; k++) t[k] = (k * d) / (count - 1);
      for (let k = 1; k < count; k++) if (!(t[k] > t[k - 1])) t[k] = Math.fround(t[k - 1] + 1e-4);
    }
    a = doc.createAccessor().setType('SCALAR').setArray(t).setBuffer(ctx.buffer);
    timeCache.set(count, a);
    return a;
  };
  let normalized = 0;
  for (const it of matched) {
    const node = byName.get(it.nodeName)!;
    const channel = (path: 'translation' | 'rotation' | 'scale', data: Float32Array, size: 3 | 4) => {
      const count = data.length / size;
      if (count < 1) return;
      const hold = count > 1 && count === frames;
      const out = new Float32Array((count + (hold ? 1 : 0)) * size);
      out.set(data);
      for (let i = 0; i < out.length; i++) if (!Number.isFinite(out[i])) out[i] = 0;
      if (path === 'translation') mirrorVec3(out);
      if (path === 'rotation') {
        mirrorQuats(out);
        for (let k = 0; k < count; k++) {
          const o = k * 4;
          const l = Math.hypot(out[o], out[o + 1], out[o + 2], out[o + 3]);
          if (Math.abs(l - 1) > UNIT_TOLERANCE) {
            normalized++;
            if (l > 0) for (let c = 0; c < 4; c++) out[o + c] /= l;
            else out.set([0, 0, 0, 1], o);
          }
        }
      }
      if (hold) out.copyWithin(count * size, (count - 1) * size, count * size);
      const sampler = doc
        .createAnimationSampler()
        .setInput(times(count))
        .setOutput(
          doc
            .createAccessor()
            .setType(size === 4 ? 'VEC4' : 'VEC3')
            .setArray(out)
            .setBuffer(ctx.buffer),
        ); // LINEAR: glTF-Transform's default (each setter costs a graph event)
      animation.addSampler(sampler);
      animation.addChannel(
        doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler),
      );
    };
    channel('translation', it.positions, 3);
    channel('rotation', it.rotations, 4);
    channel('scale', it.scales, 3);
  }
  if (normalized)
    warnings.warn(
      'QUATERNION_NORMALIZED',
      `${name}: ${normalized} rotation key(s) were not unit quaternions and were normalized`,
      normalized,
    );
}

/** Index of the first index outside 0..n−1, or −1. */
function firstBadIndex(indices: Int32Array, n: number): number {
  for (let i = 0; i < indices.length; i++) {
    const x = indices[i];
    if (x < 0 || x >= n) return i;
  }
  return -1;
}

/** `count` components per vertex from values with `dim` per vertex (missing ones = `pad`). */
function components(v: ArrayLike<number>, dim: number, n: number, count: number, pad: number): Float32Array {
  // vertexArrayValues gives a fresh array of exactly n × dim values: taken as is.
  if (dim === count && v instanceof Float32Array && v.length === n * count) return v;
  if (dim === count && ArrayBuffer.isView(v) && v.length === n * count)
    return new Float32Array(v as Int32Array);
  const out = new Float32Array(n * count);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < count; c++) out[i * count + c] = c < dim ? v[i * dim + c] : pad;
  }
  return out;
}

/** Replaces NaN and ±Infinity by 0 (glTF accessors must be finite); returns how many. */
function sanitize(a: Float32Array): number {
  let changed = 0;
  for (let i = 0; i < a.length; i++)
    if (!Number.isFinite(a[i])) {
      a[i] = 0;
      changed++;
    }
  return changed;
}

/** Per-component min/max of packed 3-vectors (NaN ignored). */
function extent(pos: Float32Array, n: number, dims: number, vmin: number[], vmax: number[]): void {
  for (let c = 0; c < dims; c++) {
    let lo = vmin[c];
    let hi = vmax[c];
    for (let i = c; i < n * 3; i += 3) {
      const x = pos[i];
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    vmin[c] = lo;
    vmax[c] = hi;
  }
}

/**
 * Normalizes vectors further than UNIT_TOLERANCE from unit length (zero/NaN → fallback);
 * returns how many it changed.
 */
function unitize(a: Float32Array, n: number, stride: number, fx: number, fy: number, fz: number): number {
  let changed = 0;
  for (let i = 0; i < n; i++) {
    const o = i * stride;
    const l = Math.sqrt(a[o] * a[o] + a[o + 1] * a[o + 1] + a[o + 2] * a[o + 2]);
    if (Math.abs(l - 1) > UNIT_TOLERANCE || !Number.isFinite(l)) {
      changed++;
      if (l > 1e-12 && Number.isFinite(l)) {
        a[o] /= l;
        a[o + 1] /= l;
        a[o + 2] /= l;
      } else {
        a[o] = fx;
        a[o + 1] = fy;
        a[o + 2] = fz;
      }
    }
  }
  return changed;
}

/** glTF tangent w = sign(dot(cross(N, T), B)) per vertex (1 without normal or bitangent). */
function tangentSigns(
  tan: Float32Array,
  nor: Float32Array | null,
  bit: Float32Array | null,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    let w = 1;
    if (bit && nor) {
      const nx = nor[i * 3];
      const ny = nor[i * 3 + 1];
      const nz = nor[i * 3 + 2];
      const tx = tan[i * 4];
      const ty = tan[i * 4 + 1];
      const tz = tan[i * 4 + 2];
      const d =
        (ny * tz - nz * ty) * bit[i * 3] +
        (nz * tx - nx * tz) * bit[i * 3 + 1] +
        (nx * ty - ny * tx) * bit[i * 3 + 2];
      if (d < 0) w = -1;
    }
    tan[i * 4 + 3] = w;
  }
}

/**
 * Bone indices → JOINTS_0 and weights made valid for glTF in place: negative weights and
 * influences on missing bones dropped, sums ≠ 1 normalized, unweighted vertices bound to bone 0.
 * Returns how many vertices were changed.
 */
function fixWeights(bi: Float32Array, bw: Float32Array, joints: Uint16Array, n: number, nb: number): number {
  let fixed = 0;
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let c = 0; c < 4; c++) {
      const j = bi[i * 4 + c];
      let w = bw[i * 4 + c];
      if (w < 0) w = 0;
      if (!(j >= 0 && j < nb)) {
        w = 0;
        joints[i * 4 + c] = 0;
      } else joints[i * 4 + c] = j;
      bw[i * 4 + c] = w;
      sum += w;
    }
    if (Math.abs(sum - 1) > WEIGHT_TOLERANCE) {
      fixed++;
      if (sum > 0) for (let c = 0; c < 4; c++) bw[i * 4 + c] /= sum;
      else {
        joints.fill(0, i * 4, i * 4 + 4);
        bw.fill(0, i * 4, i * 4 + 4);
        bw[i * 4] = 1;
      }
    }
  }
  return fixed;
}

/**
 * File values as floats for a `_GRIMROCK_*` attribute. Values a float accessor cannot hold
 * (NaN/Infinity, int32 beyond 2^24) are 0 there and returned as bit patterns read from the file
 * bytes (NaN payloads do not survive a trip through numbers).
 */
function rawValues(
  v: ArrayLike<number>, // a fresh array rawValues may take over
  orig: VertexArray,
  dim: number,
): { raw: Float32Array; patches: NonFinitePatch[] } {
  const patches: NonFinitePatch[] = [];
  const four = orig.dataType === 2 || orig.dataType === 3;
  const dv = new DataView(orig.data.buffer, orig.data.byteOffset, orig.data.byteLength);
  const patch = (i: number) =>
    patches.push([i, dv.getUint32(Math.floor(i / dim) * orig.stride + (i % dim) * 4, true)]);
  if (v instanceof Float32Array) {
    // A fresh decode (vertexArrayValues): every float32 fits; only non-finite values change.
    for (let i = 0; i < v.length; i++)
      if (!Number.isFinite(v[i])) {
        patch(i);
        v[i] = 0;
      }
    return { raw: v, patches };
  }
  const raw = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (Number.isFinite(x) && Math.fround(x) === x) raw[i] = x;
    else if (four) patch(i);
  }
  return { raw, patches };
}
