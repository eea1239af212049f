// Skin names and slots an export derives from glTF names: safe file names, and a .uc / skin set
// that imports back to the same export (fuzz findings of the CI preset after issue 22).
import { join } from 'node:path';
import { MemoryResources } from '@gltf-legacy/core';
import { decodeTexture, encodeTexture, fromGltfImage } from '@gltf-legacy/textures';
import {
  corpusRoot,
  readBytes,
  regressionInput,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { Document, type Material, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { exportUnreal, importUnrealFiles } from '../src/index.js';
import { safeSkinFile, safeSkinName, safeUcTextures, ucSkinFile } from '../src/skin-names.js';

const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);

/** Import of an exported file set as the CLI and the fuzzer do it (the set is the resources). */
function reimport(files: Map<string, Uint8Array>) {
  return importUnrealFiles(files, {
    main: 'fuzz_d.3d',
    resources: new MemoryResources(files),
    resourcePath: 'fuzz_d.3d',
  });
}

/** The `TEXTURE IMPORT` lines of the exported `.uc`. */
function importLines(files: Map<string, Uint8Array>): string[] {
  const uc = [...files].find(([k]) => k.endsWith('.uc'));
  expect(uc, 'the export writes a .uc').toBeTruthy();
  return new TextDecoder()
    .decode(uc?.[1])
    .split(/\r?\n/)
    .filter((l) => /TEXTURE IMPORT/.test(l));
}

/** export → import → export must give the same files, byte for byte. */
async function expectFixedPoint(files1: Map<string, Uint8Array>): Promise<void> {
  const back = await reimport(files1);
  const { files: files2 } = await exportUnreal(back.document, { name: 'fuzz' });
  expect([...files2.keys()].sort()).toEqual([...files1.keys()].sort());
  for (const [k, v] of files1) expect(Buffer.from(files2.get(k) as Uint8Array).equals(v), k).toBe(true);
}

/** A quad (two triangles) per entry of `quads` and a primitive of indices `idx` per entry of `partial`. */
function buildDoc(
  make: (doc: Document) => { quads: (Material | null)[]; partial?: { material: Material; idx: number[] }[] },
): Document {
  const doc = new Document();
  const buf = doc.createBuffer();
  const mesh = doc.createMesh('m');
  const { quads, partial = [] } = make(doc);
  const uv = new Float32Array([0, 0, 1, 0, 1, 1, 0, 1]);
  const add = (m: Material | null, x: number, indices: number[]) => {
    const pos = new Float32Array([x, 0, 0, x + 1, 0, 0, x + 1, 1, 0, x, 1, 0]);
    mesh.addPrimitive(
      doc
        .createPrimitive()
        .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(pos).setBuffer(buf))
        .setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(uv).setBuffer(buf))
        .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(indices)).setBuffer(buf))
        .setMaterial(m),
    );
  };
  for (const [i, m] of quads.entries()) add(m, i * 2, [0, 1, 2, 0, 2, 3]);
  for (const [i, e] of partial.entries()) add(e.material, 10 + i * 2, e.idx);
  doc.createScene('s').addChild(doc.createNode('n').setMesh(mesh));
  return doc;
}

/** An 8×8 PNG of one colour. */
function png(r: number, g: number, b: number): Uint8Array {
  const data = new Uint8Array(8 * 8 * 4);
  for (let i = 0; i < data.length; i += 4) data.set([r, g, b, 255], i);
  return encodeTexture({ width: 8, height: 8, data }, 'png');
}

