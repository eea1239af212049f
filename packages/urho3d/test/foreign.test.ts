import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { corpusFiles } from '@gltf-legacy/test-utils';
import { type Document, NodeIO, type Node } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';

const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
const files = corpusFiles('gltf', ['.glb', '.gltf']);

/** Vertices (unique POSITION accessors per mesh instance) and triangles of the visible scene. */
function instanceCounts(doc: Document) {
  let vertices = 0;
  let triangles = 0;
  const visit = (n: Node) => {
    const mesh = n.getMesh();
    if (mesh) {
      const seen = new Set();
      for (const p of mesh.listPrimitives()) {
        const pos = p.getAttribute('POSITION');
        if (!pos) continue;
        if (!seen.has(pos)) {
          seen.add(pos);
          vertices += pos.getCount();
        }
        const n = p.getIndices()?.getCount() ?? pos.getCount();
        const mode = p.getMode();
        if (mode === 4) triangles += Math.floor(n / 3);
        else if (mode === 5 || mode === 6) triangles += Math.max(0, n - 2);
      }
    }
    for (const c of n.listChildren()) visit(c);
  };
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  for (const n of scene?.listChildren() ?? []) visit(n);
  return { vertices, triangles };
}

function requiredExtensions(path: string): string[] {
  const bytes = readFileSync(path);
  let json: any;
  if (path.endsWith('.glb')) {
    const len = bytes.readUInt32LE(12);
    json = JSON.parse(bytes.subarray(20, 20 + len).toString('utf8'));
  } else json = JSON.parse(bytes.toString('utf8'));
  return [...(json.extensionsRequired ?? []), ...(json.extensionsUsed ?? [])];
}

/** Textures the meshes' materials use (what the default export must write, issue 29). */
function usedTextures(doc: Document): number {
  const used = new Set();
  for (const mesh of doc.getRoot().listMeshes())
    for (const p of mesh.listPrimitives()) {
      const m = p.getMaterial();
      for (const t of [m?.getBaseColorTexture(), m?.getNormalTexture(), m?.getEmissiveTexture()])
        if (t?.getImage()) used.add(t);
    }
  return used.size;
}

const TEXTURE_FILE = /\.(png|jpe?g|dds|tga|bmp|webp)$/i;

describe('foreign glTF exports to Urho3D and re-imports with counts preserved', () => {
  for (const f of files) {
    const name = basename(f);
    it(name, async () => {
      const required = requiredExtensions(f);
      if (required.some((e) => /draco|meshopt/i.test(e))) {
        // draco3dgltf / meshoptimizer are not installed, so these files cannot be decoded here:
        // reading them fails before our exporter is reached. Nothing of ours to test.
        await expect(io.read(f)).rejects.toThrow();
        return;
      }
      const doc = await io.read(f);
      const before = instanceCounts(doc);
      const textures = usedTextures(doc);
      // default options: a glTF with materials is written with its material files and textures
      const out = await legacyFormat.export!(doc, { name: 'model' });
      const codes = new Set(out.warnings.map((w) => w.code));
      const scene = out.files.has('Objects/model.xml');
      const keys = [...out.files.keys()];
      if (textures) {
        expect(scene, name).toBe(true);
        expect(codes.has('TEXTURE_DROPPED'), name).toBe(false);
        expect(keys.filter((k) => TEXTURE_FILE.test(k)).length, name).toBeGreaterThanOrEqual(1);
        expect(
          keys.some((k) => /^Materials\/.+\.xml$/.test(k)),
          name,
        ).toBe(true);
      } else if (doc.getRoot().listTextures().length) expect(codes.has('TEXTURE_DROPPED')).toBe(true);
      if (doc.getRoot().listCameras().length) expect(codes.has('CAMERA_DROPPED')).toBe(true);
      const interp = doc
        .getRoot()
        .listAnimations()
        .flatMap((a) => a.listSamplers().map((s) => s.getInterpolation()));
      if (interp.some((i) => i !== 'LINEAR')) expect(codes.has('ANIMATION_RESAMPLED')).toBe(true);
      const main = scene ? 'Objects/model.xml' : 'model.mdl';
      if (!out.files.has(main)) {
        expect(before.vertices).toBe(0);
        return;
      }
      const back = await legacyFormat.import(new Map(out.files), { main });
      const after = instanceCounts(back.document);
      expect(after.vertices, name).toBe(before.vertices);
      expect(after.triangles, name).toBe(before.triangles);
      // every texture the meshes used comes back from the written resource tree
      expect(usedTextures(back.document), name).toBe(textures);
      const anims = doc
        .getRoot()
        .listAnimations()
        .filter((a) => a.listChannels().some((c) => c.getTargetPath() !== 'weights'));
      expect(back.document.getRoot().listAnimations().length).toBe(anims.length);
    });
  }

  const boxTextured = () => io.read(files.find((f) => basename(f) === 'BoxTextured.glb')!);
  it('materials: false writes the .mdl alone; the texture is dropped with TEXTURE_DROPPED', async () => {
    const out = await legacyFormat.export!(await boxTextured(), { name: 'model', materials: false });
    expect([...out.files.keys()]).toEqual(['model.mdl']);
    expect(out.warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining(['TEXTURE_DROPPED', 'MATERIAL_DROPPED']),
    );
  });
  it('an unknown materials value is a BAD_OPTION', async () => {
    await expect(legacyFormat.export!(await boxTextured(), { materials: 'sometimes' })).rejects.toThrow(
      expect.objectContaining({ code: 'BAD_OPTION' }),
    );
  });
});
