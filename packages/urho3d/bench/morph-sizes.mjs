// `.mdl` with morphs → `.glb` sizes (issue 19): the corpus glTF files with morph targets are
// exported to `.mdl` (the Urho3D corpus itself has no model with morphs), then imported back and
// written as `.glb`, with the default options and with `frameNormals: false`. Prints a Markdown
// table for the README. Run `npx tsup` first: `node bench/morph-sizes.mjs [corpus root]`.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { legacyFormat, MSFTLod, readMdl } from '../dist/index.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const corpus = resolve(process.argv[2] ?? process.env.GLTF_LEGACY_CORPUS ?? join(ROOT, '../shared/corpus'));
const FILES = [
  'gltf/AnimatedMorphCube/AnimatedMorphCube.gltf',
  'gltf/AnimatedMorphSphere/AnimatedMorphSphere.gltf',
  'gltf/MorphPrimitivesTest/MorphPrimitivesTest.gltf',
  'gltf/MorphStressTest/MorphStressTest.gltf',
  'gltf/SimpleMorph/SimpleMorph.gltf',
  'gltf/singleBlendshapeCube_sparse.glb',
];

const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, MSFTLod]);
console.log('| file | .mdl | morphs (moved / vertices) | .glb | .glb, frameNormals: false | .glb → .mdl |');
console.log('|---|---:|---|---:|---:|---|');
for (const f of FILES) {
  const path = join(corpus, f);
  if (!existsSync(path)) {
    console.log(`| ${f} | missing | | | |`);
    continue;
  }
  const out = await legacyFormat.export(await io.read(path), { name: 'm' });
  const mdl = out.files.get('m.mdl');
  const files = new Map([['m.mdl', mdl]]);
  const sizes = [];
  let exact = '';
  for (const options of [{}, { frameNormals: false }]) {
    const { document } = await legacyFormat.import(files, { main: 'm.mdl', ...options });
    const glb = await io.writeBinary(document);
    sizes.push(glb.length);
    if (!exact) {
      const back = (await legacyFormat.export(await io.readBinary(glb), { name: 'm' })).files.get('m.mdl');
      exact = back.length === mdl.length && back.every((b, i) => b === mdl[i]) ? 'byte-exact' : 'DIFFERS';
    }
  }
  const model = readMdl(mdl);
  const moved = model.morphs
    .map((m) =>
      m.buffers.map((b) => `${b.vertexCount}/${model.vertexBuffers[b.vertexBuffer].vertexCount}`).join('+'),
    )
    .join(', ');
  console.log(`| ${f.split('/').pop()} | ${mdl.length} | ${moved} | ${sizes[0]} | ${sizes[1]} | ${exact} |`);
}
