import { join } from 'node:path';
import { FormatError, MemoryResources, ResourceError, textureSourcePath } from '@gltf-legacy/core';
import { encodeTexture } from '@gltf-legacy/textures';
import {
  corpusFiles,
  corpusRoot,
  hasCorpus,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { exportUrho, legacyFormat, MSFTLod, readMaterialXml, readPrefabXml } from '../src/index.js';

const enc = (s: string) => new TextEncoder().encode(s);
const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, MSFTLod]);
const MUSHROOM = join(corpusRoot(), 'textured/urho/Urho3D/bin/Data/Models/Mushroom.mdl');

function material(texture: string): Uint8Array {
  return enc(
    `<material>\n    <technique name="Techniques/Diff.xml" />\n    <texture unit="diffuse" name="${texture}" />\n</material>`,
  );
}

function prefab(model: string, mats: string): Uint8Array {
  return enc(`<?xml version="1.0"?>
<node id="1">
	<attribute name="Name" value="Thing" />
	<component type="StaticModel" id="2">
		<attribute name="Model" value="Model;${model}" />
		<attribute name="Material" value="Material;${mats}" />
	</component>
</node>
`);
}

/** Imports `main` from an in-memory resource folder. */
async function importFrom(files: [string, Uint8Array][], main: string) {
  const resources = new MemoryResources(files, 'test');
  return legacyFormat.import(new Map([[main, (await resources.read(main))!]]), {
    main,
    resources,
    resourcePath: main,
  });
}

