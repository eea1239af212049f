import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { MemoryResources, ResourceError } from '@gltf-legacy/core';
import { decodeTexture, fromGltfImage } from '@gltf-legacy/textures';
import {
  corpusRoot,
  firstByteDiff,
  folderResources,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { type Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { exportUnreal, importUnrealFiles, legacyFormat, nearestPow2, toPow2 } from '../src/index.js';

const pkg = join(corpusRoot(), 'textured', 'unreal3d', 'MushMatch');
const models = readdirSync(join(pkg, 'Models')).filter((f) => f.endsWith('_d.3d'));
const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
const tmp = mkdtempSync(join(tmpdir(), 'unreal3d-textured-'));
const resources = folderResources(pkg);

/** The skin each model's class file gives it (MESHMAP SETTEXTURE NUM=0 → TEXTURE IMPORT FILE=). */
const SKINS: Record<string, { uc: string; pcx: string }> = {
  MBeaconWeap: { uc: 'MushBeacon.uc', pcx: 'Textures/JMBeaconWeap.pcx' },
  Sporifier: { uc: 'Sporifier.uc', pcx: 'Textures/JSporifier.pcx' },
  Sporifier3P: { uc: 'Sporifier.uc', pcx: 'Textures/JSporifier.pcx' },
  SporeProj: { uc: 'SporeProj.uc', pcx: 'Textures/JSporeProj.pcx' },
  SporeCanister: { uc: 'SporeCanister.uc', pcx: 'Textures/JSporeCanister.pcx' },
};

/** The FileSet the CLI builds from the Models folder (no .uc there), plus the package as resources. */
function modelFiles(main: string): Map<string, Uint8Array> {
  const files = new Map([[main, readBytes(join(pkg, 'Models', main))]]);
  for (const c of legacyFormat.companions?.(main, readdirSync(join(pkg, 'Models'))) ?? [])
    files.set(c, readBytes(join(pkg, 'Models', c)));
  return files;
}

async function importModel(main: string, res = resources) {
  return importUnrealFiles(modelFiles(main), { main, resources: res, resourcePath: `Models/${main}` });
}

async function throughDisk(doc: Document, name: string): Promise<Document> {
  const path = join(tmp, `${name}.glb`);
  writeFileSync(path, await io.writeBinary(doc));
  return io.read(path);
}

/** Every .glb a test makes passes the Khronos validator with 0 errors. */
async function expectValid(doc: Document): Promise<void> {
  const report = await validateGlb(await io.writeBinary(doc));
  expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
}

function baseColorRgba(doc: Document, materialIndex = 0) {
  const tex = doc.getRoot().listMaterials()[materialIndex]?.getBaseColorTexture();
  expect(tex, 'material has a base colour texture').toBeTruthy();
  return fromGltfImage(tex?.getImage() as Uint8Array, tex?.getMimeType() as string);
}

describe('resourceRoot and .uc discovery', () => {
  it('the package folder is the parent of Models/ (any case), else the model folder', () => {
    expect(legacyFormat.resourceRoot?.('MushMatch/Models/Sporifier_d.3d')).toBe('MushMatch');
    expect(legacyFormat.resourceRoot?.('a/MushMatch/MODELS/Sporifier_d.3d')).toBe('a/MushMatch');
    expect(legacyFormat.resourceRoot?.('Models/x_d.3d')).toBe('');
    expect(legacyFormat.resourceRoot?.('stuff/box_d.3d')).toBe('stuff');
    expect(legacyFormat.resourceRoot?.('box_d.3d')).toBe('');
  });
});

describe('a class file as the main file', () => {
  it('Classes/Sporifier.uc reads the data files its MESH IMPORT names and its skin', async () => {
    expect(legacyFormat.resourceRoot?.('MushMatch/Classes/Sporifier.uc')).toBe('MushMatch');
    const uc = readBytes(join(pkg, 'Classes/Sporifier.uc'));
    const { document, warnings } = await importUnrealFiles(new Map([['Sporifier.uc', uc]]), {
      main: 'Sporifier.uc',
      resources,
      resourcePath: 'Classes/Sporifier.uc',
    });
    expect(warnings.filter((w) => /TEXTURE|UC_MISSING/.test(w.code))).toEqual([]);
    expect(document.getRoot().listMeshes()[0].getName()).toBe('Sporifier');
    const want = decodeTexture(readBytes(join(pkg, 'Textures/JSporifier.pcx')));
    expect(firstByteDiff(baseColorRgba(document).data, want.data)).toBe(-1);
    await expectValid(document);
  });
});

describe('MushMatch: every model gets the skin its class file names', () => {
  for (const main of models) {
    const base = main.replace(/_d\.3d$/, '');
    it(`${main}: .uc found in Classes/, ${SKINS[base]?.pcx} embedded, pixels equal, 0 validator errors`, async () => {
      const skin = SKINS[base];
      expect(skin).toBeDefined();
      const { document, warnings } = await importModel(main);
      expect(warnings.filter((w) => /TEXTURE|UC_MISSING/.test(w.code))).toEqual([]);
      const glb = await io.writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const back = await io.readBinary(glb);
      const material = back.getRoot().listMaterials()[0];
      expect(material.getMetallicFactor()).toBe(0);
      expect(material.getBaseColorTexture()?.getMimeType()).toBe('image/png');
      const got = baseColorRgba(back);
      const want = decodeTexture(readBytes(join(pkg, skin.pcx)), skin.pcx);
      expect([got.width, got.height]).toEqual([want.width, want.height]);
      expect(firstByteDiff(got.data, want.data)).toBe(-1);
      const ex = (material.getExtras() as { unreal3d: { skin: { uc: string; line: string } } }).unreal3d.skin;
      expect(ex.uc).toBe(`Classes/${skin.uc}`);
      expect(ex.line.toLowerCase()).toContain('settexture');
    });

    it(`${main} → .glb on disk → Unreal: _d.3d, _a.3d, ${SKINS[base]?.uc} and the .pcx byte for byte`, async () => {
      const skin = SKINS[base];
      const { document } = await importModel(main);
      const back = await throughDisk(document, base);
      const { files, warnings } = await exportUnreal(back);
      expect(warnings).toEqual([]);
      expect([...files.keys()].sort()).toEqual([`${base}_a.3d`, `${base}_d.3d`, skin.uc, skin.pcx].sort());
      expect(
        firstByteDiff(files.get(`${base}_d.3d`) as Uint8Array, readBytes(join(pkg, 'Models', main))),
      ).toBe(-1);
      expect(
        firstByteDiff(
          files.get(`${base}_a.3d`) as Uint8Array,
          readBytes(join(pkg, 'Models', `${base}_a.3d`)),
        ),
      ).toBe(-1);
      expect(firstByteDiff(files.get(skin.uc) as Uint8Array, readBytes(join(pkg, 'Classes', skin.uc)))).toBe(
        -1,
      );
      expect(firstByteDiff(files.get(skin.pcx) as Uint8Array, readBytes(join(pkg, skin.pcx)))).toBe(-1);
      // The written folder converts again, with the same skin.
      const again = await importUnrealFiles(files, {
        main: `${base}_d.3d`,
        resources: new MemoryResources(files),
      });
      expect(again.warnings.filter((w) => /TEXTURE/.test(w.code))).toEqual([]);
      const want = decodeTexture(readBytes(join(pkg, skin.pcx)), skin.pcx);
      expect(firstByteDiff(baseColorRgba(again.document).data, want.data)).toBe(-1);
    });
  }
});

describe('missing and hostile references', () => {
  it('a skin that is not there: TEXTURE_MISSING naming the path tried; name and .uc line kept', async () => {
    const withoutTextures = new MemoryResources(
      [...readdirSync(join(pkg, 'Classes'))].map((f) => [`Classes/${f}`, readBytes(join(pkg, 'Classes', f))]),
    );
    const { document, warnings } = await importModel('Sporifier_d.3d', withoutTextures);
    const missing = warnings.filter((w) => w.code === 'TEXTURE_MISSING');
    expect(missing).toHaveLength(1);
    expect(missing[0].message).toContain('Textures/JSporifier.pcx');
    const m = document.getRoot().listMaterials()[0];
    expect(m.getName()).toBe('JSporifier');
    expect(m.getBaseColorTexture()).toBeNull();
    const skin = (m.getExtras() as { unreal3d: { skin: Record<string, unknown> } }).unreal3d.skin;
    expect(skin).toMatchObject({ texture: 'JSporifier', file: 'Textures\\JSporifier.pcx', missing: true });
    expect(skin.line).toBe('#exec meshmap settexture meshmap=Sporifier num=0 texture=JSporifier');
    const glb = await io.writeBinary(document);
    expect((await validateGlb(glb)).issues.numErrors).toBe(0);
  });

  for (const file of ['..\\..\\..\\etc\\passwd', 'C:\\x.pcx']) {
    it(`FILE=${file} in a class file → ResourceError PATH_ESCAPE naming the .uc`, async () => {
      const evil = [
        '#exec MESH IMPORT MESH=Sporifier ANIVFILE=Models\\Sporifier_a.3d DATAFILE=Models\\Sporifier_d.3d',
        `#exec TEXTURE IMPORT NAME=Evil FILE=${file} GROUP=Skins`,
        '#exec MESHMAP SETTEXTURE MESHMAP=Sporifier NUM=0 TEXTURE=Evil',
      ].join('\r\n');
      const res = new MemoryResources([['Pkg/Classes/Evil.uc', new TextEncoder().encode(evil)]]);
      const run = importUnrealFiles(modelFiles('Sporifier_d.3d'), {
        main: 'Sporifier_d.3d',
        resources: res,
        resourcePath: 'Pkg/Models/Sporifier_d.3d',
      });
      await expect(run).rejects.toBeInstanceOf(ResourceError);
      await expect(run).rejects.toMatchObject({ code: 'PATH_ESCAPE', file: 'Pkg/Classes/Evil.uc' });
    });
  }

  it('a truncated PCX: TEXTURE_INVALID, the mesh still converts without an image', async () => {
    const res = new MemoryResources([
      ['Classes/Sporifier.uc', readBytes(join(pkg, 'Classes/Sporifier.uc'))],
      ['Textures/JSporifier.pcx', readBytes(join(pkg, 'Textures/JSporifier.pcx')).slice(0, 300)],
    ]);
    const { document, warnings } = await importModel('Sporifier_d.3d', res);
    expect(warnings.filter((w) => /TEXTURE/.test(w.code)).map((w) => w.code)).toEqual(['TEXTURE_INVALID']);
    expect(warnings.find((w) => w.code === 'TEXTURE_INVALID')?.message).toContain('Textures/JSporifier.pcx');
    expect(document.getRoot().listMaterials()[0].getBaseColorTexture()).toBeNull();
    expect(document.getRoot().listTextures()).toHaveLength(0);
    await expectValid(document);
  });

  it('a class file as main with DATAFILE=..\\..\\x_d.3d → PATH_ESCAPE naming it', async () => {
    const evil = new TextEncoder().encode(
      '#exec MESH IMPORT MESH=x ANIVFILE=x_a.3d DATAFILE=..\\..\\x_d.3d\r\n',
    );
    const run = importUnrealFiles(new Map([['Evil.uc', evil]]), {
      main: 'Evil.uc',
      resources,
      resourcePath: 'Classes/Evil.uc',
    });
    await expect(run).rejects.toMatchObject({ code: 'PATH_ESCAPE', file: 'Classes/Evil.uc' });
  });

  it('two .uc describe the mesh: the texture that resolves to a file wins', async () => {
    const files = modelFiles('Sporifier_d.3d');
    const beside = [
      '#exec MESH IMPORT MESH=Sporifier ANIVFILE=Models\\Sporifier_a.3d DATAFILE=Models\\Sporifier_d.3d',
      '#exec TEXTURE IMPORT NAME=Gone FILE=Textures\\Gone.pcx',
      '#exec MESHMAP SETTEXTURE MESHMAP=Sporifier NUM=0 TEXTURE=Gone',
    ].join('\n');
    files.set('Sporifier.uc', new TextEncoder().encode(beside));
    const { document, warnings } = await importUnrealFiles(files, {
      main: 'Sporifier_d.3d',
      resources,
      resourcePath: 'Models/Sporifier_d.3d',
    });
    expect(warnings.filter((w) => w.code === 'TEXTURE_MISSING')).toEqual([]);
    const want = decodeTexture(readBytes(join(pkg, 'Textures/JSporifier.pcx')));
    expect(firstByteDiff(baseColorRgba(document).data, want.data)).toBe(-1);
    await expectValid(document);
  });
});

describe('defaultproperties and poly flags', () => {
  const uc = (extra: string, props: string) =>
    new TextEncoder().encode(
      [
        '#exec MESH IMPORT MESH=Sporifier ANIVFILE=Models\\Sporifier_a.3d DATAFILE=Models\\Sporifier_d.3d',
        '#exec TEXTURE IMPORT NAME=JSporifier FILE=Textures\\JSporifier.pcx',
        '#exec TEXTURE IMPORT NAME=Proj FILE=textures\\JSPOREPROJ.PCX',
        extra,
        'defaultproperties',
        '{',
        "    Mesh=LodMesh'Sporifier'",
        props,
        '}',
      ].join('\r\n'),
    );
  const run = (bytes: Uint8Array) => {
    const res = new MemoryResources([
      ['Classes/Sporifier.uc', bytes],
      ['Textures/JSporifier.pcx', readBytes(join(pkg, 'Textures/JSporifier.pcx'))],
      ['Textures/JSporeProj.pcx', readBytes(join(pkg, 'Textures/JSporeProj.pcx'))],
    ]);
    return importModel('Sporifier_d.3d', res);
  };
  const proj = () => decodeTexture(readBytes(join(pkg, 'Textures/JSporeProj.pcx')));

  it("Skin=Texture'Pkg.Skins.Proj' overrides SETTEXTURE on slot 0 (any case in FILE=)", async () => {
    const { document } = await run(
      uc(
        '#exec MESHMAP SETTEXTURE MESHMAP=Sporifier NUM=0 TEXTURE=JSporifier',
        "    Skin=Texture'MushMatch.Skins.Proj'",
      ),
    );
    expect(firstByteDiff(baseColorRgba(document).data, proj().data)).toBe(-1);
    await expectValid(document);
  });

  it('MultiSkins(0)= and MultiSkins[0]= set slot 0 when the class has no SETTEXTURE', async () => {
    for (const p of ["    MultiSkins(0)=Texture'Proj'", '    MultiSkins[0]=Proj']) {
      const { document, warnings } = await run(uc('', p));
      expect(warnings.filter((w) => w.code === 'TEXTURE_MISSING')).toEqual([]);
      expect(firstByteDiff(baseColorRgba(document).data, proj().data)).toBe(-1);
    }
  });

  it('a masked texture import (FLAGS=2): alphaMode MASK, palette index 0 transparent', async () => {
    const bytes = uc(
      '#exec TEXTURE IMPORT NAME=M FILE=Textures\\JSporeProj.pcx FLAGS=2\r\n#exec MESHMAP SETTEXTURE MESHMAP=Sporifier NUM=0 TEXTURE=M',
      '',
    );
    const { document } = await run(bytes);
    const m = document.getRoot().listMaterials()[0];
    expect(m.getAlphaMode()).toBe('MASK');
    const got = baseColorRgba(document);
    const want = proj();
    const pcx = readBytes(join(pkg, 'Textures/JSporeProj.pcx'));
    const pal0 = pcx.subarray(pcx.length - 768, pcx.length - 765);
    let cut = 0;
    let bad = 0;
    for (let i = 0; i < got.data.length; i += 4) {
      // RGB unchanged; alpha 0 only where the colour is palette entry 0's.
      for (let c = 0; c < 3; c++) if (got.data[i + c] !== want.data[i + c]) bad++;
      if (got.data[i + 3] === 0) {
        cut++;
        for (let c = 0; c < 3; c++) if (got.data[i + c] !== pal0[c]) bad++;
      } else if (got.data[i + 3] !== 255) bad++;
    }
    expect(bad).toBe(0);
    expect(cut).toBeGreaterThan(0);
    await expectValid(document);
  });
});

describe('a glTF made elsewhere exports its textures as PCX the importer reads back', () => {
  const gltf = join(corpusRoot(), 'gltf');
  for (const path of [join(gltf, 'BoxTextured.glb'), join(gltf, 'CesiumMilkTruck', 'CesiumMilkTruck.gltf')]) {
    it(basename(path), async () => {
      const doc = await io.read(path);
      const { files, warnings } = await exportUnreal(doc, { name: 'm', fps: 2 });
      // BoxTextured's image is 211×211: resampled to 256×256 (UE1 sides are powers of two).
      expect(warnings.filter((w) => /TEXTURE/.test(w.code) && w.code !== 'TEXTURE_RESIZED')).toEqual([]);
      const pcx = [...files.keys()].filter((k) => k.endsWith('.pcx'));
      const textured = doc
        .getRoot()
        .listMaterials()
        .filter((m) => m.getBaseColorTexture());
      // One skin file per glTF image (materials that share an image share its PCX), plus a
      // one-colour skin per untextured material.
      const untextured = doc.getRoot().listMaterials().length - textured.length;
      expect(pcx.length).toBe(new Set(textured.map((m) => m.getBaseColorTexture())).size + untextured);
      expect(pcx.every((k) => k.startsWith('Textures/') && !k.includes('..'))).toBe(true);
      for (const k of pcx) {
        const b = files.get(k) as Uint8Array;
        expect(b[0]).toBe(0x0a); // PCX
        expect(b[3]).toBe(8); // 8-bit paletted
        expect(b[b.length - 769]).toBe(0x0c);
      }
      const back = await importUnrealFiles(files, { main: 'm_d.3d', normals: false });
      expect(back.warnings.filter((w) => /TEXTURE/.test(w.code))).toEqual([]);
      const withTex = back.document
        .getRoot()
        .listMaterials()
        .filter((m) => m.getBaseColorTexture());
      expect(withTex.length).toBeGreaterThan(0);
      await expectValid(back.document);
      // The re-imported image is the PCX's pixels; the PCX is the glTF image within palette error.
      const m0 = withTex[0];
      const name = (m0.getExtras() as { unreal3d: { skin: { path: string } } }).unreal3d.skin.path;
      const pixels = decodeTexture(files.get(name) as Uint8Array);
      const got = fromGltfImage(m0.getBaseColorTexture()?.getImage() as Uint8Array, 'image/png');
      expect(firstByteDiff(got.data, pixels.data)).toBe(-1);
      const src = textured[0].getBaseColorTexture();
      expect(src?.getSize()?.map(nearestPow2)).toEqual([pixels.width, pixels.height]);
      // Palette error, measured on the small image (decoding the truck's 2048² JPEG again costs seconds).
      if (pixels.width * pixels.height > 512 * 512) return;
      const orig = toPow2(fromGltfImage(src?.getImage() as Uint8Array, src?.getMimeType() as string));
      expect([pixels.width, pixels.height]).toEqual([orig.width, orig.height]);
      let err = 0;
      for (let i = 0; i < orig.data.length; i++)
        if (i % 4 !== 3) err += Math.abs(orig.data[i] - pixels.data[i]);
      expect(err / ((orig.data.length / 4) * 3)).toBeLessThan(8); // mean error per channel, 0–255
    });
  }
});

describe('poly type flags of the _d.3d', () => {
  /** Sporifier_d.3d with every triangle's type byte set to `type`. */
  function withType(type: number): Map<string, Uint8Array> {
    const files = modelFiles('Sporifier_d.3d');
    const d = (files.get('Sporifier_d.3d') as Uint8Array).slice();
    const n = d[0] | (d[1] << 8);
    for (let i = 0; i < n; i++) d[48 + 16 * i + 6] = type;
    files.set('Sporifier_d.3d', d);
    return files;
  }
  const opts = { main: 'Sporifier_d.3d', resources, resourcePath: 'Models/Sporifier_d.3d' };

  it('masked (3): alphaMode MASK, index 0 cut out, and the round trip stays byte for byte', async () => {
    const files = withType(3);
    const { document } = await importUnrealFiles(files, opts);
    const m = document.getRoot().listMaterials()[0];
    expect(m.getAlphaMode()).toBe('MASK');
    const rgba = baseColorRgba(document);
    const want = decodeTexture(readBytes(join(pkg, 'Textures/JSporifier.pcx')));
    let cut = 0;
    let bad = 0;
    for (let i = 0; i < rgba.data.length; i += 4) {
      if (rgba.data[i + 3] === 0) cut++;
      for (let c = 0; c < 3; c++) if (rgba.data[i + c] !== want.data[i + c]) bad++;
    }
    expect(bad).toBe(0);
    expect(cut).toBeGreaterThan(0);
    const glb = await io.writeBinary(document);
    expect((await validateGlb(glb)).issues.numErrors).toBe(0);
    const out = await exportUnreal(await throughDisk(document, 'masked'));
    expect(
      firstByteDiff(out.files.get('Sporifier_d.3d') as Uint8Array, files.get('Sporifier_d.3d') as Uint8Array),
    ).toBe(-1);
    expect(
      firstByteDiff(
        out.files.get('Textures/JSporifier.pcx') as Uint8Array,
        readBytes(join(pkg, 'Textures/JSporifier.pcx')),
      ),
    ).toBe(-1);
  });

  it('masked, edited: pixels cut out in glTF become palette index 0 and come back transparent', async () => {
    const files = withType(3);
    const { document } = await importUnrealFiles(files, opts);
    const tex = document.getRoot().listTextures()[0];
    const rgba = fromGltfImage(tex.getImage() as Uint8Array, 'image/png');
    for (let i = 0; i < rgba.width * 4 * 16; i += 4) rgba.data.set([10, 200, 30, 0], i); // 16 rows cut out
    const { encodeTexture } = await import('@gltf-legacy/textures');
    tex.setImage(encodeTexture(rgba, 'png'));
    const out = await exportUnreal(await throughDisk(document, 'masked-edit'));
    const pcx = out.files.get('Textures/JSporifier.pcx') as Uint8Array;
    expect(firstByteDiff(pcx, readBytes(join(pkg, 'Textures/JSporifier.pcx')))).not.toBe(-1);
    const again = await importUnrealFiles(out.files, { main: 'Sporifier_d.3d' });
    const back = baseColorRgba(again.document);
    expect(again.document.getRoot().listMaterials()[0].getAlphaMode()).toBe('MASK');
    let cutRows = 0;
    for (let i = 3; i < back.width * 4 * 16; i += 4) if (back.data[i] === 0) cutRows++;
    expect(cutRows).toBe(back.width * 16);
    let opaqueBelow = 0;
    for (let i = back.width * 4 * 16 + 3; i < back.data.length; i += 4)
      if (back.data[i] === 255) opaqueBelow++;
    expect(opaqueBelow).toBeGreaterThan(0);
  });

  it('translucent + unlit (0x12): BLEND and KHR_materials_unlit, texture kept', async () => {
    const { document } = await importUnrealFiles(withType(0x12), opts);
    const m = document.getRoot().listMaterials()[0];
    expect(m.getAlphaMode()).toBe('BLEND');
    expect(m.getExtension('KHR_materials_unlit')).toBeTruthy();
    expect(m.getDoubleSided()).toBe(true);
    expect(m.getBaseColorTexture()).toBeTruthy();
    const glb = await io.writeBinary(document);
    expect((await validateGlb(glb)).issues.numErrors).toBe(0);
  });

  it('no-smooth (0x80): nearest filtering', async () => {
    const { document } = await importUnrealFiles(withType(0x80), opts);
    const info = document.getRoot().listMaterials()[0].getBaseColorTextureInfo();
    expect(info?.getMagFilter()).toBe(9728); // NEAREST
    await expectValid(document);
  });
});

describe('export of changed and missing images', () => {
  it('an edited skin is encoded as an 8-bit PCX at the path the .uc names', async () => {
    const { document } = await importModel('SporeProj_d.3d');
    const tex = document.getRoot().listTextures()[0];
    const rgba = fromGltfImage(tex.getImage() as Uint8Array, 'image/png');
    for (let i = 0; i < rgba.width * 4 * 8; i += 4) rgba.data.set([255, 0, 255, 255], i); // 8 magenta rows
    const { encodeTexture } = await import('@gltf-legacy/textures');
    tex.setImage(encodeTexture(rgba, 'png'));
    const { files, warnings } = await exportUnreal(await throughDisk(document, 'edited'));
    expect(warnings).toEqual([]);
    const pcx = files.get('Textures/JSporeProj.pcx') as Uint8Array;
    expect(firstByteDiff(pcx, readBytes(join(pkg, 'Textures/JSporeProj.pcx')))).not.toBe(-1);
    expect([pcx[0], pcx[3], pcx[pcx.length - 769]]).toEqual([0x0a, 8, 0x0c]);
    const back = decodeTexture(pcx);
    expect([...back.data.subarray(0, 4)]).toEqual([255, 0, 255, 255]);
    // The class file is unchanged: it still imports Textures\JSporeProj.pcx.
    expect(
      firstByteDiff(files.get('SporeProj.uc') as Uint8Array, readBytes(join(pkg, 'Classes/SporeProj.uc'))),
    ).toBe(-1);
  });

  it('a skin whose sides are not powers of two is resampled (TEXTURE_RESIZED)', async () => {
    const doc = await io.read(join(corpusRoot(), 'gltf', 'BoxTextured.glb'));
    const { encodeTexture } = await import('@gltf-legacy/textures');
    const data = new Uint8Array(300 * 200 * 4).fill(200);
    doc
      .getRoot()
      .listTextures()[0]
      .setImage(encodeTexture({ width: 300, height: 200, data }, 'png'));
    const { files, warnings } = await exportUnreal(doc, { name: 'box' });
    const resized = warnings.filter((w) => w.code === 'TEXTURE_RESIZED');
    expect(resized).toHaveLength(1);
    expect(resized[0].message).toContain('300×200 resampled to 256×256');
    const pcx = [...files.keys()].filter((k) => k.endsWith('.pcx'));
    const img = decodeTexture(files.get(pcx[0]) as Uint8Array);
    expect([img.width, img.height]).toEqual([256, 256]);
    expect([...img.data.subarray(0, 4)]).toEqual([200, 200, 200, 255]);
  });

  it('a foreign material without a texture gets a one-colour PCX so the fresh .uc imports', async () => {
    const doc = await io.read(join(corpusRoot(), 'gltf', 'Box.glb'));
    const { files } = await exportUnreal(doc, { name: 'box' });
    const pcx = [...files.keys()].filter((k) => k.endsWith('.pcx'));
    expect(pcx).toHaveLength(1);
    const [r, g, b] = doc.getRoot().listMaterials()[0].getBaseColorFactor();
    const srgb = (v: number) =>
      Math.round((v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055) * 255);
    const img = decodeTexture(files.get(pcx[0]) as Uint8Array);
    expect([...img.data.subarray(0, 3)]).toEqual([srgb(r), srgb(g), srgb(b)]);
    const back = await importUnrealFiles(files, { main: 'box_d.3d' });
    expect(back.warnings.filter((w) => /TEXTURE/.test(w.code))).toEqual([]);
    expect(back.document.getRoot().listMaterials()[0].getBaseColorTexture()).toBeTruthy();
    await expectValid(back.document);
  });
});
