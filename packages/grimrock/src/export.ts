/**
 * Mapping: glTF-Transform Document → Grimrock file model (`.model` + `.animation` files).
 */
import {
  accessorFloats,
  ExportError,
  type ExportOptions,
  type FileSet,
  flipWinding,
  readSampler,
  sampleAt,
  WarningCollector,
  type Warning,
  assertNodeTrees,
} from '@gltf-legacy/core';
import type { Animation, Document, Material, Mesh, Node, Primitive, Scene } from '@gltf-transform/core';
import { type AnimationFile, type AnimationItem, writeAnimation } from './animation.js';
import {
  decodeFloat,
  decodeFloats,
  defaultLayout,
  elementCount,
  type Layout,
  type NonFinitePatch,
  packArrays,
  type PackStats,
} from './arrays.js';
import { gltfToMat4x3, mat4x3ToTRS, mirrorQuats, mirrorVec3, trsToMat4x3, UNIT_TOLERANCE } from './mat.js';
import {
  type Bone,
  type MeshData,
  type MeshEntity,
  type ModelFile,
  type ModelNode,
  type Segment,
  VA_BITANGENT,
  VA_BONE_INDEX,
  VA_BONE_WEIGHT,
  VA_COLOR,
  VA_NORMAL,
  VA_POSITION,
  VA_TANGENT,
  VA_TEXCOORD0,
  VERTEX_ARRAY_COUNT,
  type VertexArray,
  writeModel,
} from './model.js';

/** Options of {@link exportGrimrock}. */
export interface GrimrockExportOptions extends ExportOptions {
  /** Base name of the written files (`NAME.model`, `NAME_walk.animation`). */
  name?: string;
  /** Frames per second of written animations (default: the imported rate, else 30). */
  fps?: number;
  /** `log1` writes version-1 animations (Grimrock 1), `log2` version 2. Default: as imported, else `log1`. */
  variant?: 'log1' | 'log2';
}

export const GRIMROCK_EXPORT_DEFAULTS = { name: 'model', fps: 30, variant: 'log1' } as const;

interface GrimrockNodeExtras {
  matrix?: unknown;
  synthetic?: boolean;
  meshEntity?: { castShadow?: number; emissiveColor?: unknown; emptyMesh?: EmptyMeshExtras };
}

interface MeshExtras {
  version?: number;
  arrays?: Layout[];
  bounds?: { center: unknown; radius: unknown; min: unknown; max: unknown };
  vertexMin?: unknown;
  vertexMax?: unknown;
  nonFinite?: Record<string, NonFinitePatch[]>;
}

interface EmptyMeshExtras extends MeshExtras {
  numVertices: number;
  indices: number[];
  segments: Segment[];
}

function gx<T>(o: { getExtras(): Record<string, unknown> }): T | undefined {
  const e = o.getExtras()?.grimrock;
  return e && typeof e === 'object' ? (e as T) : undefined;
}

function close(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++)
    if (!(Math.abs(a[i] - b[i]) <= 1e-6 * Math.max(1, Math.abs(b[i])))) return false;
  return true;
}

function safeName(s: string): string {
  return s.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_');
}

/** What {@link exportGrimrock} returns. */
export interface GrimrockExportResult {
  files: FileSet;
  warnings: Warning[];
  /**
   * The glTF materials the written `.model` names, each once, in the order its segments first name
   * them (`null`: a primitive without a material, written as `default`). This is the order in
   * which import creates the materials again; a material whose primitives were all dropped (no
   * triangle, not in the exported scene) is not listed.
   */
  materials: (Material | null)[];
}

/**
 * Exports a Document as a Grimrock `.model` plus one `.animation` per glTF animation.
 *
 * ```ts
 * const { files, warnings, materials } = exportGrimrock(document, { name: 'hero', fps: 30, variant: 'log2' });
 * // files: hero.model, hero_walk.animation, …; materials: the glTF materials hero.model names
 * ```
 */
