#!/usr/bin/env node
/**
 * Baked-path export speed: foreign glTF files of ../shared/corpus/gltf (skinned, morphed, node
 * animated) → Unreal file model; median of 9 runs each. Run `npx tsup` first.
 */
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { exportUnreal } from '../dist/index.js';

const corpus = process.env.GLTF_LEGACY_CORPUS ?? '../../../shared/corpus';
const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
for (const file of [
  'Fox.glb',
  'CesiumMan/CesiumMan.gltf',
  'AnimatedMorphSphere/AnimatedMorphSphere.gltf',
  'BoxAnimated.glb',
]) {
  let doc;
  try {
    doc = await io.read(`${corpus}/gltf/${file}`);
  } catch {
    console.log(`${file}: not readable here, skipped`);
    continue;
  }
  for (const t of doc.getRoot().listTextures()) t.dispose();
  const times = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    await exportUnreal(doc, { name: 'bench' });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`${`export (baked) ${file}`.padEnd(60)} ${times[4].toFixed(1).padStart(8)} ms`);
}
