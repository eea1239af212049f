// Writes the sample files in test-assets/urho3d/ with this package's own writers. Deterministic.
// Usage: npx tsup && node scripts/make-test-assets.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document } from '@gltf-transform/core';

/** A tube of `rings` rings × `sides` sides along +Y, skinned to a 3-bone chain, with a wiggle. */
function wormDocument() {
  const doc = new Document();
  const buf = doc.createBuffer();
  const rings = 7;
  const sides = 6;
  const pos = [];
  const nrm = [];
  const uv = [];
  const joints = [];
  const weights = [];
  for (let r = 0; r < rings; r++) {
    const y = r / 3;
    for (let s = 0; s < sides; s++) {
      const a = (s / sides) * Math.PI * 2;
      pos.push(Math.cos(a) * 0.2, y, Math.sin(a) * 0.2);
      nrm.push(Math.cos(a), 0, Math.sin(a));
      uv.push(s / sides, r / (rings - 1));
      const b = Math.min(2, Math.floor(y));
      const t = y - b;
      if (b < 2 && t > 0.5) {
        joints.push(b, b + 1, 0, 0);
        weights.push(1.5 - t, t - 0.5, 0, 0);
      } else {
        joints.push(b, 0, 0, 0);
        weights.push(1, 0, 0, 0);
      }
    }
  }
  const idx = [];
  for (let r = 0; r + 1 < rings; r++) {
    for (let s = 0; s < sides; s++) {
      const a = r * sides + s;
      const b = r * sides + ((s + 1) % sides);
      idx.push(a, a + sides, b, b, a + sides, b + sides);
    }
  }
  const acc = (type, arr) => doc.createAccessor().setType(type).setArray(arr).setBuffer(buf);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', acc('VEC3', new Float32Array(pos)))
    .setAttribute('NORMAL', acc('VEC3', new Float32Array(nrm)))
    .setAttribute('TEXCOORD_0', acc('VEC2', new Float32Array(uv)))
    .setAttribute('JOINTS_0', acc('VEC4', new Uint8Array(joints)))
    .setAttribute('WEIGHTS_0', acc('VEC4', new Float32Array(weights)))
    .setIndices(acc('SCALAR', new Uint16Array(idx)));
  const mesh = doc.createMesh('worm').addPrimitive(prim);
  const scene = doc.createScene('worm');
  const bones = [0, 1, 2].map((i) => doc.createNode(`Bone${i}`).setTranslation([0, i === 0 ? 0 : 1, 0]));
  scene.addChild(bones[0]);
  bones[0].addChild(bones[1]);
  bones[1].addChild(bones[2]);
  const ibm = new Float32Array(48);
  for (let i = 0; i < 3; i++) ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -i, 0, 1], i * 16);
  const skin = doc.createSkin('worm').setInverseBindMatrices(acc('MAT4', ibm));
  for (const b of bones) skin.addJoint(b);
  scene.addChild(doc.createNode('worm').setMesh(mesh).setSkin(skin));
  doc.getRoot().setDefaultScene(scene);
  const times = new Float32Array([0, 0.5, 1, 1.5, 2]);
  const anim = doc.createAnimation('Wiggle');
  for (const [i, b] of bones.entries()) {
    const q = [];
    for (const t of times) {
      const angle = Math.sin(t * Math.PI + i) * 0.4;
      q.push(0, 0, Math.sin(angle / 2), Math.cos(angle / 2));
    }
    const sampler = doc
      .createAnimationSampler()
      .setInput(acc('SCALAR', times))
      .setOutput(acc('VEC4', new Float32Array(q)));
    anim
      .addSampler(sampler)
      .addChannel(
        doc.createAnimationChannel().setTargetNode(b).setTargetPath('rotation').setSampler(sampler),
      );
  }
  return doc;
}

