import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemoryResources, unchangedTextureSource } from '@gltf-legacy/core';
import { encodeTexture, fromGltfImage } from '@gltf-legacy/textures';
import {
  TEST_ASSETS,
  corpusFiles,
  firstByteDiff,
  folderResources,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { type Document, NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { collectContentIds, legacyFormat, readBinding, writeBinding } from '../src/index.js';
import { cubeOutfit, cubePixels } from './outfit-fixtures.js';

const DIR = join(TEST_ASSETS, 'tso', 'outfit');
const APR = 'Appearances/hand-cube.00c0be040000000c.apr';
const io = new NodeIO();

async function importApr(resources: MemoryResources, path = APR, options: Record<string, unknown> = {}) {
  const bytes = (await resources.read(path))!;
  const name = path.split('/').pop()!;
  return legacyFormat.import(new Map([[name, bytes]]), {
    main: name,
    resources,
    resourcePath: path,
    ...options,
  });
}

async function valid(doc: Document): Promise<Document> {
  const glb = await io.writeBinary(doc);
  const report = await validateGlb(glb);
  expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
  return io.readBinary(glb);
}

function baseColour(doc: Document) {
  const tex = doc.getRoot().listMaterials()[0]?.getBaseColorTexture();
  return tex ? fromGltfImage(tex.getImage()!, tex.getMimeType()) : undefined;
}

describe('test-assets/tso/outfit (hand cube with a BMP texture)', () => {
  it.each([...cubeOutfit().keys()])('%s matches the fixture bytes', (path) => {
    const bytes = cubeOutfit().get(path)!;
    const file = join(DIR, path);
    if (process.env.UPDATE_TEST_ASSETS || !existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, bytes);
    }
    expect(Buffer.compare(readFileSync(file), bytes)).toBe(0);
  });

  it('imports with the BMP as a PNG of the same pixels; export gives the four files back byte-identical', async () => {
    const resources = folderResources(DIR);
    const { document, warnings } = await importApr(resources);
    expect(warnings.map((w) => w.code)).toEqual(['SKELETON_MISSING']);
    const back = await valid(document);
    const tex = back.getRoot().listTextures()[0];
    expect(tex.getMimeType()).toBe('image/png');
    expect((await unchangedTextureSource(tex))?.path).toBe('Textures/hand-cube.00c0be0200000014.bmp');
    const rgba = baseColour(back)!;
    expect([rgba.width, rgba.height]).toEqual([4, 4]);
    expect(firstByteDiff(rgba.data, cubePixels())).toBe(-1);
    const material = back.getRoot().listMaterials()[0];
    expect(material.getName()).toBe('hand-cube');
    expect(material.getAlphaMode()).toBe('OPAQUE');

    const { files, warnings: ew } = await legacyFormat.export!(back, { name: 'cube' });
    expect(ew).toEqual([]);
    const original = cubeOutfit();
    expect([...files.keys()].sort()).toEqual([...original.keys()].sort());
    for (const [path, bytes] of files) expect(firstByteDiff(bytes, original.get(path)!), path).toBe(-1);
  });

  it('an edited texture is written as PNG under the same id; the binding stays byte-identical', async () => {
    const { document } = await importApr(folderResources(DIR));
    const edited = cubePixels();
    edited.set([10, 20, 30, 255], 0);
    const tex = document.getRoot().listTextures()[0];
    tex.setImage(encodeTexture({ width: 4, height: 4, data: edited }, 'png'));
    const { files } = await legacyFormat.export!(await valid(document), { name: 'cube' });
    expect(files.has('Textures/hand-cube.00c0be0200000014.bmp')).toBe(false);
    expect(files.has('Textures/hand-cube.00c0be0200000014.png')).toBe(true);
    const bnd = 'Bindings/hand-cube.00c0be030000000b.bnd';
    expect(firstByteDiff(files.get(bnd)!, cubeOutfit().get(bnd)!)).toBe(-1);
    const again = await importApr(new MemoryResources(files));
    expect(firstByteDiff(baseColour(again.document)!.data, edited)).toBe(-1);
  });

  it('a texture file that does not decode is TEXTURE_UNREADABLE; the mesh converts untextured', async () => {
    const files = cubeOutfit();
    files.set('Textures/hand-cube.00c0be0200000014.bmp', new Uint8Array([0x42, 0x4d, 1, 2, 3]));
    const { document, warnings } = await importApr(new MemoryResources(files));
    expect(warnings.find((w) => w.code === 'TEXTURE_UNREADABLE')?.message).toContain(
      'Textures/hand-cube.00c0be0200000014.bmp',
    );
    expect(document.getRoot().listTextures().length).toBe(0);
    await valid(document);
  });

  it('a PNG that passes through but does not decode is TEXTURE_UNREADABLE too', async () => {
    const files = cubeOutfit();
    files.delete('Textures/hand-cube.00c0be0200000014.bmp');
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);
    files.set('Textures/hand-cube.00c0be0200000014.png', png);
    const { document, warnings } = await importApr(new MemoryResources(files));
    expect(warnings.find((w) => w.code === 'TEXTURE_UNREADABLE')?.message).toContain('.png');
    await valid(document);
  });

  it('a broken linked mesh or binding costs its part only (MESH_UNREADABLE, BINDING_UNREADABLE)', async () => {
    const files = cubeOutfit();
    files.set('Meshes/hand-cube.00c0be0100000009.mesh', new Uint8Array([0, 0, 0, 2, 0xff, 0xff, 0xff, 0xff]));
    const a = await importApr(new MemoryResources(files));
    expect(a.warnings.find((w) => w.code === 'MESH_UNREADABLE')?.message).toContain('Meshes/hand-cube');
    expect(a.document.getRoot().listMeshes().length).toBe(0);
    files.set('Bindings/hand-cube.00c0be030000000b.bnd', new Uint8Array([0, 0, 0, 1, 200]));
    const b = await importApr(new MemoryResources(files));
    expect(b.warnings.find((w) => w.code === 'BINDING_UNREADABLE')?.message).toContain('Bindings/hand-cube');
  });

  it('hostile ids: a binding naming ids no file has is MESH_MISSING, a mesh id that is a texture does not match', async () => {
    const files = cubeOutfit();
    const bnd = readBinding(files.get('Bindings/hand-cube.00c0be030000000b.bnd')!);
    // The mesh reference names the texture's file id with the mesh type: no such file.
    bnd.mesh.file = 0x00c0be02;
    files.set('Bindings/hand-cube.00c0be030000000b.bnd', writeBinding(bnd));
    const { warnings } = await importApr(new MemoryResources(files));
    expect(warnings.find((w) => w.code === 'MESH_MISSING')?.message).toContain('00c0be02 (type 00000009)');
  });
});

