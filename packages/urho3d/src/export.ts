/**
 * Mapping: glTF-Transform Document → Urho3D file models (`.mdl` + one `.ani` per animation).
 *
 * Documents made by {@link importUrho} carry `extras.urho3d` hints (vertex layouts, buffer
 * sharing, LOD levels, bone mappings, bounds, raw file values); every hint is checked against the
 * glTF data before use, so an edited document falls back to freshly derived layouts.
 */
import {
  type ExportOptions,
  ExportError,
  type ExportResult,
  type FileSet,
  readInfluences,
  readSampler,
  sampleAt,
  type Warning,
  WarningCollector,
  accessorFloats,
  assertNodeTrees,
} from '@gltf-legacy/core';
import type {
  Accessor,
  Animation,
  Document,
  Material,
  Mesh,
  Node,
  Primitive,
  Skin,
} from '@gltf-transform/core';
import { mat3, mat4, quat, vec3 } from 'gl-matrix';
import { type AniAnimation, type AniTrack, writeAni } from './ani.js';
import {
  attributeFor,
  parseRawAttributeName,
  rawAttributeName,
  sanitizeAttribute,
  writeElement,
} from './attributes.js';
import type { UrhoModelExtras } from './import.js';
import { createPak, writePak } from './pak.js';
import { exportUrhoScene } from './prefab-export.js';
import {
  descriptorOf,
  ELEMENT_TYPE_SIZES,
  ElementType,
  elementsFromDescriptors,
  elementsFromMask,
  type MdlBone,
  type MdlGeometry,
  type MdlIndexBuffer,
  type MdlModel,
  type MdlMorph,
  type MdlVertexBuffer,
  maskFromElements,
  PrimitiveType,
  Semantic,
  type VertexElement,
  writeMdl,
} from './mdl.js';
import {
  applyZeroSigns,
  flipTriangles,
  floatFromJson,
  mat4ToMatrix3x4,
  mirrorMat4,
  mirrorQuat,
  mirrorVec3,
} from './space.js';

/** Options of {@link exportUrho}. */
export interface ExportUrhoOptions extends ExportOptions {
  /** Base name of the files (`NAME.mdl`, `NAME_<anim>.ani`). Default: the model's name or `model`. */
  name?: string;
  /** Bones one geometry may reference (Urho3D's hardware-skinning limit). Default 64. */
  maxBones?: number;
  /** Key rate used when resampling STEP / CUBICSPLINE animation channels. Default 30. */
  fps?: number;
  /**
   * Write materials, textures and a prefab too ({@link exportUrhoScene}: resource names as file
   * keys, `Models/…`, `Materials/…`, `Textures/…`, `Objects/NAME.xml`). `auto` (default): when
   * the document came from Urho3D material files or a prefab; `false`: only `NAME.mdl` /
   * `NAME_<anim>.ani` (materials and textures dropped with warnings).
   */
  materials?: boolean | 'auto';
  /** Format of re-encoded textures when materials are written: `png` (default) or `dds`. */
  textureFormat?: 'png' | 'dds';
  /**
   * Pack every file written into one `NAME.pak` (its entries keep the resource names, so a prefab
   * inside resolves inside the package). `lz4` packs compressed (ULZ4). Default false.
   */
  pak?: boolean | 'lz4';
}
export const EXPORT_URHO_DEFAULTS = {
  maxBones: 64,
  fps: 30,
  materials: 'auto',
  textureFormat: 'png',
  pak: false,
} as const;

/** An exported animation file. */
export interface ExportedAnimation {
  fileName: string;
  animation: AniAnimation;
}

type AttrValues = Float32Array | Uint8Array | Uint16Array;

/**
 * An accessor whose array is not a whole number of elements (glTF-Transform gives such an
 * accessor, e.g. a count cut short by its buffer, a fractional `getCount()`) cannot be written:
 * ExportError `BAD_ACCESSOR` instead of a model with a fractional vertex or index count.
 */
function wholeCount(acc: Accessor, what: string, meshName: string): void {
  const len = acc.getArray()?.length ?? 0;
  if (len % acc.getElementSize() !== 0)
    throw new ExportError(
      'BAD_ACCESSOR',
      `the ${what} accessor of a primitive of mesh "${meshName}" holds ${len} values, not a whole number of ${acc.getType()} elements (invalid glTF)`,
    );
}

/** One primitive (a geometry's LOD level) in Urho space, plain arrays. */
interface VPrim {
  geometry: number;
  lod: number;
  distance: number;
  /** Primitives with the same key share a vertex buffer. */
  vbKey: unknown;
  vertexCount: number;
  attrs: Map<string, { values: AttrValues; comps: number; normalizedU8: boolean }>;
  /** Bone indices (4 per vertex) and weights, or null when not skinned. */
  joints: Uint16Array | null;
  weights: Float32Array | null;
  rawBlend: Uint8Array | null;
  indices: Uint32Array;
  primitiveType: number;
  targets: { key: string; pos?: Float32Array; nrm?: Float32Array; tan?: Float32Array }[];
  hintVb?: number;
  hintIb?: number;
  /** The glTF material of the primitive (for the material list of a prefab). */
  material?: Material | null;
}

const PRIM_TYPE_BY_MODE: Record<number, number> = {
  0: PrimitiveType.POINT_LIST,
  1: PrimitiveType.LINE_LIST,
  3: PrimitiveType.LINE_STRIP,
};

function isIdentity(m: ArrayLike<number>): boolean {
  for (let i = 0; i < 16; i++) if (m[i] !== (i % 5 === 0 ? 1 : 0)) return false;
  return true;
}

function modelExtrasOf(doc: Document): { top: Node; extras: UrhoModelExtras } | null {
  for (const n of doc.getRoot().listNodes()) {
    const e = (n.getExtras() as any)?.urho3d?.model;
    if (e && Array.isArray(e.vertexBuffers) && Array.isArray(e.geometries))
      return { top: n, extras: e as UrhoModelExtras };
  }
  return null;
}

function sameFloats(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(Math.fround(a[i]), Math.fround(b[i]))) return false;
  return true;
}

/**
 * Converts a document to an Urho3D model and animations (file models).
 *
 * ```ts
 * const { model, animations, warnings } = exportUrhoModel(document, { name: 'Jack' });
 * const mdl = writeMdl(model!);
 * ```
 */
