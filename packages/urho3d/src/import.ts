/**
 * Mapping: Urho3D file models (`.mdl` + `.ani`) → glTF-Transform Document.
 */
import { FormatError, WarningCollector, type Warning } from '@gltf-legacy/core';
import {
  type Accessor,
  Document,
  type Material,
  type Mesh,
  type Node,
  type Primitive,
  type Skin,
} from '@gltf-transform/core';
import type { AniAnimation } from './ani.js';
import { attributeFor, rawAttributeName, readElement, sanitizeAttribute } from './attributes.js';
import { type MdlModel, PrimitiveType } from './mdl.js';
import type { UrhoModelExtras } from './extras.js';
import { MSFT_LOD, MSFTLod } from './msft-lod.js';
import {
  flipTriangles,
  floatToJson,
  floatsToJson,
  matrix3x4ToMat4,
  mirrorMat4,
  mirrorQuat,
  mirrorVec3,
  negativeZeros,
} from './space.js';

/** Options of {@link importUrho}. */
export interface ImportUrhoOptions {
  /** Name of the model (top node, mesh, materials). Default `model`. */
  name?: string;
}
export const IMPORT_URHO_DEFAULTS: Required<ImportUrhoOptions> = { name: 'model' };

/** One animation file to import beside the model. */
export interface UrhoAnimationInput {
  /** File stem, e.g. `Jack_Walk`; kept so export writes the same file name. */
  fileName: string;
  animation: AniAnimation;
}

export type { UrhoModelExtras } from './extras.js';

const fround = Math.fround;

/**
 * Builds a glTF document from a model and its animations.
 *
 * ```ts
 * const { document, warnings } = importUrho(readMdl(mdl), [{ fileName: 'Jack_Walk', animation: readAni(ani) }], { name: 'Jack' });
 * ```
 */
export function importUrho(
  model: MdlModel | null,
  animations: UrhoAnimationInput[],
  options: ImportUrhoOptions = {},
): { document: Document; warnings: Warning[] } {
  const name = options.name ?? IMPORT_URHO_DEFAULTS.name;
  const warnings = new WarningCollector();
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene(name);
  doc.getRoot().setDefaultScene(scene);
  const top = doc.createNode(name);
  scene.addChild(top);
  const nodesByName = new Map<string, Node>();
  if (model) importModel(doc, model, name, top, nodesByName, warnings);
  for (const a of animations) importAnimation(doc, a, top, nodesByName, model !== null, warnings);
  for (const acc of doc.getRoot().listAccessors()) acc.setBuffer(buffer);
  return { document: doc, warnings: warnings.list() };
}

