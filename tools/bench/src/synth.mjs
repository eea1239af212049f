// Deterministic large inputs for the benchmarks: a skinned, morphed, animated grid Document
// (exported to each format by its own exporter) and an Unreal vertex-animation file model.
import { Document } from '@gltf-transform/core';

/** Small seeded PRNG (mulberry32). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Defaults of {@link bigDocument}. */
export const BIG_DOCUMENT_DEFAULTS = { vertices: 100_000, bones: 64, morphs: 0, keys: 60, fps: 30, seed: 1 };

/**
 * A grid mesh of about `vertices` vertices (POSITION, NORMAL, TEXCOORD_0, 32-bit indices),
 * skinned to a chain of `bones` joints (4 influences per vertex, weights summing to 1), with
 * `morphs` POSITION morph targets and one animation rotating every joint over `keys` keys.
 *
 * ```js
 * const doc = bigDocument({ vertices: 1_000_000, bones: 64, morphs: 1 });
 * ```
 */
export function bigDocument(options = {}) {
  const o = { ...BIG_DOCUMENT_DEFAULTS, ...options };
  const rnd = prng(o.seed);
  const side = Math.max(2, Math.round(Math.sqrt(o.vertices)));
  const n = side * side;
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = new Float32Array(n * 3);
  const nrm = new Float32Array(n * 3);
  const uv = new Float32Array(n * 2);
  for (let y = 0, v = 0; y < side; y++) {
    for (let x = 0; x < side; x++, v++) {
      pos[v * 3] = x / side - 0.5;
      pos[v * 3 + 1] = y / side;
      pos[v * 3 + 2] = (rnd() - 0.5) * 0.01;
      nrm[v * 3 + 2] = 1;
      uv[v * 2] = x / (side - 1);
      uv[v * 2 + 1] = y / (side - 1);
    }
  }
  const quads = (side - 1) * (side - 1);
  const idx = new Uint32Array(quads * 6);
  for (let y = 0, q = 0; y < side - 1; y++) {
    for (let x = 0; x < side - 1; x++, q++) {
      const a = y * side + x;
      idx.set([a, a + 1, a + side, a + 1, a + side + 1, a + side], q * 6);
    }
  }
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor('position').setType('VEC3').setArray(pos).setBuffer(buffer))
    .setAttribute('NORMAL', doc.createAccessor('normal').setType('VEC3').setArray(nrm).setBuffer(buffer))
    .setAttribute('TEXCOORD_0', doc.createAccessor('uv').setType('VEC2').setArray(uv).setBuffer(buffer))
    .setIndices(doc.createAccessor('indices').setType('SCALAR').setArray(idx).setBuffer(buffer))
    .setMaterial(doc.createMaterial('material').setBaseColorFactor([0.8, 0.8, 0.8, 1]).setMetallicFactor(0));
  const mesh = doc.createMesh('grid').addPrimitive(prim);
  const scene = doc.createScene('scene');
  const root = doc.createNode('root');
  scene.addChild(root);
  const meshNode = doc.createNode('grid').setMesh(mesh);
  root.addChild(meshNode);

  if (o.bones > 0) {
    const joints = [];
    const ibm = new Float32Array(16 * o.bones);
    for (let j = 0; j < o.bones; j++) {
      const h = 1 / o.bones;
      const joint = doc.createNode(`bone_${j}`).setTranslation([0, j === 0 ? 0 : h, 0]);
      (j === 0 ? root : joints[j - 1]).addChild(joint);
      joints.push(joint);
      ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -j * h, 0, 1], j * 16);
    }
    const skin = doc.createSkin('skin').setSkeleton(joints[0]);
    for (const j of joints) skin.addJoint(j);
    skin.setInverseBindMatrices(doc.createAccessor('ibm').setType('MAT4').setArray(ibm).setBuffer(buffer));
    meshNode.setSkin(skin);
    const jt = new Uint16Array(n * 4);
    const wt = new Float32Array(n * 4);
    for (let v = 0; v < n; v++) {
      const b = Math.min(o.bones - 1, Math.floor(pos[v * 3 + 1] * o.bones));
      let sum = 0;
      for (let k = 0; k < 4; k++) {
        jt[v * 4 + k] = Math.min(o.bones - 1, b + k);
        const w = k === 0 ? 1 : rnd() * 0.5;
        wt[v * 4 + k] = b + k < o.bones ? w : 0;
        sum += wt[v * 4 + k];
      }
      for (let k = 0; k < 4; k++) wt[v * 4 + k] /= sum;
      // duplicates at the top of the chain carry weight 0: give them distinct joints
      for (let k = 1; k < 4; k++) if (wt[v * 4 + k] === 0) jt[v * 4 + k] = (b + o.bones - k) % o.bones;
    }
    prim.setAttribute(
      'JOINTS_0',
      doc.createAccessor('joints').setType('VEC4').setArray(jt).setBuffer(buffer),
    );
    prim.setAttribute(
      'WEIGHTS_0',
      doc.createAccessor('weights').setType('VEC4').setArray(wt).setBuffer(buffer),
    );

    const anim = doc.createAnimation('wave');
    const times = new Float32Array(o.keys);
    for (let k = 0; k < o.keys; k++) times[k] = k / o.fps;
    const input = doc.createAccessor('times').setType('SCALAR').setArray(times).setBuffer(buffer);
    for (let j = 0; j < o.bones; j++) {
      const out = new Float32Array(o.keys * 4);
      for (let k = 0; k < o.keys; k++) {
        const a = 0.2 * Math.sin((k / o.keys) * Math.PI * 2 + j * 0.1);
        out.set([Math.sin(a / 2), 0, 0, Math.cos(a / 2)], k * 4);
      }
      const sampler = doc
        .createAnimationSampler()
        .setInput(input)
        .setOutput(doc.createAccessor().setType('VEC4').setArray(out).setBuffer(buffer))
        .setInterpolation('LINEAR');
      anim
        .addSampler(sampler)
        .addChannel(
          doc.createAnimationChannel().setTargetNode(joints[j]).setTargetPath('rotation').setSampler(sampler),
        );
    }
  }
  for (let t = 0; t < o.morphs; t++) {
    const d = new Float32Array(n * 3);
    for (let v = 0; v < n; v++) d[v * 3 + 2] = 0.05 * Math.sin(pos[v * 3] * 10 + t);
    prim.addTarget(
      doc
        .createPrimitiveTarget(`morph_${t}`)
        .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(d).setBuffer(buffer)),
    );
  }
  if (o.morphs > 0) mesh.setWeights(new Array(o.morphs).fill(0));
  return doc;
}

