import { basename } from 'node:path';
import { ExportError, FormatError } from '@gltf-legacy/core';
import { Document } from '@gltf-transform/core';
import { corpusFiles, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  exportGrimrock,
  gltfToMat4x3,
  grimrockCompanions,
  importGrimrock,
  legacyFormat,
  mat4x3ToGltf,
  mat4x3ToTRS,
  readAnimation,
  readModel,
  trsToMat4x3,
  vertexArrayValues,
} from '../src/index.js';

const corpus = [...corpusFiles('grimrock', ['.model']), ...corpusFiles('grimrock', ['.animation'])];
const bytesOf = (name: string) => readBytes(corpus.find((p) => basename(p) === name)!);
const siblings = corpus.map((p) => basename(p));

describe('legacyFormat', () => {
  it('describes the format', () => {
    expect(legacyFormat.id).toBe('grimrock');
    expect(legacyFormat.extensions).toEqual(['.model', '.animation', '.dat']);
    expect(legacyFormat.mainExtension).toBe('.model');
    expect(legacyFormat.capabilities).toMatchObject({
      import: true,
      export: true,
      skins: true,
      animations: true,
      container: true,
    });
  });

  it('sniffs by magic, not by extension', () => {
    expect(legacyFormat.sniff(bytesOf('snail_red.model'), 'x.bin')).toBe(true);
    expect(legacyFormat.sniff(bytesOf('log2_rc_lever_up.animation'), 'x.bin')).toBe(true);
    expect(legacyFormat.sniff(new TextEncoder().encode('glTF....'), 'a.model')).toBe(false);
    expect(legacyFormat.sniff(new Uint8Array(2), 'a.model')).toBe(false);
  });

  it('finds NAME_*.animation companions of NAME.model', () => {
    expect(legacyFormat.companions!('skeleton_warrior_axe.model', siblings)).toEqual([
      'skeleton_warrior_axe_attack.animation',
      'skeleton_warrior_axe_hit_back.animation',
      'skeleton_warrior_axe_idle.animation',
      'skeleton_warrior_axe_turn_left.animation',
      'skeleton_warrior_axe_walk.animation',
    ]);
    expect(grimrockCompanions('log2_rc_lever.model', siblings)).toEqual([
      'log2_rc_lever_down.animation',
      'log2_rc_lever_up.animation',
    ]);
    expect(grimrockCompanions('snail_red.model', siblings)).toEqual([]);
    expect(grimrockCompanions('skeleton_warrior_axe_walk.animation', siblings)).toEqual([]);
  });

  it('imports through the interface and reports misfit companions as warnings', async () => {
    const files = new Map([
      ['snail_red.model', bytesOf('snail_red.model')],
      ['snail_red_walk.animation', bytesOf('skeleton_warrior_axe_walk.animation')],
      ['snail_red_lever.animation', bytesOf('log2_rc_lever_up.animation')],
    ]);
    const { document, warnings } = await legacyFormat.import(files, { main: 'snail_red.model' });
    const codes = warnings.map((w) => w.code);
    expect(codes).toContain('ANIMATION_TARGET_MISSING');
    expect(codes).toContain('ANIMATION_SKIPPED');
    // The warrior walk names 'local_srt', 'capsule', … which the snail also has: partly kept.
    const anims = document.getRoot().listAnimations();
    expect(anims.map((a) => a.getName())).toEqual(['snail_red_walk']);
    const targets = new Set(anims[0].listChannels().map((c) => c.getTargetNode()!.getName()));
    expect([...targets].sort()).toEqual(['capsule', 'local_srt']);
  });

  it('imports a lone animation as one node per item and exports it back byte-identical', async () => {
    for (const name of ['skeleton_warrior_axe_idle.animation', 'log2_rc_lever_down.animation']) {
      const bytes = bytesOf(name);
      const { document } = await legacyFormat.import(new Map([[name, bytes]]), { main: name });
      const file = readAnimation(bytes);
      expect(
        document
          .getRoot()
          .listNodes()
          .map((n) => n.getName()),
      ).toEqual(file.items.map((it) => it.nodeName));
      const { files } = await legacyFormat.export!(document, { name: name.replace('.animation', '') });
      expect([...files.keys()]).toEqual([name]);
      expect(firstByteDiff(files.get(name)!, bytes)).toBe(-1);
    }
  });

  it('rejects other bytes with a FormatError code', async () => {
    const err = await legacyFormat.import(new Map([['x.model', new Uint8Array(16)]])).catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect(err.code).toBe('BAD_MAGIC');
    const v3 = bytesOf('log2_rc_lever_up.animation').slice();
    v3[4] = 3;
    expect(() => readAnimation(v3, 'v3.animation')).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_VERSION' }),
    );
  });

  it('inspects the file model', () => {
    const sections = legacyFormat.inspect!(new Map([['slug.model', bytesOf('slug.model')]]));
    expect(sections[0].facts).toMatchObject({ version: 2, nodes: 12, meshEntities: 1 });
    expect(sections[1].facts).toMatchObject({
      vertices: 6186,
      triangles: 2062,
      bones: 9,
      materials: 'basic_slug_material',
    });
    const a = legacyFormat.inspect!(
      new Map([['w.animation', bytesOf('skeleton_warrior_axe_walk.animation')]]),
    );
    expect(a[0].facts).toMatchObject({ version: 1, framesPerSecond: 30, numFrames: 55, items: 28 });
  });
});