export function exportUrhoModel(
  doc: Document,
  options: ExportUrhoOptions = {},
): {
  model: MdlModel | null;
  animations: ExportedAnimation[];
  warnings: Warning[];
  /** The glTF material of each geometry of `model` (its LOD 0), in geometry order. */
  geometryMaterials: (Material | null)[];
} {
  assertNodeTrees(doc);
  const warnings = new WarningCollector();
  const root = doc.getRoot();
  let accessorsByName: Map<string, Accessor> | undefined; // built on first use (raw backups)
  const maxBones = Math.max(4, Math.min(256, options.maxBones ?? EXPORT_URHO_DEFAULTS.maxBones));
  const hint = modelExtrasOf(doc);
  const hx = hint?.extras;
  const name = options.name ?? hint?.top.getName() ?? 'model';

  if (root.listCameras().length)
    warnings.warn('CAMERA_DROPPED', 'Urho3D models hold no cameras; dropped', root.listCameras().length);
  const lights = root.listExtensionsUsed().find((e) => e.extensionName === 'KHR_lights_punctual');
  if (lights) warnings.warn('LIGHT_DROPPED', 'Urho3D models hold no lights; dropped');
  if (root.listTextures().length)
    warnings.warn(
      'TEXTURE_DROPPED',
      'Urho3D .mdl holds no textures or materials; dropped',
      root.listTextures().length,
    );
  const realMaterials = root.listMaterials().filter((m) => !(m.getExtras() as any)?.urho3d?.placeholder);
  if (realMaterials.length) {
    warnings.warn(
      'MATERIAL_DROPPED',
      'Urho3D .mdl holds no materials (they live in separate .xml files); only geometry order is kept',
      realMaterials.length,
    );
  }

  // --- Which primitives become geometries -------------------------------------------------
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const meshNodes: Node[] = [];
  const visit = (n: Node) => {
    if (n.getMesh()) meshNodes.push(n);
    for (const c of n.listChildren()) visit(c);
  };
  if (scene) for (const n of scene.listChildren()) visit(n);
  else for (const n of root.listNodes()) if (!n.getParentNode() && n.getMesh()) meshNodes.push(n);

  // Skeleton: joints of every skin used (or of the hinted model's skin).
  const skins: Skin[] = [];
  for (const n of meshNodes) {
    const s = n.getSkin();
    if (s && !skins.includes(s)) skins.push(s);
  }
  if (!skins.length && hx && root.listSkins().length) skins.push(root.listSkins()[0]);
  if (skins.length > 1)
    warnings.warn('SKINS_MERGED', `${skins.length} skins merged into one Urho3D skeleton`);
  const boneNodes: Node[] = [];
  const boneIndex = new Map<Node, number>();
  const ibmOf = new Map<Node, Float32Array>();
  for (const s of skins) {
    const ibm = s.getInverseBindMatrices();
    const arr = ibm ? accessorFloats(ibm) : null;
    s.listJoints().forEach((j, i) => {
      if (!boneIndex.has(j)) {
        boneIndex.set(j, boneNodes.length);
        boneNodes.push(j);
        if (arr) ibmOf.set(j, arr.slice(i * 16, i * 16 + 16));
      }
    });
  }
  // Nodes animated outside any skin become bones (with their ancestors), so .ani tracks can
  // drive them; meshes below a bone are bound rigidly to it.
  for (const a of root.listAnimations()) {
    for (const ch of a.listChannels()) {
      const target = ch.getTargetNode();
      if (!target || ch.getTargetPath() === 'weights' || boneIndex.has(target)) continue;
      const chain: Node[] = [];
      for (let c: Node | null = target; c && !boneIndex.has(c); c = c.getParentNode()) chain.unshift(c);
      for (const x of chain) {
        boneIndex.set(x, boneNodes.length);
        boneNodes.push(x);
        ibmOf.set(
          x,
          Float32Array.from(
            mat4.invert(mat4.create(), x.getWorldMatrix() as unknown as mat4) ?? mat4.create(),
          ),
        );
      }
    }
  }
  const rigidBoneOf = (n: Node): number => {
    for (let c: Node | null = n; c; c = c.getParentNode()) {
      const b = boneIndex.get(c);
      if (b !== undefined) return b;
    }
    return -1;
  };
  const skinJointToBone = (s: Skin): Uint16Array =>
    Uint16Array.from(s.listJoints(), (j) => boneIndex.get(j)!);

  // --- Build VPrims ------------------------------------------------------------------------
  const vprims: VPrim[] = [];
  const convCache = new Map<Accessor, Map<string, AttrValues>>();
  const cached = (acc: Accessor, key: string, make: () => AttrValues): AttrValues => {
    let m = convCache.get(acc);
    if (!m) convCache.set(acc, (m = new Map()));
    let v = m.get(key);
    if (!v) m.set(key, (v = make()));
    return v;
  };
  const targetKeys: string[] = [];
  const lodMeshes = new Map<number, Mesh>();
  if (hx) {
    for (const mesh of root.listMeshes()) {
      const lvl = (mesh.getExtras() as any)?.urho3d?.lodLevel;
      if (Number.isInteger(lvl) && lvl > 0) lodMeshes.set(lvl, mesh);
    }
  }
  // LOD-level primitives by "geometry|level" (in LOD mesh order), instead of a scan per geometry.
  const lodPrims = new Map<string, Primitive[]>();
  for (const [lvl, lm] of lodMeshes) {
    for (const lp of lm.listPrimitives()) {
      const le = (lp.getExtras() as any)?.urho3d;
      if (le?.lod !== lvl || typeof le.geometry !== 'number') continue;
      const key = `${le.geometry}|${lvl}`;
      const list = lodPrims.get(key);
      if (list) list.push(lp);
      else lodPrims.set(key, [lp]);
    }
  }
  let geometryCount = 0;
  for (const node of meshNodes) {
    const mesh = node.getMesh()!;
    const skin = node.getSkin();
    const world = node.getWorldMatrix();
    const bake = skin ? null : isIdentity(world) ? null : Float32Array.from(world);
    const names: string[] = (mesh.getExtras() as any)?.targetNames ?? [];
    const prims = mesh.listPrimitives();
    const fromHint = !!hx && node.getParentNode() === hint!.top;
    for (const prim of prims) {
      const pe = (prim.getExtras() as any)?.urho3d;
      const g = fromHint && Number.isInteger(pe?.geometry) ? pe.geometry : geometryCount;
      const vp = makeVPrim(prim, g, 0, skin, bake, names, mesh.getName(), skin ? -1 : rigidBoneOf(node));
      if (!vp) continue;
      if (fromHint) {
        const lodHint = hx!.geometries[g]?.lods[0];
        if (lodHint) {
          vp.distance = floatFromJson(lodHint.distance);
          vp.hintVb = lodHint.vertexBuffer;
          vp.hintIb = lodHint.indexBuffer;
        }
      }
      vprims.push(vp);
      geometryCount = Math.max(geometryCount, g + 1);
      // Lower LOD levels of this geometry.
      if (fromHint) {
        for (const [lvl, lm] of lodMeshes) {
          for (const lp of lodPrims.get(`${g}|${lvl}`) ?? []) {
            const lv = makeVPrim(lp, g, lvl, skin, bake, [], lm.getName(), skin ? -1 : rigidBoneOf(node));
            if (!lv) continue;
            const lh = hx!.geometries[g]?.lods[lvl];
            if (lh) {
              lv.distance = floatFromJson(lh.distance);
              lv.hintVb = lh.vertexBuffer;
              lv.hintIb = lh.indexBuffer;
            }
            vprims.push(lv);
          }
        }
      }
    }
  }

  function makeVPrim(
    prim: Primitive,
    geometry: number,
    lod: number,
    skin: Skin | null,
    bake: Float32Array | null,
    targetNames: string[],
    meshName: string,
    rigidBone: number,
  ): VPrim | null {
    const pos = prim.getAttribute('POSITION');
    if (!pos) {
      warnings.warn('PRIMITIVE_DROPPED', 'a primitive without POSITION was dropped');
      return null;
    }
    const mode = prim.getMode();
    const vertexCount = pos.getCount();
    wholeCount(pos, 'POSITION', meshName);
    const bakeKey = bake ? Array.from(bake).join(',') : '';
    // a singular bake (a node scaled by 0, legal glTF) has no normal matrix: normals stay as
    // they are rather than collapsing (gl-matrix returns null there)
    const normalMat = bake
      ? (mat3.normalFromMat4(mat3.create(), bake as unknown as mat4) ?? mat3.create())
      : null;
    const linear = bake ? mat3.fromMat4(mat3.create(), bake as unknown as mat4) : null;
    const flipDet = bake ? mat3.determinant(linear!) < 0 : false;
    const attrs: VPrim['attrs'] = new Map();
    for (const sem of prim.listSemantics()) {
      const acc = prim.getAttribute(sem)!;
      if (acc.getCount() !== vertexCount) continue;
      if (sem.startsWith('JOINTS_') || sem.startsWith('WEIGHTS_')) continue;
      const comps = acc.getElementSize();
      if (sem === 'POSITION' || sem === 'NORMAL' || sem === 'TANGENT') {
        const values = cached(acc, `${sem}|${bakeKey}`, () => {
          const v = accessorFloats(acc).slice();
          const stride = comps;
          if (bake) {
            const t = vec3.create();
            for (let i = 0; i + 2 < v.length; i += stride) {
              vec3.set(t, v[i], v[i + 1], v[i + 2]);
              if (sem === 'POSITION') vec3.transformMat4(t, t, bake as unknown as mat4);
              else {
                vec3.transformMat3(t, t, sem === 'NORMAL' ? normalMat! : linear!);
                vec3.normalize(t, t);
              }
              v[i] = t[0];
              v[i + 1] = t[1];
              v[i + 2] = t[2];
            }
          }
          mirrorVec3(v, stride);
          return v;
        });
        attrs.set(sem, { values, comps, normalizedU8: false });
      } else if (sem.startsWith('COLOR_') || sem.startsWith('TEXCOORD_') || sem.startsWith('_URHO_')) {
        const raw = sem.startsWith('_URHO_');
        const arr = acc.getArray()!;
        const u8n = arr instanceof Uint8Array && acc.getNormalized() && comps === 4;
        const values = raw || u8n ? (arr as AttrValues) : accessorFloats(acc);
        attrs.set(sem, { values, comps, normalizedU8: u8n });
      } else {
        warnings.warn('ATTRIBUTE_DROPPED', `attribute ${sem} has no Urho3D vertex element; dropped`);
      }
    }
    // Skin influences.
    let joints: Uint16Array | null = null;
    let weights: Float32Array | null = null;
    let rawBlend: Uint8Array | null = null;
    if (skin && prim.getAttribute('JOINTS_0') && prim.getAttribute('WEIGHTS_0')) {
      const map = skinJointToBone(skin);
      const j0 = prim.getAttribute('JOINTS_0')!;
      const w0 = prim.getAttribute('WEIGHTS_0')!;
      if (!prim.getAttribute('JOINTS_1') && j0.getElementSize() === 4) {
        joints = mapJoints(j0.getArray()!, map);
        weights = accessorFloats(w0).slice();
      } else {
        const inf = readInfluences(prim, 4)!;
        if (inf.truncated) {
          warnings.warn(
            'WEIGHTS_TRUNCATED',
            'more than 4 bone influences on a vertex; kept the 4 largest and renormalized',
            inf.truncated,
          );
        }
        joints = new Uint16Array(inf.joints.length);
        for (let i = 0; i < joints.length; i++) joints[i] = map[inf.joints[i]] ?? 0;
        weights = inf.weights;
      }
      // A bone listed twice with weight (or joints past the skin, mapped to bone 0): merge.
      const jj = joints!;
      const ww = weights!;
      for (let v = 0; v + 3 < jj.length; v += 4) {
        for (let c = 1; c < 4; c++) {
          if (!(ww[v + c] > 0)) continue;
          for (let p = 0; p < c; p++) {
            if (jj[v + p] === jj[v + c] && ww[v + p] > 0) {
              ww[v + p] += ww[v + c];
              ww[v + c] = 0;
              jj[v + c] = 0;
              break;
            }
          }
        }
      }
      const rb = prim.getAttribute('_URHO_BLENDINDICES');
      if (rb?.getArray() instanceof Uint8Array && rb.getCount() === vertexCount)
        rawBlend = rb.getArray() as Uint8Array;
    }
    if (!joints && rigidBone >= 0) {
      joints = new Uint16Array(vertexCount * 4);
      weights = new Float32Array(vertexCount * 4);
      for (let v = 0; v < vertexCount; v++) {
        joints[v * 4] = rigidBone;
        weights[v * 4] = 1;
      }
    }
    attrs.delete('_URHO_BLENDINDICES');
    // Indices in Urho winding.
    const idxAcc = prim.getIndices();
    if (idxAcc) wholeCount(idxAcc, 'indices', meshName);
    const n = idxAcc ? idxAcc.getCount() : vertexCount;
    const src = idxAcc?.getArray();
    let idx = new Uint32Array(n);
    if (src) idx.set(src.length === n ? src : src.subarray(0, n));
    else for (let i = 0; i < n; i++) idx[i] = i;
    const bad = firstIndexAtOrAbove(idx, vertexCount);
    if (bad >= 0) {
      throw new ExportError(
        'BAD_INDEX',
        `a primitive of mesh "${meshName}" has index ${idx[bad]} past its ${vertexCount} vertices (invalid glTF)`,
      );
    }
    let primitiveType: number;
    if (mode === 4 || mode === 5 || mode === 6) {
      if (mode !== 4) {
        const tris = Math.max(0, n - 2);
        const list = new Uint32Array(tris * 3);
        for (let i = 0; i < tris; i++) {
          if (mode === 6) list.set([idx[0], idx[i + 1], idx[i + 2]], i * 3);
          else if (i % 2 === 0) list.set([idx[i], idx[i + 1], idx[i + 2]], i * 3);
          else list.set([idx[i + 1], idx[i], idx[i + 2]], i * 3);
        }
        idx = list;
      }
      if (!flipDet) flipTriangles(idx);
      primitiveType = PrimitiveType.TRIANGLE_LIST;
    } else if (mode === 2) {
      const loop = new Uint32Array(n + 1);
      loop.set(idx);
      loop[n] = idx[0];
      idx = loop;
      primitiveType = PrimitiveType.LINE_STRIP;
    } else primitiveType = PRIM_TYPE_BY_MODE[mode] ?? PrimitiveType.TRIANGLE_LIST;
    const per =
      primitiveType === PrimitiveType.TRIANGLE_LIST ? 3 : primitiveType === PrimitiveType.LINE_LIST ? 2 : 1;
    if (idx.length % per) {
      warnings.warn('INDICES_TRUNCATED', 'a primitive ended with an incomplete triangle / line; dropped it');
      idx = idx.slice(0, idx.length - (idx.length % per));
    }
    if (!idx.length) {
      warnings.warn(
        'PRIMITIVE_DROPPED',
        'a primitive without a single complete triangle / line / point was dropped',
      );
      return null;
    }
    // Morph targets.
    const targets: VPrim['targets'] = [];
    prim.listTargets().forEach((t, ti) => {
      const key = t.getName() || targetNames[ti] || `${meshName}_${ti}`;
      if (!targetKeys.includes(key)) targetKeys.push(key);
      const conv = (sem: string): Float32Array | undefined => {
        const acc = t.getAttribute(sem);
        if (!acc || acc.getCount() !== vertexCount) return undefined;
        return cached(acc, `target|${bakeKey}`, () => {
          const v = accessorFloats(acc).slice();
          if (linear) {
            const tmp = vec3.create();
            for (let i = 0; i + 2 < v.length; i += 3) {
              vec3.set(tmp, v[i], v[i + 1], v[i + 2]);
              vec3.transformMat3(tmp, tmp, sem === 'NORMAL' ? normalMat! : linear);
              v.set(tmp, i);
            }
          }
          mirrorVec3(v);
          return v;
        }) as Float32Array;
      };
      targets.push({ key, pos: conv('POSITION'), nrm: conv('NORMAL'), tan: conv('TANGENT') });
    });
    return {
      geometry,
      lod,
      distance: 0,
      vbKey: `${pos.getName()}#${convKey(pos)}|${bakeKey}`,
      vertexCount,
      attrs,
      joints,
      weights,
      rawBlend,
      indices: idx,
      primitiveType,
      targets,
      material: prim.getMaterial(),
    };
  }

  // --- Bone mappings and geometry splitting -------------------------------------------------
  const numBones = boneNodes.length;
  const geomMappings: Uint32Array[] = [];
  let useHintMappings = false;
  if (hx && numBones) {
    // The hinted mappings hold if raw blend indices map to the same bones as JOINTS_0.
    useHintMappings = vprims.every((vp) => {
      if (!vp.joints) return true;
      if (!vp.rawBlend) return !(hx.geometries[vp.geometry]?.boneMapping.length ?? 0);
      const map = hx.geometries[vp.geometry]?.boneMapping ?? [];
      const used = new Uint8Array(vp.vertexCount);
      for (const i of vp.indices) used[i] = 1;
      for (let v = 0; v < vp.vertexCount; v++) {
        if (!used[v]) continue;
        for (let c = 0; c < 4; c++) {
          const k = v * 4 + c;
          if (!(vp.weights![k] > 0)) continue;
          const local = vp.rawBlend[k];
          const global = map.length ? map[local] : local;
          if (global !== vp.joints[k]) return false;
        }
      }
      return true;
    });
  }
  if (numBones > maxBones && !useHintMappings) {
    // Split geometries whose triangles use more than maxBones bones.
    const out: VPrim[] = [];
    const splitGeoms = new Set<number>();
    for (const vp of vprims) {
      if (!vp.joints || vp.lod > 0) continue;
      if (usedBones(vp, vp.indices).size > maxBones) splitGeoms.add(vp.geometry);
    }
    let next = 0;
    const renumber = new Map<number, number[]>();
    const byGeom = primsByGeometry(vprims, geometryCount);
    for (let g = 0; g < geometryCount; g++) {
      const lod0 = byGeom[g].find((p) => p.lod === 0);
      if (splitGeoms.has(g) && lod0) {
        const chunks = splitByBones(lod0, maxBones);
        warnings.warn(
          'GEOMETRY_SPLIT',
          `a geometry uses more than ${maxBones} bones; split into ${chunks.length} geometries`,
        );
        if (byGeom[g].some((p) => p.lod > 0))
          warnings.warn('LOD_DROPPED', 'LOD levels of a split geometry were dropped');
        renumber.set(
          g,
          chunks.map(() => next++),
        );
        chunks.forEach((c, i) => {
          c.geometry = renumber.get(g)![i];
          out.push(c);
        });
      } else {
        renumber.set(g, [next++]);
        for (const p of byGeom[g])
          out.push({ ...p, geometry: renumber.get(g)![0], vbKey: `${p.vbKey}|g${g}` });
      }
    }
    vprims.length = 0;
    for (const p of out) vprims.push(p);
    geometryCount = next;
  }
  const primsOfGeometry = primsByGeometry(vprims, geometryCount);
  for (let g = 0; g < geometryCount; g++) {
    if (useHintMappings) geomMappings.push(Uint32Array.from(hx!.geometries[g]?.boneMapping ?? []));
    else if (numBones > maxBones) {
      const set = new Set<number>();
      for (const vp of primsOfGeometry[g]) for (const b of usedBones(vp, vp.indices)) set.add(b);
      geomMappings.push(Uint32Array.from([...set].sort((a, b) => a - b)));
    } else geomMappings.push(new Uint32Array(0));
  }

  // --- Vertex buffers ------------------------------------------------------------------------
  const groups = new Map<unknown, VPrim[]>();
  for (const vp of vprims) {
    const list = groups.get(vp.vbKey);
    if (list) list.push(vp);
    else groups.set(vp.vbKey, [vp]);
  }
  const groupList = [...groups.values()];
  // Hinted order of vertex buffers.
  const hintOrder = (g: VPrim[]) =>
    g.every((p) => p.hintVb === g[0].hintVb) && g[0].hintVb !== undefined ? g[0].hintVb : 1e9;
  groupList.sort((a, b) => hintOrder(a) - hintOrder(b));
  const vbIndexOf = new Map<VPrim, number>();
  const vertexBuffers: MdlVertexBuffer[] = [];
  let allHinted = !!hx && groupList.length === hx.vertexBuffers.length;
  groupList.forEach((group, v) => {
    for (const p of group) vbIndexOf.set(p, v);
    const first = group[0];
    const vbHint = hx && first.hintVb === v ? hx.vertexBuffers[v] : undefined;
    let elements: VertexElement[] | null = null;
    if (vbHint && vbHint.vertexCount === first.vertexCount) {
      try {
        elements = vbHint.descriptors
          ? elementsFromDescriptors(Uint32Array.from(vbHint.descriptors))
          : elementsFromMask(vbHint.elementMask);
      } catch {
        elements = null;
      }
      if (elements && !elements.every((e) => sourceAvailable(group, e))) elements = null;
      // Every attribute must have a home in the hinted layout.
      if (elements) {
        const homes = new Set(elements.map((e) => attributeFor(e)[0]));
        for (const a of first.attrs.keys()) if (!a.startsWith('_URHO_') && !homes.has(a)) elements = null;
      }
    }
    if (!elements) {
      allHinted = false;
      elements = deriveElements(first, warnings);
    }
    const stride = elements.reduce((s, e) => s + ELEMENT_TYPE_SIZES[e.type], 0);
    const data = new Uint8Array(first.vertexCount * stride);
    const rawBackups = vbHint?.raw ?? {};
    for (const e of elements) {
      const values = elementValues(group, e, rawBackups);
      writeElement(data, stride, first.vertexCount, e, values);
    }
    vertexBuffers.push({
      vertexCount: first.vertexCount,
      elementMask: 0,
      descriptors: null,
      elements,
      stride,
      morphRangeStart: 0,
      morphRangeCount: 0,
      data,
    });
  });
  let magic: 'UMDL' | 'UMD2' = 'UMDL';
  const masks = vertexBuffers.map((vb) => maskFromElements(vb.elements));
  if (allHinted && hx) magic = hx.magic === 'UMDL' && masks.every((m) => m !== null) ? 'UMDL' : 'UMD2';
  else magic = masks.every((m) => m !== null) ? 'UMDL' : 'UMD2';
  vertexBuffers.forEach((vb, i) => {
    if (magic === 'UMDL') vb.elementMask = masks[i]!;
    else {
      const h = allHinted ? hx!.vertexBuffers[i].descriptors : null;
      const desc = Uint32Array.from(vb.elements, descriptorOf);
      vb.descriptors =
        h && h.length === desc.length && h.every((d, k) => (d & 0xffffff) === desc[k])
          ? Uint32Array.from(h)
          : desc;
    }
  });

  function sourceAvailable(group: VPrim[], e: VertexElement): boolean {
    const p = group[0];
    const [attr, kind] = attributeFor(e);
    if (kind === 'joints') return group.every((g) => g.joints);
    if (kind === 'weights') return group.every((g) => g.weights);
    const a = p.attrs.get(attr) ?? p.attrs.get(rawAttributeName(e));
    if (!a) return false;
    if (kind === 'color' && e.type === ElementType.UBYTE4_NORM) return true;
    if (kind === 'raw') {
      const size = ELEMENT_TYPE_SIZES[e.type];
      return a.values.BYTES_PER_ELEMENT * a.comps === size;
    }
    return true;
  }

  function elementValues(
    group: VPrim[],
    e: VertexElement,
    rawBackups: Record<string, string>,
  ): ArrayLike<number> {
    const p = group[0];
    const n = p.vertexCount;
    const [attr, kind] = attributeFor(e);
    if (kind === 'joints') {
      if (useHintMappings && group.every((g) => g.rawBlend === group[0].rawBlend) && group[0].rawBlend)
        return group[0].rawBlend;
      // Local indices through each geometry's mapping; vertices take the first primitive using them.
      const out = new Uint8Array(n * 4);
      const done = new Uint8Array(n);
      for (const g of group) {
        if (!g.joints) continue;
        localJoints(out, done, g.joints, geomMappings[g.geometry], g.indices, false);
      }
      if (group[0].joints)
        localJoints(out, done, group[0].joints, geomMappings[group[0].geometry], null, true);
      return out;
    }
    if (kind === 'weights') {
      const w = p.weights!;
      return fromRaw(rawBackups.WEIGHTS_0, 'weights', w, 4) ?? w;
    }
    const a = p.attrs.get(attr);
    if (!a) return p.attrs.get(rawAttributeName(e))!.values; // file values kept as-is
    if (kind === 'normal' || kind === 'tangent') {
      return fromRaw(rawBackups[attr], kind, a.values as Float32Array, kind === 'normal' ? 3 : 4) ?? a.values;
    }
    if (kind === 'color' && e.type === ElementType.UBYTE4_NORM) {
      if (a.normalizedU8) return a.values;
      const out = new Uint8Array(n * 4);
      for (let v = 0; v < n; v++) {
        for (let c = 0; c < 4; c++) {
          const x = c < a.comps ? a.values[v * a.comps + c] : 1;
          out[v * 4 + c] = Math.round(Math.min(1, Math.max(0, x)) * 255);
        }
      }
      return out;
    }
    return a.values;
  }

  function fromRaw(
    accName: string | undefined,
    kind: 'normal' | 'tangent' | 'weights',
    current: Float32Array,
    comps: number,
  ) {
    if (!accName) return null;
    if (!accessorsByName) {
      accessorsByName = new Map();
      for (const a of root.listAccessors())
        if (!accessorsByName.has(a.getName())) accessorsByName.set(a.getName(), a);
    }
    const acc = accessorsByName.get(accName);
    const arr = acc?.getArray();
    if (!(arr instanceof Uint16Array) || arr.length !== current.length * 2) return null;
    const raw = new Float32Array(arr.slice().buffer);
    const check = raw.slice();
    if (kind !== 'weights') mirrorVec3(check, comps);
    sanitizeAttribute(kind, check);
    if (kind !== 'weights') mirrorVec3(check, comps); // back to Urho space, where `current` is
    return sameFloats(check, current) ? raw : null;
  }

  // --- Index buffers and geometries --------------------------------------------------------
  const indexBuffers: MdlIndexBuffer[] = [];
  const geometries: MdlGeometry[] = [];
  for (let g = 0; g < geometryCount; g++) geometries.push({ boneMapping: geomMappings[g], lods: [] });
  let ibHinted = allHinted && !!hx && vprims.every((p) => p.hintIb !== undefined);
  if (ibHinted && hx) {
    for (const p of vprims) {
      const lh = hx.geometries[p.geometry]?.lods[p.lod];
      const ibh = lh && hx.indexBuffers[lh.indexBuffer];
      if (
        !lh ||
        !ibh ||
        lh.indexCount !== p.indices.length ||
        lh.vertexBuffer !== vbIndexOf.get(p) ||
        lh.indexStart + lh.indexCount > ibh.indexCount ||
        (ibh.indexSize === 2 && p.vertexCount > 65536) ||
        lh.primitiveType !== p.primitiveType
      ) {
        ibHinted = false;
        break;
      }
    }
  }
  // Every hinted LOD level with indices must still be there (and no extra geometries).
  if (ibHinted && hx) {
    if (geometryCount !== hx.geometries.length) ibHinted = false;
    hx.geometries.forEach((gh, g) => {
      gh.lods.forEach((lh, l) => {
        if (lh.indexCount > 0 && !primsOfGeometry[g]?.some((p) => p.lod === l)) ibHinted = false;
      });
    });
  }
  if (ibHinted && hx) {
    for (const ibh of hx.indexBuffers)
      indexBuffers.push({
        indexCount: ibh.indexCount,
        indexSize: ibh.indexSize,
        data: new Uint8Array(ibh.indexCount * ibh.indexSize),
      });
    for (let g = 0; g < geometryCount; g++) {
      const gh = hx.geometries[g];
      gh.lods.forEach((lh, l) => {
        geometries[g].lods.push({ ...lh, distance: floatFromJson(lh.distance) });
        const p = primsOfGeometry[g].find((x) => x.lod === l);
        if (!p) return;
        const ib = indexBuffers[lh.indexBuffer];
        putIndices(ib.data, ib.indexSize, lh.indexStart, p.indices);
      });
    }
  } else {
    // One index buffer per vertex buffer; geometry-major, LOD order.
    const parts: VPrim[][] = groupList.map(() => []);
    for (const p of vprims) parts[vbIndexOf.get(p)!].push(p);
    parts.forEach((list, v) => {
      list.sort((a, b) => a.geometry - b.geometry || a.lod - b.lod);
      const count = list.reduce((s, p) => s + p.indices.length, 0);
      const size = vertexBuffers[v].vertexCount > 65536 ? 4 : 2;
      const data = new Uint8Array(count * size);
      let at = 0;
      for (const p of list) {
        putIndices(data, size, at, p.indices);
        geometries[p.geometry].lods[p.lod] = {
          distance: p.distance,
          primitiveType: p.primitiveType,
          vertexBuffer: v,
          indexBuffer: v,
          indexStart: at,
          indexCount: p.indices.length,
        };
        at += p.indices.length;
      }
      indexBuffers.push({ indexCount: count, indexSize: size, data });
    });
    for (const g of geometries) g.lods = g.lods.filter(Boolean);
  }

  // --- Morphs ------------------------------------------------------------------------------
  const morphs: MdlMorph[] = [];
  targetKeys.forEach((key, mi) => {
    const hm = hx?.morphs[mi];
    const morph: MdlMorph = { name: key, buffers: [] };
    groupList.forEach((group, v) => {
      const t = group[0].targets.find((x) => x.key === key);
      if (!t || (!t.pos && !t.nrm && !t.tan)) return;
      const n = group[0].vertexCount;
      const hb = hm?.name === key ? hm.buffers.find((b) => b.vertexBuffer === v) : undefined;
      const mask = hb ? hb.elementMask : (t.pos ? 1 : 0) | (t.nrm ? 2 : 0) | (t.tan ? 0x80 : 0);
      const list = movedVertices(n, t.pos, t.nrm, t.tan);
      const pick = (a: Float32Array | undefined, bit: number) => {
        if (!(mask & bit)) return null;
        const out = new Float32Array(list.length * 3);
        if (a) {
          // through integer views: float bits (NaN payloads) copied exactly
          const src = new Uint32Array(a.buffer, a.byteOffset, a.length);
          const dst = new Uint32Array(out.buffer);
          for (let k = 0; k < list.length; k++) {
            const x = list[k] * 3;
            dst[k * 3] = src[x];
            dst[k * 3 + 1] = src[x + 1];
            dst[k * 3 + 2] = src[x + 2];
          }
        }
        return out;
      };
      if (!list.length && !hb) return;
      morph.buffers.push({
        vertexBuffer: v,
        elementMask: mask,
        vertexCount: list.length,
        indices: list,
        positions: pick(t.pos, 1),
        normals: pick(t.nrm, 2),
        tangents: pick(t.tan, 0x80),
      });
    });
    morphs.push(morph);
  });
  vertexBuffers.forEach((vb, v) => {
    const h = allHinted ? hx?.vertexBuffers[v] : undefined;
    let lo = Infinity;
    let hi = -1;
    for (const m of morphs)
      for (const b of m.buffers) {
        if (b.vertexBuffer !== v) continue;
        const idx = b.indices;
        for (let k = 0; k < idx.length; k++) {
          if (idx[k] < lo) lo = idx[k];
          if (idx[k] > hi) hi = idx[k];
        }
      }
    const start = hi < 0 ? 0 : lo;
    const count = hi < 0 ? 0 : hi - lo + 1;
    const hintCovers =
      h && (hi < 0 || (h.morphRangeStart <= start && h.morphRangeStart + h.morphRangeCount >= start + count));
    vb.morphRangeStart = hintCovers ? h!.morphRangeStart : start;
    vb.morphRangeCount = hintCovers ? h!.morphRangeCount : count;
  });

  // --- Bones -------------------------------------------------------------------------------
  // Urho3D finds bones and tracks by name: give unnamed or repeated names a unique one.
  const nameOf = new Map<Node, string>();
  const taken = new Set<string>();
  boneNodes.forEach((node, i) => {
    let n = node.getName() || `Bone${i}`;
    if (taken.has(n)) {
      let k = 2;
      while (taken.has(`${n}_${k}`)) k++;
      n = `${n}_${k}`;
      warnings.warn('BONE_RENAMED', 'bones need unique names in Urho3D; a repeated bone name got a suffix');
    }
    taken.add(n);
    nameOf.set(node, n);
  });
  const bones: MdlBone[] = boneNodes.map((node, i) => {
    let parentNode = node.getParentNode();
    // TRS can be used as stored when every non-bone node up to the bone parent is an identity.
    let direct = true;
    while (parentNode && !boneIndex.has(parentNode)) {
      if (!isIdentity(parentNode.getMatrix())) direct = false;
      parentNode = parentNode.getParentNode();
    }
    const parent = parentNode ? boneIndex.get(parentNode)! : i;
    let t: number[];
    let r: number[];
    let s: number[];
    if (direct) {
      t = [...node.getTranslation()];
      r = [...node.getRotation()];
      s = [...node.getScale()];
    } else {
      const world = node.getWorldMatrix() as unknown as mat4;
      const local = parentNode
        ? mat4.multiply(
            mat4.create(),
            mat4.invert(mat4.create(), parentNode.getWorldMatrix() as unknown as mat4) ?? mat4.create(),
            world,
          )
        : world;
      const q = quat.create();
      const tv = vec3.create();
      const sv = vec3.create();
      mat4.decompose(q, tv, sv, local);
      t = [...tv];
      r = [...q];
      s = [...sv];
    }
    mirrorVec3(t);
    mirrorQuat(r);
    const be = (node.getExtras() as any)?.urho3d?.bone ?? {};
    let rotation = Float32Array.from([r[3], r[0], r[1], r[2]]);
    const position = Float32Array.from(t);
    const scale = Float32Array.from(s);
    const zeros: number[] = Array.isArray(be.negativeZeros) ? be.negativeZeros : [];
    applyZeroSigns(position, zeros);
    applyZeroSigns(
      rotation,
      zeros.filter((z) => z >= 3 && z < 7).map((z) => z - 3),
    );
    applyZeroSigns(
      scale,
      zeros.filter((z) => z >= 7).map((z) => z - 7),
    );
    // File values the glTF writer rounded to the default (see import): use them while the node still matches.
    const restore = (key: 'position' | 'scale', cur: Float32Array) => {
      const raw =
        Array.isArray(be[key]) && be[key].length === 3
          ? Float32Array.from(be[key] as unknown[], floatFromJson)
          : null;
      if (raw?.every((x, k) => Math.abs(x - cur[k]) <= 1e-5)) cur.set(raw);
    };
    restore('position', position);
    restore('scale', scale);
    if (Array.isArray(be.rotation) && be.rotation.length === 4) {
      const raw = Float32Array.from(be.rotation as unknown[], floatFromJson);
      const q = [raw[1], raw[2], raw[3], raw[0]];
      const len = Math.hypot(q[0], q[1], q[2], q[3]);
      if (len > 1e-12) for (let c = 0; c < 4; c++) q[c] /= len;
      mirrorQuat(q);
      const cur = node.getRotation();
      if (sameFloats(q, cur) || q.every((x, k) => Math.abs(x - cur[k]) <= 1e-5)) rotation = raw;
    }
    let offset: Float32Array;
    const ibm = ibmOf.get(node);
    if (ibm) {
      const m = Float32Array.from(ibm);
      mirrorMat4(m);
      offset = mat4ToMatrix3x4(m);
    } else {
      const m = Float32Array.from(
        mat4.invert(mat4.create(), node.getWorldMatrix() as unknown as mat4) ?? mat4.create(),
      );
      mirrorMat4(m);
      offset = mat4ToMatrix3x4(m);
    }
    const collisionMask = Number.isInteger(be.collisionMask) ? be.collisionMask & 0xff : 0;
    return {
      name: nameOf.get(node)!,
      parent,
      position,
      rotation,
      scale,
      offsetMatrix: offset,
      collisionMask,
      radius: be.radius !== undefined ? floatFromJson(be.radius) : 0,
      box:
        collisionMask & 2
          ? Float32Array.from(
              Array.isArray(be.box) && be.box.length === 6 ? be.box : [0, 0, 0, 0, 0, 0],
              floatFromJson,
            )
          : null,
    };
  });

  // Bones without stored collision shapes get a sphere and a box around the vertices they move
  // (weight > 0.33), in bone space: the engine builds skinned bounding boxes from them.
  const computeShape = boneNodes.map(
    (n) => !Number.isInteger((n.getExtras() as any)?.urho3d?.bone?.collisionMask),
  );
  if (computeShape.some(Boolean)) {
    const nb = bones.length;
    const box = new Float64Array(nb * 6);
    for (let b = 0; b < nb; b++)
      box.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], b * 6);
    const mats = new Float64Array(nb * 12);
    bones.forEach((b, i) => {
      mats.set(b.offsetMatrix.subarray(0, 12), i * 12);
    });
    const shape = Uint8Array.from(computeShape, Number);
    const radius = new Float64Array(nb);
    const hit = new Uint8Array(nb);
    for (const vp of vprims) {
      if (vp.lod !== 0 || !vp.joints || !vp.weights) continue;
      const pos = vp.attrs.get('POSITION')!.values as Float32Array;
      boneShapes(pos, vp.joints, vp.weights, vp.vertexCount, shape, mats, box, radius, hit);
    }
    bones.forEach((b, i) => {
      if (!computeShape[i] || !hit[i]) return;
      b.collisionMask = 3;
      b.radius = radius[i];
      b.box = Float32Array.from(box.subarray(i * 6, i * 6 + 6));
    });
  }

  // --- Bounds and geometry centres -----------------------------------------------------------
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  const centers: number[] = [];
  for (let g = 0; g < geometryCount; g++) {
    const gmin = [Infinity, Infinity, Infinity];
    const gmax = [-Infinity, -Infinity, -Infinity];
    for (const p of primsOfGeometry[g])
      indexedBounds(p.attrs.get('POSITION')!.values as Float32Array, p.indices, gmin, gmax);
    for (let c = 0; c < 3; c++) {
      if (gmin[c] > gmax[c]) gmin[c] = gmax[c] = 0;
      centers.push((gmin[c] + gmax[c]) / 2);
    }
  }
  for (const group of groupList) allBounds(group[0].attrs.get('POSITION')!.values as Float32Array, min, max);
  for (let c = 0; c < 3; c++) if (min[c] > max[c]) min[c] = max[c] = 0;
  let bounds = Float32Array.from([...min, ...max]);
  if (hx?.bounds?.length === 6) {
    const hb = Float32Array.from(hx.bounds, floatFromJson);
    const encloses = [0, 1, 2].every((c) => hb[c] <= Math.fround(min[c]) && hb[c + 3] >= Math.fround(max[c]));
    if (encloses) bounds = hb;
  }
  let geometryCenters = Float32Array.from(centers);
  if (
    hx &&
    allHinted &&
    Array.isArray(hx.geometryCenters) &&
    hx.geometryCenters.length <= geometryCount * 3
  ) {
    geometryCenters = Float32Array.from(hx.geometryCenters, floatFromJson);
  }

  const hasModel = geometries.length > 0 || bones.length > 0;
  const model: MdlModel | null = hasModel
    ? {
        magic,
        vertexBuffers,
        indexBuffers,
        geometries,
        morphs,
        bones,
        bounds,
        geometryCenters,
        trailing:
          allHinted && Array.isArray(hx?.trailing) ? Uint8Array.from(hx!.trailing!) : new Uint8Array(0),
      }
    : null;

  // --- Animations --------------------------------------------------------------------------
  const oldBase = hint?.top.getName();
  const animations: ExportedAnimation[] = [];
  const usedFiles = new Set<string>();
  for (const anim of root.listAnimations()) {
    const a = exportAnimation(anim, options.fps ?? EXPORT_URHO_DEFAULTS.fps, warnings, nameOf);
    if (!a) continue;
    const ae = (anim.getExtras() as any)?.urho3d;
    let file: string;
    if (typeof ae?.file === 'string' && ae.file) {
      file = oldBase && ae.file.startsWith(oldBase) ? name + ae.file.slice(oldBase.length) : ae.file;
    } else file = `${name}_${(anim.getName() || `Animation${animations.length}`).replace(/[^\w.-]+/g, '_')}`;
    while (usedFiles.has(file)) file += '_';
    usedFiles.add(file);
    animations.push({ fileName: file, animation: a });
  }
  const geometryMaterials: (Material | null)[] = [];
  for (const vp of vprims)
    if (vp.lod === 0 && geometryMaterials[vp.geometry] === undefined)
      geometryMaterials[vp.geometry] = vp.material ?? null;
  for (let g = 0; g < geometryMaterials.length; g++) geometryMaterials[g] ??= null;
  return { model, animations, warnings: warnings.list(), geometryMaterials };
}

