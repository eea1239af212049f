import { Document, NodeIO } from '@gltf-transform/core';
import { cloneDocument, dedup, prune, unpartition } from '@gltf-transform/functions';
import { describe, expect, it } from 'vitest';
import {
  dropKeptBytes,
  encodeBase64,
  getKeptBytes,
  getKeptInfo,
  KEPT_BYTES,
  KeptBytesExtension,
  keepTextureSource,
  listKeptBytes,
  removeKeptBytes,
  setKeptBytes,
  sha256Hex,
  type TextureRebuilder,
  textureSourcePath,
  unchangedTextureSource,
} from '../src/index.js';

const io = () => new NodeIO().registerExtensions([KeptBytesExtension]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

function bytes(n: number, seed = 1): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7) & 255;
  return b;
}

function glbJson(glb: Uint8Array): Record<string, unknown> & { extensionsUsed?: string[] } {
  const len = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + len)));
}

/** A document with kept bytes on the root, a scene, a node, a mesh, a primitive and a texture. */
function sample() {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('s');
  const node = doc.createNode('n');
  scene.addChild(node);
  const pos = doc
    .createAccessor()
    .setType('VEC3')
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
    .setBuffer(buffer);
  const prim = doc.createPrimitive().setAttribute('POSITION', pos);
  const mesh = doc.createMesh('m').addPrimitive(prim);
  node.setMesh(mesh);
  const texture = doc.createTexture('t').setImage(PNG).setMimeType('image/png');
  doc.createMaterial('mat').setBaseColorTexture(texture);
  prim.setMaterial(doc.getRoot().listMaterials()[0]!);
  setKeptBytes(doc.getRoot(), 'root', bytes(5, 1));
  setKeptBytes(scene, 'trailing', bytes(64, 2), { note: 'after the last node' });
  setKeptBytes(node, 'chunk', bytes(7, 3));
  setKeptBytes(mesh, 'extra', bytes(9, 4));
  setKeptBytes(prim, 'p', bytes(3, 5));
  setKeptBytes(texture, 'source', bytes(100, 6), { path: 'Textures/x.dds', size: 100 });
  return { doc, scene, node, mesh, prim, texture };
}