describe('Mat4x3 and axes', () => {
  it('maps the file matrix to glTF columns with the X mirror, and back exactly', () => {
    const m = Float32Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    expect(mat4x3ToGltf(m)).toEqual([1, -2, -3, 0, -4, 5, 6, 0, -7, 8, 9, 0, -10, 11, 12, 1]);
    expect(Array.from(gltfToMat4x3(mat4x3ToGltf(m)))).toEqual(Array.from(m));
  });

  it('decomposes a mirrored (det −1) matrix and composes it back', () => {
    // mf_rock-like basis: Blender's right-handed frame written into Grimrock's left-handed one.
    const m = Float32Array.of(1, 0, 0, 0, 0, 1, 0, 1, 0, 0.5, 2, -3);
    const { t, r, s } = mat4x3ToTRS(m);
    expect(s[0] * s[1] * s[2]).toBeLessThan(0);
    const back = trsToMat4x3(t, r, s);
    for (let i = 0; i < 12; i++) expect(back[i]).toBeCloseTo(m[i], 6);
  });

  it('positions are mirrored in X and triangles reversed (front faces agree with normals)', () => {
    const model = readModel(bytesOf('snail_red.model'));
    const { document } = importGrimrock(new Map([['snail_red.model', bytesOf('snail_red.model')]]));
    const node = document
      .getRoot()
      .listNodes()
      .find((n) => n.getName() === 'snail_mesh')!;
    const pos = node.getMesh()!.listPrimitives()[0].getAttribute('POSITION')!.getElement(0, []);
    const f = vertexArrayValues(model.nodes[2].meshEntity!.mesh.arrays[0], 1)!;
    expect(pos).toEqual([-f[0], f[1], f[2]]);
    // Winding: the glTF face normal agrees with the stored vertex normals (counter-clockwise front).
    const prim = node.getMesh()!.listPrimitives()[0];
    const idx = prim.getIndices()!.getArray()!;
    const P = prim.getAttribute('POSITION')!;
    const N = prim.getAttribute('NORMAL')!;
    let agree = 0;
    const tris = idx.length / 3;
    for (let t = 0; t < tris; t++) {
      const [a, b, c] = [idx[t * 3], idx[t * 3 + 1], idx[t * 3 + 2]].map((i) => P.getElement(i, []));
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      const vn = N.getElement(idx[t * 3], []);
      if (n[0] * vn[0] + n[1] * vn[1] + n[2] * vn[2] > 0) agree++;
    }
    expect(agree / tris).toBeGreaterThan(0.95);
  });
});

