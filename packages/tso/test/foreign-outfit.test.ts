// Issue 29: a textured foreign glTF is written as an outfit by default (its texture kept), and the
// written set is a fixed point: export(import(export(doc))) gives the same files.
import { MemoryResources } from '@gltf-legacy/core';
import { encodeTexture } from '@gltf-legacy/textures';
import { firstByteDiff } from '@gltf-legacy/test-utils';
import { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';

/** A one-triangle glTF whose material has a base colour texture of these bytes. */
function texturedTriangle(image: Uint8Array): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc
    .createAccessor()
    .setType('VEC3')
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
    .setBuffer(buffer);
  const uv = doc
    .createAccessor()
    .setType('VEC2')
    .setArray(new Float32Array([0, 0, 1, 0, 0, 1]))
    .setBuffer(buffer);
  const tex = doc.createTexture('paint').setImage(image).setMimeType('image/png');
  const mat = doc.createMaterial('paint').setBaseColorTexture(tex);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', pos)
    .setAttribute('TEXCOORD_0', uv)
    .setMaterial(mat);
  const node = doc.createNode('tri').setMesh(doc.createMesh('tri').addPrimitive(prim));
  doc.createScene('s').addChild(node);
  return doc;
}

async function exportTwice(doc: Document) {
  const first = await legacyFormat.export!(doc, { name: 'tri' });
  const apr = [...first.files.keys()].find((k) => k.endsWith('.apr'))!;
  expect(legacyFormat.exportEntry?.(first.files)).toBe(apr);
  const back = await legacyFormat.import(new Map([[apr, first.files.get(apr)!]]), {
    main: apr,
    resources: new MemoryResources(first.files),
    resourcePath: apr,
    skeleton: 'Skeletons/tri.skel', // an .apr names no skeleton (FreeSO has one for all)
  });
  const again = await legacyFormat.export!(back.document, { name: 'tri' });
  return { first, again, back };
}

describe('foreign textured glTF → TSO by default', () => {
  it('writes an outfit with the texture; the written set is a fixed point', async () => {
    const png = encodeTexture({ width: 2, height: 2, data: new Uint8Array(16).fill(200) }, 'png');
    const { first, again, back } = await exportTwice(texturedTriangle(png));
    const keys = [...first.files.keys()].sort();
    expect(keys.map((k) => k.split('/')[0])).toEqual([
      'Appearances',
      'Bindings',
      'Meshes',
      'Skeletons',
      'Textures',
    ]);
    expect(first.warnings.map((w) => w.code)).not.toContain('TEXTURE_DROPPED');
    const tex = back.document.getRoot().listTextures()[0];
    expect(firstByteDiff(tex.getImage()!, png)).toBe(-1);
    expect([...again.files.keys()].sort()).toEqual(keys);
    for (const k of keys) expect(firstByteDiff(again.files.get(k)!, first.files.get(k)!), k).toBe(-1);
  });

  it('an image that cannot be decoded is not written (TEXTURE_UNREADABLE), and the set is still a fixed point', async () => {
    // found by the CI fuzz campaign: a mutated PNG was written, import left it out, and the second
    // export's binding named no texture
    const broken = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const { first, again } = await exportTwice(texturedTriangle(broken));
    expect(first.warnings.map((w) => w.code)).toContain('TEXTURE_UNREADABLE');
    const keys = [...first.files.keys()].sort();
    expect(keys.some((k) => k.startsWith('Textures/'))).toBe(false);
    expect([...again.files.keys()].sort()).toEqual(keys);
    for (const k of keys) expect(firstByteDiff(again.files.get(k)!, first.files.get(k)!), k).toBe(-1);
  });
});

describe('an outfit whose parts share one texture', () => {
  it('imports one texture for them, and exports it once under its id (found by the CI fuzz campaign)', async () => {
    const png = encodeTexture({ width: 2, height: 2, data: new Uint8Array(16).fill(90) }, 'png');
    const doc = texturedTriangle(png);
    const mesh = doc.getRoot().listMeshes()[0];
    const scene = doc.getRoot().listScenes()[0];
    for (const n of ['b', 'c']) scene.addChild(doc.createNode(n).setMesh(mesh.clone()));
    const { first, again, back } = await exportTwice(doc);
    expect(back.document.getRoot().listTextures().length).toBe(1);
    const keys = [...first.files.keys()].sort();
    expect(keys.filter((k) => k.startsWith('Textures/')).length).toBe(1);
    expect(keys.filter((k) => k.startsWith('Bindings/')).length).toBe(3);
    expect([...again.files.keys()].sort()).toEqual(keys);
    for (const k of keys) expect(firstByteDiff(again.files.get(k)!, first.files.get(k)!), k).toBe(-1);
  });
});
