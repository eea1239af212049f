import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { FormatError, MemoryResources, ResourceError } from '@gltf-legacy/core';
import { decodeTexture, fromGltfImage } from '@gltf-legacy/textures';
import {
  corpusFiles,
  corpusRoot,
  firstByteDiff,
  folderResources,
  hasCorpus,
  loadWithThree,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { type Document, NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import {
  collectContentIds,
  detectOutfitKind,
  legacyFormat,
  parseContentName,
  readAppearance,
  readBinding,
  writeAppearance,
  writeBinding,
  writeSkeleton,
} from '../src/index.js';
import { syntheticAdultSkeleton } from './fixtures.js';

const AVATAR = 'textured/tso/FreeSO/TSOClient/FSO.Content.TSO/Content/Avatar';
const avatarDir = join(corpusRoot(), AVATAR);
const aprs = corpusFiles(`${AVATAR}/Appearances`, ['.apr']);
const bnds = corpusFiles(`${AVATAR}/Bindings`, ['.bnd']);
const rel = (f: string) => f.slice(avatarDir.length + 1).replace(/\\/g, '/');
const io = new NodeIO();

/** Imports a main file of the Avatar tree with the whole tree as resources. */
async function importFrom(resources: MemoryResources, path: string, extra: Record<string, unknown> = {}) {
  const bytes = (await resources.read(path))!;
  const name = basename(path);
  return legacyFormat.import(new Map([[name, bytes]]), {
    main: name,
    resources,
    resourcePath: path,
    ...extra,
  });
}

/** The RGBA of each mesh's base colour texture, by mesh node name. */
function textureRgba(doc: Document): Map<string, { width: number; height: number; data: Uint8Array }> {
  const out = new Map();
  for (const n of doc.getRoot().listNodes()) {
    const tex = n.getMesh()?.listPrimitives()[0].getMaterial()?.getBaseColorTexture();
    if (tex) out.set(n.getName(), fromGltfImage(tex.getImage()!, tex.getMimeType()));
  }
  return out;
}

async function throughDisk(doc: Document): Promise<Document> {
  const glb = await io.writeBinary(doc);
  const report = await validateGlb(glb);
  expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
  const path = join(mkdtempSync(join(tmpdir(), 'tso-outfit-')), 'o.glb');
  writeFileSync(path, glb);
  return io.readBinary(new Uint8Array(readFileSync(path)));
}

describe.skipIf(!hasCorpus(AVATAR))('outfit file models on the FreeSO files', () => {
  it('has the 7 appearances and 7 bindings', () => {
    expect(aprs.length).toBe(7);
    expect(bnds.length).toBe(7);
  });

  it.each(bnds.map((f) => [basename(f), f]))(
    '%s reads every field and writes back byte-identical',
    (name, f) => {
      const bytes = readBytes(f);
      const bnd = readBinding(bytes, name);
      expect(bnd.version).toBe(1);
      expect(bnd.mesh).toMatchObject({ kind: 8, group: 0, type: 9 });
      expect(bnd.texture).toMatchObject({ kind: 8, group: 0, type: 0x14 });
      expect(firstByteDiff(writeBinding(bnd), bytes)).toBe(-1);
      expect(detectOutfitKind(bytes, name)).toBe('bnd');
      expect(legacyFormat.sniff(bytes, name)).toBe(true);
    },
  );

  it('woodaxe binding: bone R_HAND, mesh f5c2c184, texture 606a2d7e', () => {
    const bnd = readBinding(readBytes(bnds.find((f) => f.includes('woodaxe'))!));
    expect(bnd.boneName).toBe('R_HAND');
    expect(bnd.mesh.file).toBe(0xf5c2c184);
    expect(bnd.texture.file).toBe(0x606a2d7e);
  });

  it.each(aprs.map((f) => [basename(f), f]))(
    '%s reads every field and writes back byte-identical',
    (name, f) => {
      const bytes = readBytes(f);
      const apr = readAppearance(bytes, name);
      expect(apr).toMatchObject({ version: 1, thumbnailFileId: 0, thumbnailTypeId: 0 });
      expect(apr.bindings.length).toBe(1);
      expect(apr.bindings[0].typeId).toBe(0xb);
      // The binding it names exists under that id.
      const id = apr.bindings[0].fileId.toString(16).padStart(8, '0');
      expect(bnds.some((b) => basename(b).includes(`.${id}0000000b.`))).toBe(true);
      expect(firstByteDiff(writeAppearance(apr), bytes)).toBe(-1);
      expect(detectOutfitKind(bytes, name)).toBe('apr');
      expect(legacyFormat.sniff(bytes, name)).toBe(true);
    },
  );

  it('content names carry the ids', () => {
    expect(parseContentName('Meshes/woodaxe.f5c2c18400000009.mesh')).toEqual({
      name: 'woodaxe',
      fileId: 0xf5c2c184,
      typeId: 9,
    });
    expect(parseContentName('woodaxe.mesh')).toBeUndefined();
    expect([...collectContentIds(['a.0000000100000009.mesh', 'x.png', 'b.FFFFFFFF00000014.PNG'])]).toEqual([
      1, 0xffffffff,
    ]);
  });
});

describe('outfit files: hostile input', () => {
  const bnd = writeBinding({
    version: 1,
    boneName: 'HEAD',
    mesh: { kind: 8, group: 0, file: 0x12345678, type: 9 },
    texture: { kind: 8, group: 0, file: 0x9abcdef0, type: 0x14 },
    trailing: new Uint8Array(0),
  });
  const apr = writeAppearance({
    version: 1,
    thumbnailFileId: 0,
    thumbnailTypeId: 0,
    bindings: [{ fileId: 0x11111111, typeId: 0xb }],
    trailing: new Uint8Array(0),
  });

  it('every truncation is a FormatError naming file, offset and field', () => {
    for (const [bytes, read] of [
      [bnd, readBinding],
      [apr, readAppearance],
    ] as const) {
      for (let n = 0; n < bytes.length; n++) {
        let err: unknown;
        try {
          read(bytes.subarray(0, n), 'x');
        } catch (e) {
          err = e;
        }
        expect(err, `cut at ${n}`).toBeInstanceOf(FormatError);
        expect((err as FormatError).file).toBe('x');
        expect((err as FormatError).field).toBeTruthy();
        expect(typeof (err as FormatError).offset).toBe('number');
      }
    }
  });

  it('a huge binding count is refused before allocating; version 0 is BAD_VERSION', () => {
    const big = apr.slice();
    big.set([0xff, 0xff, 0xff, 0xff], 12);
    expect(() => readAppearance(big, 'big.apr')).toThrow(FormatError);
    const v0 = bnd.slice();
    v0[3] = 0;
    expect(() => readBinding(v0, 'v0.bnd')).toThrowError(expect.objectContaining({ code: 'BAD_VERSION' }));
    expect(detectOutfitKind(v0)).toBeUndefined();
    // sniff is stricter than the readers: entries of another type, or a bone name with control bytes.
    const otherType = apr.slice();
    otherType[23] = 9;
    expect(readAppearance(otherType).bindings[0].typeId).toBe(9);
    expect(detectOutfitKind(otherType)).toBeUndefined();
    const ctl = bnd.slice();
    ctl[5] = 1;
    expect(readBinding(ctl).boneName.charCodeAt(0)).toBe(1);
    expect(legacyFormat.sniff(ctl, 'x')).toBe(false);
  });

  it('a kind-8 reference without ids cannot be written', () => {
    expect(() =>
      writeBinding({
        version: 1,
        boneName: 'X',
        mesh: { kind: 8 },
        texture: { kind: 0 },
        trailing: new Uint8Array(0),
      }),
    ).toThrow(FormatError);
  });

  it('paths that leave the resource root are ResourceErrors', async () => {
    const resources = new MemoryResources([['Bindings/x.123456780000000b.bnd', bnd]]);
    await expect(
      legacyFormat.import(new Map([['x.apr', apr]]), { main: 'x.apr', resources, resourcePath: '../x.apr' }),
    ).rejects.toThrow(ResourceError);
    await expect(
      legacyFormat.import(new Map([['x.apr', apr]]), {
        main: 'x.apr',
        resources,
        resourcePath: 'x.apr',
        skeleton: '../../etc/passwd',
      }),
    ).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    await expect(
      legacyFormat.import(new Map([['x.apr', apr]]), {
        main: 'x.apr',
        resources,
        resourcePath: 'x.apr',
        skeleton: 'http://example.com/adult.skel',
      }),
    ).rejects.toMatchObject({ code: 'EXTERNAL_URI' });
  });

  it('a corrupt .apr given as the main file is a FormatError, not a crash', async () => {
    const broken = apr.subarray(0, 13);
    await expect(legacyFormat.import(new Map([['x.apr', broken]]), { main: 'x.apr' })).rejects.toBeInstanceOf(
      FormatError,
    );
  });

  it('an appearance naming 200 000 bindings: one folder listing, bounded warnings, no hang', async () => {
    const n = 200_000;
    const big = new Uint8Array(16 + n * 8);
    const dv = new DataView(big.buffer);
    dv.setUint32(0, 1);
    dv.setUint32(12, n);
    for (let i = 0; i < n; i++) {
      dv.setUint32(16 + i * 8, i < n / 2 ? i + 1 : 7);
      dv.setUint32(20 + i * 8, 0xb);
    }
    const t0 = performance.now();
    const { warnings } = await legacyFormat.import(new Map([['big.apr', big]]), { main: 'big.apr' });
    expect(performance.now() - t0).toBeLessThan(10_000);
    const missing = warnings.filter((w) => w.code === 'BINDING_MISSING');
    expect(missing.length).toBe(17);
    expect(missing.reduce((s, w) => s + w.count, 0)).toBe(n / 2);
    // id 7 is among the first half: all of the second half are repeats.
    expect(warnings.find((w) => w.code === 'BINDING_DUPLICATE')?.count).toBe(n / 2);
  });

  it('missing binding, mesh and texture are warnings naming the id and the folders tried', async () => {
    const a = await legacyFormat.import(new Map([['x.apr', apr]]), { main: 'x.apr' });
    expect(a.warnings.find((w) => w.code === 'BINDING_MISSING')?.message).toContain('11111111');
    const b = await legacyFormat.import(new Map([['x.bnd', bnd]]), { main: 'x.bnd' });
    const w = b.warnings.find((x) => x.code === 'MESH_MISSING')?.message ?? '';
    expect(w).toContain('12345678');
    expect(w).toContain('Meshes/');
  });
});

describe.skipIf(!hasCorpus(AVATAR))('every appearance of textured/tso as a glTF scene', () => {
  const resources = folderResources(avatarDir);

  it('mutated .apr/.bnd files through import: a document, a FormatError or a ResourceError, nothing else', async () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let ok = 0;
    let typed = 0;
    for (const f of [...aprs, ...bnds]) {
      const path = rel(f);
      const original = readBytes(f);
      for (let k = 0; k < 40; k++) {
        const bytes = original.slice(0, rnd(4) === 0 ? rnd(original.length + 1) : original.length);
        for (let m = 1 + rnd(3); m > 0 && bytes.length; m--) bytes[rnd(bytes.length)] = rnd(256);
        const name = basename(f);
        try {
          await legacyFormat.import(new Map([[name, bytes]]), { main: name, resources, resourcePath: path });
          ok++;
        } catch (e) {
          if (!(e instanceof FormatError) && !(e instanceof ResourceError)) throw e;
          typed++;
        }
      }
    }
    expect(ok + typed).toBe(14 * 40);
    expect(ok).toBeGreaterThan(0);
    expect(typed).toBeGreaterThan(0);
  });

  it('resourceRoot is the Avatar folder', () => {
    expect(legacyFormat.resourceRoot?.('C/Avatar/Appearances/a.apr')).toBe('C/Avatar');
    expect(legacyFormat.resourceRoot?.('C/Avatar/meshes/a.mesh')).toBe('C/Avatar');
    expect(legacyFormat.resourceRoot?.('stuff/a.mesh')).toBe('stuff');
  });

  it.each(aprs.map((f) => [basename(f), rel(f)]))(
    '%s: valid .glb, textures equal the game PNG, export gives the same bytes back',
    async (_, path) => {
      const { document, warnings } = await importFrom(resources, path);
      const codes = warnings.map((w) => w.code);
      expect(codes).not.toContain('MESH_MISSING');
      expect(codes).not.toContain('TEXTURE_MISSING');
      expect(codes).toContain('SKELETON_MISSING');
      const apr = readAppearance((await resources.read(path))!);
      const meshNodes = document
        .getRoot()
        .listNodes()
        .filter((n) => n.getMesh());
      expect(meshNodes.length).toBe(apr.bindings.length);
      // The texture decodes to the RGBA of the game's file named by the binding.
      const bnd = readBinding(
        (await resources.read(
          (
            await resources.list('Bindings')
          ).find((n) => n.includes(`.${apr.bindings[0].fileId.toString(16).padStart(8, '0')}0000000b.`))!,
        ))!,
      );
      const texName = (await resources.list('Textures')).find((n) =>
        n.includes(`.${bnd.texture.file!.toString(16).padStart(8, '0')}00000014.`),
      )!;
      const game = decodeTexture((await resources.read(texName))!, texName);
      const back = await throughDisk(document);
      const rgba = [...textureRgba(back).values()][0];
      expect([rgba.width, rgba.height]).toEqual([game.width, game.height]);
      expect(firstByteDiff(rgba.data, game.data)).toBe(-1);

      // Export → the same apr, bnd, mesh and png files under their original names.
      const { files, warnings: ew } = await legacyFormat.export!(back, { name: 'outfit' });
      expect(ew.map((w) => w.code)).not.toContain('IDS_CHOSEN');
      const meshName = (await resources.list('Meshes')).find((n) =>
        n.includes(`.${bnd.mesh.file!.toString(16).padStart(8, '0')}00000009.`),
      )!;
      const bndName = (await resources.list('Bindings')).find((n) =>
        n.includes(`.${apr.bindings[0].fileId.toString(16).padStart(8, '0')}0000000b.`),
      )!;
      expect([...files.keys()].sort()).toEqual([path, bndName, meshName, texName].sort());
      for (const [name, bytes] of files)
        expect(firstByteDiff(bytes, (await resources.read(name))!), name).toBe(-1);
      for (const name of files.keys()) expect(name.split('/')).not.toContain('..');

      // The exported tree imports again with the same material texture.
      const again = await importFrom(new MemoryResources(files), path);
      const rgba2 = [...textureRgba(again.document).values()][0];
      expect(firstByteDiff(rgba2.data, game.data)).toBe(-1);
      expect(
        again.document
          .getRoot()
          .listMaterials()
          .map((m) => m.getName()),
      ).toEqual(
        document
          .getRoot()
          .listMaterials()
          .map((m) => m.getName()),
      );
    },
  );

  it('an appearance of three parts on different bones: one scene, shared bones, every file back byte-identical', async () => {
    const tree = new Map<string, Uint8Array>();
    for (const p of await resources.list('', { recursive: true })) tree.set(p, (await resources.read(p))!);
    const three = writeAppearance({
      version: 1,
      thumbnailFileId: 0,
      thumbnailTypeId: 0,
      bindings: [
        { fileId: 0xe5b85288, typeId: 0xb }, // woodaxe, R_HAND
        { fileId: 0x20574338, typeId: 0xb }, // cape, SPINE1
        { fileId: 0x37ee2959, typeId: 0xb }, // flip-flop, R_FOOT
      ],
      trailing: new Uint8Array(0),
    });
    tree.set('Appearances/three.0000abcd0000000c.apr', three);
    const mem = new MemoryResources(tree);
    for (const skeleton of [undefined, writeSkeleton(syntheticAdultSkeleton())]) {
      const { document, warnings } = await importFrom(mem, 'Appearances/three.0000abcd0000000c.apr', {
        skeleton,
      });
      expect(warnings.map((w) => w.code)).toEqual(skeleton ? [] : ['SKELETON_MISSING']);
      const nodes = document
        .getRoot()
        .listNodes()
        .filter((n) => n.getMesh());
      expect(nodes.map((n) => n.getName())).toEqual([
        'woodaxe',
        'FSO-Accessory-CapeBlack',
        'fso_flipflops_1',
      ]);
      expect(new Set(nodes.map((n) => n.getMesh()!.listPrimitives()[0].getMaterial())).size).toBe(3);
      const back = await throughDisk(document);
      expect(textureRgba(back).size).toBe(3);
      const { files } = await legacyFormat.export!(back, { name: 'three' });
      const apr = files.get('Appearances/three.0000abcd0000000c.apr')!;
      expect(firstByteDiff(apr, three)).toBe(-1);
      const meshes = [...files.keys()].filter((k) => k.startsWith('Meshes/'));
      expect(meshes.length).toBe(3);
      for (const [name, bytes] of files) {
        if (name.startsWith('Skeletons/') || name.startsWith('Appearances/')) continue;
        // With a skeleton, meshes follow the float32 rule (positions within tolerance), the rest is exact.
        if (skeleton && name.startsWith('Meshes/')) continue;
        expect(firstByteDiff(bytes, tree.get(name)!), name).toBe(-1);
      }
    }
  });

  it('every appearance loads in three.js with a texture map on each (skinned) mesh, as a viewer shows it', async () => {
    for (const f of aprs) {
      const { document } = await importFrom(resources, rel(f));
      const glb = await io.writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const gltf = await loadWithThree(glb);
      const maps: unknown[] = [];
      gltf.scene.traverse((o: { isMesh?: boolean; material?: { map?: unknown } }) => {
        if (o.isMesh) maps.push(o.material?.map);
      });
      expect(maps.length, basename(f)).toBe(1);
      expect(
        maps.every((m) => m),
        basename(f),
      ).toBe(true);
    }
  });

  it('a part deleted in glTF leaves the appearance; an entry missing at import stays in it', async () => {
    const tree = new Map<string, Uint8Array>();
    for (const p of await resources.list('', { recursive: true })) tree.set(p, (await resources.read(p))!);
    tree.set(
      'Appearances/two.0000abce0000000c.apr',
      writeAppearance({
        version: 1,
        thumbnailFileId: 0,
        thumbnailTypeId: 0,
        bindings: [
          { fileId: 0xe5b85288, typeId: 0xb }, // woodaxe
          { fileId: 0x0badf00d, typeId: 0xb }, // no such binding
          { fileId: 0x20574338, typeId: 0xb }, // cape
        ],
        trailing: new Uint8Array(0),
      }),
    );
    const { document, warnings } = await importFrom(
      new MemoryResources(tree),
      'Appearances/two.0000abce0000000c.apr',
    );
    expect(warnings.find((w) => w.code === 'BINDING_MISSING')?.message).toContain('0badf00d');
    document
      .getRoot()
      .listNodes()
      .find((n) => n.getName() === 'woodaxe')!
      .dispose();
    const { files, warnings: ew } = await legacyFormat.export!(document, { name: 'two' });
    expect(ew.find((w) => w.code === 'BINDING_DROPPED')?.message).toContain('e5b85288');
    const apr = readAppearance(files.get('Appearances/two.0000abce0000000c.apr')!);
    expect(apr.bindings.map((b) => b.fileId)).toEqual([0x0badf00d, 0x20574338]);
    expect([...files.keys()].filter((k) => k.startsWith('Meshes/'))).toEqual([
      'Meshes/FSO-Accessory-CapeBlack.883209d300000009.mesh',
    ]);
  });

  it('a .bnd imports as its one mesh with its texture', async () => {
    const path = rel(bnds.find((f) => f.includes('heart-mark'))!);
    const { document, warnings } = await importFrom(resources, path);
    expect(warnings.map((w) => w.code)).toEqual(['SKELETON_MISSING']);
    const node = document
      .getRoot()
      .listNodes()
      .find((n) => n.getMesh())!;
    expect(node.getName()).toBe('fso-heart-mark');
    expect(node.getMesh()!.listPrimitives()[0].getMaterial()!.getName()).toBe('fso-heart-mark');
  });

  it('a lone .mesh finds its texture through the sibling Bindings/ folder', async () => {
    const path = 'Meshes/woodaxe.f5c2c18400000009.mesh';
    const { document } = await importFrom(resources, path);
    const rgba = [...textureRgba(document).values()][0];
    const game = decodeTexture((await resources.read('Textures/woodaxe.606a2d7e00000014.png'))!);
    expect(firstByteDiff(rgba.data, game.data)).toBe(-1);
    // A mesh no binding names keeps the plain material, without a warning.
    const unbound = await importFrom(resources, 'Meshes/fso-heart-mark.4ca65c6500000009.mesh');
    expect(unbound.document.getRoot().listTextures().length).toBe(0);
    expect(unbound.warnings.map((w) => w.code)).toEqual(['SKELETON_MISSING']);
  });

  it('a missing texture is TEXTURE_MISSING naming the id and folder; the mesh still converts', async () => {
    const files = new Map<string, Uint8Array>();
    for (const p of await resources.list('', { recursive: true }))
      if (!p.startsWith('Textures/woodaxe')) files.set(p, (await resources.read(p))!);
    const { document, warnings } = await importFrom(
      new MemoryResources(files),
      'Appearances/woodaxe.5d34f33e0000000c.apr',
    );
    const w = warnings.find((x) => x.code === 'TEXTURE_MISSING');
    expect(w?.message).toContain('606a2d7e');
    expect(w?.message).toContain('Textures/');
    expect(document.getRoot().listMeshes().length).toBe(1);
    const glb = await io.writeBinary(document);
    expect((await validateGlb(glb)).issues.numErrors).toBe(0);
  });

  it('on a skeleton (bytes or a root-relative path): a valid skin, textures kept', async () => {
    const skel = writeSkeleton(syntheticAdultSkeleton());
    const path = 'Appearances/fso_flipflops_1.9415f4460000000c.apr';
    const withBytes = await importFrom(resources, path, { skeleton: skel });
    const tree = new Map<string, Uint8Array>();
    for (const p of await resources.list('', { recursive: true })) tree.set(p, (await resources.read(p))!);
    tree.set('Skeletons/adult.skel', skel);
    const withPath = await importFrom(new MemoryResources(tree), path, { skeleton: 'Skeletons/adult.skel' });
    for (const { document, warnings } of [withBytes, withPath]) {
      expect(warnings).toEqual([]);
      expect(document.getRoot().listSkins()[0].listJoints().length).toBe(
        syntheticAdultSkeleton().bones.length,
      );
      const back = await throughDisk(document);
      expect(textureRgba(back).size).toBe(1);
      const { files } = await legacyFormat.export!(back, { name: 'x' });
      expect(files.has('Skeletons/x.skel')).toBe(true);
      expect(firstByteDiff(files.get('Skeletons/x.skel')!, skel)).toBe(-1);
      expect(firstByteDiff(files.get(path)!, (await resources.read(path))!)).toBe(-1);
    }
    const missing = await importFrom(resources, path, { skeleton: 'Skeletons/none.skel' });
    expect(missing.warnings.find((w) => w.code === 'SKELETON_MISSING')?.message).toContain(
      'Skeletons/none.skel',
    );
  });

  it('freshIds: new ids that avoid the folder ids, reported as IDS_CHOSEN, and the copy imports', async () => {
    const path = 'Appearances/FSO-Accessory-CapeBlack.97d3e3ee0000000c.apr';
    const { document } = await importFrom(resources, path);
    const existing = collectContentIds(await resources.list('', { recursive: true }));
    const { files, warnings } = await legacyFormat.export!(document, {
      name: 'cape2',
      freshIds: true,
      existingIds: existing,
    });
    expect(warnings.find((w) => w.code === 'IDS_CHOSEN')?.message).toMatch(/mesh .*[0-9a-f]{8}/);
    const ids = [...collectContentIds(files.keys())];
    expect(ids.length).toBe(4);
    for (const id of ids) expect(existing.has(id)).toBe(false);
    // Deterministic: the same names give the same ids.
    const twice = await legacyFormat.export!(document, {
      name: 'cape2',
      freshIds: true,
      existingIds: existing,
    });
    expect([...twice.files.keys()]).toEqual([...files.keys()]);
    const apr = [...files.keys()].find((k) => k.startsWith('Appearances/'))!;
    const again = await importFrom(new MemoryResources(files), apr);
    expect(again.warnings.map((w) => w.code)).toEqual(['SKELETON_MISSING']);
    expect(again.document.getRoot().listTextures().length).toBe(1);
  });
});

describe.skipIf(!hasCorpus(AVATAR))('inspect of outfit files', () => {
  it('shows the binding ids and the appearance entries', () => {
    const f = bnds.find((x) => x.includes('woodaxe'))!;
    const [bnd] = legacyFormat.inspect!(new Map([[basename(f), readBytes(f)]]));
    expect(bnd.facts).toMatchObject({ bone: 'R_HAND', mesh: 'f5c2c184 type 00000009 group 00000000' });
    const a = aprs.find((x) => x.includes('woodaxe'))!;
    const [apr] = legacyFormat.inspect!(new Map([[basename(a), readBytes(a)]]));
    expect(apr.rows).toEqual([['e5b85288', '0000000b']]);
  });
});
