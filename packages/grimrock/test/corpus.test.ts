import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { KeptBytesExtension } from '@gltf-legacy/core';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import {
  corpusFiles,
  firstByteDiff,
  loadWithThree,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  exportGrimrock,
  grimrockCompanions,
  importGrimrock,
  readAnimation,
  readModel,
  writeAnimation,
  writeModel,
} from '../src/index.js';

const models = corpusFiles('grimrock', ['.model']);
const animations = corpusFiles('grimrock', ['.animation']);
const allNames = [...models, ...animations].map((p) => basename(p));

function fileSet(modelPath: string): Map<string, Uint8Array> {
  const name = basename(modelPath);
  const files = new Map([[name, readBytes(modelPath)]]);
  for (const c of grimrockCompanions(name, allNames)) {
    files.set(c, readBytes(animations.find((p) => basename(p) === c)!));
  }
  return files;
}

describe('corpus: file model', () => {
  it('has the 21 corpus files', () => {
    expect(models.length + animations.length).toBe(21);
  });
  for (const path of models) {
    it(`${basename(path)} parses and writes back byte-identical`, () => {
      const bytes = readBytes(path);
      const model = readModel(bytes, basename(path));
      expect(model.version).toBe(2);
      expect(firstByteDiff(writeModel(model), bytes)).toBe(-1);
    });
  }
  for (const path of animations) {
    it(`${basename(path)} parses and writes back byte-identical`, () => {
      const bytes = readBytes(path);
      const anim = readAnimation(bytes, basename(path));
      expect(anim.version).toBe(basename(path).startsWith('log2_') ? 2 : 1);
      expect(firstByteDiff(writeAnimation(anim), bytes)).toBe(-1);
    });
  }
});

describe('corpus: import → glb validates, → glb on disk → export is byte-identical', () => {
  const dir = mkdtempSync(join(tmpdir(), 'grimrock-'));
  const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, KeptBytesExtension]);
  for (const path of models) {
    const name = basename(path);
    it(`${name}`, async () => {
      const files = fileSet(path);
      const { document } = importGrimrock(files, { main: name });
      const glb = await io.writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const file = join(dir, name.replace(/\.model$/, '.glb'));
      writeFileSync(file, glb);
      const back = await io.read(file);
      const { files: out } = await exportGrimrock(back, { name: name.replace(/\.model$/, '') });
      expect([...out.keys()].sort()).toEqual([...files.keys()].sort());
      for (const [n, bytes] of files) expect(firstByteDiff(out.get(n)!, bytes), n).toBe(-1);
    });
  }
});