export function exportGrimrock(doc: Document, options: GrimrockExportOptions = {}): GrimrockExportResult {
  assertNodeTrees(doc);
  const warnings = new WarningCollector();
  const root = doc.getRoot();
  const name = safeName(options.name ?? GRIMROCK_EXPORT_DEFAULTS.name);
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (root.listScenes().length > 1)
    warnings.warn(
      'SCENE_DROPPED',
      `only scene "${scene?.getName()}" is exported; ${root.listScenes().length - 1} other scene(s) dropped`,
    );
  const sceneExtras = scene
    ? gx<{ modelName?: string; modelVersion?: number; animationOnly?: boolean }>(scene)
    : undefined;
  const files: FileSet = new Map();
  const used = new Set<Material | null>();

  const nodeList = scene ? orderNodes(doc, scene, !!sceneExtras) : [];
  if (!nodeList.length && !root.listAnimations().length) {
    throw new ExportError('NOTHING_TO_EXPORT', 'the glTF document has no scene nodes and no animations');
  }
  const entries = nodeList; // in file order; entries[i].node === null for the synthesized root
  const indexOf = new Map<Node, number>();
  entries.forEach((e, i) => {
    if (e.node) indexOf.set(e.node, i);
  });

  // Animation items address nodes by name: animated nodes get unique names.
  const animated = new Set<Node>();
  for (const a of root.listAnimations())
    for (const c of a.listChannels()) if (c.getTargetNode()) animated.add(c.getTargetNode()!);
  const baseNames = entries.map((e, i) => (e.node ? e.node.getName() || `node_${i}` : 'RootNode'));
  const taken = new Set(baseNames);
  const seen = new Set<string>();
  const names = entries.map((e, i) => {
    let n = baseNames[i];
    const dup = seen.has(n);
    seen.add(n);
    if (dup && e.node && animated.has(e.node)) {
      let k = 2;
      while (taken.has(`${n}_${k}`)) k++;
      warnings.warn(
        'NODE_RENAMED',
        `animated node "${n}" shares its name with another node; renamed to "${n}_${k}" (Grimrock animations address nodes by name)`,
      );
      n = `${n}_${k}`;
      taken.add(n);
    }
    return n;
  });

  if (!sceneExtras?.animationOnly) {
    const model: ModelFile = { magic: 'MDL1', version: sceneExtras?.modelVersion ?? 2, nodes: [] };
    entries.forEach((e, i) => {
      const node = e.node;
      const mn: ModelNode = { name: names[i], localToParent: identity4x3(), parent: e.parent, type: -1 };
      if (node) {
        mn.localToParent = nodeMatrix(node);
        if (node.getCamera())
          warnings.warn(
            'CAMERA_DROPPED',
            `camera of node "${names[i]}" dropped (Grimrock models have no cameras)`,
          );
        if (node.getExtension('KHR_lights_punctual'))
          warnings.warn('LIGHT_DROPPED', `light of node "${names[i]}" dropped`);
        const entity = exportMeshEntity(node, indexOf, warnings, names[i], used);
        if (entity) {
          mn.type = 0;
          mn.meshEntity = entity;
        }
      }
      model.nodes.push(mn);
    });
    const textures = root.listTextures().length;
    if (textures) {
      warnings.warn(
        'TEXTURE_DROPPED',
        'textures dropped: Grimrock materials are defined in Lua scripts (defineMaterial); only material names are written',
        textures,
      );
    }
    files.set(`${name}.model`, writeModel(model));
  }

  // Animations.
  const fpsOpt = options.fps === undefined ? undefined : Number(options.fps);
  if (fpsOpt !== undefined && !(fpsOpt > 0 && Number.isFinite(fpsOpt)))
    throw new ExportError('BAD_OPTION', `fps must be a positive number, got ${options.fps}`);
  const variant = options.variant === undefined ? undefined : String(options.variant);
  if (variant !== undefined && variant !== 'log1' && variant !== 'log2')
    throw new ExportError('BAD_OPTION', `variant must be "log1" or "log2", got "${variant}"`);
  const nodeName = new Map<Node, string>();
  entries.forEach((e, i) => {
    if (e.node) nodeName.set(e.node, names[i]);
  });
  const modelName = sceneExtras?.modelName;
  const anims = root.listAnimations();
  anims.forEach((anim, ai) => {
    const file = exportAnimation(anim, nodeName, warnings, fpsOpt, variant);
    if (!file) return;
    const an = anim.getName();
    let fileName: string;
    if (sceneExtras?.animationOnly && anims.length === 1)
      fileName = options.name ? name : safeName(an || name);
    else if (modelName && an.startsWith(modelName) && an.length > modelName.length)
      fileName = name + safeName(an.slice(modelName.length));
    else fileName = `${name}_${safeName(an || `animation${ai}`)}`;
    let unique = `${fileName}.animation`;
    for (let k = 2; files.has(unique); k++) unique = `${fileName}_${k}.animation`;
    files.set(unique, writeAnimation(file));
  });
  return { files, warnings: warnings.list(), materials: [...used] };
}

interface Entry {
  node: Node | null;
  parent: number;
}

/**
 * File order of the nodes: for a document imported from Grimrock, the document's node order
 * (parents first) without synthetic helper nodes; otherwise a synthesized `RootNode` followed
 * by a depth-first walk of the scene.
 */
