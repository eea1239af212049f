import { basename } from 'node:path';
import { ExportError } from '@gltf-legacy/core';
import { corpusFiles, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { type Document, type Node, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';

const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
const files = corpusFiles('gltf', ['.glb', '.gltf']);

/** Compressed files: their decoders (draco3dgltf, meshoptimizer) are not installed here. */
const COMPRESSED = new Set(['BoxDraco.gltf', 'DenseSphere.glb', 'BoxMeshopt.glb']);

/** What the export should keep: used vertices and triangles of every mesh instance (instances are flattened). */
function expected(doc: Document): {
  vertices: number;
  triangles: number;
  joints: number;
  skeletalAnimations: number;
  tangents: boolean;
} {
  let vertices = 0;
  let triangles = 0;
  let tangents = true;
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const visit = (node: Node) => {
    const mesh = node.getMesh();
    for (const prim of mesh?.listPrimitives() ?? []) {
      const mode = prim.getMode();
      if (mode < 4) continue;
      const n = prim.getAttribute('POSITION')?.getCount() ?? 0;
      const idx = prim.getIndices()?.getArray() ?? Uint32Array.from({ length: n }, (_, i) => i);
      vertices += new Set(idx).size;
      triangles += mode === 4 ? Math.floor(idx.length / 3) : Math.max(0, idx.length - 2);
      if (!prim.getAttribute('TANGENT')) tangents = false;
    }
    for (const c of node.listChildren()) visit(c);
  };
  for (const c of scene?.listChildren() ?? []) visit(c);
  const joints = new Set(root.listSkins().flatMap((s) => s.listJoints()));
  const skeletalAnimations = root
    .listAnimations()
    .filter((a) =>
      a.listChannels().some((c) => c.getTargetPath() !== 'weights' && joints.has(c.getTargetNode() as Node)),
    ).length;
  return { vertices, triangles, joints: joints.size, skeletalAnimations, tangents };
}

describe('foreign glTF export', () => {
  it('has the glTF corpus', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it.each(files.map((f) => [basename(f), f]))('%s', async (name, path) => {
    if (COMPRESSED.has(name)) {
      // Without the Draco / meshopt decoders NodeIO cannot even read these; nothing reaches export.
      await expect(io.read(path)).rejects.toThrow();
      return;
    }
    const doc = await io.read(path);
    // This variant differs from CesiumMilkTruck.gltf in its geometry only (KHR_mesh_quantization);
    // its 2048² JPEG is byte-identical, and that texture's export (JPEG decode, DDS with mips, ~4 s
    // of CPU) is run by the CesiumMilkTruck.gltf case of this walk. Nothing asserted here depends
    // on textures (as in unreal3d's foreign walk and the export matrix), so it is left out here.
    if (name === 'CesiumMilkTruckQuantized.gltf') for (const t of doc.getRoot().listTextures()) t.dispose();
    const want = expected(doc);
    if (want.triangles === 0) {
      // Points and lines only (Mesh_PrimitiveMode 00–03, 07–10): a UNIGINE mesh holds triangles.
      await expect(legacyFormat.export?.(doc, { name: 'x' })).rejects.toSatisfy(
        (e) => e instanceof ExportError && e.code === 'NOTHING_TO_EXPORT',
      );
      return;
    }
    const out = await legacyFormat.export?.(doc, { name: 'x' });
    if (!out) throw new Error('no export');
    const codes = new Set(out.warnings.map((w) => w.code));
    if (!want.tangents) expect(codes.has('TANGENTS_GENERATED')).toBe(true);
    const anims = [...out.files.keys()].filter((f) => f.endsWith('.anim'));
    expect(anims.length).toBe(want.skeletalAnimations);
    if (want.skeletalAnimations)
      expect(
        out.warnings.find((w) => w.code === 'VALUE_QUANTIZED' && w.message.includes('worst error')),
      ).toBeDefined();
    if (doc.getRoot().listAnimations().length > want.skeletalAnimations)
      expect(codes.has('ANIMATION_DROPPED') || codes.has('TRACK_DROPPED')).toBe(true);
    const back = await legacyFormat.import(out.files, { main: 'x.mesh' });
    const root = back.document.getRoot();
    const prims = root.listMeshes().flatMap((m) => m.listPrimitives());
    const vertices = prims.reduce((a, p) => a + (p.getAttribute('POSITION')?.getCount() ?? 0), 0);
    const triangles = prims.reduce((a, p) => a + (p.getIndices()?.getCount() ?? 0) / 3, 0);
    expect(vertices).toBe(want.vertices);
    expect(triangles).toBe(want.triangles);
    expect(root.listSkins().reduce((a, s) => a + s.listJoints().length, 0)).toBe(want.joints);
    expect(root.listAnimations().length).toBe(want.skeletalAnimations);
    // Validation of the big re-imports is left to the corpus tests (keeps this file fast).
    if ((out.files.get('x.mesh')?.length ?? 0) < 100_000 && anims.length < 5) {
      const report = await validateGlb(await io.writeBinary(back.document));
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    }
  });
});
