/**
 * Mapping: file model (`_d.3d` + `_a.3d` + `.uc`) → glTF-Transform Document.
 */
import { type Accessor, Document, type Material, type Node, type Primitive } from '@gltf-transform/core';
import { KHRMaterialsUnlit } from '@gltf-transform/extensions';
import { encodeBase64, FormatError, WarningCollector } from '@gltf-legacy/core';
import { decodeByteUV } from '@gltf-legacy/quantize';
import { anivFrame, anivVertex, type UnrealAniv } from './aniv.js';
import { isWeaponType, PolyStyle, PolyTypeFlag, type UnrealData } from './data.js';
import { placementTRS, placeUnreal, weaponFrame, type Placement } from './transform.js';
import { type UnrealMeshExtras, VERTEX_ATTRIBUTE } from './extras.js';
import { frameNormals, framesAllSame, swizzledDelta } from './import/frames.js';

export * from './extras.js';
export { frameNormals, smoothNormals } from './import/frames.js';
import type { UcMesh, UcSequence } from './uc.js';

/** Options of {@link importUnreal}. */
export interface UnrealImportOptions {
  /** `all` (default): every frame as a morph target; `first`: frame 0 only, no animation. */
  frames?: 'all' | 'first';
  /**
   * Smooth vertex normals over each file vertex (as the engine shades), for every frame (morph
   * target normal deltas). Default true; false writes no NORMAL (viewers shade flat).
   */
  normals?: boolean;
  /**
   * Read the skins the `.uc` names and embed them as base colour textures (default true; used by
   * `importUnrealFiles`, which has the files to read).
   */
  textures?: boolean;
}

export const UNREAL_IMPORT_DEFAULTS: Required<UnrealImportOptions> = {
  frames: 'all',
  normals: true,
  textures: true,
};

/** What {@link importUnreal} needs: the parsed files. */
export interface UnrealMeshFiles {
  data: UnrealData;
  aniv: UnrealAniv;
  /** The `.uc` directives of this mesh (optional). */
  uc?: UcMesh;
  /** The whole `.uc` text it came from (kept in extras so an unchanged export is identical). */
  ucText?: string;
  /** `latin1` when the `.uc` bytes are not valid UTF-8. */
  ucEncoding?: 'latin1';
  /** File name of the `.uc` (`Sporifier.uc` for the mesh `Sporifier3P`): export writes it back under it. */
  ucFile?: string;
  /** Base name used when there is no `.uc` (e.g. `box` for `box_d.3d`). */
  name: string;
  dataFile?: string;
  anivFile?: string;
  /** Base name of the files (`mar_rifle` for `mar_rifle_d.3d`), the default export name. */
  fileBase?: string;
}

const b64 = (u: Uint8Array) => encodeBase64(u);

/**
 * Builds a Document from parsed Unreal files: one mesh (primitives per texture/style/flags), one
 * node placed by MESHMAP SCALE / MESH ORIGIN, every further frame a morph target, one animation
 * per MESH SEQUENCE (or one "All"), and a `WeaponTriangle` node when the mesh has one.
 *
 * ```ts
 * const doc = importUnreal({ data, aniv, uc, name: 'box' }, { frames: 'all' }, warnings);
 * ```
 */