function convKey(acc: Accessor): string {
  // Identity of an accessor within one export run.
  let id = accIds.get(acc);
  if (id === undefined) accIds.set(acc, (id = nextAccId++));
  return String(id);
}
const accIds = new WeakMap<Accessor, number>();
let nextAccId = 0;

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Writes `indices` as little-endian u16/u32 into `data` from index `at` on. */
function putIndices(data: Uint8Array, size: number, at: number, indices: Uint32Array): void {
  if (LITTLE_ENDIAN_HOST && data.byteOffset % size === 0) {
    if (size === 2) new Uint16Array(data.buffer, data.byteOffset, data.byteLength >> 1).set(indices, at);
    else new Uint32Array(data.buffer, data.byteOffset, data.byteLength >> 2).set(indices, at);
    return;
  }
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let i = 0; i < indices.length; i++) {
    if (size === 2) dv.setUint16((at + i) * 2, indices[i], true);
    else dv.setUint32((at + i) * 4, indices[i], true);
  }
}

/** First position whose index is not below `count` (NaN too), or -1. */
function firstIndexAtOrAbove(idx: Uint32Array, count: number): number {
  for (let i = 0; i < idx.length; i++) if (!(idx[i] < count)) return i;
  return -1;
}

/** glTF JOINTS_0 values → bone numbers through `map` (joints past it → bone 0). */
function mapJoints(ja: ArrayLike<number>, map: ArrayLike<number>): Uint16Array {
  const table = new Int32Array(map.length);
  for (let i = 0; i < map.length; i++) table[i] = map[i] ?? 0;
  const out = new Uint16Array(ja.length);
  const n = table.length;
  for (let i = 0; i < ja.length; i++) {
    const j = ja[i];
    out[i] = j < n ? table[j] : 0;
  }
  return out;
}