describe('corpus: imported values', () => {
  it('bounds stored in each MeshData equal the imported POSITION bounds (X mirrored)', () => {
    let meshes = 0;
    for (const path of models) {
      const name = basename(path);
      const model = readModel(readBytes(path), name);
      const { document } = importGrimrock(new Map([[name, readBytes(path)]]), { main: name });
      const byName = new Map(
        document
          .getRoot()
          .listMeshes()
          .map((m) => [m.getName(), m]),
      );
      for (const node of model.nodes) {
        const e = node.meshEntity;
        if (!e) continue;
        meshes++;
        const pos = byName.get(node.name)!.listPrimitives()[0].getAttribute('POSITION')!;
        const min = pos.getMin([]);
        const max = pos.getMax([]);
        const { boundMin: sMin, boundMax: sMax } = e.mesh;
        if (name === 'slug.model') {
          // The exporter that wrote slug.model stored its bounds with Y and Z swapped (Z-up box).
          expect([min[0], min[1], min[2]]).toEqual([-sMax[0], sMin[2], sMin[1]]);
          expect([max[0], max[1], max[2]]).toEqual([-sMin[0], sMax[2], sMax[1]]);
        } else if (name === 'skeleton_warrior_axe.model' && node.name === 'great_axe') {
          // The weapon's stored box is larger than its vertices (written for another pose): it encloses them.
          for (let c = 0; c < 3; c++) {
            const lo = c === 0 ? -sMax[0] : sMin[c];
            const hi = c === 0 ? -sMin[0] : sMax[c];
            expect(min[c]).toBeGreaterThanOrEqual(lo);
            expect(max[c]).toBeLessThanOrEqual(hi);
          }
        } else {
          expect([min[0], min[1], min[2]], `${name} ${node.name}`).toEqual([-sMax[0], sMin[1], sMin[2]]);
          expect([max[0], max[1], max[2]], `${name} ${node.name}`).toEqual([-sMin[0], sMax[1], sMax[2]]);
        }
      }
    }
    expect(meshes).toBe(15);
  });

  it('skeleton warrior: skins, rest pose and five animations of numFrames / fps seconds', async () => {
    const path = models.find((p) => basename(p) === 'skeleton_warrior_axe.model')!;
    const files = fileSet(path);
    expect([...files.keys()].filter((n) => n.endsWith('.animation'))).toHaveLength(5);
    const { document, warnings } = importGrimrock(files, { main: 'skeleton_warrior_axe.model' });
    expect(warnings).toEqual([]);
    const root = document.getRoot();
    const skins = new Map(
      root
        .listNodes()
        .filter((n) => n.getSkin())
        .map((n) => [n.getName(), n.getSkin()!]),
    );
    expect(skins.get('skeleton_warrior_mesh')!.listJoints()).toHaveLength(24);
    expect(
      skins
        .get('great_axe')!
        .listJoints()
        .map((j) => j.getName()),
    ).toEqual(['hand_r']);
    // world(joint) · inverseBindMatrix ≈ identity for the warrior's bind pose (see notes §2).
    const skin = skins.get('skeleton_warrior_mesh')!;
    const ibm = skin.getInverseBindMatrices()!.getArray() as Float32Array;
    skin.listJoints().forEach((j, i) => {
      const w = j.getWorldMatrix();
      for (let r = 0; r < 4; r++) {
        for (let c = 0; c < 4; c++) {
          let s = 0;
          for (let k = 0; k < 4; k++) s += w[k * 4 + r] * ibm[i * 16 + c * 4 + k];
          expect(Math.abs(s - (r === c ? 1 : 0)), `${j.getName()} [${r},${c}]`).toBeLessThan(1e-3);
        }
      }
    });
    const anims = root.listAnimations();
    expect(anims.map((a) => a.getName()).sort()).toEqual([
      'skeleton_warrior_axe_attack',
      'skeleton_warrior_axe_hit_back',
      'skeleton_warrior_axe_idle',
      'skeleton_warrior_axe_turn_left',
      'skeleton_warrior_axe_walk',
    ]);
    for (const a of anims) {
      const file = readAnimation(files.get(`${a.getName()}.animation`)!);
      expect(a.listChannels()).toHaveLength(file.items.length * 3);
      const end = Math.max(...a.listSamplers().map((s) => s.getInput()!.getMax([])[0]));
      expect(end).toBeCloseTo(file.numFrames / file.framesPerSecond, 5);
      // The first rotation key of an item equals the file's key with the X mirror (x, −y, −z, w).
      const ch = a.listChannels().find((c) => c.getTargetPath() === 'rotation')!;
      const item = file.items.find((it) => it.nodeName === ch.getTargetNode()!.getName())!;
      const q = ch.getSampler()!.getOutput()!.getElement(0, []);
      expect(q).toEqual([item.rotations[0], -item.rotations[1], -item.rotations[2], item.rotations[3]]);
    }
    // A viewer sees the same: three.js loads 2 skinned meshes and 5 clips of the same durations.
    const gltf = await loadWithThree(await new NodeIO().writeBinary(document));
    const skinned: any[] = [];
    gltf.scene.traverse((o: any) => o.isSkinnedMesh && skinned.push(o));
    expect(skinned.map((s) => s.skeleton.bones.length).sort((a: number, b: number) => a - b)).toEqual([
      1, 24,
    ]);
    const durations = Object.fromEntries(gltf.animations.map((c: any) => [c.name, c.duration]));
    expect(durations.skeleton_warrior_axe_walk).toBeCloseTo(55 / 30, 5);
    expect(durations.skeleton_warrior_axe_idle).toBeCloseTo(10 / 30, 5);
  });

  it('Grimrock 2 lever: v2 animations at 24 fps, bones grouped under one skeleton root', () => {
    const path = models.find((p) => basename(p) === 'log2_rc_lever.model')!;
    const { document, warnings } = importGrimrock(fileSet(path), { main: 'log2_rc_lever.model' });
    expect(warnings).toEqual([]);
    const anims = document.getRoot().listAnimations();
    expect(anims.map((a) => a.getName()).sort()).toEqual(['log2_rc_lever_down', 'log2_rc_lever_up']);
    for (const a of anims) {
      expect((a.getExtras().grimrock as any).version).toBe(2);
      const end = Math.max(...a.listSamplers().map((s) => s.getInput()!.getMax([])[0]));
      expect(end).toBeCloseTo(6 / 24, 5);
    }
    // The two bones (separate top-level nodes in the file) share one synthetic skeleton root.
    const group = document
      .getRoot()
      .listNodes()
      .find((n) => (n.getExtras().grimrock as any)?.synthetic)!;
    expect(group.listChildren().map((n) => n.getName())).toEqual(['b_base', 'b_lever']);
  });
});
