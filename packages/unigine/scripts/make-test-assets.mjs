// Writes the small UNIGINE samples in test-assets/unigine/ with this package's own writer.
// Deterministic: the same bytes on every run. Run `npx tsup` first (it uses dist/).
//   node packages/unigine/scripts/make-test-assets.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document } from '@gltf-transform/core';
import { exportUnigine } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '../../../test-assets/unigine');
mkdirSync(outDir, { recursive: true });

function acc(doc, buf, type, array, normalized = false) {
  return doc.createAccessor().setType(type).setArray(array).setBuffer(buf).setNormalized(normalized);
}

function write(files) {
  for (const [name, bytes] of files) {
    writeFileSync(join(outDir, name), bytes);
    console.log(`${name}: ${bytes.length} bytes`);
  }
}

// 1. Two static surfaces: a coloured quad (shared corners → 4 coordinate vertices) and a triangle.
{
  const doc = new Document();
  const buf = doc.createBuffer();
  const quad = doc
    .createPrimitive()
    .setAttribute(
      'POSITION',
      acc(doc, buf, 'VEC3', new Float32Array([-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1])),
    )
    .setAttribute('NORMAL', acc(doc, buf, 'VEC3', new Float32Array([0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0])))
    .setAttribute('TEXCOORD_0', acc(doc, buf, 'VEC2', new Float32Array([0, 0, 1, 0, 1, 1, 0, 1])))
    .setAttribute(
      'COLOR_0',
      acc(
        doc,
        buf,
        'VEC4',
        new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]),
        true,
      ),
    )
    .setIndices(acc(doc, buf, 'SCALAR', new Uint16Array([0, 2, 1, 0, 3, 2])))
    .setMaterial(doc.createMaterial('floor'));
  const tri = doc
    .createPrimitive()
    .setAttribute('POSITION', acc(doc, buf, 'VEC3', new Float32Array([0, 0.5, 0, 0.5, 1.5, 0, -0.5, 1.5, 0])))
    .setAttribute('TEXCOORD_0', acc(doc, buf, 'VEC2', new Float32Array([0.5, 1, 1, 0, 0, 0])))
    .setMaterial(doc.createMaterial('sign'));
  const mesh = doc.createMesh('surfaces').addPrimitive(quad).addPrimitive(tri);
  doc.createScene().addChild(doc.createNode('surfaces').setMesh(mesh));
  write((await exportUnigine(doc, { name: 'two_surfaces' })).files);
}