describe('safe skin names', () => {
  it('texture names are UnrealScript identifiers; file names plain .pcx/.bmp base names', () => {
    expect(safeSkinName('Jt\u0000\u0000x', 0)).toBe('Jt__x');
    expect(safeSkinName('', 4)).toBe('Skin4');
    expect(safeSkinName('9lives', 0)).toBe('_9lives');
    expect(safeSkinFile('Textures\\JSporifier.pcx', 'J')).toBe('JSporifier.pcx');
    expect(safeSkinFile('JSporifier.PCX', 'J')).toBe('JSporifier.PCX');
    expect(safeSkinFile('Jt\u0000\u0000.pcx', 'J')).toBe('Jt__.pcx');
    expect(safeSkinFile('a b"c.bmp', 'J')).toBe('a_b_c.bmp');
    expect(safeSkinFile('..', 'Skin1')).toBe('Skin1.pcx');
    expect(safeSkinFile('..\\..\\.pcx', 'Skin1')).toBe('Skin1.pcx');
    expect(safeSkinFile('-x.pcx', 'J')).toBe('_x.pcx');
    for (const f of ['a\u0000.pcx', '../x.pcx', 'C:\\x.pcx', 'x.pcx\u0000.png', ' ', '\u00ff\u00fe.pcx'])
      expect(safeSkinFile(f, 'T')).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]*\.(pcx|bmp)$/);
  });

  it('safeUcTextures keeps safe entries as they are and repairs the others', () => {
    const ok = { num: 0, name: 'JSporifier', file: 'JSporifier.pcx' };
    const [a, b] = safeUcTextures([ok, { num: 1, name: 'J\u0000', file: 'x/y\u0000.pcx' }]);
    expect(a).toBe(ok);
    expect(b).toEqual({ num: 1, name: 'J_', file: 'y_.pcx' });
  });

  it('ucSkinFile is the file writeUc imports: the first import of a shared name', () => {
    const t = [
      { num: 0, name: 'A', file: 'a.pcx' },
      { num: 1, name: 'a', file: 'b.pcx' },
      { num: 2, name: 'C' },
    ];
    expect(ucSkinFile(t, 1)).toBe('Textures/a.pcx');
    expect(ucSkinFile(t, 2)).toBe('Textures/C.pcx');
    expect(ucSkinFile(t, 3)).toBeUndefined();
  });
});

describe('REIMPORT: an exported .uc names only files the importer accepts', () => {
  it('a glTF texture URI with NUL characters becomes a safe FILE=, and the skin comes back', async () => {
    const d = buildDoc((doc) => {
      const tex = doc
        .createTexture('')
        .setImage(png(200, 40, 10))
        .setMimeType('image/png')
        .setURI('Jt\u0000\u0000.pcx');
      return { quads: [doc.createMaterial('skin').setBaseColorTexture(tex)] };
    });
    const { files } = await exportUnreal(d, { name: 'fuzz' });
    const lines = importLines(files);
    expect(lines).toEqual(['#exec TEXTURE IMPORT NAME=Jt__ FILE=Textures\\Jt__.pcx GROUP=Skins']);
    expect([...files.keys()].filter((k) => k.startsWith('Textures/'))).toEqual(['Textures/Jt__.pcx']);
    for (const k of files.keys()) expect(k).not.toMatch(/[\u0000-\u001f]/);

    const back = await reimport(files);
    expect(back.warnings.filter((w) => /TEXTURE/.test(w.code))).toEqual([]);
    const t = back.document.getRoot().listMaterials()[0].getBaseColorTexture();
    const rgba = fromGltfImage(t?.getImage() as Uint8Array, t?.getMimeType() as string);
    expect([...rgba.data.subarray(0, 4)]).toEqual([200, 40, 10, 255]);
    const report = await validateGlb(await io.writeBinary(back.document));
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    await expectFixedPoint(files);
  });

  it('a .uc SETTEXTURE name with NUL characters (fuzz 5a9e49e1): the re-written .uc imports', async () => {
    const dir = join(corpusRoot(), 'unreal3d');
    const uc = new TextDecoder()
      .decode(readBytes(join(dir, 'BasicMesh.uc')))
      .replace('NUM=1 TEXTURE=Jtex1', 'NUM=1 TEXTURE=Jt\u0000\u0000\u0000\u0080');
    const files = new Map([
      ['BasicMesh_d.3d', readBytes(join(dir, 'BasicMesh_d.3d'))],
      ['BasicMesh_a.3d', readBytes(join(dir, 'BasicMesh_a.3d'))],
      ['BasicMesh.uc', new TextEncoder().encode(uc)],
    ]);
    const first = await importUnrealFiles(files, {
      main: 'BasicMesh_d.3d',
      resources: new MemoryResources(files),
      resourcePath: 'BasicMesh_d.3d',
    });
    expect(first.warnings.map((w) => w.code)).toContain('TEXTURE_MISSING');
    const { files: files1 } = await exportUnreal(first.document, { name: 'fuzz' });
    const lines = importLines(files1);
    expect(lines.join('\n')).not.toMatch(/[\u0000-\u001f\u0080-\uffff]/);
    expect(lines).toEqual(['#exec TEXTURE IMPORT NAME=Jt____ FILE=Textures\\Jt____.pcx GROUP=Skins']);
    const back = await reimport(files1);
    expect(back.warnings.filter((w) => w.code === 'TEXTURE_MISSING')).toHaveLength(1);
    await expectFixedPoint(files1);
  });
});

