import { join } from 'node:path';
import { FormatError, MemoryResources, ResourceError, KeptBytesExtension } from '@gltf-legacy/core';
import {
  TEST_ASSETS,
  corpusRoot,
  firstByteDiff,
  folderResources,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { decodeTexture, encodeTexture } from '@gltf-legacy/textures';
import { type Document, type Material, NodeIO, type Texture } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import {
  MaterialIndex,
  activeEntry,
  attribute,
  legacyFormat,
  libraryMaterials,
  libraryVersion,
  parameterNumbers,
  readMaterialLibrary,
  resolveMaterial,
  setEntry,
  unigineResourceRoot,
  writeMaterialLibrary,
} from '../src/index.js';

const ROOT = join(corpusRoot(), 'textured/unigine/Unigine_FPS_Demo1');
const MESH = 'source/meshes/first_person/QBZ95_long.mesh';
const QBZ_MAT = 'source/material/qbz95.mat';
const BASE_MAT = 'data/core/materials/default/unigine_mesh.mat';
const io = new NodeIO().registerExtensions([...ALL_EXTENSIONS, KeptBytesExtension]);
const text = (p: string) => new TextDecoder().decode(readBytes(join(ROOT, p)));

function meshFiles(): Map<string, Uint8Array> {
  return new Map([
    ['QBZ95_long.mesh', readBytes(join(ROOT, MESH))],
    ['QBZ95_long.anim', readBytes(join(ROOT, 'source/meshes/first_person/QBZ95_long.anim'))],
  ]);
}

async function importQbz(resources = folderResources(ROOT), extra: Record<string, unknown> = {}) {
  return legacyFormat.import(meshFiles(), {
    main: 'QBZ95_long.mesh',
    resources,
    resourcePath: MESH,
    ...extra,
  });
}

function rgbaOf(tex: Texture): Uint8Array {
  return decodeTexture(tex.getImage() as Uint8Array, 'x.png').data;
}

function onlyMaterial(doc: Document): Material {
  const mats = doc.getRoot().listMaterials();
  expect(mats.length).toBe(1);
  return mats[0];
}

describe('.mat file model', () => {
  it.each([QBZ_MAT, BASE_MAT])('%s reads and writes back byte for byte', (p) => {
    const t = text(p);
    const lib = readMaterialLibrary(readBytes(join(ROOT, p)), p);
    expect(writeMaterialLibrary(lib)).toBe(t);
  });

  it('reads names, parents, versions, states and parameters (and the base library with its `unit="13"pass=` attribute)', () => {
    const lib = readMaterialLibrary(text(QBZ_MAT), QBZ_MAT);
    expect(libraryVersion(lib)).toBe('1.11');
    expect(libraryMaterials(lib).map((m) => [attribute(m, 'name'), attribute(m, 'parent')])).toEqual([
      ['qbz95_03_base', 'mesh_pbr_base'],
      ['skin', 'qbz95_03_base'],
      ['cloth', 'qbz95_03_base'],
      ['glove', 'qbz95_03_base'],
      ['Material #0', 'qbz95_03_base'],
      ['gun_03_base', 'mesh_pbr_base'],
      ['QBZ95_long', 'gun_03_base'],
    ]);
    const base = readMaterialLibrary(text(BASE_MAT), BASE_MAT);
    expect(libraryVersion(base)).toBe('1.00');
    expect(libraryMaterials(base).map((m) => attribute(m, 'name'))).toEqual([
      'mesh_base',
      'mesh_indirect_base',
      'mesh_reflection_2d_base',
      'mesh_reflection_cube_base',
      'mesh_reflection_fresnel_base',
      'mesh_pbr_base',
    ]);
    const pbr = libraryMaterials(base)[5];
    const occ = pbr.children.find((c) => attribute(c, 'name') === 'deferred_occlusion');
    expect(occ?.attributes.map((a) => a.name)).toEqual(['name', 'unit', 'pass', 'type']);
  });

  it('inspect lists each material with what it sets itself', () => {
    const files = new Map([
      ['QBZ95_long.mesh', readBytes(join(ROOT, MESH))],
      ['qbz95.mat', readBytes(join(ROOT, QBZ_MAT))],
    ]);
    const sections = legacyFormat.inspect?.(files, { main: 'QBZ95_long.mesh' }) ?? [];
    const mat = sections.find((s) => s.title === 'qbz95.mat (material library)');
    expect(mat?.facts).toEqual({ version: '1.11', materials: 7 });
    expect(mat?.rows?.[4]).toEqual([
      'Material #0',
      'qbz95_03_base',
      'workflow=1',
      'diffuse_color=0.588 0.588 0.588 1; emission_color=0 0 0 1; emission_scale=0',
      '',
    ]);
  });

  it('an edit rewrites only the edited element; new materials are tab-indented', () => {
    const t = text(QBZ_MAT);
    const lib = readMaterialLibrary(t, QBZ_MAT);
    const m0 = libraryMaterials(lib)[4];
    setEntry(m0, 'parameter', 'diffuse_color', '1 0 0 1');
    setEntry(m0, 'texture', 'diffuse', 'textures/gun_d.dds');
    const out = writeMaterialLibrary(lib);
    expect(out).toBe(
      t
        .replace('0.588 0.588 0.588 1', '1 0 0 1')
        .replace(
          '<parameter name="emission_scale">0</parameter>\n\t</material>\n\t<material name="gun_03_base"',
          '<parameter name="emission_scale">0</parameter>\n\t\t<texture name="diffuse">textures/gun_d.dds</texture>\n\t</material>\n\t<material name="gun_03_base"',
        ),
    );
    // and reads back with the edit
    const again = readMaterialLibrary(out, QBZ_MAT);
    expect(writeMaterialLibrary(again)).toBe(out);
  });

  it('keeps unknown elements, attributes, comments, entities and CRLF line ends', () => {
    const t =
      '\uFEFF<?xml version="1.0"?>\r\n<!-- c -->\r\n<materials version="1.05" x=\'1\'>\r\n  <material name="a&amp;b" hidden="1" custom="&#x41;">\r\n    <shader pass="x"/>\r\n    <foo><bar>1</bar></foo>\r\n    <parameter name="p">&lt;1&gt;</parameter>\r\n  </material>\r\n</materials>\r\n';
    const lib = readMaterialLibrary(new TextEncoder().encode(t), 'x.mat');
    expect(writeMaterialLibrary(lib)).toBe(t);
    const m = libraryMaterials(lib)[0];
    expect(attribute(m, 'name')).toBe('a&b');
    expect(attribute(m, 'custom')).toBe('A');
    expect(m.children.map((c) => c.tag)).toEqual(['shader', 'foo', 'parameter']);
    expect(m.children[2].text).toBe('<1>');
  });

  it('hostile XML: only typed errors, bounded depth, no entity expansion', () => {
    const deep = `<materials>${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</materials>`;
    expect(() => readMaterialLibrary(deep, 'deep.mat')).toThrow(
      expect.objectContaining({ code: 'XML_TOO_DEEP' }),
    );
    const lol =
      '<!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><materials><material name="&b;"/></materials>';
    const lib = readMaterialLibrary(lol, 'lol.mat');
    expect(attribute(libraryMaterials(lib)[0], 'name')).toBe('&b;');
    expect(writeMaterialLibrary(lib)).toBe(lol);
    expect(() => readMaterialLibrary('<other/>', 'x.mat')).toThrow(FormatError);
    const t = text(QBZ_MAT);
    let errors = 0;
    for (let n = 0; n < t.length; n += 7) {
      try {
        readMaterialLibrary(t.slice(0, n), 'cut.mat');
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
        errors++;
      }
    }
    expect(errors).toBeGreaterThan(200);
  });
});

describe('.mat inheritance', () => {
  const libs = () => [
    { path: QBZ_MAT, library: readMaterialLibrary(text(QBZ_MAT), QBZ_MAT) },
    { path: BASE_MAT, library: readMaterialLibrary(text(BASE_MAT), BASE_MAT) },
  ];

  it('resolves parents across libraries; state-guarded entries apply by state', () => {
    const m = resolveMaterial(new MaterialIndex(libs()), 'Material #0');
    if (!m) throw new Error('not found');
    expect(m.chain.map((c) => [c.name, c.library])).toEqual([
      ['Material #0', QBZ_MAT],
      ['qbz95_03_base', QBZ_MAT],
      ['mesh_pbr_base', BASE_MAT],
    ]);
    expect(parameterNumbers(activeEntry(m, m.parameters, 'diffuse_color'))).toEqual([0.588, 0.588, 0.588, 1]);
    // workflow = 1 (specular): diffuse/specular apply, albedo/metalness do not
    expect(activeEntry(m, m.textures, 'diffuse')?.value).toBe('core/textures/common/white.dds');
    expect(activeEntry(m, m.textures, 'albedo')).toBeUndefined();
    expect(activeEntry(m, m.textures, 'normal')?.value).toBe('core/textures/mesh_base_normal.dds');
    // emission state is 0 in the base: emission parameters are not used
    expect(activeEntry(m, m.parameters, 'emission_color')).toBeUndefined();
  });

  it('a parent cycle is a FormatError; a missing parent a warning', () => {
    const lib = readMaterialLibrary(
      '<materials version="1.11"><material name="a" parent="b"/><material name="b" parent="c"/><material name="c" parent="a"/><material name="d" parent="nowhere"/></materials>',
      'cycle.mat',
    );
    const index = new MaterialIndex([{ path: 'cycle.mat', library: lib }]);
    expect(() => resolveMaterial(index, 'a')).toThrow(
      expect.objectContaining({ name: 'FormatError', code: 'MATERIAL_CYCLE', file: 'cycle.mat' }),
    );
    const self = readMaterialLibrary('<materials><material name="s" parent="s"/></materials>', 's.mat');
    expect(() => resolveMaterial(new MaterialIndex([{ path: 's.mat', library: self }]), 's')).toThrow(
      FormatError,
    );
    const chain = Array.from({ length: 100 }, (_, i) => `<material name="m${i}" parent="m${i + 1}"/>`).join(
      '',
    );
    const long = readMaterialLibrary(`<materials>${chain}</materials>`, 'long.mat');
    expect(() => resolveMaterial(new MaterialIndex([{ path: 'long.mat', library: long }]), 'm0')).toThrow(
      expect.objectContaining({ code: 'MATERIAL_TOO_DEEP' }),
    );
    expect(resolveMaterial(index, 'd')?.missingParent).toBe('nowhere');
  });

  it('resource root: the project folder above data/ or source/, else the mesh folder', () => {
    expect(unigineResourceRoot(`/x/Unigine_FPS_Demo1/${MESH}`)).toBe('/x/Unigine_FPS_Demo1');
    expect(unigineResourceRoot('/x/p/data/meshes/a.mesh')).toBe('/x/p');
    expect(unigineResourceRoot('models/box.mesh')).toBe('models');
    expect(legacyFormat.resourceRoot?.('/a/b/c.mesh')).toBe('/a/b');
  });
});

describe('QBZ95_long.mesh with its .mat', () => {
  it('converts to a valid .glb with the material of qbz95.mat and the game textures', async () => {
    const { document, warnings } = await importQbz();
    const glb = await io.writeBinary(document);
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    const m = onlyMaterial(document);
    expect(m.getName()).toBe('Material #0');
    expect(m.getBaseColorFactor()).toEqual([0.588, 0.588, 0.588, 1]);
    expect(m.getMetallicFactor()).toBe(0);
    expect(m.getRoughnessFactor()).toBe(1); // gloss 0
    expect(m.getEmissiveFactor()).toEqual([0, 0, 0]);
    expect(m.getAlphaMode()).toBe('OPAQUE');
    const normal = m.getNormalTexture();
    if (!normal) throw new Error('no normal texture');
    const want = decodeTexture(readBytes(join(ROOT, 'data/core/textures/mesh_base_normal.dds')), 'n.dds');
    expect(firstByteDiff(rgbaOf(normal), want.data)).toBe(-1);
    expect((m.getExtras() as { unigine: { chain: string[] } }).unigine.chain).toEqual([
      'Material #0',
      'qbz95_03_base',
      'mesh_pbr_base',
    ]);
    // white.dds is named by the base library but not shipped in the corpus folder
    const missing = warnings.filter((w) => w.code === 'TEXTURE_MISSING');
    // diffuse and specular both name it: one message, counted twice
    expect(missing.map((w) => w.count)).toEqual([2]);
    expect(missing[0].message).toContain(
      'texture "core/textures/common/white.dds" not found (tried data/core/textures/common/white.dds, core/textures/common/white.dds, data/core/materials/default/core/textures/common/white.dds)',
    );
    expect(warnings.filter((w) => w.code !== 'TEXTURE_MISSING')).toEqual([]);
  });

  it('a surface mapped to mesh_base gets its diffuse, normal and specular DDS as decoded by the block decoder', async () => {
    const { document } = await importQbz(undefined, { materialMap: 'Material #0=mesh_base' });
    const m = onlyMaterial(document);
    expect(m.getName()).toBe('mesh_base');
    for (const [tex, file] of [
      [m.getBaseColorTexture(), 'mesh_base_diffuse.dds'],
      [m.getNormalTexture(), 'mesh_base_normal.dds'],
      [
        m
          .getExtension<import('@gltf-transform/extensions').Specular>('KHR_materials_specular')
          ?.getSpecularColorTexture(),
        'mesh_base_specular.dds',
      ],
    ] as const) {
      if (!tex) throw new Error(`no texture for ${file}`);
      const want = decodeTexture(readBytes(join(ROOT, 'data/core/textures', file)), file);
      expect(firstByteDiff(rgbaOf(tex), want.data), file).toBe(-1);
    }
    const report = await validateGlb(await io.writeBinary(document));
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
  });

  it('exports back: mesh and anim byte for byte, NAME.mat with the original definitions; re-import gives the same material', async () => {
    const { document } = await importQbz();
    const back = await io.readBinary(await io.writeBinary(document));
    const out = await legacyFormat.export?.(back, { name: 'QBZ95_long' });
    if (!out) throw new Error('no export');
    for (const [n, b] of meshFiles()) expect(firstByteDiff(out.files.get(n) as Uint8Array, b), n).toBe(-1);
    expect([...out.files.keys()].sort()).toEqual(['QBZ95_long.anim', 'QBZ95_long.mat', 'QBZ95_long.mesh']);
    const mat = new TextDecoder().decode(out.files.get('QBZ95_long.mat'));
    const original = text(QBZ_MAT);
    // the two definitions come back as written in qbz95.mat
    const def = (name: string) => {
      const start = original.indexOf(`<material name="${name}"`);
      const selfClosing = original.indexOf('/>', start);
      const end = original.indexOf('</material>', start);
      return selfClosing >= 0 && selfClosing < original.indexOf('>', start) + 1
        ? original.slice(start, selfClosing + 2)
        : original.slice(start, end + 11);
    };
    expect(mat).toContain(def('qbz95_03_base'));
    expect(mat).toContain(def('Material #0'));
    // keys never climb
    for (const k of out.files.keys()) expect(k.split('/')).not.toContain('..');
    // re-import from the exported files placed beside the mesh, with the engine data only
    const files: [string, Uint8Array][] = [];
    for (const [k, v] of out.files) files.push([`source/meshes/first_person/${k}`, v]);
    for (const p of [BASE_MAT, 'data/core/textures/mesh_base_normal.dds'])
      files.push([p, readBytes(join(ROOT, p))]);
    const again = await importQbz(new MemoryResources(files, 'exported'));
    const a = onlyMaterial(document);
    const b = onlyMaterial(again.document);
    const ex = (x: Material) => (x.getExtras() as { unigine: { mapped: string; chain: string[] } }).unigine;
    expect(ex(b).chain).toEqual(ex(a).chain);
    expect(ex(b).mapped).toBe(ex(a).mapped);
    expect(again.warnings.filter((w) => w.code === 'MATERIAL_MISSING')).toEqual([]);
  });

  it('an edited material is written with its edits; the edited texture as DDS', async () => {
    const { document } = await importQbz(undefined, { materialMap: 'Material #0=mesh_base' });
    const m = onlyMaterial(document);
    m.setBaseColorFactor([1, 0, 0, 1]).setAlphaMode('MASK').setDoubleSided(true);
    const out = await legacyFormat.export?.(document, { name: 'gun' });
    if (!out) throw new Error('no export');
    const mat = new TextDecoder().decode(out.files.get('gun.mat'));
    expect(mat).toContain('<material name="Material #0" parent="mesh_base">');
    expect(mat).toContain('<parameter name="diffuse_color">1 0 0 1</parameter>');
    expect(mat).toContain('<options alpha_test="1" two_sided="1"/>');
    // unchanged textures inherited from mesh_base are not written
    expect([...out.files.keys()].filter((k) => k.endsWith('.dds'))).toEqual([]);
    const back = await legacyFormat.import(out.files, { main: 'gun.mesh', resources: undefined });
    const r = back.document.getRoot().listMaterials()[0];
    expect(r.getBaseColorFactor()).toEqual([1, 0, 0, 1]);
    expect(r.getAlphaMode()).toBe('MASK');
    expect(r.getDoubleSided()).toBe(true);
  });

  it('hostile .mat: texture paths that leave the folder are ResourceError PATH_ESCAPE / EXTERNAL_URI', async () => {
    for (const [ref, code] of [
      ['../../../../etc/passwd', 'PATH_ESCAPE'],
      ['/etc/passwd', 'PATH_ESCAPE'],
      ['C:\\Windows\\win.ini', 'PATH_ESCAPE'],
      ['http://example.com/x.dds', 'EXTERNAL_URI'],
      ['file:///etc/passwd', 'EXTERNAL_URI'],
    ]) {
      const mat = `<materials version="1.11"><material name="Material #0"><texture name="diffuse">${ref}</texture></material></materials>`;
      const resources = new MemoryResources([
        ['source/meshes/first_person/QBZ95_long.mat', new TextEncoder().encode(mat)],
      ]);
      await expect(importQbz(resources), ref).rejects.toSatisfy(
        (e) => e instanceof ResourceError && e.code === code && e.reference === ref,
      );
    }
  });

  it('a .mat given with the mesh wins over the project library; `materials` names libraries explicitly', async () => {
    const mine =
      '<materials version="1.11"><material name="Material #0" parent="qbz95_03_base"><state name="workflow">1</state><parameter name="diffuse_color">1 0 0 1</parameter></material></materials>';
    const files = meshFiles();
    files.set('mine.mat', new TextEncoder().encode(mine));
    const r = await legacyFormat.import(files, {
      main: 'QBZ95_long.mesh',
      resources: folderResources(ROOT),
      resourcePath: MESH,
    });
    const m = onlyMaterial(r.document);
    expect(m.getBaseColorFactor()).toEqual([1, 0, 0, 1]);
    expect(m.getNormalTexture()).not.toBeNull(); // still inherits through qbz95.mat → unigine_mesh.mat
    expect((m.getExtras() as { unigine: { library: string } }).unigine.library).toBe(
      'source/meshes/first_person/mine.mat',
    );
    const explicit = await importQbz(undefined, {
      scanMaterials: false,
      materials: [QBZ_MAT, BASE_MAT, 'nope.mat'],
    });
    expect(onlyMaterial(explicit.document).getBaseColorFactor()).toEqual([0.588, 0.588, 0.588, 1]);
    expect(explicit.warnings.find((w) => w.code === 'MATERIAL_MISSING')?.message).toBe(
      `material library nope.mat not found in ${ROOT}`,
    );
    const none = await importQbz(undefined, { scanMaterials: false });
    expect(none.warnings.map((w) => w.code)).toEqual(['MATERIAL_MISSING']);
  });

  it('no library: MATERIAL_MISSING naming what was tried; placeholder material kept', async () => {
    const { document, warnings } = await importQbz(new MemoryResources([], 'empty'));
    expect(warnings.map((w) => w.code)).toEqual(['MATERIAL_MISSING']);
    expect(warnings[0].message).toContain('source/meshes/first_person/QBZ95_long.mat');
    expect(onlyMaterial(document).getName()).toBe('Material #0');
    // one warning for a whole model, counted per surface (actor_00 has 3)
    const actor = join(corpusRoot(), 'unigine/actor_00.mesh');
    const r = await legacyFormat.import(new Map([['actor_00.mesh', readBytes(actor)]]), {
      main: 'actor_00.mesh',
      resources: new MemoryResources([], 'empty'),
    });
    expect(r.warnings.map((w) => [w.code, w.count])).toEqual([['MATERIAL_MISSING', 3]]);
    // a library without the surface's material: named in the message
    const other = new MemoryResources([
      ['source/material/other.mat', new TextEncoder().encode('<materials><material name="x"/></materials>')],
    ]);
    const o = await importQbz(other);
    expect(o.warnings.map((w) => w.message)).toEqual([
      'surface "Material #0": no material "Material #0" in source/material/other.mat',
    ]);
  });

  it('a parent cycle in the project library is a FormatError', async () => {
    const mat =
      '<materials version="1.11"><material name="Material #0" parent="x"/><material name="x" parent="Material #0"/></materials>';
    const resources = new MemoryResources([['source/material/bad.mat', new TextEncoder().encode(mat)]]);
    await expect(importQbz(resources)).rejects.toSatisfy(
      (e) => e instanceof FormatError && e.code === 'MATERIAL_CYCLE',
    );
  });
});

/** DDS encoding lands with the textures package's encoders; until then the export warns TEXTURE_DROPPED. */
function ddsEncodes(): boolean {
  try {
    encodeTexture({ width: 4, height: 4, data: new Uint8Array(64).fill(255) }, 'dds');
    return true;
  } catch {
    return false;
  }
}

describe('foreign glTF → .mat + .dds', () => {
  it('without a DDS encoder the texture is TEXTURE_DROPPED and the material still written', async () => {
    const doc = await io.read(join(corpusRoot(), 'gltf/BoxTextured.glb'));
    const out = await legacyFormat.export?.(doc, { name: 'box' });
    if (!out) throw new Error('no export');
    const mat = new TextDecoder().decode(out.files.get('box.mat'));
    expect(mat).toMatch(/<material name="Texture" parent="mesh_base"/);
    if (!ddsEncodes()) expect(out.warnings.map((w) => w.code)).toContain('TEXTURE_DROPPED');
  });

  it.skipIf(!ddsEncodes())(
    'BoxTextured exports its texture as DDS named by NAME.mat; the importer reads them back',
    async () => {
      const doc = await io.read(join(corpusRoot(), 'gltf/BoxTextured.glb'));
      const out = await legacyFormat.export?.(doc, { name: 'box' });
      if (!out) throw new Error('no export');
      const keys = [...out.files.keys()].sort();
      expect(keys).toEqual(['box.mat', 'box.mesh', 'textures/Texture_diffuse.dds']);
      const mat = new TextDecoder().decode(out.files.get('box.mat'));
      expect(mat).toMatch(/<material name="[^"]+" parent="mesh_base">/);
      const dds = keys.find((k) => k.endsWith('.dds'));
      if (!dds) throw new Error(`no texture written: ${JSON.stringify(out.warnings)}`);
      expect(mat).toContain(`<texture name="diffuse">${dds}</texture>`);
      const back = await legacyFormat.import(out.files, { main: 'box.mesh' });
      const m = back.document.getRoot().listMaterials()[0];
      const t = m.getBaseColorTexture();
      if (!t) throw new Error('no texture');
      const src = doc.getRoot().listMaterials()[0].getBaseColorTexture() as Texture;
      const a = decodeTexture(src.getImage() as Uint8Array, 'a.png');
      const b = decodeTexture(t.getImage() as Uint8Array, 'b.png');
      expect([b.width, b.height]).toEqual([a.width, a.height]);
      // BC1 is lossy: mean error per channel small
      let sum = 0;
      for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i] - b.data[i]);
      expect(sum / a.data.length).toBeLessThan(12);
      expect(back.warnings.filter((w) => w.code === 'TEXTURE_MISSING')).toEqual([]);
      const report = await validateGlb(await io.writeBinary(back.document));
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    },
  );

  it.skipIf(!ddsEncodes())(
    'BoxTextured: export → import → export is a fixed point (mesh, .mat and .dds byte for byte)',
    async () => {
      const doc = await io.read(join(corpusRoot(), 'gltf/BoxTextured.glb'));
      const first = await legacyFormat.export?.(doc, { name: 'truck' });
      if (!first) throw new Error('no export');
      const dds = [...first.files.keys()].filter((k) => k.endsWith('.dds'));
      expect(dds.length).toBeGreaterThan(0);
      const back = await legacyFormat.import(first.files, { main: 'truck.mesh' });
      const mats = back.document.getRoot().listMaterials();
      expect(mats.every((m) => (m.getExtras() as { unigine?: unknown }).unigine !== undefined)).toBe(true);
      expect(mats.some((m) => m.getBaseColorTexture() !== null)).toBe(true);
      const glb = await io.writeBinary(back.document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const second = await legacyFormat.export?.(await io.readBinary(glb), { name: 'truck' });
      if (!second) throw new Error('no export');
      expect([...second.files.keys()].sort()).toEqual([...first.files.keys()].sort());
      for (const [k, v] of first.files)
        expect(firstByteDiff(second.files.get(k) as Uint8Array, v), k).toBe(-1);
    },
  );

  it('a glTF material named like the base material does not inherit from itself; bad option refused', async () => {
    const doc = await io.read(join(corpusRoot(), 'gltf/BoxTextured.glb'));
    doc
      .getRoot()
      .listMaterials()[0]
      .setName('mesh_base')
      .setBaseColorTexture(null)
      .setBaseColorFactor([0, 1, 0, 1]);
    const out = await legacyFormat.export?.(doc, { name: 'box' });
    if (!out) throw new Error('no export');
    expect(new TextDecoder().decode(out.files.get('box.mat'))).toContain('<material name="mesh_base">');
    const back = await legacyFormat.import(out.files, { main: 'box.mesh' });
    expect(back.document.getRoot().listMaterials()[0].getBaseColorFactor()).toEqual([0, 1, 0, 1]);
    await expect(
      legacyFormat.export?.(doc, { name: 'box', materialLibrary: 'sometimes' }),
    ).rejects.toMatchObject({
      code: 'BAD_OPTION',
    });
  });

  it('an edited surface named like the engine material it uses: edits in a child material, no cycle', async () => {
    const files = new Map([['two_surfaces.mesh', readBytes(join(TEST_ASSETS, 'unigine/two_surfaces.mesh'))]]);
    const resources = new MemoryResources([[BASE_MAT, readBytes(join(ROOT, BASE_MAT))]]);
    const mapped = await legacyFormat.import(files, {
      main: 'two_surfaces.mesh',
      resources,
      resourcePath: 'meshes/two_surfaces.mesh',
      materialMap: 'floor=mesh_base,sign=mesh_base',
    });
    // export from a document whose surface is literally named mesh_base
    const doc = mapped.document;
    for (const p of doc
      .getRoot()
      .listMeshes()
      .flatMap((m) => m.listPrimitives()))
      p.setExtras({ unigine: { ...(p.getExtras() as { unigine: object }).unigine, surface: 'mesh_base' } });
    doc.getRoot().listMaterials()[0].setBaseColorFactor([0, 0, 1, 1]);
    const out = await legacyFormat.export?.(doc, { name: 'quad' });
    if (!out) throw new Error('no export');
    const mat = new TextDecoder().decode(out.files.get('quad.mat'));
    expect(mat).toContain('<material name="mesh_base_quad" parent="mesh_base">');
    expect(mat).not.toContain('<material name="mesh_base"');
    expect(out.warnings.map((w) => w.code)).toContain('MATERIAL_RENAMED');
    const again = await legacyFormat.import(out.files, {
      main: 'quad.mesh',
      resources: new MemoryResources([
        ...[...out.files].map(([k, v]) => [`meshes/${k}`, v] as [string, Uint8Array]),
        [BASE_MAT, readBytes(join(ROOT, BASE_MAT))],
      ]),
      resourcePath: 'meshes/quad.mesh',
      materialMap: 'mesh_base=mesh_base_quad',
    });
    expect(again.document.getRoot().listMaterials()[0].getBaseColorFactor()).toEqual([0, 0, 1, 1]);
  });

  it('garbage material extras export as a fresh material, never crash', async () => {
    const { document } = await importQbz();
    const m = onlyMaterial(document);
    for (const bad of [
      {
        material: 'x',
        library: 'l.mat',
        mapped: '{not json',
        definitions: [null, 3, { name: 'x', xml: '<<<', library: 'l' }],
      },
      {
        material: 'x',
        library: 'l.mat',
        mapped: '[]',
        definitions: [{ name: 'x', xml: '<material name="x" parent="x"/>', library: 'l' }],
      },
      { material: 7, definitions: 'no' },
    ]) {
      m.setExtras({ unigine: bad });
      const out = await legacyFormat.export?.(document, { name: 'q' });
      expect(new TextDecoder().decode(out?.files.get('q.mat'))).toContain('<material name="Material #0"');
    }
  });
});