function orderNodes(doc: Document, scene: Scene, fromGrimrock: boolean): Entry[] {
  const inScene = new Set<Node>();
  scene.traverse((n) => {
    inScene.add(n);
  });
  const synthetic = (n: Node) => !!gx<GrimrockNodeExtras>(n)?.synthetic;
  const parentOf = (n: Node): Node | null => {
    let p = n.getParentNode();
    while (p && synthetic(p)) p = p.getParentNode();
    return p;
  };
  if (fromGrimrock) {
    const list = doc
      .getRoot()
      .listNodes()
      .filter((n) => inScene.has(n) && !synthetic(n));
    const idx = new Map(list.map((n, i) => [n, i]));
    const ok = list.every((n, i) => {
      const p = parentOf(n);
      return !p || (idx.get(p) ?? i) < i;
    });
    const ordered = ok ? list : dfs(scene.listChildren(), synthetic);
    const oi = new Map(ordered.map((n, i) => [n, i]));
    return ordered.map((n) => {
      const p = parentOf(n);
      return { node: n, parent: p ? (oi.get(p) ?? -1) : -1 };
    });
  }
  const ordered = dfs(scene.listChildren(), synthetic);
  const oi = new Map(ordered.map((n, i) => [n, i + 1]));
  return [
    { node: null, parent: -1 },
    ...ordered.map((n) => {
      const p = parentOf(n);
      return { node: n, parent: p ? (oi.get(p) ?? 0) : 0 };
    }),
  ];
}

function dfs(roots: Node[], skip: (n: Node) => boolean): Node[] {
  const out: Node[] = [];
  const seen = new Set<Node>();
  const visit = (n: Node) => {
    if (seen.has(n)) return;
    seen.add(n);
    if (!skip(n)) out.push(n);
    for (const c of n.listChildren()) visit(c);
  };
  for (const r of roots) visit(r);
  return out;
}

function identity4x3(): Float32Array {
  return Float32Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
}

/** The node's Mat4x3: the imported matrix when the TRS still matches it, else composed from TRS. */
function nodeMatrix(node: Node): Float32Array {
  const raw = decodeFloats(gx<GrimrockNodeExtras>(node)?.matrix, 12);
  const t = node.getTranslation();
  const r = node.getRotation();
  const s = node.getScale();
  if (raw) {
    const d = mat4x3ToTRS(raw);
    if (close(t, d.t) && close(r, d.r) && close(s, d.s)) return Float32Array.from(raw);
  }
  return trsToMat4x3(t, r, s);
}

function exportMeshEntity(
  node: Node,
  indexOf: Map<Node, number>,
  warnings: WarningCollector,
  nodeName: string,
  used: Set<Material | null>,
): MeshEntity | undefined {
  const ex = gx<GrimrockNodeExtras>(node)?.meshEntity;
  const mesh = node.getMesh();
  const emissiveColor = Float32Array.from(decodeFloats(ex?.emissiveColor, 3) ?? [0, 0, 0]);
  const castShadow = typeof ex?.castShadow === 'number' ? ex.castShadow : 1;
  if (!mesh) {
    const em = ex?.emptyMesh;
    if (!em) return undefined;
    return { mesh: emptyMeshData(em), bones: [], emissiveColor, castShadow };
  }
  const data = exportMesh(mesh, node, warnings, used);
  if (!data) return undefined;
  const bones: Bone[] = [];
  const skin = node.getSkin();
  if (skin && data.skinned) {
    const joints = skin.listJoints();
    const ibm = skin.getInverseBindMatrices();
    const m = ibm ? accessorFloats(ibm) : null;
    joints.forEach((j, i) => {
      const idx = indexOf.get(j);
      if (idx === undefined) {
        throw new ExportError(
          'JOINT_NOT_EXPORTED',
          `joint "${j.getName()}" of the skin of "${nodeName}" is not in the exported scene`,
        );
      }
      const g =
        m && m.length >= (i + 1) * 16
          ? m.subarray(i * 16, i * 16 + 16)
          : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
      bones.push({ nodeIndex: idx, invRestMatrix: gltfToMat4x3(g) });
    });
  }
  return { mesh: data.mesh, bones, emissiveColor, castShadow };
}

function emptyMeshData(em: EmptyMeshExtras): MeshData {
  const layouts = em.arrays ?? [];
  const b = em.bounds && {
    center: decodeFloats(em.bounds.center, 3),
    radius: decodeFloat(em.bounds.radius),
    min: decodeFloats(em.bounds.min, 3),
    max: decodeFloats(em.bounds.max, 3),
  };
  return {
    magic: 'MESH',
    version: em.version ?? 2,
    numVertices: em.numVertices ?? 0,
    arrays: Array.from({ length: VERTEX_ARRAY_COUNT }, (_, i) => {
      const l = layouts[i] ?? [0, 0, 0];
      return {
        dataType: l[0],
        dim: l[1],
        stride: (em.numVertices ?? 0) > 0 ? 0 : l[2],
        data: new Uint8Array(0),
      };
    }),
    indices: Int32Array.from(em.indices ?? []),
    segments: (em.segments ?? []).map((s) => ({ ...s })),
    boundCenter: Float32Array.from(b?.center ?? [0, 0, 0]),
    boundRadius: b?.radius ?? 0,
    boundMin: Float32Array.from(b?.min ?? [0, 0, 0]),
    boundMax: Float32Array.from(b?.max ?? [0, 0, 0]),
  };
}

