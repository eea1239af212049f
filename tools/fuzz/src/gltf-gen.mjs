// Random VALID glTF documents for the glTF → legacy direction. fast-check chooses the shape
// (nodes, meshes, primitives, skins, morph targets, animations, names); a seeded PRNG fills the
// bulk arrays so large vertex counts stay cheap to generate.
import { Document } from '@gltf-transform/core';
import fc from 'fast-check';
import { Rng } from './rng.mjs';

const nameArb = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 64, maxLength: 300 }) },
);

const primitiveArb = fc.record({
  vertexCount: fc.oneof(
    { weight: 16, arbitrary: fc.integer({ min: 1, max: 64 }) },
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 2000 }) },
    { weight: 1, arbitrary: fc.constantFrom(255, 256, 65535, 65536, 65537) },
  ),
  mode: fc.constantFrom(4, 4, 4, 4, 4, 4, 0, 1, 2, 3, 5, 6),
  indexed: fc.boolean(),
  indexType: fc.constantFrom('u8', 'u16', 'u32'),
  triangles: fc.integer({ min: 0, max: 300 }),
  normals: fc.boolean(),
  tangents: fc.boolean(),
  texcoords: fc.integer({ min: 0, max: 3 }),
  colors: fc.boolean(),
  skinned: fc.boolean(),
  jointSets: fc.constant(1),
  targets: fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) },
  ),
  values: fc.constantFrom('unit', 'unit', 'large', 'tiny', 'degenerate'),
  material: fc.option(fc.nat(), { nil: undefined }),
});

const channelArb = fc.record({
  node: fc.nat(),
  path: fc.constantFrom('translation', 'rotation', 'scale', 'weights'),
  interpolation: fc.constantFrom('LINEAR', 'LINEAR', 'STEP', 'CUBICSPLINE'),
  keys: fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 1, max: 40 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 2000 }) },
  ),
  start: fc.constantFrom(0, 0, 0.5, 10),
  step: fc.constantFrom(1 / 30, 1 / 24, 0.1, 1, 1e-4),
});

/** The shape of a random document (JSON-able, so fast-check can shrink it). */
export const documentSpecArb = fc.record({
  seed: fc.integer({ min: 0, max: 0x7fffffff }),
  nodes: fc.array(fc.record({ parent: fc.nat(), name: nameArb, trs: fc.boolean() }), {
    minLength: 1,
    maxLength: 12,
  }),
  joints: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 8 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }) },
  ),
  meshes: fc.array(
    fc.record({
      name: nameArb,
      node: fc.nat(),
      primitives: fc.array(primitiveArb, { minLength: 1, maxLength: 3 }),
    }),
    {
      minLength: 0,
      maxLength: 3,
    },
  ),
  materials: fc.array(
    fc.record({
      name: nameArb,
      alpha: fc.constantFrom('OPAQUE', 'MASK', 'BLEND'),
      doubleSided: fc.boolean(),
    }),
    {
      maxLength: 3,
    },
  ),
  animations: fc.array(
    fc.record({ name: nameArb, channels: fc.array(channelArb, { minLength: 1, maxLength: 6 }) }),
    { maxLength: 3 },
  ),
});

/** The spec fast-check produces for `seed` (deterministic). */
export function sampleDocumentSpec(seed) {
  return fc.sample(documentSpecArb, { seed, numRuns: 1 })[0];
}

function value(rng, kind) {
  switch (kind) {
    case 'large':
      return (rng.float() - 0.5) * 2e5;
    case 'tiny':
      return (rng.float() - 0.5) * 2e-5;
    case 'degenerate':
      return rng.int(3) - 1;
    default:
      return (rng.float() - 0.5) * 2;
  }
}

function floats(rng, count, size, kind) {
  const a = new Float32Array(count * size);
  for (let i = 0; i < a.length; i++) a[i] = value(rng, kind);
  return a;
}

function normalize(a, size) {
  for (let i = 0; i < a.length; i += size) {
    let l = 0;
    for (let k = 0; k < Math.min(size, 3); k++) l += a[i + k] * a[i + k];
    l = Math.sqrt(l);
    if (l < 1e-6) {
      a[i] = 1;
      for (let k = 1; k < Math.min(size, 3); k++) a[i + k] = 0;
    } else for (let k = 0; k < Math.min(size, 3); k++) a[i + k] /= l;
    if (size === 4) a[i + 3] = a[i + 3] < 0 ? -1 : 1;
  }
  return a;
}

