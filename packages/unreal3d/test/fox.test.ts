import { join } from 'node:path';
import { WarningCollector } from '@gltf-legacy/core';
import { corpusRoot, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { anivFrame, readAniv } from '../src/aniv.js';
import { collectItems, poseAt, readTracks } from '../src/bake.js';
import { readData } from '../src/data.js';
import { exportUnreal } from '../src/export.js';
import { importUnrealFiles, UNREAL_UNIT_METRES } from '../src/index.js';
import { parseUc, ucMesh } from '../src/uc.js';

const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);

describe('Fox.glb (skinned) → vertex-animated Unreal mesh', async () => {
  const doc = await io.read(join(corpusRoot(), 'gltf', 'Fox.glb'));
  const { files, warnings } = await exportUnreal(doc, { name: 'Fox' });
  const data = readData(files.get('Fox_d.3d') as Uint8Array);
  const aniv = readAniv(files.get('Fox_a.3d') as Uint8Array, 'Fox_a.3d', {
    numVertices: data.header.numVertices,
  });
  const uc = ucMesh(parseUc(new TextDecoder().decode(files.get('Fox.uc'))), 'Fox');

  it('writes one sequence per clip at 30 fps', () => {
    const clips = doc.getRoot().listAnimations();
    expect(uc.sequences.map((s) => s.name)).toEqual(clips.map((a) => a.getName()));
    let start = 0;
    for (const [i, s] of uc.sequences.entries()) {
      const duration = readTracks(clips[i]).duration;
      expect(s.rate).toBe(30);
      expect(s.startFrame).toBe(start);
      expect(s.numFrames).toBe(Math.round(duration * 30));
      start += s.numFrames;
    }
    expect(aniv.numFrames).toBe(start);
    // 1728 glTF vertices (split at UV/normal seams) weld to the positions they really are.
    expect(data.header.numVertices).toBeLessThan(1728);
    expect(warnings.some((w) => w.code === 'VERTICES_WELDED')).toBe(true);
    expect(data.header.numPolys).toBe(576);
  });

  it('reports baking and the worst quantization error', () => {
    const codes = warnings.map((w) => w.code);
    expect(codes).toContain('SKIN_BAKED');
    expect(codes).toContain('VALUE_QUANTIZED');
    const q = warnings.find((w) => w.code === 'VALUE_QUANTIZED' && w.message.includes('positions')) as {
      message: string;
    };
    const worst = Number(/worst error ([0-9.e+-]+)/.exec(q.message)?.[1]);
    expect(worst).toBeLessThanOrEqual((Math.max(...uc.scale) / 2) * 1.001); // message rounds to 3 digits
  });

  it('frames match the CPU-skinned source within half a quantization step', () => {
    const items = collectItems(doc, new WarningCollector());
    // glTF vertex → Unreal vertex, through the triangles (corners 1 and 2 swapped).
    const src = items[0].indices;
    const unrealOf = new Int32Array(1728).fill(-1);
    for (let k = 0; k < 576; k++) {
      const corners = [src[k * 3], src[k * 3 + 2], src[k * 3 + 1]];
      for (let c = 0; c < 3; c++) unrealOf[corners[c]] = data.polys.vertices[k * 3 + c];
    }
    const nv = 1728;
    const pose = new Float64Array(nv * 3);
    const clips = doc.getRoot().listAnimations();
    for (const s of uc.sequences) {
      const tracks = readTracks(clips[uc.sequences.indexOf(s)]);
      for (const i of [0, Math.floor(s.numFrames / 2)]) {
        poseAt(items, tracks, i / s.rate, pose);
        const raw = anivFrame(aniv, s.startFrame + i);
        const o = [uc.origin.x, uc.origin.y, uc.origin.z];
        let worst = 0;
        for (let v = 0; v < nv; v++) {
          // Unreal world = scale · (raw − origin).
          const u = unrealOf[v];
          if (u < 0) continue;
          const w = [0, 1, 2].map((c) => uc.scale[c] * (raw[u * 3 + c] - o[c]));
          // glTF metres → Unreal units (1 UU = UNREAL_UNIT_METRES), glTF +Z forward / +Y up /
          // −X right → Unreal X forward / Z up / Y right.
          const U = UNREAL_UNIT_METRES;
          worst = Math.max(
            worst,
            Math.abs(w[0] - pose[v * 3 + 2] / U),
            Math.abs(w[1] + pose[v * 3] / U),
            Math.abs(w[2] - pose[v * 3 + 1] / U),
          );
        }
        expect(worst).toBeLessThanOrEqual(Math.max(...uc.scale) / 2 + 1e-6);
      }
    }
  });

  it('re-imports as a morph-animated glTF with 0 validator errors', async () => {
    const back = await importUnrealFiles(files, { main: 'Fox_d.3d' });
    const root = back.document.getRoot();
    expect(root.listAnimations().map((a) => a.getName())).toEqual(['Survey', 'Walk', 'Run']);
    expect(root.listMeshes()[0].listPrimitives()[0].listTargets().length).toBe(aniv.numFrames - 1);
    // Each clip keeps its duration (n frames at RATE, looping back to the first frame).
    for (const [i, a] of root.listAnimations().entries()) {
      const times = a.listSamplers()[0].getInput()?.getArray() as Float32Array;
      expect(times[times.length - 1]).toBeCloseTo(uc.sequences[i].numFrames / 30, 5);
      expect(a.listSamplers()[0].getInterpolation()).toBe('LINEAR');
    }
    const report = await validateGlb(await io.writeBinary(back.document));
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
  });

  it('variant deusex writes 8-byte vertices with finer steps', async () => {
    const dx = await exportUnreal(doc, { name: 'Fox', variant: 'deusex', fps: 10 });
    const d = readData(dx.files.get('Fox_d.3d') as Uint8Array);
    const a = readAniv(dx.files.get('Fox_a.3d') as Uint8Array, 'Fox_a.3d', {
      numVertices: d.header.numVertices,
    });
    expect(a.layout).toBe('deusex');
    expect(a.frameSize).toBe(8 * d.header.numVertices);
    const dxUc = ucMesh(parseUc(new TextDecoder().decode(dx.files.get('Fox.uc'))), 'Fox');
    expect(Math.max(...dxUc.scale)).toBeLessThan(Math.max(...uc.scale) / 16);
    const back = await importUnrealFiles(dx.files, { main: 'Fox_d.3d' });
    expect(back.document.getRoot().listAnimations().length).toBe(3);
  });
});