// 2. A skinned three-bone strip that bends, with a 1-second wave animation in an .anim file.
{
  const doc = new Document();
  const buf = doc.createBuffer();
  const rows = 7; // 7 rows × 2 columns along +Y, 0…3 units
  const pos = [];
  const joints = [];
  const weights = [];
  for (let r = 0; r < rows; r++) {
    const y = (r / (rows - 1)) * 3;
    for (const x of [-0.2, 0.2]) {
      pos.push(x, y, 0);
      const b = Math.min(2, Math.floor(y));
      const f = y - Math.floor(y);
      const next = Math.min(2, b + 1);
      joints.push(b, next, 0, 0);
      weights.push(next === b ? 1 : 1 - f, next === b ? 0 : f, 0, 0);
    }
  }
  const idx = [];
  for (let r = 0; r + 1 < rows; r++) {
    const a = r * 2;
    idx.push(a, a + 1, a + 3, a, a + 3, a + 2);
  }
  const uv = pos.flatMap((v, i) => (i % 3 === 0 ? [v + 0.5] : i % 3 === 1 ? [v / 3] : []));
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', acc(doc, buf, 'VEC3', new Float32Array(pos)))
    .setAttribute('TEXCOORD_0', acc(doc, buf, 'VEC2', new Float32Array(uv)))
    .setAttribute('JOINTS_0', acc(doc, buf, 'VEC4', new Uint8Array(joints)))
    .setAttribute('WEIGHTS_0', acc(doc, buf, 'VEC4', new Float32Array(weights)))
    .setIndices(acc(doc, buf, 'SCALAR', new Uint16Array(idx)))
    .setMaterial(doc.createMaterial('strip'));
  const bones = [
    doc.createNode('bone0'),
    doc.createNode('bone1').setTranslation([0, 1, 0]),
    doc.createNode('bone2').setTranslation([0, 1, 0]),
  ];
  bones[0].addChild(bones[1]);
  bones[1].addChild(bones[2]);
  const ibm = new Float32Array(48);
  for (let i = 0; i < 3; i++) ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -i, 0, 1], i * 16);
  const skin = doc
    .createSkin('strip')
    .setInverseBindMatrices(acc(doc, buf, 'MAT4', ibm))
    .setSkeleton(bones[0]);
  for (const b of bones) skin.addJoint(b);
  const node = doc.createNode('strip').setMesh(doc.createMesh('strip').addPrimitive(prim)).setSkin(skin);
  doc.createScene().addChild(bones[0]).addChild(node);
  const anim = doc.createAnimation('wave');
  const times = new Float32Array([0, 0.25, 0.5, 0.75, 1]);
  const input = acc(doc, buf, 'SCALAR', times);
  for (const [i, bone] of bones.entries()) {
    if (i === 0) continue;
    const rot = [];
    for (const t of times) {
      const a = 0.4 * Math.sin(2 * Math.PI * t + i);
      rot.push(0, 0, Math.sin(a / 2), Math.cos(a / 2));
    }
    const sampler = doc
      .createAnimationSampler()
      .setInput(input)
      .setOutput(acc(doc, buf, 'VEC4', new Float32Array(rot)));
    anim
      .addSampler(sampler)
      .addChannel(
        doc.createAnimationChannel().setTargetNode(bone).setTargetPath('rotation').setSampler(sampler),
      );
  }
  write((await exportUnigine(doc, { name: 'strip', fps: 30 })).files);
}

// 3. A box surface with one morph target ("bulge") that moves its top up.
{
  const doc = new Document();
  const buf = doc.createBuffer();
  const p = [];
  const n = [];
  const idx = [];
  const faces = [
    [
      [0, 0, 1],
      [1, 0, 0],
      [0, 1, 0],
    ],
    [
      [0, 0, -1],
      [-1, 0, 0],
      [0, 1, 0],
    ],
    [
      [1, 0, 0],
      [0, 0, -1],
      [0, 1, 0],
    ],
    [
      [-1, 0, 0],
      [0, 0, 1],
      [0, 1, 0],
    ],
    [
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, -1],
    ],
    [
      [0, -1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ],
  ];
  for (const [nn, u, v] of faces) {
    const base = p.length / 3;
    for (const [su, sv] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ]) {
      p.push(
        0.5 * (nn[0] + su * u[0] + sv * v[0]),
        0.5 * (nn[1] + su * u[1] + sv * v[1]),
        0.5 * (nn[2] + su * u[2] + sv * v[2]),
      );
      n.push(...nn);
    }
    idx.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  const delta = p.map((v, i) => (i % 3 === 1 && v > 0 ? 0.5 : 0));
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', acc(doc, buf, 'VEC3', new Float32Array(p)))
    .setAttribute('NORMAL', acc(doc, buf, 'VEC3', new Float32Array(n)))
    .setIndices(acc(doc, buf, 'SCALAR', new Uint16Array(idx)))
    .addTarget(
      doc
        .createPrimitiveTarget('bulge')
        .setAttribute('POSITION', acc(doc, buf, 'VEC3', new Float32Array(delta))),
    )
    .setMaterial(doc.createMaterial('box'));
  doc.createScene().addChild(
    doc.createNode('box').setMesh(
      doc
        .createMesh('box')
        .addPrimitive(prim)
        .setExtras({ targetNames: ['bulge'] }),
    ),
  );
  write((await exportUnigine(doc, { name: 'morph_box' })).files);
}