function importModel(
  doc: Document,
  model: MdlModel,
  name: string,
  top: Node,
  nodesByName: Map<string, Node>,
  warnings: WarningCollector,
) {
  // Hostile files could make many geometries / LODs each expand a big shared buffer: bound the work.
  let expanded = 0;
  for (const g of model.geometries) {
    const vbs = new Set<number>();
    for (const l of g.lods) {
      expanded += l.indexCount;
      vbs.add(l.vertexBuffer);
    }
    for (const v of vbs) expanded += model.vertexBuffers[v].vertexCount * 5;
  }
  if (expanded > 1 << 28) {
    throw new FormatError(`geometries would expand to ${expanded} vertex/index entries`, {
      code: 'TOO_LARGE',
      field: 'geometries',
    });
  }
  // Skeleton.
  const boneNodes: Node[] = model.bones.map((b) => {
    const node = doc.createNode(b.name);
    const t = [b.position[0], b.position[1], b.position[2]];
    mirrorVec3(t);
    const q = [b.rotation[1], b.rotation[2], b.rotation[3], b.rotation[0]];
    mirrorQuat(q);
    const qlen = Math.hypot(q[0], q[1], q[2], q[3]);
    const boneExtras: Record<string, unknown> = { collisionMask: b.collisionMask };
    if (b.collisionMask & 1) boneExtras.radius = floatToJson(b.radius);
    if (b.box) boneExtras.box = floatsToJson(b.box);
    // Node TRS are JSON numbers, which lose the sign of zero: record the file's -0 components.
    // glTF-Transform writes a TRS within 1e-5 of its default as the default: keep such file values.
    const nearDefault = (a: ArrayLike<number>, d: number[]) =>
      d.some((x, k) => a[k] !== x) && d.every((x, k) => Math.abs(a[k] - x) <= 1e-5);
    if (nearDefault(b.position, [0, 0, 0])) boneExtras.position = floatsToJson(b.position);
    if (nearDefault(b.rotation, [1, 0, 0, 0]) || nearDefault(b.rotation, [-1, 0, 0, 0]))
      boneExtras.rotation = floatsToJson(b.rotation);
    if (nearDefault(b.scale, [1, 1, 1])) boneExtras.scale = floatsToJson(b.scale);
    const zeros = negativeZeros([...b.position, ...b.rotation, ...b.scale]);
    if (zeros.length) boneExtras.negativeZeros = zeros;
    if (Math.abs(qlen - 1) > 1e-6) {
      // glTF requires unit rotations: keep the file's value to restore it on export.
      boneExtras.rotation = floatsToJson(b.rotation);
      if (qlen > 1e-12 && Number.isFinite(qlen)) for (let c = 0; c < 4; c++) q[c] /= qlen;
      else q.splice(0, 4, 0, 0, 0, 1);
      warnings.warn(
        'ROTATION_NORMALIZED',
        'bone rotation was not a unit quaternion; normalized (file value kept in extras)',
      );
    }
    node.setTranslation(t as [number, number, number]);
    node.setRotation(q as [number, number, number, number]);
    node.setScale([b.scale[0], b.scale[1], b.scale[2]]);
    node.setExtras({ urho3d: { bone: boneExtras } });
    if (!nodesByName.has(b.name)) nodesByName.set(b.name, node);
    else warnings.warn('DUPLICATE_BONE_NAME', `two bones are named "${b.name}"; animations drive the first`);
    return node;
  });
  model.bones.forEach((b, i) => {
    if (b.parent === i) top.addChild(boneNodes[i]);
    else boneNodes[b.parent].addChild(boneNodes[i]);
  });

  let skin: Skin | null = null;
  if (model.bones.length) {
    skin = doc.createSkin(`${name}_skin`);
    const ibm = new Float32Array(model.bones.length * 16);
    model.bones.forEach((b, i) => {
      matrix3x4ToMat4(b.offsetMatrix, ibm.subarray(i * 16, i * 16 + 16));
    });
    mirrorMat4(ibm);
    skin.setInverseBindMatrices(doc.createAccessor(`${name}_inverseBind`).setType('MAT4').setArray(ibm));
    for (const n of boneNodes) skin.addJoint(n);
    const root = model.bones.findIndex((b, i) => b.parent === i);
    if (root >= 0) skin.setSkeleton(boneNodes[root]);
  }

  // Vertex buffers → shared accessors.
  const vbAttrs: Map<string, Accessor>[] = [];
  const vbJoints: (Uint8Array | null)[] = [];
  const needRawJoints = model.vertexBuffers.map(() => false);
  const rawBackups: Record<string, string>[] = model.vertexBuffers.map(() => ({}));
  for (const g of model.geometries)
    if (g.boneMapping.length) for (const l of g.lods) needRawJoints[l.vertexBuffer] = true;
  model.vertexBuffers.forEach((vb, v) => {
    const attrs = new Map<string, Accessor>();
    vbJoints.push(null);
    // glTF needs TEXCOORD_n / COLOR_n sets numbered 0, 1, 2… without gaps: a set after a gap
    // stays an application-specific attribute with its file values.
    const standard = new Set<string>();
    vb.elements.forEach((e) => {
      standard.add(attributeFor(e)[0]);
    });
    vb.elements.forEach((e, k) => {
      let [attr, kind] = attributeFor(e);
      const set = /^(TEXCOORD|COLOR)_(\d+)$/.exec(attr);
      if (set && Number(set[2]) > 0) {
        for (let i = 0; i < Number(set[2]); i++) {
          if (!standard.has(`${set[1]}_${i}`)) {
            attr = rawAttributeName(e);
            kind = 'raw';
            break;
          }
        }
      }
      if (attrs.has(attr)) attr = `_URHO_E${k}`;
      if (kind === 'joints' && !model.bones.length) kind = 'raw';
      const values = readElement(vb.data, vb.stride, vb.vertexCount, e);
      const acc = doc.createAccessor(`vb${v}.${attr}`);
      switch (kind) {
        case 'position':
          mirrorVec3(values);
          acc.setType('VEC3').setArray(values);
          break;
        case 'normal':
        case 'tangent':
        case 'weights': {
          const raw = (values as Float32Array).slice();
          if (kind !== 'weights') mirrorVec3(values, kind === 'tangent' ? 4 : 3);
          if (sanitizeAttribute(kind, values as Float32Array)) {
            warnings.warn(
              `${kind.toUpperCase()}_SANITIZED`,
              `${attr} values were not valid glTF (unit length / ±1 handedness / weights summing to 1, finite); fixed, file values kept in a raw accessor`,
            );
            // File values as raw float bits (they may be NaN, which glTF accessors cannot hold).
            const accName = `${name}.vb${v}.raw.${attr}`;
            doc
              .createAccessor(accName)
              .setType('SCALAR')
              .setArray(new Uint16Array(raw.buffer, raw.byteOffset, raw.length * 2));
            rawBackups[v][attr] = accName;
          }
          acc.setType(kind === 'normal' ? 'VEC3' : 'VEC4').setArray(values);
          break;
        }
        case 'plain':
          acc.setType('VEC2').setArray(values);
          break;
        case 'color':
          acc
            .setType(values instanceof Uint8Array ? 'VEC4' : e.type === 3 ? 'VEC3' : 'VEC4')
            .setArray(values);
          if (values instanceof Uint8Array) acc.setNormalized(true);
          break;
        case 'joints':
          vbJoints[v] = values as Uint8Array;
          if (needRawJoints[v]) attrs.set('_URHO_BLENDINDICES', acc.setType('VEC4').setArray(values));
          else acc.dispose();
          return;
        default: {
          const n = values.length / Math.max(1, vb.vertexCount);
          acc.setType(n === 1 ? 'SCALAR' : n === 2 ? 'VEC2' : n === 3 ? 'VEC3' : 'VEC4').setArray(values);
        }
      }
      attrs.set(attr, acc);
    });
    vbAttrs.push(attrs);
  });

  // Which geometries use each vertex (JOINTS_0 of a shared buffer follow the owning geometry's mapping).
  const owner: Int32Array[] = model.vertexBuffers.map((vb) => new Int32Array(vb.vertexCount).fill(-1));
  const usedBy: Uint8Array[][] = model.geometries.map(() => []);
  model.geometries.forEach((geo, g) => {
    for (const lod of geo.lods) {
      const ib = model.indexBuffers[lod.indexBuffer];
      const vc = model.vertexBuffers[lod.vertexBuffer].vertexCount;
      const used = (usedBy[g][lod.vertexBuffer] ??= new Uint8Array(vc));
      const own = owner[lod.vertexBuffer];
      const view = indexView(ib);
      for (let i = lod.indexStart; i < lod.indexStart + lod.indexCount; i++) {
        const x = view[i];
        if (x >= vc) {
          throw new FormatError(
            `index ${x} is past the ${vc} vertices of vertex buffer ${lod.vertexBuffer}`,
            {
              code: 'BAD_INDEX',
              field: `indexBuffers[${lod.indexBuffer}][${i}]`,
            },
          );
        }
        used[x] = 1;
        if (own[x] < 0) own[x] = g;
      }
    }
  });

  // JOINTS_0 per (vertex buffer, geometry mapping), as global bone indices.
  const jointsCache = new Map<string, Accessor>();
  let badBones = 0;
  const mappings = model.geometries.map((geo) => geo.boneMapping);
  const jointsFor = (v: number, g: number): Accessor | null => {
    const raw = vbJoints[v];
    if (!raw) return null;
    const mapping = model.geometries[g].boneMapping;
    const key = `${v}:${mapping.join(',')}`;
    let acc = jointsCache.get(key);
    if (acc) return acc;
    const nb = model.bones.length;
    const weights = vbAttrs[v].get('WEIGHTS_0')?.getArray() as Float32Array | undefined;
    const wide = remapJoints(raw, weights, usedBy[g][v], owner[v], mapping, mappings, nb);
    badBones += wide.bad;
    const out = nb > 256 ? wide.out : Uint8Array.from(wide.out);
    acc = doc.createAccessor(`vb${v}.JOINTS_0`).setType('VEC4').setArray(out);
    jointsCache.set(key, acc);
    return acc;
  };

  // Morph targets: one target per morph on every primitive (glTF needs the same count on all);
  // vertex buffers a morph does not touch share one all-zero accessor per vertex count.
  const channels: [string, 'positions' | 'normals' | 'tangents'][] = [
    ['POSITION', 'positions'],
    ['NORMAL', 'normals'],
    ['TANGENT', 'tangents'],
  ];
  const usedChannels = channels.filter(([, key]) =>
    model.morphs.some((mm) => mm.buffers.some((b) => b[key])),
  );
  let denseFloats = 0;
  for (const m of model.morphs)
    for (const b of m.buffers)
      denseFloats += model.vertexBuffers[b.vertexBuffer].vertexCount * 3 * usedChannels.length;
  if (denseFloats > 1 << 28) {
    throw new FormatError(`morphs would expand to ${denseFloats} floats of dense glTF targets`, {
      code: 'TOO_LARGE',
      field: 'morphs',
    });
  }
  const zeroCache = new Map<string, Accessor>();
  const morphTargets: Map<string, Accessor>[][] = model.morphs.map((m, mi) =>
    model.vertexBuffers.map((vb, v) => {
      const out = new Map<string, Accessor>();
      const bufs = m.buffers.filter((b) => b.vertexBuffer === v);
      for (const [attr, key] of usedChannels) {
        if (!vbAttrs[v].has(attr)) continue;
        if (!bufs.some((b) => b[key])) {
          // all-zero VEC3 targets of the same vertex count are one accessor (any buffer, channel)
          const zk = `${vb.vertexCount}`;
          let zero = zeroCache.get(zk);
          if (!zero) {
            zero = doc
              .createAccessor(`zeroMorph${vb.vertexCount}`)
              .setType('VEC3')
              .setArray(new Float32Array(vb.vertexCount * 3))
              .setSparse(true);
            zeroCache.set(zk, zero);
          }
          out.set(attr, zero);
          continue;
        }
        const dense = new Float32Array(vb.vertexCount * 3);
        for (const b of bufs) {
          const src = b[key];
          if (!src) continue;
          for (let i = 0; i < b.vertexCount; i++) {
            const o = b.indices[i] * 3;
            dense[o] = src[i * 3];
            dense[o + 1] = src[i * 3 + 1];
            dense[o + 2] = src[i * 3 + 2];
          }
        }
        mirrorVec3(dense);
        out.set(
          attr,
          doc
            .createAccessor(`morph${mi}.vb${v}.${attr}`)
            .setType('VEC3')
            .setArray(dense)
            // Sparse storage when most vertices do not move (the usual case for morphs).
            .setSparse(bufs.reduce((n, b) => n + b.vertexCount, 0) * 2 < vb.vertexCount),
        );
      }
      return out;
    }),
  );

  // Geometries: LOD 0 in the visible mesh, other levels in meshes no node uses.
  const materials: Material[] = model.geometries.map((_, g) =>
    doc
      .createMaterial(`${name}_geometry${g}`)
      .setMetallicFactor(0)
      .setRoughnessFactor(1)
      .setExtras({ urho3d: { placeholder: true } }),
  );
  const meshes: Mesh[] = [];
  const meshFor = (level: number): Mesh => {
    while (meshes.length <= level) {
      const m = doc.createMesh(meshes.length ? `${name}_LOD${meshes.length}` : name);
      if (meshes.length) m.setExtras({ urho3d: { lodLevel: meshes.length } });
      meshes.push(m);
    }
    return meshes[level];
  };
  meshFor(0);
  let anyJoints = false;
  model.geometries.forEach((geo, g) => {
    geo.lods.forEach((lod, l) => {
      if (lod.indexCount === 0) return; // kept in the model extras
      const prim = buildPrimitive(doc, model, lod, `${name}.g${g}.lod${l}`);
      if (!prim) return;
      for (const [attr, acc] of vbAttrs[lod.vertexBuffer]) prim.setAttribute(attr, acc);
      const joints = jointsFor(lod.vertexBuffer, g);
      if (joints && skin) {
        prim.setAttribute('JOINTS_0', joints);
        anyJoints = true;
      }
      if (l === 0) {
        for (const [mi, targets] of morphTargets.entries()) {
          const t = doc.createPrimitiveTarget(model.morphs[mi].name);
          for (const [attr, acc] of targets[lod.vertexBuffer]) t.setAttribute(attr, acc);
          prim.addTarget(t);
        }
      }
      prim.setMaterial(materials[g]);
      prim.setExtras({ urho3d: { geometry: g, lod: l } });
      meshFor(l).addPrimitive(prim);
    });
  });
  if (model.morphs.length) meshes[0].setExtras({ targetNames: model.morphs.map((m) => m.name) });
  for (const m of meshes.slice(1)) if (!m.listPrimitives().length) m.dispose();
  if (badBones)
    warnings.warn(
      'BAD_BONE_INDEX',
      'a vertex blend index points past the bone mapping / skeleton; set to bone 0',
      badBones,
    );
  if (meshes[0].listPrimitives().length) {
    const meshNode = doc.createNode(`${name}_mesh`).setMesh(meshes[0]);
    if (anyJoints && skin) meshNode.setSkin(skin);
    top.addChild(meshNode);
    const lower = meshes.slice(1).filter((m) => m.listPrimitives().length);
    if (lower.length) {
      // MSFT_lod: LOD nodes outside the scene. A geometry without level L shows its last level there
      // (the engine does the same); those copies are tagged `fill` and ignored by export.
      const lod = doc.createExtension(MSFTLod).createLod();
      lower.forEach((mesh, k) => {
        const level = k + 1;
        model.geometries.forEach((geo, g) => {
          if (geo.lods.length > level) return;
          const last = meshes[Math.min(geo.lods.length, meshes.length) - 1]
            ?.listPrimitives()
            .find(
              (p) =>
                (p.getExtras() as any)?.urho3d?.geometry === g &&
                (p.getExtras() as any)?.urho3d?.lod === geo.lods.length - 1,
            );
          if (!last) return;
          const copy = last.clone();
          for (const t of copy.listTargets()) copy.removeTarget(t);
          copy.setExtras({ urho3d: { geometry: g, lod: geo.lods.length - 1, fill: true } });
          mesh.addPrimitive(copy);
        });
        const n = doc.createNode(`${name}_LOD${level}`).setMesh(mesh);
        if (anyJoints && skin) n.setSkin(skin);
        lod.addLod(n);
      });
      meshNode.setExtension(MSFT_LOD, lod);
    }
  } else meshes[0].dispose();

  const extras: UrhoModelExtras = {
    magic: model.magic,
    vertexBuffers: model.vertexBuffers.map((vb, v) => ({
      vertexCount: vb.vertexCount,
      elementMask: vb.elementMask,
      descriptors: vb.descriptors ? Array.from(vb.descriptors) : null,
      morphRangeStart: vb.morphRangeStart,
      morphRangeCount: vb.morphRangeCount,
      ...(Object.keys(rawBackups[v]).length ? { raw: rawBackups[v] } : {}),
    })),
    indexBuffers: model.indexBuffers.map((ib) => ({ indexCount: ib.indexCount, indexSize: ib.indexSize })),
    geometries: model.geometries.map((g) => ({
      boneMapping: Array.from(g.boneMapping),
      lods: g.lods.map((l) => ({ ...l, distance: floatToJson(l.distance) })),
    })),
    morphs: model.morphs.map((m) => ({
      name: m.name,
      buffers: m.buffers.map((b) => ({
        vertexBuffer: b.vertexBuffer,
        elementMask: b.elementMask,
        vertexCount: b.vertexCount,
      })),
    })),
    bounds: floatsToJson(model.bounds),
    geometryCenters: floatsToJson(model.geometryCenters),
  };
  if (model.trailing.length) extras.trailing = Array.from(model.trailing);
  top.setExtras({ urho3d: { model: extras } });
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * JOINTS_0 (global bone numbers) of a vertex buffer for geometry mapping `mapping`: a vertex the
 * geometry uses (or no geometry owns) goes through `mapping`, others through their owner's.
 * Indices past the mapping / skeleton become 0 (`bad` counts weighted ones of used vertices);
 * weighted repeats (bad data) get the lowest bone not on the vertex, as glTF needs distinct joints.
 */
function remapJoints(
  raw: Uint8Array,
  weights: Float32Array | undefined,
  used: Uint8Array | undefined,
  own: Int32Array,
  mapping: Uint32Array,
  mappings: Uint32Array[],
  nb: number,
): { out: Uint16Array; bad: number } {
  const out = new Uint16Array(raw.length);
  let bad = 0;
  for (let x = 0; x < raw.length >> 2; x++) {
    const u = used ? used[x] : 0;
    const map = u || own[x] < 0 ? mapping : mappings[own[x]];
    const ml = map.length;
    for (let c = 0; c < 4; c++) {
      const i = x * 4 + c;
      const local = raw[i];
      const global = ml ? (local < ml ? map[local] : nb) : local;
      if (global < nb) out[i] = global;
      else {
        out[i] = 0;
        if (weights && weights[i] > 0 && u) bad++;
      }
    }
    if (!weights) continue;
    for (let c = 1; c < 4; c++) {
      const i = x * 4 + c;
      if (!(weights[i] > 0)) continue;
      for (let p = 0; p < c; p++) {
        if (out[x * 4 + p] === out[i] && weights[x * 4 + p] > 0) {
          let j = 0;
          for (; j < nb; j++) {
            let taken = false;
            for (let k = 0; k < 4; k++) if (k !== c && out[x * 4 + k] === j) taken = true;
            if (!taken) break;
          }
          out[i] = j < nb ? j : out[i];
          break;
        }
      }
    }
  }
  return { out, bad };
}

/** An index buffer's values as u16/u32 (a view when aligned on a little-endian host). */
function indexView(ib: MdlModel['indexBuffers'][number]): Uint16Array | Uint32Array {
  const n = Math.floor(ib.data.byteLength / ib.indexSize);
  if (LITTLE_ENDIAN_HOST) {
    const src = ib.data.byteOffset % ib.indexSize === 0 ? ib.data : ib.data.slice();
    return ib.indexSize === 2
      ? new Uint16Array(src.buffer, src.byteOffset, n)
      : new Uint32Array(src.buffer, src.byteOffset, n);
  }
  const dv = new DataView(ib.data.buffer, ib.data.byteOffset, ib.data.byteLength);
  const out = ib.indexSize === 2 ? new Uint16Array(n) : new Uint32Array(n);
  for (let i = 0; i < n; i++)
    out[i] = ib.indexSize === 2 ? dv.getUint16(i * 2, true) : dv.getUint32(i * 4, true);
  return out;
}

function buildPrimitive(
  doc: Document,
  model: MdlModel,
  lod: MdlModel['geometries'][number]['lods'][number],
  label: string,
): Primitive | null {
  const ib = model.indexBuffers[lod.indexBuffer];
  const vertexCount = model.vertexBuffers[lod.vertexBuffer].vertexCount;
  const src = ib.data.subarray(
    lod.indexStart * ib.indexSize,
    (lod.indexStart + lod.indexCount) * ib.indexSize,
  );
  const aligned = src.byteOffset % ib.indexSize === 0 ? src : src.slice();
  const view =
    ib.indexSize === 2
      ? new Uint16Array(aligned.buffer, aligned.byteOffset, lod.indexCount)
      : new Uint32Array(aligned.buffer, aligned.byteOffset, lod.indexCount);
  for (let i = 0; i < view.length; i++) {
    if (view[i] >= vertexCount) {
      throw new FormatError(
        `index ${view[i]} is past the ${vertexCount} vertices of vertex buffer ${lod.vertexBuffer}`,
        {
          code: 'BAD_INDEX',
          field: `indexBuffers[${lod.indexBuffer}][${lod.indexStart + i}]`,
        },
      );
    }
  }
  let indices: Uint16Array | Uint32Array;
  let mode: number;
  switch (lod.primitiveType) {
    case PrimitiveType.TRIANGLE_LIST:
      indices = view.slice();
      flipTriangles(indices);
      mode = 4;
      break;
    case PrimitiveType.TRIANGLE_STRIP:
    case PrimitiveType.TRIANGLE_FAN: {
      const n = Math.max(0, view.length - 2);
      indices = view instanceof Uint16Array ? new Uint16Array(n * 3) : new Uint32Array(n * 3);
      for (let i = 0; i < n; i++) {
        let a: number;
        let b: number;
        const c = view[i + 2];
        if (lod.primitiveType === PrimitiveType.TRIANGLE_FAN) {
          a = view[0];
          b = view[i + 1];
        } else if (i % 2 === 0) {
          a = view[i];
          b = view[i + 1];
        } else {
          a = view[i + 1];
          b = view[i];
        }
        indices[i * 3] = a;
        indices[i * 3 + 1] = c;
        indices[i * 3 + 2] = b; // reversed winding
      }
      mode = 4;
      break;
    }
    case PrimitiveType.LINE_LIST:
      indices = view.slice();
      mode = 1;
      break;
    case PrimitiveType.LINE_STRIP:
      indices = view.slice();
      mode = 3;
      break;
    default:
      indices = view.slice();
      mode = 0;
  }
  if (!indices.length) return null;
  return doc
    .createPrimitive()
    .setMode(mode as 0)
    .setIndices(doc.createAccessor(`${label}.indices`).setType('SCALAR').setArray(indices));
}

function importAnimation(
  doc: Document,
  input: UrhoAnimationInput,
  top: Node,
  nodesByName: Map<string, Node>,
  haveModel: boolean,
  warnings: WarningCollector,
) {
  const ani = input.animation;
  const anim = doc.createAnimation(ani.name);
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
      mirrorVec3(p);
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
      mirrorQuat(q);
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
      length: floatToJson(ani.length),
      tracks: ani.tracks.map((t) => [t.name, t.channelMask, t.keyCount]),
      ...(ani.trailing ? { trailing: Array.from(ani.trailing) } : {}),
    },
  });
}