const TRIANGLES = 4;

/**
 * Packs a glTF mesh (all triangle primitives) into one MeshData with a segment per primitive;
 * adds the material of each segment written to `used`.
 */
function exportMesh(
  mesh: Mesh,
  node: Node,
  warnings: WarningCollector,
  used: Set<Material | null>,
): { mesh: MeshData; skinned: boolean } | null {
  const ex = gx<MeshExtras>(mesh);
  const prims = mesh.listPrimitives().filter((p) => {
    const mode = p.getMode();
    if (mode === TRIANGLES || mode === 5 || mode === 6) {
      if (!p.getAttribute('POSITION')) {
        warnings.warn(
          'PRIMITIVE_DROPPED',
          `a primitive of mesh "${mesh.getName()}" has no POSITION; dropped`,
        );
        return false;
      }
      return true;
    }
    warnings.warn(
      'PRIMITIVE_DROPPED',
      `mesh "${mesh.getName()}" has a points/lines primitive; Grimrock meshes are triangle lists, dropped`,
    );
    return false;
  });
  if (!prims.length) return null;
  const skinned =
    !!node.getSkin() && prims.some((p) => p.getAttribute('JOINTS_0') && p.getAttribute('WEIGHTS_0'));
  for (const p of prims) {
    if (p.listTargets().length)
      warnings.warn(
        'MORPH_TARGETS_DROPPED',
        `morph targets of mesh "${mesh.getName()}" dropped (Grimrock has none)`,
      );
    for (const sem of p.listSemantics()) {
      const known =
        /^(POSITION|NORMAL|TANGENT|COLOR_0|JOINTS_[0-9]+|WEIGHTS_[0-9]+)$/.test(sem) ||
        /^TEXCOORD_[0-7]$/.test(sem) ||
        sem.startsWith('_GRIMROCK_');
      if (!known) {
        warnings.warn(
          'ATTRIBUTE_DROPPED',
          `attribute ${sem} of mesh "${mesh.getName()}" has no Grimrock vertex array; dropped`,
        );
        continue;
      }
      // A corrupt accessor (count or bufferView not matching) can hold a partial element: the
      // vertex count would be fractional. Refuse it rather than guess which vertices it meant.
      const a = p.getAttribute(sem)!;
      const len = a.getArray()?.length ?? 0;
      if (len % a.getElementSize() !== 0)
        throw new ExportError(
          'BAD_ACCESSOR',
          `attribute ${sem} of mesh "${mesh.getName()}" holds ${len} values, not a whole number of ${a.getType()} elements (its count does not match its data)`,
        );
    }
  }
  // Layouts: as imported, else the defaults for what the primitives carry.
  let layouts: Layout[];
  if (Array.isArray(ex?.arrays) && ex.arrays.length === VERTEX_ARRAY_COUNT)
    layouts = ex.arrays.map((l) => [l[0], l[1], l[2]] as Layout);
  else {
    const has = (s: string) => prims.some((p) => !!p.getAttribute(s));
    layouts = Array.from({ length: VERTEX_ARRAY_COUNT }, () => [0, 0, 0] as Layout);
    const use = (slot: number) => {
      layouts[slot] = defaultLayout(slot);
    };
    use(VA_POSITION);
    if (has('NORMAL')) use(VA_NORMAL);
    if (has('TANGENT') && has('NORMAL')) {
      use(VA_TANGENT);
      use(VA_BITANGENT);
    }
    if (has('COLOR_0')) use(VA_COLOR);
    for (let k = 0; k < 8; k++) if (has(`TEXCOORD_${k}`)) use(VA_TEXCOORD0 + k);
    if (skinned) {
      use(VA_BONE_INDEX);
      use(VA_BONE_WEIGHT);
    }
  }
  // Vertex sets: primitives sharing all their attribute accessors share one set.
  const sameAttrs = (a: Primitive, b: Primitive) => {
    const sa = a.listSemantics();
    const sb = b.listSemantics();
    return sa.length === sb.length && sa.every((s) => a.getAttribute(s) === b.getAttribute(s));
  };
  const stats: PackStats = { truncated: 0, renormalized: 0 };
  const sets: { prim: Primitive; base: number; arrays: VertexArray[]; n: number }[] = [];
  const setOf = new Map<Primitive, { base: number }>();
  let numVertices = 0;
  for (const p of prims) {
    const shared = sets.find((s) => sameAttrs(s.prim, p));
    if (shared) {
      setOf.set(p, shared);
      continue;
    }
    const n = elementCount(p.getAttribute('POSITION'));
    const arrays = packArrays(p, layouts, skinned, ex?.nonFinite ?? {}, stats);
    const s = { prim: p, base: numVertices, arrays, n };
    sets.push(s);
    setOf.set(p, s);
    numVertices += n;
  }
  if (stats.truncated)
    warnings.warn(
      'WEIGHTS_TRUNCATED',
      `mesh "${mesh.getName()}": vertices with more than 4 influences kept the 4 largest (renormalized)`,
      stats.truncated,
    );
  if (stats.renormalized)
    warnings.warn(
      'WEIGHTS_RENORMALIZED',
      `mesh "${mesh.getName()}": vertex weights renormalized to sum to 1`,
      stats.renormalized,
    );
  let arrays: VertexArray[] = layouts.map((l, slot) => {
    if (sets.length === 1) return sets[0].arrays[slot];
    const data = new Uint8Array(numVertices * Math.max(0, l[2]));
    let o = 0;
    for (const s of sets) {
      data.set(s.arrays[slot].data, o);
      o += s.arrays[slot].data.byteLength;
    }
    return { dataType: l[0], dim: l[1], stride: l[2], data };
  });
  // Indices and segments: validated, then written straight into the one index array.
  const segments: Segment[] = [];
  const plan: { arr: ArrayLike<number> | null; len: number; mode: number; base: number; at: number }[] = [];
  let total = 0;
  for (const p of prims) {
    const base = setOf.get(p)!.base;
    const n = elementCount(p.getAttribute('POSITION'));
    const arr = indexArray(p, mesh);
    const len = arr ? arr.length : n;
    // glTF requires every index < the vertex count; a file with one outside would not import back.
    // (indexArray gives unsigned integers only: no negative or fractional index gets here.)
    if (arr)
      for (let i = 0; i < len; i++)
        if (!(arr[i] < n))
          throw new ExportError(
            'BAD_INDEX',
            `${primitiveLabel(mesh, p)}: index ${arr[i]} (indices[${i}]) is outside the primitive's ${n} vertices`,
          );
    const mode = p.getMode();
    if (mode === TRIANGLES && len % 3)
      warnings.warn(
        'INDICES_TRUNCATED',
        `${primitiveLabel(mesh, p)}: ${len} indices are not a whole number of triangles; the last ${len % 3} dropped`,
      );
    const triangles = mode === TRIANGLES ? Math.floor(len / 3) : Math.max(0, len - 2);
    if (!triangles) {
      // Import drops empty segments: writing one would not survive import → export.
      warnings.warn(
        'PRIMITIVE_DROPPED',
        `a primitive of mesh "${mesh.getName()}" draws no triangle; dropped`,
      );
      continue;
    }
    const mat = p.getMaterial();
    used.add(mat);
    segments.push({
      material: mat?.getName() || 'default',
      primitiveType: 2,
      firstIndex: total,
      count: triangles,
    });
    plan.push({ arr, len, mode, base, at: total });
    total += triangles * 3;
  }
  if (total === 0 && numVertices > 0) {
    // No triangles: import keeps such a mesh as a header in extras only (no vertex data), so
    // write it that way now — otherwise the vertices would be lost on the next round trip.
    warnings.warn(
      'EMPTY_MESH',
      `mesh "${mesh.getName()}" has no triangles; its ${numVertices} vertices are not written`,
    );
    numVertices = 0;
    arrays = arrays.map((a) => ({ ...a, data: new Uint8Array(0) }));
  }
  const indices = new Int32Array(total);
  for (const t of plan) {
    const end = writeTriangles(indices, t.at, t.arr, t.len, t.mode, t.base);
    flipWinding(indices.subarray(t.at, end));
  }
  // Bounds: the imported ones while the vertex extent is unchanged, else recomputed.
  const pl = layouts[VA_POSITION];
  const pdv = new DataView(
    arrays[VA_POSITION].data.buffer,
    arrays[VA_POSITION].data.byteOffset,
    arrays[VA_POSITION].data.byteLength,
  );
  const vmin = [Infinity, Infinity, Infinity];
  const vmax = [-Infinity, -Infinity, -Infinity];
  positionsOf(pdv, numVertices, pl, vmin, vmax);
  const b = ex?.bounds && {
    center: decodeFloats(ex.bounds.center, 3),
    radius: decodeFloat(ex.bounds.radius),
    min: decodeFloats(ex.bounds.min, 3),
    max: decodeFloats(ex.bounds.max, 3),
  };
  const fmin = decodeFloats(ex?.vertexMin, 3) ?? b?.min;
  const fmax = decodeFloats(ex?.vertexMax, 3) ?? b?.max;
  let boundCenter: Float32Array;
  let boundRadius: number;
  let boundMin: Float32Array;
  let boundMax: Float32Array;
  if (
    b?.center &&
    b.min &&
    b.max &&
    b.radius !== undefined &&
    fmin &&
    fmax &&
    vmin.every((x, c) => Math.fround(x) === fmin[c]) &&
    vmax.every((x, c) => Math.fround(x) === fmax[c])
  ) {
    boundCenter = Float32Array.from(b.center);
    boundRadius = b.radius;
    boundMin = Float32Array.from(b.min);
    boundMax = Float32Array.from(b.max);
  } else {
    for (let c = 0; c < 3; c++) {
      if (!Number.isFinite(vmin[c])) vmin[c] = 0;
      if (!Number.isFinite(vmax[c])) vmax[c] = 0;
    }
    boundMin = Float32Array.from(vmin);
    boundMax = Float32Array.from(vmax);
    boundCenter = Float32Array.from([0, 1, 2].map((c) => (vmin[c] + vmax[c]) / 2));
    boundRadius = radius(positionReader(pdv, pl), numVertices, boundCenter);
  }
  return {
    skinned: skinned && total > 0, // an empty mesh imports without bones
    mesh: {
      magic: 'MESH',
      version: ex?.version ?? 2,
      numVertices,
      arrays,
      indices,
      segments,
      boundCenter,
      boundRadius,
      boundMin,
      boundMax,
    },
  };
}