/**
 * Blend indices local to a geometry's bone mapping (bones missing from it → 0). Fills the
 * vertices `indices` lists (or every vertex when `all`) that are not `done` yet, marking them.
 */
function localJoints(
  out: Uint8Array,
  done: Uint8Array,
  joints: Uint16Array,
  mapping: Uint32Array,
  indices: Uint32Array | null,
  all: boolean,
): void {
  let inv: Int32Array | null = null;
  if (mapping.length) {
    let max = 0;
    for (let i = 0; i < joints.length; i++) if (joints[i] > max) max = joints[i];
    inv = new Int32Array(max + 1);
    // a bone listed twice in the mapping takes its last position
    for (let i = 0; i < mapping.length; i++) if (mapping[i] <= max) inv[mapping[i]] = i;
  }
  const fill = (v: number) => {
    for (let c = 0; c < 4; c++) {
      const k = v * 4 + c;
      out[k] = inv ? inv[joints[k]] : joints[k];
    }
  };
  if (all) {
    const n = done.length;
    for (let v = 0; v < n; v++) if (!done[v]) fill(v);
    return;
  }
  for (let i = 0; i < indices!.length; i++) {
    const v = indices![i];
    if (!done[v]) {
      fill(v);
      done[v] = 1;
    }
  }
}