/**
 * An Unreal vertex mesh file model: `vertices` vertices (≤ 16383: frameSize is a u16) animated
 * over `frames` frames in the packed 11/11/10 layout, and a triangle grid. Written with the
 * package's own `writeData` / `writeAniv`.
 */
export function unrealModels(unreal, { vertices = 16_000, frames = 1000 } = {}) {
  const side = Math.floor(Math.sqrt(vertices));
  const nv = side * side;
  const tris = (side - 1) * (side - 1) * 2;
  const polys = unreal.createPolys(tris);
  for (let y = 0, q = 0; y < side - 1; y++) {
    for (let x = 0; x < side - 1; x++, q += 2) {
      const a = y * side + x;
      const corners = [a, a + 1, a + side, a + 1, a + side + 1, a + side];
      polys.vertices.set(corners, q * 3);
      // UVs from the grid, shared by the triangles around a vertex, as a real skin's are (random
      // per-corner UVs split every file vertex into ~6 glTF vertices, a layout no model has)
      corners.forEach((v, k) => {
        polys.uvs[q * 6 + k * 2] = Math.round(((v % side) * 255) / (side - 1));
        polys.uvs[q * 6 + k * 2 + 1] = Math.round((Math.floor(v / side) * 255) / (side - 1));
      });
    }
  }
  const data = {
    header: {
      numPolys: tris,
      numVertices: nv,
      bogusRot: 0,
      bogusFrame: 0,
      bogusNorm: [0, 0, 0],
      fixScale: 0,
      unused: [0, 0, 0],
      padding: new Uint8Array(12),
    },
    polys,
    trailing: new Uint8Array(0),
  };
  const packed = new Uint32Array(nv * frames);
  for (let f = 0; f < frames; f++) {
    const phase = (f / frames) * Math.PI * 2;
    for (let v = 0; v < nv; v++) {
      const x = ((v % side) - side / 2) * 8;
      const y = (Math.floor(v / side) - side / 2) * 8;
      const z = Math.round(40 * Math.sin(phase + v * 0.01));
      packed[f * nv + v] = ((x & 0x7ff) | ((y & 0x7ff) << 11) | ((z & 0x3ff) << 22)) >>> 0;
    }
  }
  const aniv = {
    numFrames: frames,
    frameSize: nv * 4,
    layout: 'packed',
    numVertices: nv,
    frameCount: frames,
    packed,
    frameExtra: new Uint8Array(0),
    trailing: new Uint8Array(0),
  };
  return { data, aniv, numVertices: nv };
}