describe(KEPT_BYTES, () => {
  it('writes the bytes in buffer views, listed in extensionsUsed only, and reads them back exactly', async () => {
    const { doc } = sample();
    const glb = await io().writeBinary(doc);
    const json = glbJson(glb) as never as {
      extensionsUsed: string[];
      extensionsRequired?: string[];
      scenes: {
        extensions: Record<string, { entries: Record<string, { bufferView: number; note?: string }> }>;
      }[];
      images: {
        extensions: Record<string, { entries: Record<string, { bufferView: number; path: string }> }>;
      }[];
      bufferViews: { byteLength: number }[];
    };
    expect(json.extensionsUsed).toContain(KEPT_BYTES);
    expect(json.extensionsRequired ?? []).not.toContain(KEPT_BYTES);
    const trailing = json.scenes[0]!.extensions[KEPT_BYTES]!.entries.trailing!;
    expect(trailing.note).toBe('after the last node');
    expect(json.bufferViews[trailing.bufferView]!.byteLength).toBe(64);
    expect(json.images[0]!.extensions[KEPT_BYTES]!.entries.source!.path).toBe('Textures/x.dds');
    // no base64, no number arrays: the JSON is small
    expect(JSON.stringify(json).length).toBeLessThan(2500);

    const back = await io().readBinary(glb);
    const root = back.getRoot();
    const scene = root.listScenes()[0]!;
    const node = root.listNodes()[0]!;
    const mesh = root.listMeshes()[0]!;
    const texture = root.listTextures()[0]!;
    expect(getKeptBytes(root, 'root')).toEqual(bytes(5, 1));
    expect(getKeptBytes(scene, 'trailing')).toEqual(bytes(64, 2));
    expect(getKeptInfo(scene, 'trailing')).toEqual({ note: 'after the last node' });
    expect(getKeptBytes(node, 'chunk')).toEqual(bytes(7, 3));
    expect(getKeptBytes(mesh, 'extra')).toEqual(bytes(9, 4));
    expect(getKeptBytes(mesh.listPrimitives()[0]!, 'p')).toEqual(bytes(3, 5));
    expect(getKeptBytes(texture, 'source')).toEqual(bytes(100, 6));
    expect(getKeptInfo(texture, 'source')).toEqual({ path: 'Textures/x.dds', size: 100 });
    expect(texture.getImage()).toEqual(PNG);
    // a second trip gives the same file
    expect(await io().writeBinary(back)).toEqual(glb);
  });

  it('survives dedup, prune, unpartition and cloneDocument', async () => {
    const { doc } = sample();
    doc.createBuffer('second');
    await doc.transform(dedup(), prune(), unpartition());
    const clone = cloneDocument(doc);
    const back = await io().readBinary(await io().writeBinary(clone));
    expect(getKeptBytes(back.getRoot().listScenes()[0]!, 'trailing')).toEqual(bytes(64, 2));
    expect(getKeptBytes(back.getRoot().listTextures()[0]!, 'source')).toEqual(bytes(100, 6));
    expect(listKeptBytes(back.getRoot().listNodes()[0]!)).toEqual(['chunk']);
  });

  it('a reader without the extension still opens the file (the bytes are only unused views)', async () => {
    const { doc } = sample();
    const plain = await new NodeIO().readBinary(await io().writeBinary(doc));
    expect(plain.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getAttribute('POSITION')!.getCount()).toBe(
      3,
    );
  });

  it('replaces, removes and drops entries (--lean)', async () => {
    const { doc, scene, node } = sample();
    setKeptBytes(scene, 'trailing', bytes(2, 9));
    expect(getKeptBytes(scene, 'trailing')).toEqual(bytes(2, 9));
    removeKeptBytes(node, 'chunk');
    expect(listKeptBytes(node)).toEqual([]);
    expect(node.getExtension(KEPT_BYTES)).toBeNull();
    expect(dropKeptBytes(doc)).toBe(5 + 2 + 9 + 3 + 100);
    const json = glbJson(await io().writeBinary(doc));
    expect(json.extensionsUsed ?? []).not.toContain(KEPT_BYTES);
    expect(JSON.stringify(json)).not.toContain(KEPT_BYTES);
  });
});

