import { basename } from 'node:path';
import { type Document, type Node, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { corpusFiles, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { exportGrimrock, importGrimrock, readAnimation, readModel } from '../src/index.js';

const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
const files = corpusFiles('gltf', ['.glb', '.gltf']);

/** Compressed files need decoders that are not installed here (draco3dgltf, meshoptimizer). */
const NEEDS_DECODER: Record<string, string> = {
  'BoxDraco.gltf': 'KHR_draco_mesh_compression (draco3dgltf not installed)',
  'DenseSphere.glb': 'KHR_draco_mesh_compression (draco3dgltf not installed)',
  'BoxMeshopt.glb': 'EXT_meshopt_compression (meshoptimizer not installed)',
};

/**
 * What a Grimrock model can hold of a scene: per node that draws a mesh, its distinct triangle
 * vertex sets and triangles, and the joints of its skin. Shared meshes count once per node
 * (Grimrock has no instancing); points/lines primitives are not drawable as segments.
 */
function drawn(doc: Document) {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  let vertices = 0;
  let triangles = 0;
  let joints = 0;
  scene?.traverse((n: Node) => {
    const mesh = n.getMesh();
    if (!mesh) return;
    const seen = new Set<unknown>();
    let skinned = false;
    for (const p of mesh.listPrimitives()) {
      const mode = p.getMode();
      if (mode < 4) continue;
      const pos = p.getAttribute('POSITION')!;
      if (!seen.has(pos)) {
        seen.add(pos);
        vertices += pos.getCount();
      }
      const n = p.getIndices()?.getCount() ?? pos.getCount();
      triangles += mode === 4 ? Math.floor(n / 3) : Math.max(0, n - 2);
      if (p.getAttribute('JOINTS_0')) skinned = true;
    }
    if (skinned && n.getSkin()) joints += n.getSkin()!.listJoints().length;
  });
  const animations = doc
    .getRoot()
    .listAnimations()
    .filter((a) => a.listChannels().some((c) => c.getTargetPath() !== 'weights')).length;
  return { vertices, triangles, joints, animations };
}

describe('export of foreign glTF', () => {
  it('has the glTF corpus', () => {
    expect(files.length).toBeGreaterThan(30);
  });

  for (const path of files) {
    const name = basename(path);
    it(name, async () => {
      if (NEEDS_DECODER[name]) {
        // Reading needs a decoder we do not have: the failure must be a clear error, not garbage.
        await expect(io.read(path), NEEDS_DECODER[name]).rejects.toThrow();
        return;
      }
      const doc = await io.read(path);
      const before = drawn(doc);
      const { files: out, warnings } = await exportGrimrock(doc, { name: 'x' });
      const codes = new Set(warnings.map((w) => w.code));
      const model = readModel(out.get('x.model')!, 'x.model');
      expect(model.nodes[0].name).toBe('RootNode');
      // Every animation with node channels becomes one .animation file at 30 fps.
      const animFiles = [...out.keys()].filter((k) => k.endsWith('.animation'));
      expect(animFiles).toHaveLength(before.animations);
      for (const k of animFiles) {
        const a = readAnimation(out.get(k)!);
        expect(a.version).toBe(1);
        expect(a.framesPerSecond).toBe(30);
        for (const it of a.items) expect(it.positions.length / 3).toBe(a.numFrames);
      }
      // Lossy steps are reported.
      const root = doc.getRoot();
      if (root.listMeshes().some((m) => m.listPrimitives().some((p) => p.listTargets().length)))
        expect(codes).toContain('MORPH_TARGETS_DROPPED');
      if (root.listTextures().length) expect(codes).toContain('TEXTURE_DROPPED');
      if (root.listMeshes().some((m) => m.listPrimitives().some((p) => p.getMode() < 4)))
        expect(codes).toContain('PRIMITIVE_DROPPED');
      // Re-import: same drawable vertices, triangles, joints and animations; a valid glTF again.
      const back = importGrimrock(out, { main: 'x.model' });
      expect(drawn(back.document)).toEqual(before);
      if (before.vertices) {
        const report = await validateGlb(await io.writeBinary(back.document));
        expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      }
    });
  }

  it('quad_skin.glb: more than 4 influences keep the 4 largest, renormalized, with a warning', async () => {
    const doc = await io.read(files.find((p) => basename(p) === 'quad_skin.glb')!);
    const { files: out, warnings } = await exportGrimrock(doc, { name: 'q' });
    expect(warnings.find((w) => w.code === 'WEIGHTS_TRUNCATED')?.count).toBeGreaterThan(0);
    const mesh = readModel(out.get('q.model')!).nodes.find((n) => n.meshEntity)!.meshEntity!.mesh;
    const w = new Float32Array(mesh.arrays[14].data.slice().buffer);
    for (let v = 0; v < mesh.numVertices; v++)
      expect(w[v * 4] + w[v * 4 + 1] + w[v * 4 + 2] + w[v * 4 + 3]).toBeCloseTo(1, 5);
  });

  it('CesiumMan: animation resampled to --fps with a warning, duration kept', async () => {
    const doc = await io.read(files.find((p) => basename(p) === 'CesiumMan.gltf')!);
    const duration = Math.max(
      ...doc
        .getRoot()
        .listAnimations()[0]
        .listSamplers()
        .map((s) => s.getInput()!.getMax([])[0]),
    );
    const { files: out, warnings } = await exportGrimrock(doc, { name: 'man', fps: 24, variant: 'log2' });
    expect(warnings.find((w) => w.code === 'ANIMATION_RESAMPLED')?.count).toBeGreaterThan(0);
    const anim = readAnimation(out.get([...out.keys()].find((k) => k.endsWith('.animation'))!)!);
    expect(anim.version).toBe(2);
    expect(anim.framesPerSecond).toBe(24);
    expect(anim.numFrames).toBe(Math.round(duration * 24) + 1);
    // Channels that do not move are single entries in the Grimrock 2 layout; the others one per frame.
    const counts = new Set(
      anim.items.flatMap((it) => [it.positions.length / 3, it.rotations.length / 4, it.scales.length / 3]),
    );
    for (const c of counts) expect([1, anim.numFrames]).toContain(c);
  });
});