describe('outfit export of hostile extras', () => {
  it('garbage records, unsafe names and ids claimed twice: safe keys, no file lost, files that import again', async () => {
    const { document } = await importApr(folderResources(DIR));
    const node = document
      .getRoot()
      .listNodes()
      .find((n) => n.getMesh())!;
    // A second part copied from the first claims the same mesh, texture and binding ids.
    const copy = document.createNode('copy').setMesh(node.getMesh()).setSkin(node.getSkin());
    document.getRoot().getDefaultScene()!.addChild(copy);
    copy.setExtras({
      tsoBinding: {
        ...(node.getExtras().tsoBinding as object),
        boneName: 'x'.repeat(1000),
        file: '../../evil.00c0be030000000b.bnd',
        meshFile: 'C:\\evil\u0000.00c0be0100000009.mesh',
      },
    });
    document
      .getRoot()
      .getDefaultScene()!
      .setExtras({
        tsoAppearance: { file: 42, bindings: [{ fileId: 'x' }, null, { fileId: 0x00c0be03, typeId: 0xb }] },
      });
    const { files, warnings } = await legacyFormat.export!(document, { name: 'cube' });
    const keys = [...files.keys()];
    for (const k of keys) {
      expect(k.split('/')).not.toContain('..');
      expect(k).toMatch(/^(Appearances|Bindings|Meshes|Textures)\/[A-Za-z0-9_.-]+$/);
    }
    expect(keys.filter((k) => k.startsWith('Meshes/')).length).toBe(2);
    expect(keys.filter((k) => k.startsWith('Bindings/')).length).toBe(2);
    expect(warnings.find((w) => w.code === 'IDS_CHOSEN')?.message).toContain('mesh copy');
    const apr = keys.find((k) => k.startsWith('Appearances/'))!;
    const again = await importApr(new MemoryResources(files), apr);
    expect(again.document.getRoot().listMeshes().length).toBe(2);
  });
});

describe('foreign glTF as an outfit (by default when textured, and outfit: "always")', () => {
  const box = corpusFiles('gltf', ['.glb']).find((f) => f.endsWith('BoxTextured.glb'));

  it.skipIf(!box)(
    'BoxTextured: fresh ids avoid the folder ids, the texture comes back with the same pixels',
    async () => {
      const doc = await io.readBinary(new Uint8Array(readFileSync(box!)));
      const existing = collectContentIds(cubeOutfit().keys());
      const { files, warnings } = await legacyFormat.export!(doc, {
        name: 'box',
        outfit: 'always',
        existingIds: existing,
      });
      const chosen = warnings.find((w) => w.code === 'IDS_CHOSEN')?.message ?? '';
      expect(chosen).toMatch(/mesh .* [0-9a-f]{8}.*texture .* [0-9a-f]{8}.*binding .*appearance/);
      const keys = [...files.keys()].sort();
      // The bones (here the box's node) go to Skeletons/ as the plain export writes them.
      expect(keys.map((k) => k.split('/')[0])).toEqual([
        'Appearances',
        'Bindings',
        'Meshes',
        'Skeletons',
        'Textures',
      ]);
      for (const id of collectContentIds(keys)) expect(existing.has(id)).toBe(false);
      expect(warnings.map((w) => w.code)).not.toContain('TEXTURE_DROPPED');
      const apr = keys[0];
      const again = await importApr(new MemoryResources(files), apr);
      expect(again.warnings.map((w) => w.code)).toEqual(['SKELETON_MISSING']);
      const tex = doc.getRoot().listTextures()[0];
      const want = fromGltfImage(tex.getImage()!, tex.getMimeType());
      const got = baseColour(await valid(again.document))!;
      expect([got.width, got.height]).toEqual([want.width, want.height]);
      expect(firstByteDiff(got.data, want.data)).toBe(-1);
      // outfit: 'never' (or false) writes the plain export: one .mesh and TEXTURE_DROPPED.
      for (const outfit of ['never', false]) {
        const plain = await legacyFormat.export!(doc, { name: 'box', outfit });
        expect([...plain.files.keys()]).toEqual(['box.mesh', 'box.skel']);
        expect(plain.warnings.map((w) => w.code)).toContain('TEXTURE_DROPPED');
      }
      // The default (issue 29): a textured foreign glTF is written as an outfit, the same files.
      const byDefault = await legacyFormat.export!(doc, { name: 'box', existingIds: existing });
      expect([...byDefault.files.keys()].sort()).toEqual(keys);
      for (const k of keys) expect(firstByteDiff(byDefault.files.get(k)!, files.get(k)!), k).toBe(-1);
      await expect(legacyFormat.export!(doc, { outfit: 'sometimes' })).rejects.toThrow(
        expect.objectContaining({ code: 'BAD_OPTION' }),
      );
    },
  );
});