/** Bone-space bounding box and radius of the vertices each bone moves with weight > 0.33. */
function boneShapes(
  pos: Float32Array,
  joints: Uint16Array,
  weights: Float32Array,
  vertexCount: number,
  shape: Uint8Array,
  mats: Float64Array,
  box: Float64Array,
  radius: Float64Array,
  hit: Uint8Array,
): void {
  for (let v = 0; v < vertexCount; v++) {
    const x = pos[v * 3];
    const y = pos[v * 3 + 1];
    const z = pos[v * 3 + 2];
    for (let c = 0; c < 4; c++) {
      if (!(weights[v * 4 + c] > 0.33)) continue;
      const b = joints[v * 4 + c];
      if (!shape[b]) continue;
      const m = b * 12;
      const px = mats[m] * x + mats[m + 1] * y + mats[m + 2] * z + mats[m + 3];
      const py = mats[m + 4] * x + mats[m + 5] * y + mats[m + 6] * z + mats[m + 7];
      const pz = mats[m + 8] * x + mats[m + 9] * y + mats[m + 10] * z + mats[m + 11];
      if (!Number.isFinite(px + py + pz)) continue;
      const o = b * 6;
      if (px < box[o]) box[o] = px;
      if (px > box[o + 3]) box[o + 3] = px;
      if (py < box[o + 1]) box[o + 1] = py;
      if (py > box[o + 4]) box[o + 4] = py;
      if (pz < box[o + 2]) box[o + 2] = pz;
      if (pz > box[o + 5]) box[o + 5] = pz;
      // Math.hypot (the stored radius) only where it can raise the maximum
      const r = radius[b];
      if (px * px + py * py + pz * pz >= r * r * (1 - 1e-9)) {
        const h = Math.hypot(px, py, pz);
        if (h > r) radius[b] = h;
      }
      hit[b] = 1;
    }
  }
}

