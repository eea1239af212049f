import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { LegacyError } from '@gltf-legacy/core';
import { legacyFormat as unigine } from '@gltf-legacy/unigine';
import { legacyFormat as unreal3d } from '@gltf-legacy/unreal3d';
import { readBytes } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { afterAll, describe, expect, test } from 'vitest';
import { previewFiles } from '../src/node/preview.js';
import { changedFraction, corpusNamed, decodePng, haveChromium, lumaVariance } from './helpers.js';

const outDir = join(tmpdir(), `gltf-legacy-preview-${process.pid}`);
afterAll(() => rm(outDir, { recursive: true, force: true }));

test('previewFiles: Chromium missing is a CHROMIUM_MISSING error saying how to install it', async () => {
  const e = await previewFiles(['x.glb'], { outDir, executablePath: '/nonexistent/chromium' }).catch(
    (x) => x,
  );
  expect(e).toBeInstanceOf(LegacyError);
  expect(e.code).toBe('CHROMIUM_MISSING');
  expect(e.message).toContain('apt-get install -y chromium');
  expect(e.message).toContain('/nonexistent/chromium');
});

describe.skipIf(!haveChromium())('previewFiles in headless Chromium', () => {
  test('one non-blank PNG per corpus model (four formats + glb), companions loaded, a bad input reported', async () => {
    const inputs = [
      ...corpusNamed('unreal3d', ['Skull_d.3d']),
      ...corpusNamed('grimrock', ['stone_dagger.model']),
      ...corpusNamed('tso', ['au-blue.d93f568500000009.mesh']),
      ...corpusNamed('unigine', ['actor_00.mesh']),
      ...corpusNamed('gltf', ['Fox.glb']),
      join(outDir, 'missing.mdl'),
    ];
    const seen: string[] = [];
    const results = await previewFiles(inputs, { outDir, size: 256, onResult: (r) => seen.push(r.input) });
    expect(seen).toEqual(inputs);
    const ok = results.slice(0, 5);
    for (const r of ok) {
      expect(r.error, `${r.input}: ${r.error?.message}`).toBeUndefined();
      expect(r.outputs).toHaveLength(1);
    }
    expect(ok.map((r) => r.outputs[0].slice(outDir.length + 1))).toEqual([
      'Skull.png',
      'stone_dagger.png',
      'au-blue.d93f568500000009.png',
      'actor_00.png',
      'Fox.png',
    ]);
    // Skull_d.3d: its _a.3d (the positions: without it the import fails) and .uc (its one
    // sequence, "All") were found beside it; its 30 equal frames import as a static mesh
    expect(ok[0].stats).toMatchObject({ vertices: 708, morphTargets: 0, animations: 1 });
    expect(ok[3].stats?.animations).toBe(6); // actor_00 + its six .anim files
    expect(ok[4].stats).toMatchObject({ vertices: 1728, joints: 24, animations: 3 });
    const pictures = [];
    for (const r of ok) {
      const png = decodePng(new Uint8Array(await readFile(r.outputs[0])));
      expect([png.width, png.height]).toEqual([256, 256]);
      expect(lumaVariance(png.rgba), r.input).toBeGreaterThan(20);
      // the model fills a fair part of the frame (fixed camera framing the bounds)
      const bg = png.rgba.slice(0, 4);
      let covered = 0;
      for (let i = 0; i < png.rgba.length; i += 4)
        if (
          Math.abs(png.rgba[i] - bg[0]) +
            Math.abs(png.rgba[i + 1] - bg[1]) +
            Math.abs(png.rgba[i + 2] - bg[2]) >
          24
        )
          covered++;
      expect(covered / (256 * 256), r.input).toBeGreaterThan(0.03);
      pictures.push(png.rgba);
    }
    expect(changedFraction(pictures[0], pictures[1])).toBeGreaterThan(0.01);
    expect(results[5].error?.code).toBe('FILE_NOT_FOUND');
    expect(results[5].outputs).toEqual([]);
  });
});

describe.skipIf(!haveChromium())('preview of both vertex-animation encodings (issue 30)', () => {
  test('compact (KHR_mesh_quantization, SHORT tracks) and portable .glb render the same picture', async () => {
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
    const dir = join(outDir, 'modes');
    await mkdir(dir, { recursive: true });
    const models = [
      {
        format: unreal3d,
        main: 'Sporifier_d.3d',
        files: corpusNamed('unreal3d', ['Sporifier_d.3d', 'Sporifier_a.3d', 'Sporifier.uc']),
      },
      {
        format: unigine,
        main: 'actor_00.mesh',
        files: corpusNamed('unigine', ['actor_00.mesh', 'actor_00_idle.anim']),
      },
    ];
    const inputs: string[] = [];
    for (const m of models) {
      const set = new Map(m.files.map((f) => [basename(f), readBytes(f)]));
      for (const compact of [true, false]) {
        const { document } = await m.format.import(set, { main: m.main, compact });
        const path = join(dir, `${m.main.replace(/\W/g, '_')}-${compact ? 'compact' : 'portable'}.glb`);
        await writeFile(path, await io.writeBinary(document));
        inputs.push(path);
      }
    }
    const results = await previewFiles(inputs, { outDir: join(dir, 'png'), size: 256 });
    const pngs = [];
    for (const r of results) {
      expect(r.error, `${r.input}: ${r.error?.message}`).toBeUndefined();
      const png = decodePng(new Uint8Array(await readFile(r.outputs[0])));
      expect(lumaVariance(png.rgba), r.input).toBeGreaterThan(20);
      pngs.push(png.rgba);
    }
    expect(results[0].stats?.morphTargets).toBeGreaterThan(10);
    expect(results[2].stats?.animations).toBeGreaterThan(0);
    // same positions and key values; the compact NORMAL deltas differ by ≤ 1/127 (a shade)
    expect(changedFraction(pngs[0], pngs[1])).toBeLessThan(0.002);
    expect(changedFraction(pngs[2], pngs[3])).toBeLessThan(0.002);
  });
});