describe.skipIf(!hasCorpus('textured/urho'))('references found in files are resolved safely', () => {
  const mdl = (): [string, Uint8Array] => ['Data/Models/Mushroom.mdl', readBytes(MUSHROOM)];

  for (const [ref, code] of [
    ['../../../../etc/passwd', 'PATH_ESCAPE'],
    ['/etc/passwd', 'PATH_ESCAPE'],
    ['C:\\Windows\\win.ini', 'PATH_ESCAPE'],
    ['\\\\host\\share\\x.dds', 'PATH_ESCAPE'],
    ['http://example.com/x.png', 'EXTERNAL_URI'],
    ['file:///etc/passwd', 'EXTERNAL_URI'],
  ] as const) {
    it(`a texture named ${JSON.stringify(ref)} → ResourceError ${code}`, async () => {
      const err = await importFrom(
        [mdl(), ['Data/Materials/Mushroom.xml', material(ref)]],
        'Data/Models/Mushroom.mdl',
      ).catch((e) => e);
      expect(err).toBeInstanceOf(ResourceError);
      expect(err.code).toBe(code);
      expect(err.message).toContain('Mushroom.xml');
    });
  }

  it('a prefab naming a model or material outside the root → ResourceError PATH_ESCAPE', async () => {
    for (const p of [
      prefab('../../../x.mdl', 'Materials/M.xml'),
      prefab('Models/Mushroom.mdl', '/etc/m.xml'),
    ]) {
      const err = await importFrom([mdl(), ['Data/Objects/Thing.xml', p]], 'Data/Objects/Thing.xml').catch(
        (e) => e,
      );
      expect(err).toBeInstanceOf(ResourceError);
      expect(err.code).toBe('PATH_ESCAPE');
    }
  });

  it('a missing texture is TEXTURE_MISSING naming the paths tried; the material stays, the .glb is valid', async () => {
    const r = await importFrom(
      [mdl(), ['Data/Materials/Mushroom.xml', material('Textures/Nowhere.dds')]],
      'Data/Models/Mushroom.mdl',
    );
    const w = r.warnings.find((x) => x.code === 'TEXTURE_MISSING')!;
    expect(w.message).toContain('Data/Textures/Nowhere.dds');
    expect(w.message).toContain('CoreData/Textures/Nowhere.dds');
    expect(
      r.document
        .getRoot()
        .listMaterials()
        .map((m) => m.getName()),
    ).toEqual(['Mushroom']);
    expect(r.document.getRoot().listTextures().length).toBe(0);
    const report = await validateGlb(await io.writeBinary(r.document));
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
  });

  it('a texture in another resource directory of bin (Extra/) is found after Data and CoreData', async () => {
    const png = encodeTexture({ width: 2, height: 2, data: new Uint8Array(16).fill(200) }, 'png');
    const r = await importFrom(
      [
        mdl(),
        ['Data/Materials/Mushroom.xml', material('Textures/Moss.png')],
        ['Extra/Textures/Moss.png', png],
      ],
      'Data/Models/Mushroom.mdl',
    );
    expect(r.warnings.filter((w) => /MISSING/.test(w.code))).toEqual([]);
    const t = r.document.getRoot().listTextures()[0];
    expect(textureSourcePath(t)).toBe('Textures/Moss.png');
    // a lone file outside a bin-like tree does not list its folder for other resource directories
    const lone = await importFrom(
      [
        ['Mushroom.mdl', readBytes(MUSHROOM)],
        ['Materials/Mushroom.xml', material('Textures/Moss.png')],
        ['Extra/Textures/Moss.png', png],
      ],
      'Mushroom.mdl',
    );
    expect(lone.warnings.map((w) => w.code)).toContain('TEXTURE_MISSING');
  });

  it('a missing material or model in a prefab is a warning naming the path; placeholders stay', async () => {
    const r = await importFrom(
      [mdl(), ['Data/Objects/Thing.xml', prefab('Models/Mushroom.mdl', 'Materials/Gone.xml')]],
      'Data/Objects/Thing.xml',
    );
    expect(r.warnings.find((x) => x.code === 'MATERIAL_MISSING')!.message).toContain(
      'Data/Materials/Gone.xml',
    );
    expect(
      r.document
        .getRoot()
        .listMaterials()
        .map((m) => m.getName()),
    ).toEqual(['Mushroom_geometry0']);
    // export keeps the name it could not find
    const back = await exportUrho(r.document, {});
    const thing = prefab('Models/Mushroom.mdl', 'Materials/Gone.xml');
    expect(Buffer.from(back.files.get('Objects/Thing.xml')!).equals(Buffer.from(thing))).toBe(true);
    const r2 = await importFrom(
      [['Data/Objects/Thing.xml', prefab('Models/None.mdl', '')]],
      'Data/Objects/Thing.xml',
    );
    expect(r2.warnings.find((x) => x.code === 'MODEL_MISSING')!.message).toContain('Data/Models/None.mdl');
    expect(
      r2.document
        .getRoot()
        .listNodes()
        .map((n) => n.getName()),
    ).toEqual(['Thing']);
  });

  it('an unreadable material or texture is a warning, not a failure', async () => {
    const r = await importFrom(
      [mdl(), ['Data/Materials/Mushroom.xml', enc('<material><texture></material>')]],
      'Data/Models/Mushroom.mdl',
    );
    expect(r.warnings.map((w) => w.code)).toContain('MATERIAL_UNREADABLE');
    expect(
      r.document
        .getRoot()
        .listMaterials()
        .map((m) => m.getName()),
    ).toEqual(['Mushroom_geometry0']);
    const r2 = await importFrom(
      [
        mdl(),
        ['Data/Objects/Thing.xml', prefab('Models/Mushroom.mdl', 'Materials/Bad.xml')],
        ['Data/Materials/Bad.xml', enc('<material><texture></material>')],
      ],
      'Data/Objects/Thing.xml',
    );
    expect(r2.warnings.map((w) => w.code)).toContain('MATERIAL_UNREADABLE');
    const r3 = await importFrom(
      [
        mdl(),
        ['Data/Materials/Mushroom.xml', material('Textures/Junk.dds')],
        ['Data/Textures/Junk.dds', enc('DDS garbage')],
      ],
      'Data/Models/Mushroom.mdl',
    );
    expect(r3.warnings.map((w) => w.code)).toContain('TEXTURE_UNREADABLE');
    const r4 = await importFrom(
      [
        mdl(),
        ['Data/Materials/Mushroom.xml', material('Textures/Junk.png')],
        ['Data/Textures/Junk.png', enc('not a png at all')],
      ],
      'Data/Models/Mushroom.mdl',
    );
    expect(r4.warnings.map((w) => w.code)).toContain('TEXTURE_UNREADABLE');
    expect(r4.document.getRoot().listTextures().length).toBe(0);
  });

  it('hostile prefabs fail with FormatError (nesting, DOCTYPE, node count)', () => {
    const code = (bytes: Uint8Array, opts = {}) => {
      try {
        readPrefabXml(bytes, 'x.xml', opts);
        return 'ok';
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
        return (e as FormatError).code;
      }
    };
    expect(code(enc(`${'<node>'.repeat(3000)}${'</node>'.repeat(3000)}`))).toBe('TOO_DEEP');
    expect(code(enc('<!DOCTYPE x [<!ENTITY a "b">]><node/>'))).toBe('BAD_XML');
    expect(code(enc(`<node>${'<node/>'.repeat(50)}</node>`), { maxNodes: 10 })).toBe('TOO_LARGE');
    expect(code(enc('<material/>'))).toBe('NOT_A_PREFAB');
  });

  it('hostile extras in a .glb never give export keys outside the output folder', async () => {
    const r = await importFrom(
      [mdl(), ['Data/Materials/Mushroom.xml', material('Textures/Nowhere.dds')]],
      'Data/Models/Mushroom.mdl',
    );
    const m = r.document.getRoot().listMaterials()[0];
    const e = m.getExtras() as any;
    m.setExtras({ urho3d: { material: { ...e.urho3d.material, path: '../../../evil.xml' } } });
    const top = r.document.getRoot().getDefaultScene()!.listChildren()[0];
    top.setExtras({ urho3d: { ...(top.getExtras() as any).urho3d, modelPath: '/etc/Models/x.mdl' } });
    const out = await exportUrho(r.document, {});
    for (const k of out.files.keys()) {
      expect(k.startsWith('/')).toBe(false);
      expect(k.split('/')).not.toContain('..');
    }
    expect([...out.files.keys()].some((k) => k.startsWith('Materials/'))).toBe(true);
  });
});