/** Frames per animation beyond which export refuses (a wrong fps or a corrupt duration). */
const MAX_FRAMES = 1_000_000;
/** Keys (frames × nodes) beyond which export refuses to upsample sparse keys over 100-fold. */
const MAX_RESAMPLED_KEYS = 500_000;

/** True when every key equals the first (within float32 noise: resampled data is lossy anyway). */
function constant(a: Float32Array, size: number): boolean {
  for (let i = size; i < a.length; i++) {
    const b = a[i % size];
    if (!(Math.abs(a[i] - b) <= 1e-6 * Math.max(1, Math.abs(b)))) return false;
  }
  return true;
}

interface AnimExtras {
  version?: number;
  name?: string;
  framesPerSecond?: unknown;
  numFrames?: number;
}

/** Converts one glTF animation to an animation file, resampling to a fixed frame rate if needed. */
function exportAnimation(
  anim: Animation,
  nodeName: Map<Node, string>,
  warnings: WarningCollector,
  fpsOpt: number | undefined,
  variant: string | undefined,
): AnimationFile | null {
  const ex = gx<AnimExtras>(anim);
  const exFpsRaw = decodeFloat(ex?.framesPerSecond);
  const exFps = exFpsRaw !== undefined && exFpsRaw > 0 ? exFpsRaw : undefined;
  const exFrames = typeof ex?.numFrames === 'number' ? ex.numFrames : undefined;
  const fps = fpsOpt ?? exFps ?? GRIMROCK_EXPORT_DEFAULTS.fps;
  const version = variant === 'log2' ? 2 : variant === 'log1' ? 1 : ex?.version === 2 ? 2 : 1;
  // Channels grouped by target node, in first-appearance order.
  const groups = new Map<
    Node,
    Partial<Record<'translation' | 'rotation' | 'scale', ReturnType<typeof readSampler>>>
  >();
  let duration = 0;
  for (const ch of anim.listChannels()) {
    const target = ch.getTargetNode();
    const path = ch.getTargetPath();
    const sampler = ch.getSampler();
    if (!target || !sampler || !nodeName.has(target)) {
      warnings.warn(
        'ANIMATION_CHANNEL_DROPPED',
        `animation "${anim.getName()}": a channel targets no exported node; dropped`,
      );
      continue;
    }
    if (path !== 'translation' && path !== 'rotation' && path !== 'scale') {
      warnings.warn(
        'ANIMATION_CHANNEL_DROPPED',
        `animation "${anim.getName()}": ${path} channels (morph weights) have no Grimrock equivalent; dropped`,
      );
      continue;
    }
    const data = readSampler(sampler, path === 'rotation', path === 'rotation' ? 4 : 3);
    if (data.times.length) duration = Math.max(duration, data.times[data.times.length - 1]);
    let g = groups.get(target);
    if (!g) groups.set(target, (g = {}));
    g[path] = data;
  }
  if (!groups.size) {
    warnings.warn(
      'ANIMATION_SKIPPED',
      `animation "${anim.getName()}" animates no exported node; not written`,
    );
    return null;
  }
  let numFrames: number;
  // The imported frame count holds while the clip still lasts what it did (numFrames / fps with
  // the held last frame, or one key per frame without it, or constant channels only).
  const fits =
    exFps !== undefined &&
    exFrames !== undefined &&
    (duration === 0 ||
      Math.abs(duration * exFps - exFrames) < 1e-3 ||
      Math.abs(duration * exFps - (exFrames - 1)) < 1e-3 ||
      // Long clips: import stores float32 times, whose error outgrows the 1e-3 frame tolerance.
      duration === Math.fround(exFrames / exFps) ||
      duration === Math.fround((exFrames - 1) / exFps));
  if (fits && exFps !== undefined && exFrames !== undefined) {
    numFrames = fps === exFps ? exFrames : Math.max(1, Math.round((exFrames / exFps) * fps));
  } else numFrames = Math.max(1, Math.round(duration * fps) + 1);
  if (!(numFrames <= MAX_FRAMES)) {
    throw new ExportError(
      'TOO_MANY_FRAMES',
      `animation "${anim.getName()}" would need ${numFrames} frames at ${fps} fps (limit ${MAX_FRAMES})`,
    );
  }
  const keyCount = Math.max(1, numFrames);
  // A few keys spread over a very long clip (e.g. a corrupt frame count) would be resampled to
  // millions of keys: slow (about 9 µs a key) and a file hundreds of MB large. Refuse that.
  let sourceKeys = 1;
  for (const g of groups.values())
    for (const s of Object.values(g)) if (s) sourceKeys = Math.max(sourceKeys, s.times.length);
  if (groups.size * keyCount > MAX_RESAMPLED_KEYS && keyCount > 100 * sourceKeys) {
    throw new ExportError(
      'TOO_MANY_FRAMES',
      `animation "${anim.getName()}" would be resampled from at most ${sourceKeys} keys to ${keyCount} frames × ${groups.size} nodes (limit ${MAX_RESAMPLED_KEYS} keys when that multiplies the keys over 100-fold)`,
    );
  }
  let resampled = 0;
  const keysOf = (s: ReturnType<typeof readSampler> | undefined, size: number): Float32Array | null => {
    if (!s?.times.length) return null;
    const m = s.times.length;
    if (m === 1) {
      // exactly one key even when the output accessor holds less than it should
      const one = new Float32Array(size);
      one.set(s.values.subarray(s.interpolation === 'CUBICSPLINE' ? size : 0).subarray(0, size));
      return one;
    }
    let onGrid = s.interpolation !== 'CUBICSPLINE' && m <= keyCount + 1;
    // On the frame grid: within 1e-3 frame, or exactly the float32 time import writes for frame k
    // (past ~16 000 frames float32 rounding alone exceeds 1e-3 frame, and resampling such a
    // channel would interpolate between neighbouring keys: not a fixed point).
    for (let k = 0; onGrid && k < m; k++)
      if (!(Math.abs(s.times[k] * fps - k) < 1e-3) && s.times[k] !== Math.fround(k / fps)) onGrid = false;
    const out = new Float32Array(keyCount * size);
    if (onGrid) {
      const n = Math.min(m, keyCount);
      out.set(s.values.subarray(0, n * size));
      for (let k = n; k < keyCount; k++) out.copyWithin(k * size, (n - 1) * size, n * size);
      return out;
    }
    resampled++;
    const tmp = new Float64Array(size);
    for (let k = 0; k < keyCount; k++) {
      sampleAt(s, k / fps, tmp);
      for (let c = 0; c < size; c++) out[k * size + c] = tmp[c];
    }
    // Grimrock 2 stores a channel that does not change as one entry.
    if (version === 2 && constant(out, size)) return out.slice(0, size);
    return out;
  };
  const items: AnimationItem[] = [];
  let normalizedKeys = 0;
  for (const [node, g] of groups) {
    let positions = keysOf(g.translation, 3) ?? Float32Array.from(node.getTranslation());
    let rotations = keysOf(g.rotation, 4) ?? Float32Array.from(node.getRotation());
    let scales = keysOf(g.scale, 3) ?? Float32Array.from(node.getScale());
    mirrorVec3(positions);
    mirrorQuats(rotations);
    // The same clean-up import applies (non-finite → 0, rotations off unit length by more than
    // UNIT_TOLERANCE normalized), so what export writes imports back unchanged.
    for (const a of [positions, rotations, scales])
      for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) a[i] = 0;
    for (let o = 0; o < rotations.length; o += 4) {
      const l = Math.hypot(rotations[o], rotations[o + 1], rotations[o + 2], rotations[o + 3]);
      if (Math.abs(l - 1) > UNIT_TOLERANCE) {
        normalizedKeys++;
        if (l > 0) for (let c = 0; c < 4; c++) rotations[o + c] /= l;
        else rotations.set([0, 0, 0, 1], o);
      }
    }
    if (version === 1) {
      const n = Math.max(positions.length / 3, rotations.length / 4, scales.length / 3);
      const expand = (a: Float32Array, size: number) => {
        if (a.length / size === n) return a;
        const out = new Float32Array(n * size);
        for (let k = 0; k < n; k++) out.set(a.subarray(a.length - size), k * size);
        return out;
      };
      positions = expand(positions, 3);
      rotations = expand(rotations, 4);
      scales = expand(scales, 3);
    }
    items.push({ nodeName: nodeName.get(node)!, positions, rotations, scales });
  }
  if (normalizedKeys)
    warnings.warn(
      'ROTATION_NORMALIZED',
      `animation "${anim.getName()}": ${normalizedKeys} rotation key(s) were not unit quaternions and were normalized`,
      normalizedKeys,
    );
  if (resampled) {
    warnings.warn(
      'ANIMATION_RESAMPLED',
      `animation "${anim.getName()}": ${resampled} channel(s) resampled to ${fps} frames per second`,
      resampled,
    );
  }
  return {
    magic: 'ANIM',
    version,
    name: typeof ex?.name === 'string' ? ex.name : '',
    framesPerSecond: fps,
    numFrames,
    items,
  };
}

