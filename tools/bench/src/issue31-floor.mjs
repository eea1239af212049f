// The floor under issue 31's "≥ 3× the assimp loop" target: what glTF-Transform alone costs to hold
// the 260 meshes' documents, with no parsing, no encoding and no writing.
//
// Each corpus mesh is imported once as the CLI imports it (every frame); then, timed, the same
// property graph is built again with glTF-Transform calls only — one Document per mesh, the same
// number of accessors (with their arrays, not copied), primitives, morph targets, nodes, skins,
// materials and animation channels/samplers — for the 260 meshes of the assimp comparison. The
// same is timed for frame 0 only (`--static`, assimp's work). Whatever our own code does, a
// conversion that builds these documents cannot cost less.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Document } from '@gltf-transform/core';
import { median } from './stats.mjs';

/** The shape of one imported document: its properties, with the arrays of its accessors. */
function shapeOf(document) {
  const root = document.getRoot();
  const accessorIndex = new Map(root.listAccessors().map((a, i) => [a, i]));
  const attrs = (p) => p.listSemantics().map((s) => [s, accessorIndex.get(p.getAttribute(s))]);
  return {
    accessors: root
      .listAccessors()
      .map((a) => ({ type: a.getType(), array: a.getArray(), norm: a.getNormalized() })),
    meshes: root.listMeshes().map((m) =>
      m.listPrimitives().map((p) => ({
        attributes: attrs(p),
        indices: p.getIndices() ? accessorIndex.get(p.getIndices()) : undefined,
        targets: p.listTargets().map(attrs),
      })),
    ),
    nodes: root.listNodes().length,
    materials: root.listMaterials().length,
    textures: root.listTextures().length,
    animations: root
      .listAnimations()
      .map((a) =>
        a.listSamplers().map((s) => [accessorIndex.get(s.getInput()), accessorIndex.get(s.getOutput())]),
      ),
  };
}

/** Builds a document of `shape` with glTF-Transform calls only; returns the properties made. */
function build(shape) {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const acc = shape.accessors.map((a) =>
    doc.createAccessor().setType(a.type).setArray(a.array).setNormalized(a.norm).setBuffer(buffer),
  );
  let made = acc.length + 1;
  const scene = doc.createScene();
  const materials = Array.from({ length: shape.materials }, () => doc.createMaterial());
  for (let i = 0; i < shape.textures; i++) doc.createTexture();
  made += shape.materials + shape.textures + 1;
  const meshes = shape.meshes.map((prims) => {
    const mesh = doc.createMesh();
    for (const p of prims) {
      const prim = doc.createPrimitive();
      for (const [s, i] of p.attributes) prim.setAttribute(s, acc[i]);
      if (p.indices !== undefined) prim.setIndices(acc[p.indices]);
      if (materials.length) prim.setMaterial(materials[0]);
      for (const t of p.targets) {
        const target = doc.createPrimitiveTarget();
        for (const [s, i] of t) target.setAttribute(s, acc[i]);
        prim.addTarget(target);
        made++;
      }
      mesh.addPrimitive(prim);
      made++;
    }
    return mesh;
  });
  made += meshes.length;
  for (let n = 0; n < shape.nodes; n++) {
    const node = doc.createNode();
    if (n < meshes.length) node.setMesh(meshes[n]);
    scene.addChild(node);
    made++;
  }
  const target = doc.getRoot().listNodes()[0];
  for (const samplers of shape.animations) {
    const anim = doc.createAnimation();
    for (const [input, output] of samplers) {
      const sampler = doc.createAnimationSampler().setInput(acc[input]).setOutput(acc[output]);
      const channel = doc
        .createAnimationChannel()
        .setTargetNode(target)
        .setTargetPath('weights')
        .setSampler(sampler);
      anim.addSampler(sampler).addChannel(channel);
      made += 2;
    }
    made++;
  }
  return made;
}