describe('export options', () => {
  let cached: ReturnType<typeof importGrimrock>['document'] | undefined;
  // Export does not modify the document: one import serves every test here.
  const warrior = () =>
    (cached ??= importGrimrock(
      new Map([
        ['skeleton_warrior_axe.model', bytesOf('skeleton_warrior_axe.model')],
        ['skeleton_warrior_axe_walk.animation', bytesOf('skeleton_warrior_axe_walk.animation')],
      ]),
      { main: 'skeleton_warrior_axe.model' },
    ).document);

  it('names files after options.name and writes Grimrock 2 animations with variant log2', async () => {
    const { files, warnings } = await exportGrimrock(warrior(), { name: 'hero', variant: 'log2' });
    expect([...files.keys()].sort()).toEqual(['hero.model', 'hero_walk.animation']);
    expect(warnings).toEqual([]);
    const a = readAnimation(files.get('hero_walk.animation')!);
    const orig = readAnimation(bytesOf('skeleton_warrior_axe_walk.animation'));
    expect(a.version).toBe(2);
    expect(a.numFrames).toBe(55);
    expect(a.items.map((i) => i.nodeName)).toEqual(orig.items.map((i) => i.nodeName));
    expect(Array.from(a.items[3].rotations)).toEqual(Array.from(orig.items[3].rotations));
  });

  it('resamples to options.fps with a warning', async () => {
    const { files, warnings } = await exportGrimrock(warrior(), { name: 'hero', fps: 15 });
    const a = readAnimation(files.get('hero_walk.animation')!);
    expect(a.framesPerSecond).toBe(15);
    expect(a.numFrames).toBe(Math.round((55 / 30) * 15));
    expect(a.items[0].positions.length / 3).toBe(a.numFrames);
    expect(warnings.find((w) => w.code === 'ANIMATION_RESAMPLED')?.count).toBe(28 * 3);
    // Frame k at 15 fps is frame 2k at 30 fps.
    const orig = readAnimation(bytesOf('skeleton_warrior_axe_walk.animation'));
    expect(a.items[5].positions[3 * 3 + 1]).toBeCloseTo(orig.items[5].positions[6 * 3 + 1], 5);
  });

  it('converts Grimrock 2 (v2) animations to v1 keys', async () => {
    const { document } = importGrimrock(
      new Map([
        ['log2_rc_lever.model', bytesOf('log2_rc_lever.model')],
        ['log2_rc_lever_up.animation', bytesOf('log2_rc_lever_up.animation')],
      ]),
    );
    const { files } = await exportGrimrock(document, { name: 'lever', variant: 'log1' });
    const a = readAnimation(files.get('lever_up.animation')!);
    const orig = readAnimation(bytesOf('log2_rc_lever_up.animation'));
    expect(a.version).toBe(1);
    expect(a.framesPerSecond).toBe(24);
    expect(Array.from(a.items[0].positions)).toEqual(Array.from(orig.items[0].positions));
  });

  it('writes unchanging resampled channels as single Grimrock 2 entries', async () => {
    // Resampling the warrior walk to 15 fps: local_srt does not move, so each channel is one entry.
    const { files } = await exportGrimrock(warrior(), { name: 'hero', fps: 15, variant: 'log2' });
    const a = readAnimation(files.get('hero_walk.animation')!);
    const still = a.items.find((it) => it.nodeName === 'local_srt')!;
    expect([still.positions.length, still.rotations.length, still.scales.length]).toEqual([3, 4, 3]);
    expect(a.items.some((it) => it.rotations.length === a.numFrames * 4)).toBe(true);
  });

  it('rejects bad options and empty documents with ExportError codes', async () => {
    await expect(exportGrimrock(warrior(), { fps: -1 })).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_OPTION' }),
    );
    await expect(exportGrimrock(warrior(), { variant: 'log3' as any })).rejects.toThrow(ExportError);
    await expect(exportGrimrock(new Document())).rejects.toThrow(
      expect.objectContaining({ code: 'NOTHING_TO_EXPORT' }),
    );
    await expect(exportGrimrock(warrior(), { fps: 1e7 })).rejects.toThrow(
      expect.objectContaining({ code: 'TOO_MANY_FRAMES' }),
    );
  });
});

describe('edited documents', () => {
  it('a lengthened Grimrock clip is resampled to its new duration, not cut to the imported frame count', async () => {
    const { document } = importGrimrock(
      new Map([
        ['log2_rc_lever.model', bytesOf('log2_rc_lever.model')],
        ['log2_rc_lever_up.animation', bytesOf('log2_rc_lever_up.animation')],
      ]),
    );
    // Stretch every key time ×2: 6 frames at 24 fps (0.25 s) become 0.5 s.
    const inputs = new Set(
      document
        .getRoot()
        .listAnimations()[0]
        .listSamplers()
        .map((s) => s.getInput()!),
    );
    for (const input of inputs) {
      const t = (input.getArray() as Float32Array).slice();
      for (let i = 0; i < t.length; i++) t[i] *= 2;
      input.setArray(t);
    }
    const { files, warnings } = await exportGrimrock(document, { name: 'lever' });
    const a = readAnimation(files.get('lever_up.animation')!);
    expect(a.framesPerSecond).toBe(24);
    expect(a.numFrames).toBe(13);
    expect(warnings.map((w) => w.code)).toContain('ANIMATION_RESAMPLED');
  });
});