/** `mesh "NAME" primitive K` for messages. */
function primitiveLabel(mesh: Mesh, p: Primitive): string {
  return `mesh "${mesh.getName()}" primitive ${mesh.listPrimitives().indexOf(p)}`;
}

/**
 * The primitive's indices (`null`: none, draw 0..n−1). glTF indices are SCALAR unsigned
 * byte/short/int; anything else (e.g. a corrupt file whose `indices` names a float VEC3 normal
 * accessor) has no triangle meaning: its values, truncated into the int32 index array, would
 * be negative or wrong vertices, so it is refused with `BAD_ACCESSOR` instead.
 */
function indexArray(p: Primitive, mesh: Mesh): ArrayLike<number> | null {
  const acc = p.getIndices();
  if (!acc) return null;
  const arr = acc.getArray();
  if (!arr) return null;
  if (
    acc.getType() !== 'SCALAR' ||
    !(arr instanceof Uint8Array || arr instanceof Uint16Array || arr instanceof Uint32Array)
  )
    throw new ExportError(
      'BAD_ACCESSOR',
      `${primitiveLabel(mesh, p)}: its indices accessor${acc.getName() ? ` "${acc.getName()}"` : ''} is ${acc.getType()} of ${arr.constructor.name}; glTF indices are SCALAR unsigned byte, short or int`,
    );
  return arr;
}