/**
 * Times building the documents of `meshes` meshes (the corpus meshes in turn, as the bench's folder
 * holds them) with glTF-Transform only, every frame and frame 0 only; `rounds` timed rounds after
 * one warm-up; `ms` is the fastest round (a lower bound), `medianMs` the median. `unreal` is the built @gltf-legacy/unreal3d.
 */
export async function gltfTransformFloor({ corpus, unreal, meshes = 260, rounds = 5 }) {
  const src = join(corpus, 'unreal3d');
  const names = readdirSync(src)
    .filter((n) => n.endsWith('_d.3d'))
    .map((n) => n.slice(0, -5))
    .sort();
  const read = (n) => new Uint8Array(readFileSync(join(src, n)));
  const shapes = { all: [], first: [] };
  for (const name of names) {
    const files = new Map(
      readdirSync(src)
        .filter(
          (n) => n.startsWith(name) && (n === `${name}_d.3d` || n === `${name}_a.3d` || n === `${name}.uc`),
        )
        .map((n) => [n, read(n)]),
    );
    for (const frames of ['all', 'first']) {
      const { document } = await unreal.importUnrealFiles(files, { main: `${name}_d.3d`, frames });
      shapes[frames].push(shapeOf(document));
    }
  }
  const out = {};
  for (const frames of ['all', 'first']) {
    const times = [];
    let made = 0;
    for (let r = 0; r <= rounds; r++) {
      made = 0;
      const t = performance.now();
      for (let m = 0; m < meshes; m++) made += build(shapes[frames][m % shapes[frames].length]);
      if (r > 0) times.push(performance.now() - t);
    }
    const accessors = Array.from(
      { length: meshes },
      (_, m) => shapes[frames][m % shapes[frames].length].accessors.length,
    ).reduce((a, b) => a + b, 0);
    // the fastest round: a floor is a lower bound, so the machine's noise must not raise it
    out[frames] = {
      ms: Math.min(...times),
      medianMs: median(times),
      runs: times.map(Math.round),
      properties: made,
      accessors,
    };
  }
  return out;
}

/**
 * The floor, printed against the ≥ 3× budget: `vsAssimp` is the issue-31 bench's comparison (its
 * assimp loop, start-up and 2-core throughput). The best a conversion that builds these documents
 * can do is start-up + floor ÷ throughput, before any parsing, normals, encoding or file writing.
 */
export async function issue31Floor({ corpus, unreal, vsAssimp, meshes = 260 }) {
  const floor = await gltfTransformFloor({ corpus, unreal, meshes });
  console.log(
    `\n== issue 31: glTF-Transform alone, building the documents of the ${meshes} meshes (no parsing, encoding or writing), one thread`,
  );
  for (const [k, label] of [
    ['all', 'every frame'],
    ['first', 'frame 0'],
  ])
    console.log(
      `  ${label.padEnd(11)} ${floor[k].properties} properties (${floor[k].accessors} accessors): fastest ${floor[k].ms.toFixed(0)} ms (runs ${floor[k].runs.join(', ')}) = ${((1000 * floor[k].ms) / floor[k].properties).toFixed(0)} µs a property`,
    );
  if (vsAssimp?.throughput2) {
    const budget = vsAssimp.assimpLoop.ms / 3;
    const best = vsAssimp.version.ms + floor.all.ms / vsAssimp.throughput2;
    floor.budgetMs = budget;
    floor.bestMs = best;
    console.log(
      `  ≥ 3× the assimp loop means ≤ ${budget.toFixed(0)} ms; start-up ${vsAssimp.version.ms.toFixed(0)} ms + ${floor.all.ms.toFixed(0)} ms ÷ ${vsAssimp.throughput2.toFixed(2)} (2 cores) = ${best.toFixed(0)} ms before any of our own work (${best <= budget ? 'leaves ' + (budget - best).toFixed(0) + ' ms for it' : 'over the budget'})`,
    );
  }
  return floor;
}
