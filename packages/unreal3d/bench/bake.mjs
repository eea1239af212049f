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
  for (let i = 0; i < 3; i++) await exportUnreal(doc, { name: 'bench' }); // warm-up (JIT)
  const times = [];
  const cpu = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await exportUnreal(doc, { name: 'bench' });
    const c = process.cpuUsage(c0);
    times.push(performance.now() - t0);
    cpu.push((c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  // CPU time is the steadier figure on a shared machine (wall time counts other processes).
  console.log(
    `${`export (baked) ${file}`.padEnd(52)} ${times[4].toFixed(1).padStart(8)} ms wall ${cpu[4].toFixed(1).padStart(8)} ms cpu`,
  );
}