export function importUnreal(
  files: UnrealMeshFiles,
  options: UnrealImportOptions = {},
  warnings = new WarningCollector(),
): Document {
  const opts = { ...UNREAL_IMPORT_DEFAULTS, ...options };
  const { data, aniv, uc } = files;
  const nv = data.header.numVertices;
  if (aniv.numVertices !== nv) {
    throw new FormatError(`the _a.3d has ${aniv.numVertices} vertices per frame but the _d.3d has ${nv}`, {
      code: 'VERTEX_COUNT_MISMATCH',
      file: files.anivFile,
      field: 'header.frameSize',
    });
  }
  if (aniv.frameCount < 1) {
    throw new FormatError('the _a.3d holds no frame', {
      code: 'NO_FRAMES',
      file: files.anivFile,
      field: 'header.numFrames',
    });
  }
  const meshName = uc?.name ?? files.name;
  const frameCount = opts.frames === 'first' ? 1 : aniv.frameCount;
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene(meshName);
  doc.getRoot().setDefaultScene(scene);

  // ---- triangle groups and runs
  const { vertices, types, colors, uvs, textures, flags } = data.polys;
  const n = types.length;
  const groupOf = new Int32Array(n);
  const groupKeys: number[] = [];
  const keyIndex = new Map<number, number>();
  const runs: number[] = [];
  const weapons: UnrealMeshExtras['weapons'] = [];
  const used = new Uint8Array(nv);
  for (let i = 0; i < n; i++) {
    let g: number;
    if (isWeaponType(types[i])) {
      g = -1;
      weapons.push({
        vertices: [vertices[i * 3], vertices[i * 3 + 1], vertices[i * 3 + 2]],
        type: types[i],
        color: colors[i],
        uvs: Array.from(uvs.subarray(i * 6, i * 6 + 6)),
        texture: textures[i],
        flags: flags[i],
      });
    } else {
      const key = (textures[i] << 16) | (types[i] << 8) | flags[i];
      let gi = keyIndex.get(key);
      if (gi === undefined) {
        gi = groupKeys.length;
        groupKeys.push(key);
        keyIndex.set(key, gi);
      }
      g = gi;
      used[vertices[i * 3]] = 1;
      used[vertices[i * 3 + 1]] = 1;
      used[vertices[i * 3 + 2]] = 1;
    }
    groupOf[i] = g;
    if (runs.length && runs[runs.length - 2] === g) runs[runs.length - 1]++;
    else runs.push(g, 1);
  }

  if (!groupKeys.length) {
    throw new FormatError('the _d.3d has no rendered triangle (only weapon placeholders or none at all)', {
      code: 'NO_TRIANGLES',
      file: files.dataFile,
      field: 'header.numPolys',
    });
  }

  // ---- materials per (texture slot, type)
  const unlitExt = doc.createExtension(KHRMaterialsUnlit);
  let unlitUsed = false;
  const materials = new Map<number, Material>();
  const slotTypes = new Map<number, Set<number>>();
  for (const key of groupKeys) {
    const tex = key >> 16;
    const set = slotTypes.get(tex) ?? new Set<number>();
    set.add((key >> 8) & 0xff);
    slotTypes.set(tex, set);
  }
  const materialFor = (tex: number, type: number): Material => {
    const mkey = (tex << 8) | type;
    const existing = materials.get(mkey);
    if (existing) return existing;
    const slot = uc?.zeroTex ? 0 : tex;
    const ucTex = uc?.textures.find((t) => t.num === slot);
    const style = type & 0x0f;
    let name = ucTex?.name ?? `Skin${slot}`;
    if ((slotTypes.get(tex)?.size ?? 0) > 1) name += `_type${type}`;
    const m = doc.createMaterial(name).setMetallicFactor(0).setRoughnessFactor(1);
    if (style !== PolyStyle.NORMAL) m.setDoubleSided(true);
    if (style === PolyStyle.TRANSLUCENT || style === PolyStyle.MODULATED || style === PolyStyle.ALPHA_BLEND)
      m.setAlphaMode('BLEND');
    if (style === PolyStyle.MASKED) m.setAlphaMode('MASK').setAlphaCutoff(0.5);
    if (type & PolyTypeFlag.UNLIT) {
      m.setExtension('KHR_materials_unlit', unlitExt.createUnlit());
      unlitUsed = true;
    }
    const extra: Record<string, unknown> = { textureNum: tex, type };
    if (ucTex) extra.texture = ucTex.name;
    if (ucTex?.file) extra.file = ucTex.file;
    if (style === PolyStyle.MODULATED) extra.modulated = true;
    if (type & PolyTypeFlag.ENVIRONMENT) extra.environment = true;
    if (type & PolyTypeFlag.NO_SMOOTH) extra.noSmooth = true;
    if (type & PolyTypeFlag.FLAT) extra.flat = true;
    m.setExtras({ unreal3d: extra });
    materials.set(mkey, m);
    return m;
  };
  // ---- primitives (frame 0), then one morph target per further frame
  const mesh = doc.createMesh(meshName);
  const base = anivFrame(aniv, 0);
  const rendered = new Uint8Array(n);
  for (let i = 0; i < n; i++) rendered[i] = groupOf[i] >= 0 ? 1 : 0;
  const normals0 = opts.normals ? frameNormals(base, nv, vertices, rendered) : null;
  const counts = new Int32Array(groupKeys.length);
  for (let i = 0; i < n; i++) if (groupOf[i] >= 0) counts[groupOf[i]]++;
  // Frames identical to frame 0 throughout: no morph targets (see UnrealMeshExtras.sameFrames).
  const sameFrames = frameCount > 1 && framesAllSame(aniv, frameCount);
  const targetCount = sameFrames ? 0 : frameCount - 1;
  const targetNames: string[] = [];
  for (let f = 1; f <= targetCount; f++) targetNames.push(`Frame${f}`);
  const head = new Int32Array(nv).fill(-1);
  const prims: { prim: Primitive; orig: Uint16Array; vcount: number; zero: Accessor | null }[] = [];
  for (let g = 0; g < groupKeys.length; g++) {
    const key = groupKeys[g];
    const tex = key >> 16;
    const type = (key >> 8) & 0xff;
    const flag = key & 0xff;
    const tri = counts[g];
    const orig = new Uint16Array(tri * 3);
    const uvKey = new Uint16Array(tri * 3);
    const next = new Int32Array(tri * 3);
    const uvOut = new Float32Array(tri * 6);
    const idx = new Uint32Array(tri * 3);
    let vcount = 0;
    let t = 0;
    let color = -1;
    let mixedColor = false;
    const triColors = new Uint8Array(tri);
    for (let i = 0; i < n; i++) {
      if (groupOf[i] !== g) continue;
      if (color < 0) color = colors[i];
      else if (colors[i] !== color) mixedColor = true;
      triColors[t] = colors[i];
      for (let c = 0; c < 3; c++) {
        const v = vertices[i * 3 + c];
        const U = uvs[i * 6 + c * 2];
        const V = uvs[i * 6 + c * 2 + 1];
        const key = (U << 8) | V;
        // Chain of this group's glTF vertices made from file vertex v (usually 1–3 long).
        let ni = head[v];
        while (ni >= 0 && uvKey[ni] !== key) ni = next[ni];
        if (ni < 0) {
          ni = vcount++;
          uvKey[ni] = key;
          next[ni] = head[v];
          head[v] = ni;
          orig[ni] = v;
          uvOut[ni * 2] = decodeByteUV(U);
          uvOut[ni * 2 + 1] = decodeByteUV(V);
        }
        // Reverse winding (the axis swap mirrors): corners 0, 2, 1.
        idx[t * 3 + (c === 0 ? 0 : 3 - c)] = ni;
      }
      t++;
    }
    for (let j = 0; j < vcount; j++) head[orig[j]] = -1;
    const pos = new Float32Array(vcount * 3);
    for (let j = 0; j < vcount; j++) {
      const o = orig[j] * 3;
      pos[j * 3] = base[o];
      pos[j * 3 + 1] = base[o + 2];
      pos[j * 3 + 2] = base[o + 1];
    }
    const gOrig = orig.slice(0, vcount);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(pos).setBuffer(buffer))
      .setAttribute(
        'TEXCOORD_0',
        doc
          .createAccessor()
          .setType('VEC2')
          .setArray(uvOut.slice(0, vcount * 2))
          .setBuffer(buffer),
      )
      .setAttribute(
        VERTEX_ATTRIBUTE,
        doc.createAccessor().setType('SCALAR').setArray(gOrig).setBuffer(buffer),
      )
      .setIndices(
        doc
          .createAccessor()
          .setType('SCALAR')
          .setArray(vcount < 65536 ? new Uint16Array(idx) : idx)
          .setBuffer(buffer),
      )
      .setMaterial(materialFor(tex, type));
    if (normals0) {
      const nrm = new Float32Array(vcount * 3);
      for (let j = 0; j < vcount; j++) {
        const o = gOrig[j] * 3;
        nrm[j * 3] = normals0[o];
        nrm[j * 3 + 1] = normals0[o + 1];
        nrm[j * 3 + 2] = normals0[o + 2];
      }
      prim.setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(nrm).setBuffer(buffer));
    }
    const pextra: Record<string, unknown> = { textureNum: tex, type, flags: flag };
    if (mixedColor) pextra.colors = Array.from(triColors);
    else pextra.color = Math.max(0, color);
    prim.setExtras({ unreal3d: pextra });
    mesh.addPrimitive(prim);
    prims.push({ prim, orig: gOrig, vcount, zero: null });
  }

  // Vertices no rendered triangle uses: their raw positions per frame go to extras.
  const orphanIdx: number[] = [];
  for (let v = 0; v < nv; v++) if (!used[v]) orphanIdx.push(v);
  const orphanFrames: number[][] = [];
  const keepOrphans = (fr: Float32Array) => {
    if (!orphanIdx.length) return;
    const row = new Array<number>(orphanIdx.length * 3);
    for (let k = 0; k < orphanIdx.length; k++) {
      const o = orphanIdx[k] * 3;
      row[k * 3] = fr[o];
      row[k * 3 + 1] = fr[o + 1];
      row[k * 3 + 2] = fr[o + 2];
    }
    orphanFrames.push(row);
  };
  keepOrphans(base);

  // Morph targets, frame by frame (one decoded frame and its normals in memory at a time). A
  // delta that is zero everywhere (static frames, rigid moves for normals) shares one zero
  // accessor per primitive instead of a new one per frame.
  const zeroOf = (p: (typeof prims)[number]): Accessor => {
    p.zero ??= doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array(p.vcount * 3))
      .setBuffer(buffer);
    return p.zero;
  };
  const fr = new Float32Array(nv * 3);
  const nf = normals0 ? new Float32Array(nv * 3) : null;
  if (sameFrames) for (let f = 1; f < frameCount; f++) keepOrphans(base);
  for (let f = 1; f <= targetCount; f++) {
    anivFrame(aniv, f, fr);
    keepOrphans(fr);
    let moved = false;
    for (let i = 0; i < nv * 3; i++) {
      if (fr[i] !== base[i]) {
        moved = true;
        break;
      }
    }
    if (moved && nf) frameNormals(fr, nv, vertices, rendered, nf);
    for (const p of prims) {
      const { orig, vcount } = p;
      const target = doc.createPrimitiveTarget(`Frame${f}`);
      let dPos: Accessor | null = null;
      let dNrm: Accessor | null = null;
      if (moved) {
        const d = new Float32Array(vcount * 3);
        if (swizzledDelta(fr, base, orig, vcount, d, true))
          dPos = doc.createAccessor().setType('VEC3').setArray(d).setBuffer(buffer);
        // Not skipped when this primitive did not move: its normals also follow neighbours.
        if (nf && normals0) {
          const dn = new Float32Array(vcount * 3);
          if (swizzledDelta(nf, normals0, orig, vcount, dn, false))
            dNrm = doc.createAccessor().setType('VEC3').setArray(dn).setBuffer(buffer);
        }
      }
      target.setAttribute('POSITION', dPos ?? zeroOf(p));
      if (normals0) target.setAttribute('NORMAL', dNrm ?? zeroOf(p));
      p.prim.addTarget(target);
    }
  }
  if (targetCount > 0) mesh.setWeights(new Array(targetCount).fill(0));
  if (!unlitUsed) unlitExt.dispose();

  // ---- extras for export
  const placement: Placement = {
    scale: uc ? [...uc.scale] : [1, 1, 1],
    origin: uc ? { ...uc.origin } : { x: 0, y: 0, z: 0, pitch: 0, yaw: 0, roll: 0 },
  };
  if (uc?.unmirror) placement.unmirror = true;
  const extras: UnrealMeshExtras = {
    meshName,
    runs,
    weapons,
    numVertices: nv,
    layout: aniv.layout,
    placement,
  };
  if (files.fileBase) extras.fileBase = files.fileBase;
  if (targetNames.length) mesh.setExtras({ targetNames });
  if (orphanIdx.length) extras.orphans = { indices: orphanIdx, frames: orphanFrames };
  const h = data.header;
  if (
    h.bogusRot ||
    h.bogusFrame ||
    h.fixScale ||
    h.bogusNorm.some((x) => x) ||
    h.unused.some((x) => x) ||
    h.padding.some((x) => x)
  ) {
    extras.header = {
      bogusRot: h.bogusRot,
      bogusFrame: h.bogusFrame,
      bogusNorm: [...h.bogusNorm],
      fixScale: h.fixScale,
      unused: [...h.unused],
      padding: Array.from(h.padding),
    };
  }
  if (h.numPolys !== n) extras.numPolys = h.numPolys;
  if (opts.frames === 'all') {
    if (aniv.numFrames !== aniv.frameCount) extras.numFrames = aniv.numFrames;
    if (sameFrames) extras.sameFrames = frameCount;
    if (aniv.frameSize !== nv * (aniv.layout === 'deusex' ? 8 : 4)) extras.frameSize = aniv.frameSize;
    if (aniv.frameExtra.length) extras.frameExtra = b64(aniv.frameExtra);
    if (aniv.trailing.length) extras.anivTrailing = b64(aniv.trailing);
    if (aniv.words) {
      let any = false;
      for (let i = 3; i < aniv.words.length; i += 4) if (aniv.words[i]) any = true;
      if (any)
        extras.pads = Array.from(
          { length: aniv.words.length / 4 },
          (_, i) => (aniv.words as Int16Array)[i * 4 + 3],
        );
    }
  }
  if (data.trailing.length) extras.dataTrailing = b64(data.trailing);
  if (uc) {
    extras.uc = {
      directives: uc.directives.map((d) => d.raw),
      unmirror: uc.unmirror,
      zeroTex: uc.zeroTex,
      textures: uc.textures.map((t) => ({ ...t })),
    };
    if (files.ucText !== undefined) extras.uc.text = files.ucText;
    if (files.ucEncoding) extras.uc.encoding = files.ucEncoding;
    if (files.ucFile && files.ucText !== undefined) extras.uc.file = files.ucFile;
  }
  mesh.setExtras({ ...mesh.getExtras(), unreal3d: extras });

  // ---- node
  const trs = placementTRS(placement);
  const node = doc
    .createNode(meshName)
    .setMesh(mesh)
    .setTranslation(trs.translation)
    .setRotation(trs.rotation)
    .setScale(trs.scale);
  scene.addChild(node);

  // ---- weapon triangle
  let weaponNode: Node | undefined;
  const weaponAt = (f: number) => {
    const w = weapons[0];
    const c = new Float64Array(9);
    for (let k = 0; k < 3; k++) anivVertex(aniv, f, w.vertices[k], c, k * 3);
    placeUnreal(placement, c);
    return weaponFrame(c);
  };
  if (weapons.length) {
    const w0 = weaponAt(0);
    weaponNode = doc.createNode('WeaponTriangle').setTranslation(w0.translation).setRotation(w0.rotation);
    weaponNode.setExtras({ unreal3d: { weaponTriangle: true } });
    scene.addChild(weaponNode);
    if (weapons.length > 1)
      warnings.warn(
        'WEAPON_TRIANGLES',
        `${weapons.length} weapon triangles; the WeaponTriangle node follows the first`,
      );
  }

  // ---- animations
  if (opts.frames === 'all') {
    const seqs: UcSequence[] = uc?.sequences.length
      ? uc.sequences
      : [{ name: 'All', startFrame: 0, numFrames: frameCount, rate: 30, notifies: [] }];
    if (!uc)
      warnings.warn(
        'UC_MISSING',
        `no .uc names ${meshName}: one animation "All" of ${frameCount} frames at 30 fps, scale 1`,
      );
    const usedNames = new Set<string>();
    for (const s of seqs) {
      let name = s.name || 'Sequence';
      while (usedNames.has(name)) name += '_';
      usedNames.add(name);
      const anim = doc.createAnimation(name);
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
          const wf = weaponAt(frameOfKey[k]);
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
    }
  }
  return doc;
}