/**
 * Writes the triangle list (offset by `base`) of TRIANGLES (4), TRIANGLE_STRIP (5) or
 * TRIANGLE_FAN (6) indices (`null`: 0..len−1) into `out` from `at`; returns the end offset.
 */
function writeTriangles(
  out: Int32Array,
  at: number,
  idx: ArrayLike<number> | null,
  len: number,
  mode: number,
  base: number,
): number {
  const get = idx ? (i: number) => idx[i] + base : (i: number) => i + base;
  let o = at;
  if (mode === TRIANGLES) {
    const m = len - (len % 3);
    if (idx) for (let i = 0; i < m; i++) out[o++] = idx[i] + base;
    else for (let i = 0; i < m; i++) out[o++] = i + base;
  } else if (mode === 5) {
    for (let i = 0; i + 2 < len; i++) {
      const even = i % 2 === 0;
      out[o++] = get(i);
      out[o++] = get(even ? i + 1 : i + 2);
      out[o++] = get(even ? i + 2 : i + 1);
    }
  } else {
    for (let i = 1; i + 1 < len; i++) {
      out[o++] = get(i);
      out[o++] = get(i + 1);
      out[o++] = get(0);
    }
  }
  return o;
}

/**
 * File-space position component `c` of vertex `v` read from the packed position array (0 where
 * the layout holds no float component or the bytes end: never read past the array).
 */