/** Extends min/max by the vertices `indices` uses. */
function indexedBounds(pos: Float32Array, indices: Uint32Array, min: number[], max: number[]): void {
  let x0 = min[0];
  let y0 = min[1];
  let z0 = min[2];
  let x1 = max[0];
  let y1 = max[1];
  let z1 = max[2];
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k] * 3;
    const x = pos[i];
    const y = pos[i + 1];
    const z = pos[i + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  min[0] = x0;
  min[1] = y0;
  min[2] = z0;
  max[0] = x1;
  max[1] = y1;
  max[2] = z1;
}

/** Extends min/max by every vertex. */
function allBounds(pos: Float32Array, min: number[], max: number[]): void {
  for (let i = 0; i + 2 < pos.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      const x = pos[i + c];
      if (x < min[c]) min[c] = x;
      if (x > max[c]) max[c] = x;
    }
  }
}

/** Vertices (of `n`) where any of the morph channels is not (0, 0, 0). */
function movedVertices(n: number, ...channels: (Float32Array | undefined)[]): Uint32Array {
  const list = new Uint32Array(n);
  let count = 0;
  const present = channels.filter((a): a is Float32Array => !!a);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < present.length; k++) {
      const a = present[k];
      if (a[i * 3] !== 0 || a[i * 3 + 1] !== 0 || a[i * 3 + 2] !== 0) {
        list[count++] = i;
        break;
      }
    }
  }
  return list.slice(0, count);
}