/** A UMD2 pyramid with vertex colours, two LOD levels and a morph. */
function pyramidModel(lib) {
  const elements = [
    { type: 3, semantic: 0, index: 0 },
    { type: 6, semantic: 5, index: 0 },
    { type: 2, semantic: 4, index: 0 },
    { type: 2, semantic: 4, index: 2 },
  ];
  const descriptors = Uint32Array.from(elements, lib.descriptorOf);
  const els = lib.elementsFromDescriptors(descriptors);
  const stride = 12 + 4 + 8 + 8;
  const verts = [
    [0, 1, 0],
    [-1, 0, -1],
    [1, 0, -1],
    [1, 0, 1],
    [-1, 0, 1],
  ];
  const data = new Uint8Array(verts.length * stride);
  const dv = new DataView(data.buffer);
  verts.forEach((p, v) => {
    const o = v * stride;
    for (let c = 0; c < 3; c++) dv.setFloat32(o + c * 4, p[c], true);
    data.set([v * 50, 255 - v * 50, 128, 255], o + 12);
    dv.setFloat32(o + 16, p[0] * 0.5 + 0.5, true);
    dv.setFloat32(o + 20, p[2] * 0.5 + 0.5, true);
    dv.setFloat32(o + 24, v / 4, true);
    dv.setFloat32(o + 28, 1 - v / 4, true);
  });
  // LOD 0: 4 sides + base (clockwise front faces, Urho convention); LOD 1: the base only.
  const tris = [0, 2, 1, 0, 3, 2, 0, 4, 3, 0, 1, 4, 1, 2, 3, 1, 3, 4];
  const ib = new Uint8Array(tris.length * 2);
  for (let i = 0; i < tris.length; i++) new DataView(ib.buffer).setUint16(i * 2, tris[i], true);
  return {
    magic: 'UMD2',
    vertexBuffers: [
      {
        vertexCount: 5,
        elementMask: 0,
        descriptors,
        elements: els,
        stride,
        morphRangeStart: 0,
        morphRangeCount: 1,
        data,
      },
    ],
    indexBuffers: [{ indexCount: tris.length, indexSize: 2, data: ib }],
    geometries: [
      {
        boneMapping: new Uint32Array(0),
        lods: [
          { distance: 0, primitiveType: 0, vertexBuffer: 0, indexBuffer: 0, indexStart: 0, indexCount: 18 },
          { distance: 20, primitiveType: 0, vertexBuffer: 0, indexBuffer: 0, indexStart: 12, indexCount: 6 },
        ],
      },
    ],
    morphs: [
      {
        name: 'Tall',
        buffers: [
          {
            vertexBuffer: 0,
            elementMask: 1,
            vertexCount: 1,
            indices: new Uint32Array([0]),
            positions: new Float32Array([0, 1, 0]),
            normals: null,
            tangents: null,
          },
        ],
      },
    ],
    bones: [],
    bounds: new Float32Array([-1, 0, -1, 1, 1, 1]),
    geometryCenters: new Float32Array([0, 0.5, 0]),
    trailing: new Uint8Array(0),
  };
}

/** UMDL line list: three coloured axes. */
function axesModel() {
  const stride = 12 + 4;
  const pts = [
    [0, 0, 0, 0xff0000ff],
    [1, 0, 0, 0xff0000ff],
    [0, 0, 0, 0xff00ff00],
    [0, 1, 0, 0xff00ff00],
    [0, 0, 0, 0xffff0000],
    [0, 0, 1, 0xffff0000],
  ];
  const data = new Uint8Array(pts.length * stride);
  const dv = new DataView(data.buffer);
  pts.forEach(([x, y, z, c], v) => {
    dv.setFloat32(v * stride, x, true);
    dv.setFloat32(v * stride + 4, y, true);
    dv.setFloat32(v * stride + 8, z, true);
    dv.setUint32(v * stride + 12, c, true);
  });
  const ib = new Uint8Array(12);
  for (let i = 0; i < 6; i++) new DataView(ib.buffer).setUint16(i * 2, i, true);
  return {
    magic: 'UMDL',
    vertexBuffers: [
      {
        vertexCount: 6,
        elementMask: 0x5,
        descriptors: null,
        elements: [
          { type: 3, semantic: 0, index: 0, offset: 0 },
          { type: 6, semantic: 5, index: 0, offset: 12 },
        ],
        stride,
        morphRangeStart: 0,
        morphRangeCount: 0,
        data,
      },
    ],
    indexBuffers: [{ indexCount: 6, indexSize: 2, data: ib }],
    geometries: [
      {
        boneMapping: new Uint32Array(0),
        lods: [
          { distance: 0, primitiveType: 1, vertexBuffer: 0, indexBuffer: 0, indexStart: 0, indexCount: 6 },
        ],
      },
    ],
    morphs: [],
    bones: [],
    bounds: new Float32Array([0, 0, 0, 1, 1, 1]),
    geometryCenters: new Float32Array([0.5, 0.5, 0.5]),
    trailing: new Uint8Array(0),
  };
}

/**
 * All sample files, name → bytes. `lib` is this package (dist build or sources).
 */
export async function makeTestAssets(lib) {
  const out = new Map();
  // made with the AssetImporter axes (Z mirror), the convention before `axes: 'gltf'` became the default
  const worm = await lib.exportUrho(wormDocument(), { name: 'worm', axes: 'assetimporter' });
  for (const [name, bytes] of worm.files) out.set(name, bytes);
  out.set('pyramid_lod_morph.mdl', lib.writeMdl(pyramidModel(lib)));
  out.set('axes_lines.mdl', lib.writeMdl(axesModel()));
  const pak = lib.createPak(
    new Map([
      ['Models/worm.mdl', out.get('worm.mdl')],
      ['Models/worm_Wiggle.ani', out.get('worm_Wiggle.ani')],
      ['Models/axes_lines.mdl', out.get('axes_lines.mdl')],
    ]),
    { compress: true },
  );
  out.set('worm_package.pak', lib.writePak(pak));
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const lib = await import('../dist/index.js');
  const dir = join(dirname(fileURLToPath(import.meta.url)), '../../../test-assets/urho3d');
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of await makeTestAssets(lib)) {
    writeFileSync(join(dir, name), bytes);
    console.log(`${name}: ${bytes.length} bytes`);
  }
}