function positionReader(pdv: DataView, layout: Layout): (v: number, c: number) => number {
  const dims = layout[0] === 3 ? Math.min(3, layout[1]) : 0;
  const stride = layout[2];
  if (LITTLE_ENDIAN_HOST && pdv.byteOffset % 4 === 0 && stride % 4 === 0 && stride > 0) {
    // aligned: a float view instead of a DataView call per value
    const f = new Float32Array(pdv.buffer, pdv.byteOffset, pdv.byteLength >> 2);
    const s4 = stride >> 2;
    const end = pdv.byteLength;
    return (v, c) => (c < dims && v * stride + dims * 4 <= end ? f[v * s4 + c] : 0);
  }
  return (v, c) => {
    const at = v * stride + c * 4;
    return c < dims && v * stride + dims * 4 <= pdv.byteLength ? pdv.getFloat32(at, true) : 0;
  };
}

/** Per-component min/max of the packed positions (only components the layout holds). */
function positionsOf(pdv: DataView, n: number, layout: Layout, vmin: number[], vmax: number[]): void {
  const dims = Math.min(3, layout[1]);
  if (layout[0] !== 3) return;
  const at = positionReader(pdv, layout);
  for (let v = 0; v < n && v * layout[2] + dims * 4 <= pdv.byteLength; v++) {
    for (let c = 0; c < dims; c++) {
      const x = at(v, c);
      if (x < vmin[c]) vmin[c] = x;
      if (x > vmax[c]) vmax[c] = x;
    }
  }
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Distance of the farthest vertex from `center`. */
function radius(pos: (v: number, c: number) => number, n: number, center: Float32Array): number {
  let r2 = 0;
  for (let v = 0; v < n; v++) {
    const dx = pos(v, 0) - center[0];
    const dy = pos(v, 1) - center[1];
    const dz = pos(v, 2) - center[2];
    const d = dx * dx + dy * dy + dz * dz;
    if (d > r2) r2 = d;
  }
  return Math.sqrt(r2);
}