function quats(rng, count) {
  const a = new Float32Array(count * 4);
  for (let i = 0; i < a.length; i += 4) {
    let l = 0;
    for (let k = 0; k < 4; k++) {
      a[i + k] = rng.float() - 0.5;
      l += a[i + k] * a[i + k];
    }
    l = Math.sqrt(l) || 1;
    for (let k = 0; k < 4; k++) a[i + k] /= l;
    if (l === 1 && a[i + 3] === 0) a[i + 3] = 1;
  }
  return a;
}

/**
 * Builds the glTF-Transform Document described by a spec. Every accessor is valid glTF:
 * indices in range, normalized weights summing to 1, unit quaternions, increasing key times.
 *
 * ```js
 * const doc = buildDocument(sampleDocumentSpec(42));
 * ```
 */
export function buildDocument(spec) {
  const rng = new Rng(spec.seed);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('scene');
  const nodes = [];
  for (const [i, n] of spec.nodes.entries()) {
    const node = doc.createNode(n.name);
    if (n.trs) {
      node.setTranslation([value(rng, 'unit'), value(rng, 'unit'), value(rng, 'unit')]);
      const q = quats(rng, 1);
      node.setRotation([q[0], q[1], q[2], q[3]]);
      node.setScale([0.5 + rng.float(), 0.5 + rng.float(), 0.5 + rng.float()]);
    }
    if (i === 0) scene.addChild(node);
    else {
      const p = n.parent % (i + 1);
      if (p === i) scene.addChild(node);
      else nodes[p].addChild(node);
    }
    nodes.push(node);
  }
  const materials = spec.materials.map((m) =>
    doc
      .createMaterial(m.name)
      .setAlphaMode(m.alpha)
      .setDoubleSided(m.doubleSided)
      .setBaseColorFactor([rng.float(), rng.float(), rng.float(), 1]),
  );

  // a joint hierarchy under the first node, shared by every skinned primitive
  let skin;
  const jointNodes = [];
  const needsSkin = spec.meshes.some((m) => m.primitives.some((p) => p.skinned));
  if (needsSkin) {
    skin = doc.createSkin('skin');
    for (let j = 0; j < spec.joints; j++) {
      const joint = doc.createNode(`joint_${j}`).setTranslation([0, j === 0 ? 0 : 0.1, 0]);
      if (j === 0) nodes[0].addChild(joint);
      else jointNodes[rng.int(j)].addChild(joint);
      jointNodes.push(joint);
      skin.addJoint(joint);
    }
    const ibm = new Float32Array(16 * spec.joints);
    for (let j = 0; j < spec.joints; j++) {
      ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.1 * j, 0, 1], j * 16);
    }
    skin.setInverseBindMatrices(doc.createAccessor().setType('MAT4').setArray(ibm).setBuffer(buffer));
    skin.setSkeleton(jointNodes[0]);
  }

  const meshNodes = [];
  for (const m of spec.meshes) {
    const mesh = doc.createMesh(m.name);
    let targetCount = -1;
    for (const p of m.primitives) {
      const n = p.vertexCount;
      const prim = doc.createPrimitive().setMode(p.mode);
      prim.setAttribute(
        'POSITION',
        doc
          .createAccessor()
          .setType('VEC3')
          .setArray(floats(rng, n, 3, p.values))
          .setBuffer(buffer),
      );
      if (p.normals)
        prim.setAttribute(
          'NORMAL',
          doc
            .createAccessor()
            .setType('VEC3')
            .setArray(normalize(floats(rng, n, 3, 'unit'), 3))
            .setBuffer(buffer),
        );
      if (p.tangents && p.normals) {
        prim.setAttribute(
          'TANGENT',
          doc
            .createAccessor()
            .setType('VEC4')
            .setArray(normalize(floats(rng, n, 4, 'unit'), 4))
            .setBuffer(buffer),
        );
      }
      for (let t = 0; t < p.texcoords; t++) {
        prim.setAttribute(
          `TEXCOORD_${t}`,
          doc
            .createAccessor()
            .setType('VEC2')
            .setArray(floats(rng, n, 2, 'unit'))
            .setBuffer(buffer),
        );
      }
      if (p.colors) {
        const c = new Float32Array(n * 4);
        for (let i = 0; i < c.length; i++) c[i] = rng.float();
        prim.setAttribute('COLOR_0', doc.createAccessor().setType('VEC4').setArray(c).setBuffer(buffer));
      }
      if (p.skinned && skin) {
        for (let s = 0; s < p.jointSets; s++) {
          const joints = new Uint16Array(n * 4);
          const weights = new Float32Array(n * 4);
          for (let v = 0; v < n; v++) {
            // four distinct joints per vertex (slots beyond the joint count get weight 0)
            const base = rng.int(spec.joints);
            let sum = 0;
            for (let k = 0; k < 4; k++) {
              const used = k < spec.joints;
              joints[v * 4 + k] = used ? (base + k) % spec.joints : 0;
              weights[v * 4 + k] = used && (k === 0 || rng.chance(0.7)) ? 0.05 + rng.float() : 0;
              sum += weights[v * 4 + k];
            }
            for (let k = 0; k < 4; k++) weights[v * 4 + k] /= sum;
          }
          prim.setAttribute(
            `JOINTS_${s}`,
            doc.createAccessor().setType('VEC4').setArray(joints).setBuffer(buffer),
          );
          prim.setAttribute(
            `WEIGHTS_${s}`,
            doc.createAccessor().setType('VEC4').setArray(weights).setBuffer(buffer),
          );
        }
      }
      // every primitive of a mesh must have the same number of morph targets
      if (targetCount < 0) targetCount = p.targets;
      for (let t = 0; t < targetCount; t++) {
        const target = doc.createPrimitiveTarget(`target_${t}`);
        target.setAttribute(
          'POSITION',
          doc
            .createAccessor()
            .setType('VEC3')
            .setArray(floats(rng, n, 3, 'unit'))
            .setBuffer(buffer),
        );
        prim.addTarget(target);
      }
      if (p.indexed) {
        const per = p.mode === 4 ? 3 : p.mode === 1 ? 2 : 1;
        const count = Math.max(1, p.triangles) * per;
        const max = p.indexType === 'u8' ? Math.min(n, 256) : p.indexType === 'u16' ? Math.min(n, 65535) : n;
        const idx =
          p.indexType === 'u8'
            ? new Uint8Array(count)
            : p.indexType === 'u16'
              ? new Uint16Array(count)
              : new Uint32Array(count);
        for (let i = 0; i < count; i++) idx[i] = rng.int(max);
        prim.setIndices(doc.createAccessor().setType('SCALAR').setArray(idx).setBuffer(buffer));
      }
      if (p.material !== undefined && materials.length > 0)
        prim.setMaterial(materials[p.material % materials.length]);
      mesh.addPrimitive(prim);
    }
    if (targetCount > 0) mesh.setWeights(new Array(targetCount).fill(0));
    const node = nodes[m.node % nodes.length];
    if (node.getMesh()) {
      const extra = doc.createNode(`${m.name}_node`).setMesh(mesh);
      node.addChild(extra);
      meshNodes.push(extra);
    } else {
      node.setMesh(mesh);
      meshNodes.push(node);
    }
    if (skin && m.primitives.some((p) => p.skinned)) meshNodes[meshNodes.length - 1].setSkin(skin);
  }

  const animated = [...nodes, ...jointNodes];
  for (const a of spec.animations) {
    const anim = doc.createAnimation(a.name);
    const used = new Set();
    for (const c of a.channels) {
      const node = animated[c.node % animated.length];
      let path = c.path;
      const targets = node.getMesh()?.listPrimitives()[0]?.listTargets().length ?? 0;
      if (path === 'weights' && targets === 0) path = 'translation';
      const key = `${animated.indexOf(node)}/${path}`;
      if (used.has(key)) continue;
      used.add(key);
      const keys = c.interpolation === 'CUBICSPLINE' ? Math.max(2, c.keys) : c.keys;
      const times = new Float32Array(keys);
      for (let k = 0; k < keys; k++) times[k] = c.start + k * c.step;
      const width = path === 'rotation' ? 4 : path === 'weights' ? targets : 3;
      const per = c.interpolation === 'CUBICSPLINE' ? 3 : 1;
      let out;
      if (path === 'rotation') {
        out = quats(rng, keys * per);
        if (per === 3)
          for (let k = 0; k < keys; k++)
            for (const o of [0, 2]) out.fill(0, (k * 3 + o) * 4, (k * 3 + o + 1) * 4);
      } else if (path === 'scale') {
        out = new Float32Array(keys * per * 3);
        for (let i = 0; i < out.length; i++) out[i] = 0.5 + rng.float();
      } else out = floats(rng, keys * per, width, 'unit');
      const sampler = doc
        .createAnimationSampler()
        .setInput(doc.createAccessor().setType('SCALAR').setArray(times).setBuffer(buffer))
        .setOutput(
          doc
            .createAccessor()
            .setType(path === 'rotation' ? 'VEC4' : path === 'weights' ? 'SCALAR' : 'VEC3')
            .setArray(out)
            .setBuffer(buffer),
        )
        .setInterpolation(c.interpolation);
      anim.addSampler(sampler);
      anim.addChannel(
        doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler),
      );
    }
    if (anim.listChannels().length === 0) anim.dispose();
  }
  if (doc.getRoot().listAccessors().length === 0) buffer.dispose();
  return doc;
}