/** `vprims` grouped by geometry number (index = geometry), in their original order. */
function primsByGeometry(vprims: VPrim[], geometryCount: number): VPrim[][] {
  const out: VPrim[][] = [];
  for (let g = 0; g < geometryCount; g++) out.push([]);
  for (const p of vprims) out[p.geometry]?.push(p);
  return out;
}

function usedBones(vp: VPrim, indices: ArrayLike<number>): Set<number> {
  const s = new Set<number>();
  if (!vp.joints) return s;
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i];
    for (let c = 0; c < 4; c++) if (vp.weights![v * 4 + c] > 0) s.add(vp.joints[v * 4 + c]);
  }
  return s;
}

/** Splits a skinned triangle-list VPrim into chunks of at most `maxBones` bones (own vertices each). */
function splitByBones(vp: VPrim, maxBones: number): VPrim[] {
  const per =
    vp.primitiveType === PrimitiveType.TRIANGLE_LIST
      ? 3
      : vp.primitiveType === PrimitiveType.LINE_LIST
        ? 2
        : 1;
  const { indices } = vp;
  const joints = vp.joints!;
  const weights = vp.weights!;
  // Chunks are runs of consecutive triangles: a triangle starts a new chunk when its bones would
  // take the current chunk past maxBones. `mark[b] === stamp` = bone b is in the current chunk.
  let maxJoint = 0;
  for (let i = 0; i < joints.length; i++) if (joints[i] > maxJoint) maxJoint = joints[i];
  const mark = new Int32Array(maxJoint + 1);
  let stamp = 1;
  let inChunk = 0;
  const fresh: number[] = [];
  const starts: number[] = [0];
  const usable = indices.length - (indices.length % per);
  const freshBones = () => {
    fresh.length = 0;
    for (let i = 0; i < per; i++) {
      const v = indices[at + i];
      for (let c = 0; c < 4; c++) {
        if (!(weights[v * 4 + c] > 0)) continue;
        const b = joints[v * 4 + c];
        if (mark[b] !== stamp && !fresh.includes(b)) fresh.push(b);
      }
    }
  };
  let at = 0;
  for (; at < usable; at += per) {
    freshBones();
    if (inChunk + fresh.length > maxBones && at > starts[starts.length - 1]) {
      starts.push(at);
      stamp++;
      inChunk = 0;
      freshBones();
    }
    for (const b of fresh) mark[b] = stamp;
    inChunk += fresh.length;
  }
  if (starts.length > 1 || usable > 0) starts.push(usable);
  const remap = new Int32Array(vp.vertexCount).fill(-1);
  const chunks: { idx: Uint32Array; order: Uint32Array }[] = [];
  for (let k = 0; k + 1 < starts.length; k++) {
    const from = starts[k];
    const to = starts[k + 1];
    const idx = new Uint32Array(to - from);
    const orderAll = new Uint32Array(to - from);
    let n = 0;
    for (let i = from; i < to; i++) {
      const v = indices[i];
      let r = remap[v];
      if (r < 0) {
        r = n++;
        remap[v] = r;
        orderAll[r] = v;
      }
      idx[i - from] = r;
    }
    const order = orderAll.subarray(0, n);
    for (let i = 0; i < n; i++) remap[order[i]] = -1;
    chunks.push({ idx, order });
  }
  return chunks.map(({ idx, order }, k) => {
    const sub = <T extends AttrValues>(a: T, comps: number): T => {
      const out = new (a.constructor as any)(order.length * comps) as T;
      for (let i = 0; i < order.length; i++) {
        const v = order[i];
        for (let c = 0; c < comps; c++) out[i * comps + c] = a[v * comps + c];
      }
      return out;
    };
    const attrs: VPrim['attrs'] = new Map();
    for (const [k, a] of vp.attrs) attrs.set(k, { ...a, values: sub(a.values, a.comps) });
    return {
      ...vp,
      vbKey: `${vp.vbKey}|split${k}`,
      vertexCount: order.length,
      attrs,
      joints: vp.joints ? sub(vp.joints, 4) : null,
      weights: vp.weights ? sub(vp.weights, 4) : null,
      rawBlend: null,
      indices: idx,
      targets: vp.targets.map((t) => ({
        key: t.key,
        pos: t.pos && sub(t.pos, 3),
        nrm: t.nrm && sub(t.nrm, 3),
        tan: t.tan && sub(t.tan, 3),
      })),
      hintVb: undefined,
      hintIb: undefined,
    };
  });
}