describe('FIXED_POINT: a texture slot is written only for a material that draws a triangle', () => {
  it('a material whose primitive has no whole triangle gets no slot and no skin (fuzz 5c46fcbd)', async () => {
    // One quad of A, one primitive of B with 2 indices (no whole triangle).
    const src = buildDoc((doc) => ({
      quads: [doc.createMaterial('A').setBaseColorFactor([1, 0, 0, 1])],
      partial: [{ material: doc.createMaterial('<^><KT').setBaseColorFactor([0, 0, 1, 1]), idx: [0, 1] }],
    }));
    const { files } = await exportUnreal(src, { name: 'fuzz' });
    expect(importLines(files)).toEqual(['#exec TEXTURE IMPORT NAME=A FILE=Textures\\A.pcx GROUP=Skins']);
    expect([...files.keys()].filter((k) => k.startsWith('Textures/'))).toEqual(['Textures/A.pcx']);
    const img = decodeTexture(files.get('Textures/A.pcx') as Uint8Array);
    expect([...img.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    await expectFixedPoint(files);
  });

  it('a weapon-placeholder material (poly type 8) gets no skin either', async () => {
    const doc = buildDoc((d) => ({
      quads: [
        d.createMaterial('Body').setBaseColorFactor([0, 1, 0, 1]),
        d.createMaterial('Weapon').setExtras({ unreal3d: { type: 8 } }),
      ],
    }));
    const { files } = await exportUnreal(doc, { name: 'fuzz' });
    const skins = (f: Map<string, Uint8Array>) => [...f].filter(([k]) => k.startsWith('Textures/'));
    expect(skins(files).map(([k]) => k)).toEqual(['Textures/Body.pcx']);
    expect(importLines(files)).toEqual([
      '#exec TEXTURE IMPORT NAME=Body FILE=Textures\\Body.pcx GROUP=Skins',
    ]);
    // The skins of the second export are the first's (the .uc's SEQ=All line is another matter).
    const back = await reimport(files);
    const { files: files2 } = await exportUnreal(back.document, { name: 'fuzz' });
    expect(skins(files2)).toEqual(skins(files));
  });

  for (const [hash, skins] of [
    ['079b8dddb0348ba9', ['Textures/Skin0.pcx']],
    ['6a9e8dbd70317f10', ['Textures/PP.pcx']],
  ] as const) {
    it(`stored fuzz input ${hash}: the skins written are those the re-import reads back`, async () => {
      const doc = await io.readBinary(await regressionInput('unreal3d', hash, io));
      const { files } = await exportUnreal(doc, { name: 'fuzz' });
      expect([...files.keys()].filter((k) => k.startsWith('Textures/'))).toEqual(skins);
      await expectFixedPoint(files);
    });
  }
});