describe('documents from elsewhere', () => {
  it('materials: true writes Models/, Materials/, Textures/ and a prefab the importer reads with the same materials', async () => {
    const f = corpusFiles('gltf', ['.glb', '.gltf']).find((x) => /BoxTextured\.glb$/.test(x));
    if (!f) return;
    const doc = await io.read(f);
    const out = await exportUrho(doc, { name: 'Box', materials: true });
    const keys = [...out.files.keys()].sort();
    expect(keys).toContain('Models/Box.mdl');
    expect(keys).toContain('Objects/Box.xml');
    expect(keys.filter((k) => k.startsWith('Materials/')).length).toBe(doc.getRoot().listMaterials().length);
    expect(keys.filter((k) => k.startsWith('Textures/')).length).toBe(doc.getRoot().listTextures().length);
    const mat = readMaterialXml(out.files.get(keys.find((k) => k.startsWith('Materials/'))!)!);
    expect(mat.fields.techniques[0].name).toBe('Techniques/Diff.xml');
    const again = await importFrom([...out.files], 'Objects/Box.xml');
    expect(again.warnings.filter((w) => /MISSING/.test(w.code))).toEqual([]);
    const a = again.document.getRoot().listMaterials()[0];
    const b = doc.getRoot().listMaterials()[0];
    expect(a.getBaseColorFactor()).toEqual(b.getBaseColorFactor());
    expect(a.getBaseColorTexture()?.getImage()).toEqual(b.getBaseColorTexture()?.getImage());
    const report = await validateGlb(await io.writeBinary(again.document));
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
  });

  it('several materials: the prefab lists one per geometry and they come back on the same primitives', async () => {
    const f = corpusFiles('gltf', ['.gltf']).find((x) => /CesiumMilkTruck\.gltf$/.test(x));
    if (!f) return;
    const doc = await io.read(f);
    const out = await exportUrho(doc, { name: 'Truck', materials: true });
    const again = await importFrom([...out.files], 'Objects/Truck.xml');
    expect(again.warnings.filter((w) => /MISSING/.test(w.code))).toEqual([]);
    const census = (d: Document) => {
      const n = new Map<string, number>();
      for (const m of d.getRoot().listMeshes()) {
        if ((m.getExtras() as any)?.urho3d?.lodLevel) continue;
        for (const p of m.listPrimitives()) {
          const k = p.getMaterial()?.getName() ?? '';
          n.set(k, (n.get(k) ?? 0) + 1);
        }
      }
      return [...n].sort();
    };
    // the truck's nodes reuse meshes: count primitives per material over the drawn instances
    const drawn = new Map<string, number>();
    for (const node of doc.getRoot().listNodes())
      for (const p of node.getMesh()?.listPrimitives() ?? []) {
        const k = p.getMaterial()?.getName() ?? '';
        drawn.set(k, (drawn.get(k) ?? 0) + 1);
      }
    expect(census(again.document)).toEqual([...drawn].sort());
    expect(again.document.getRoot().listTextures().length).toBe(doc.getRoot().listTextures().length);
  });

  it('by default a document without Urho3D materials exports the .mdl alone, as before', async () => {
    const doc = new Document();
    const buf = doc.createBuffer();
    const pos = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
      .setBuffer(buf);
    const prim = doc.createPrimitive().setAttribute('POSITION', pos).setMaterial(doc.createMaterial('red'));
    doc.createScene().addChild(doc.createNode('tri').setMesh(doc.createMesh('tri').addPrimitive(prim)));
    const out = await exportUrho(doc, { name: 'tri' });
    expect([...out.files.keys()]).toEqual(['tri.mdl']);
    expect(out.warnings.map((w) => w.code)).toContain('MATERIAL_DROPPED');
  });
});