/** The AssetImporter element order for a primitive's attributes (fits the UMDL mask when it can). */
function deriveElements(p: VPrim, warnings: WarningCollector): VertexElement[] {
  const els: { type: number; semantic: number; index: number }[] = [];
  const has = (a: string) => p.attrs.has(a);
  els.push({ type: ElementType.VECTOR3, semantic: Semantic.POSITION, index: 0 });
  if (has('NORMAL')) els.push({ type: ElementType.VECTOR3, semantic: Semantic.NORMAL, index: 0 });
  const sets = (prefix: string) =>
    [...p.attrs.keys()]
      .filter((k) => k.startsWith(prefix))
      .map((k) => Number(k.slice(prefix.length)))
      .sort((a, b) => a - b);
  for (const c of sets('COLOR_'))
    els.push({ type: ElementType.UBYTE4_NORM, semantic: Semantic.COLOR, index: c });
  for (const t of sets('TEXCOORD_')) {
    if (p.attrs.get(`TEXCOORD_${t}`)!.comps !== 2) continue;
    els.push({ type: ElementType.VECTOR2, semantic: Semantic.TEXCOORD, index: t });
  }
  if (has('TANGENT')) els.push({ type: ElementType.VECTOR4, semantic: Semantic.TANGENT, index: 0 });
  if (p.joints && p.weights) {
    els.push({ type: ElementType.VECTOR4, semantic: Semantic.BLENDWEIGHTS, index: 0 });
    els.push({ type: ElementType.UBYTE4, semantic: Semantic.BLENDINDICES, index: 0 });
  }
  for (const k of p.attrs.keys()) {
    if (!k.startsWith('_URHO_')) continue;
    const e = parseRawAttributeName(k);
    const a = p.attrs.get(k)!;
    // Only a canonical name parses (see rawAttributeName), so elementValues finds it again; an
    // element already written from a standard attribute is not written twice.
    const dup = e && els.some((x) => x.type === e.type && x.semantic === e.semantic && x.index === e.index);
    if (e && !dup && a.values.BYTES_PER_ELEMENT * a.comps === ELEMENT_TYPE_SIZES[e.type]) els.push(e);
    else warnings.warn('ATTRIBUTE_DROPPED', `attribute ${k} has no Urho3D vertex element; dropped`);
  }
  let offset = 0;
  return els.map((e) => {
    const out = { ...e, offset };
    offset += ELEMENT_TYPE_SIZES[e.type];
    return out;
  });
}

function exportAnimation(
  anim: Animation,
  fps: number,
  warnings: WarningCollector,
  nameOf: Map<Node, string>,
): AniAnimation | null {
  const ae = (anim.getExtras() as any)?.urho3d;
  const byNode = new Map<
    Node,
    {
      translation?: ReturnType<typeof readSampler>;
      rotation?: ReturnType<typeof readSampler>;
      scale?: ReturnType<typeof readSampler>;
      inputs: Accessor[];
    }
  >();
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
  if (!byNode.size) return null;
  const tracks: AniTrack[] = [];
  let maxTime = 0;
  let resampled = 0;
  for (const [node, e] of byNode) {
    const samplers = [e.translation, e.rotation, e.scale].filter(Boolean) as ReturnType<typeof readSampler>[];
    const allLinear = samplers.every((s) => (s.interpolation ?? 'LINEAR') === 'LINEAR');
    const first = samplers[0].times;
    const shared = samplers.every((s) => sameFloats(s.times, first));
    let times: Float32Array;
    if (allLinear && shared) times = first.slice();
    else {
      const set = new Set<number>();
      for (const s of samplers) for (const t of s.times) set.add(t);
      if (!allLinear) {
        resampled++;
        let lo = Infinity;
        let hi = -Infinity;
        for (const s of samplers) {
          if (s.times.length) {
            lo = Math.min(lo, s.times[0]);
            hi = Math.max(hi, s.times[s.times.length - 1]);
          }
        }
        lo = Math.max(0, lo);
        // Bounded: at most 100 000 resampled keys per track (hostile key ranges).
        const steps = Number.isFinite(hi - lo) ? Math.min(100000, Math.ceil((hi - lo) * fps)) : 0;
        for (let i = 0; i < steps; i++) set.add(Math.fround(lo + i / fps));
      }
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
    if (n) maxTime = Math.max(maxTime, times[n - 1]);
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
    const direct = allLinear && shared && ordered;
    const positions = sample(e.translation, 3, direct);
    if (positions) mirrorVec3(positions);
    const q = sample(e.rotation, 4, direct);
    let rotations: Float32Array | null = null;
    if (q) {
      mirrorQuat(q);
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
    tracks.push({
      name: nameOf.get(node) ?? node.getName(),
      channelMask: (positions ? 1 : 0) | (rotations ? 2 : 0) | (scales ? 4 : 0),
      keyCount: n,
      times,
      positions,
      rotations,
      scales,
    });
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
  if (resampled) {
    warnings.warn(
      'ANIMATION_RESAMPLED',
      `STEP / CUBICSPLINE channels were resampled to linear keys at ${fps} fps plus the original key times`,
      resampled,
    );
  }
  // Restore the file's track order, channel masks and empty tracks.
  if (Array.isArray(ae?.tracks)) {
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
  const length = ae?.length !== undefined ? floatFromJson(ae.length) : maxTime;
  return {
    name: anim.getName(),
    length,
    tracks,
    ...(Array.isArray(ae?.trailing) ? { trailing: Uint8Array.from(ae.trailing) } : {}),
  };
}

/** True when export writes materials (see {@link ExportUrhoOptions.materials}). */
export function wantsMaterials(doc: Document, mode: boolean | 'auto'): boolean {
  if (mode !== 'auto') return mode;
  const root = doc.getRoot();
  if (root.listScenes().some((s) => (s.getExtras() as any)?.urho3d?.prefab)) return true;
  return root.listMaterials().some((m) => (m.getExtras() as any)?.urho3d?.material);
}

/**
 * Exports a document as Urho3D files: `NAME.mdl` (when it has geometry or bones) and one
 * `NAME_<anim>.ani` per animation.
 *
 * ```ts
 * const { files, warnings } = await exportUrho(document, { name: 'Jack' });
 * for (const [file, bytes] of files) writeFileSync(file, bytes);
 * ```
 */
export async function exportUrho(doc: Document, options: ExportUrhoOptions = {}): Promise<ExportResult> {
  if (options.pak) {
    const { pak, ...rest } = options;
    const out = await exportUrho(doc, rest);
    const name = options.name ?? modelExtrasOf(doc)?.top.getName() ?? 'model';
    const bytes = writePak(createPak(out.files, { compress: pak === 'lz4' }));
    return { files: new Map([[`${name.replace(/[^\w.-]+/g, '_')}.pak`, bytes]]), warnings: out.warnings };
  }
  if (wantsMaterials(doc, options.materials ?? EXPORT_URHO_DEFAULTS.materials))
    return exportUrhoScene(doc, options);
  const { model, animations, warnings } = exportUrhoModel(doc, options);
  const name = options.name ?? modelExtrasOf(doc)?.top.getName() ?? 'model';
  const files: FileSet = new Map();
  if (model) files.set(`${name}.mdl`, writeMdl(model));
  for (const a of animations) files.set(`${a.fileName}.ani`, writeAni(a.animation));
  if (!files.size)
    throw new ExportError(
      'NOTHING_TO_EXPORT',
      'the document has no meshes, skins or animations to write as Urho3D files',
    );
  return { files, warnings };
}