describe('texture sources', () => {
  const rebuilder: TextureRebuilder = {
    // a toy "format": the image's bytes reversed, behind a 2-byte header
    describe: (original) => (original[0] === 0xaa ? { header: original[1]! } : undefined),
    rebuild: (fields, image) => new Uint8Array([0xaa, fields.header as number, ...[...image].reverse()]),
  };

  it('keeps only the path when the original is the image', async () => {
    const doc = new Document();
    doc.createBuffer();
    const t = doc.createTexture('t').setImage(PNG).setMimeType('image/png');
    await keepTextureSource(t, 'Textures/a.png', PNG.slice());
    expect(listKeptBytes(t)).toEqual([]);
    expect(t.getExtras()).toEqual({
      gltfLegacySource: { path: 'Textures/a.png', imageSha256: await sha256Hex(PNG) },
    });
    expect(await unchangedTextureSource(t)).toEqual({ path: 'Textures/a.png', bytes: PNG });
    // edited: the original no longer applies
    t.setImage(PNG.slice(0, 10));
    expect(await unchangedTextureSource(t)).toBeUndefined();
    // a record with the path alone applies while the image is of the kind the path names
    t.setExtras({ gltfLegacySource: { path: 'Textures/a.png' } }).setImage(PNG);
    expect(await unchangedTextureSource(t)).toEqual({ path: 'Textures/a.png', bytes: PNG });
    t.setImage(new Uint8Array([0xff, 0xd8, 0xff, 0])).setMimeType('image/jpeg');
    expect(await unchangedTextureSource(t)).toBeUndefined();
  });

  it('keeps rebuild fields when the rebuilder gives the original back, else the bytes', async () => {
    const doc = new Document();
    doc.createBuffer();
    const t = doc.createTexture('t').setImage(PNG).setMimeType('image/png');
    const original = new Uint8Array([0xaa, 7, ...[...PNG].reverse()]);
    await keepTextureSource(t, 'T/a.xyz', original, rebuilder);
    expect(listKeptBytes(t)).toEqual([]);
    expect(await unchangedTextureSource(t, rebuilder)).toEqual({ path: 'T/a.xyz', bytes: original });
    // a rebuild that is not byte-identical keeps the bytes
    const odd = original.slice();
    odd[5] ^= 1;
    await keepTextureSource(t, 'T/a.xyz', odd, rebuilder);
    expect(listKeptBytes(t)).toEqual(['source']);
    expect((t.getExtras() as Record<string, unknown>).gltfLegacySource).toBeUndefined();
    const back = (await io().readBinary(await io().writeBinary(doc))).getRoot().listTextures()[0]!;
    expect(await unchangedTextureSource(back)).toEqual({ path: 'T/a.xyz', bytes: odd });
    expect(textureSourcePath(back)).toBe('T/a.xyz');
    back.setImage(PNG.slice(0, 9));
    expect(await unchangedTextureSource(back)).toBeUndefined();
  });

  it('keeps a residual when the rebuilder makes the original from the image plus a few bytes', async () => {
    // toy format: the image's bytes XOR a key, the key being the residual
    const key = new Uint8Array([1, 2, 3]);
    const xor = (image: Uint8Array, k: Uint8Array) => image.map((b, i) => b ^ k[i % k.length]!);
    const residualRebuilder: TextureRebuilder = {
      describe: () => undefined,
      residual: (original, _path, image) => ({
        fields: { kind: 'xor', keyLength: 3 },
        bytes: original.slice(0, 3).map((b, i) => b ^ image[i]!),
      }),
      rebuild: (fields, image, _mime, residual) =>
        fields.kind === 'xor' && residual ? xor(image, residual) : undefined,
    };
    const doc = new Document();
    doc.createBuffer();
    const t = doc.createTexture('t').setImage(PNG).setMimeType('image/png');
    const original = xor(PNG, key);
    await keepTextureSource(t, 'T/a.xor', original, residualRebuilder);
    expect(listKeptBytes(t)).toEqual(['sourceResidual']);
    expect(getKeptInfo(t, 'sourceResidual')).toMatchObject({ kind: 'xor', keyLength: 3, path: 'T/a.xor' });
    const back = (await io().readBinary(await io().writeBinary(doc))).getRoot().listTextures()[0]!;
    expect(await unchangedTextureSource(back, residualRebuilder)).toEqual({
      path: 'T/a.xor',
      bytes: original,
    });
    expect(textureSourcePath(back)).toBe('T/a.xor');
    // without the rebuilder, or once the image is edited, the original is not available
    expect(await unchangedTextureSource(back)).toBeUndefined();
    back.setImage(PNG.slice(0, 9));
    expect(await unchangedTextureSource(back, residualRebuilder)).toBeUndefined();
    // a residual that does not give the original back keeps the bytes instead
    const liar: TextureRebuilder = { ...residualRebuilder, rebuild: () => new Uint8Array(1) };
    await keepTextureSource(t, 'T/a.xor', original, liar);
    expect(listKeptBytes(t)).toEqual(['source']);
  });

  it('reads files written before the extension (base64 in extras)', async () => {
    const doc = new Document();
    const t = doc.createTexture('t').setImage(PNG).setMimeType('image/png');
    const dds = bytes(40);
    t.setExtras({
      gltfLegacySource: { path: 'x/old.dds', imageSha256: await sha256Hex(PNG), data: encodeBase64(dds) },
    });
    expect(textureSourcePath(t)).toBe('x/old.dds');
    expect(await unchangedTextureSource(t)).toEqual({ path: 'x/old.dds', bytes: dds });
  });
});
