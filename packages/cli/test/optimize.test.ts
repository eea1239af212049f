import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentStats } from '@gltf-legacy/core';
import { corpusFiles, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { convertFile, createCodecNodeIO, type OptimizeOptions, optimizeSteps } from '../src/index.js';

const girl = corpusFiles('gltf', ['girl.glb'])[0];
const dense = corpusFiles('gltf', ['DenseSphere.glb'])[0];
const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-opt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function variant(input: string, name: string, optimize: OptimizeOptions) {
  const output = join(dir, `${name}.glb`);
  const r = await convertFile(input, { output, optimize, force: true });
  expect(r.status, `${name}: ${r.error?.message}`).toBe('ok');
  const bytes = new Uint8Array(readFileSync(output));
  const v = await validateGlb(bytes);
  expect(v.issues.numErrors, `${name}\n${validatorErrors(v)}`).toBe(0);
  const io = await createCodecNodeIO([], { draco: !!optimize.draco });
  const doc = await io.readBinary(bytes);
  const keyframes = doc
    .getRoot()
    .listAnimations()
    .flatMap((a) => a.listSamplers())
    .reduce((n, s) => n + (s.getInput()?.getCount() ?? 0), 0);
  return {
    size: statSync(output).size,
    stats: documentStats(doc),
    doc,
    keyframes,
    extensions: doc
      .getRoot()
      .listExtensionsUsed()
      .map((e) => e.extensionName),
  };
}

describe.skipIf(!girl)('optimize chain on a skinned, animated corpus model (girl.glb)', () => {
  it('every flag gives a file the validator accepts; sizes shrink where they should', async () => {
    const plain = await variant(girl, 'plain', {});
    const dedup = await variant(girl, 'dedup', { dedup: true });
    const weld = await variant(girl, 'weld', { weld: true });
    const prune = await variant(girl, 'prune', { prune: true });
    const resample = await variant(girl, 'resample', { resample: true });
    const simplify = await variant(girl, 'simplify', { simplify: 0.5 });
    const quantize = await variant(girl, 'quantize', { quantize: true });
    const meshopt = await variant(girl, 'meshopt', { meshopt: true });
    const draco = await variant(girl, 'draco', { draco: true });
    const center = await variant(girl, 'center', { center: true });
    const preset = await variant(girl, 'optimize', { optimize: true });
    const presetMeshopt = await variant(girl, 'optimize-meshopt', { optimize: true, meshopt: true });

    expect(dedup.size).toBeLessThan(plain.size);
    expect(weld.stats.vertices).toBeLessThanOrEqual(plain.stats.vertices);
    expect(prune.size).toBeLessThanOrEqual(plain.size);
    expect(resample.keyframes).toBeLessThan(plain.keyframes);
    expect(resample.size).toBeLessThan(plain.size);
    expect(simplify.stats.triangles).toBeLessThan(plain.stats.triangles * 0.75);
    expect(quantize.size).toBeLessThan(plain.size);
    expect(quantize.extensions).toContain('KHR_mesh_quantization');
    expect(meshopt.size).toBeLessThan(plain.size * 0.75);
    expect(meshopt.extensions).toContain('EXT_meshopt_compression');
    expect(draco.size).toBeLessThan(plain.size);
    expect(draco.extensions).toContain('KHR_draco_mesh_compression');
    expect(preset.size).toBeLessThan(plain.size * 0.8);
    expect(presetMeshopt.size).toBeLessThan(preset.size);
    // what must not change: skins, animations, triangle counts of lossless steps
    for (const v of [dedup, weld, prune, resample, quantize, meshopt, draco, center, preset]) {
      // lossless steps keep the triangles (weld and Draco drop the 2 degenerate ones girl.glb has)
      expect(v.stats.triangles).toBeLessThanOrEqual(plain.stats.triangles);
      expect(v.stats.triangles).toBeGreaterThanOrEqual(plain.stats.triangles - 2);
      // quantize (and meshopt, which quantizes) gives each skinned mesh its own skin copy: same joints
      expect(
        v.doc
          .getRoot()
          .listSkins()
          .map((k) => k.listJoints().length),
      ).toEqual(
        v.doc
          .getRoot()
          .listSkins()
          .map(() => plain.stats.joints),
      );
      expect(v.stats.animations).toBe(plain.stats.animations);
    }
    // --center: the scene's bounding box is centered at the origin
    const { getBounds } = await import('@gltf-transform/functions');
    const b = getBounds(center.doc.getRoot().getDefaultScene() ?? center.doc.getRoot().listScenes()[0]);
    for (let i = 0; i < 3; i++)
      expect(Math.abs((b.min[i] + b.max[i]) / 2)).toBeLessThan(1e-3 * (b.max[i] - b.min[i] + 1));
  });

  it('a Draco input re-compressed with meshopt drops Draco; steps are in a fixed order', async () => {
    if (!dense) return;
    const r = await variant(dense, 'dense-meshopt', { meshopt: true });
    expect(r.extensions).toContain('EXT_meshopt_compression');
    expect(r.extensions).not.toContain('KHR_draco_mesh_compression');
    const names = (await optimizeSteps({ optimize: true, center: true, simplify: 0.5, meshopt: true })).map(
      (t) => t.name,
    );
    expect(names).toEqual([
      'center',
      'dedup',
      'weld',
      'simplify',
      'resample',
      'prune',
      'dequantize',
      'meshopt',
    ]);
    await expect(optimizeSteps({ meshopt: true, draco: true })).rejects.toThrow(/pick one/);
  });
});
