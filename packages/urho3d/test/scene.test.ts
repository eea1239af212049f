import { join } from 'node:path';
import { KeptBytesExtension, MemoryResources } from '@gltf-legacy/core';
import {
  corpusFiles,
  corpusRoot,
  folderResources,
  hasCorpus,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPak, exportUrho, legacyFormat, MSFTLod, writePak } from '../src/index.js';

const BIN = join(corpusRoot(), 'textured/urho/Urho3D/bin');
const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, MSFTLod, KeptBytesExtension]);
const enc = (s: string) => new TextEncoder().encode(s);

const SCENE = `<?xml version="1.0"?>
<scene id="1">
	<attribute name="Name" value="Level" />
	<component type="Octree" id="1" />
	<node id="2">
		<attribute name="Name" value="Crate" />
		<attribute name="Position" value="1 2 3" />
		<attribute name="Rotation" value="0.707107 0 0.707107 0" />
		<attribute name="Scale" value="2 2 2" />
		<component type="StaticModel" id="3">
			<attribute name="Model" value="Model;Models/NinjaSnowWar/SnowCrate.mdl" />
			<attribute name="Material" value="Material;Materials/NinjaSnowWar/SnowCrate.xml" />
		</component>
	</node>
	<node id="4">
		<attribute name="Name" value="Shroom" />
		<attribute name="Position" value="-1 0 5" />
		<component type="StaticModel" id="5">
			<attribute name="Model" value="Model;Models/Mushroom.mdl" />
			<attribute name="Material" value="Material;Materials/Mushroom.xml" />
		</component>
		<node id="6">
			<attribute name="Name" value="Shroom2" />
			<attribute name="Position" value="0 0 1" />
			<component type="StaticModel" id="7">
				<attribute name="Model" value="Model;Models/Mushroom.mdl" />
				<attribute name="Material" value="Material;Materials/Mushroom.xml" />
			</component>
		</node>
	</node>
</scene>
`;

let game: [string, Uint8Array][] = [];
beforeAll(async () => {
  const res = folderResources(BIN);
  for (const p of await res.list('', { recursive: true })) game.push([p, (await res.read(p))!]);
  game = game.filter(([p]) => !p.endsWith('.txt'));
});

describe.skipIf(!hasCorpus('textured/urho'))('scenes and packages', () => {
  it('a <scene> becomes one glTF scene: node tree, mirrored transforms, shared materials, byte-identical export', async () => {
    const main = 'Data/Scenes/Level.xml';
    const resources = new MemoryResources([...game, [main, enc(SCENE)]]);
    const { document, warnings } = await legacyFormat.import(new Map([[main, enc(SCENE)]]), {
      main,
      resources,
      resourcePath: main,
    });
    expect(warnings.filter((w) => /MISSING/.test(w.code))).toEqual([]);
    const root = document.getRoot();
    const level = root.getDefaultScene()!.listChildren()[0];
    expect(level.getName()).toBe('Level');
    const [crate, shroom] = level.listChildren();
    expect(crate.getName()).toBe('Crate');
    expect(crate.getTranslation()).toEqual([-1, 2, 3]); // X mirrored (forward +Z stays +Z)
    const r = crate.getRotation();
    expect(r[0]).toBeCloseTo(0, 6);
    expect(r[1]).toBeCloseTo(-Math.SQRT1_2, 5); // X mirror: (x, −y, −z, w)
    expect(r[3]).toBeCloseTo(Math.SQRT1_2, 5);
    expect(crate.getScale()).toEqual([2, 2, 2]);
    expect(shroom.listChildren().map((n) => n.getName())).toEqual(['Mushroom', 'Shroom2']);
    expect(root.listMaterials().map((m) => m.getName())).toEqual(['SnowCrate', 'Mushroom']); // loaded once
    expect(root.listTextures().length).toBe(2);
    const glb = await io.writeBinary(document);
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);

    const out = await exportUrho(await io.readBinary(glb), {});
    expect(new TextDecoder().decode(out.files.get('Scenes/Level.xml')!)).toBe(SCENE);
    const byName = new Map(game);
    for (const [k, bytes] of out.files) {
      if (k === 'Scenes/Level.xml') continue;
      expect(Buffer.from(bytes).equals(Buffer.from(byName.get(`Data/${k}`)!)), k).toBe(true);
    }
  }, 60_000);

  it('100 instances of one model with two different materials: one .mdl, each instance its material, scene byte-identical', async () => {
    const nodes = Array.from(
      { length: 100 },
      (_, i) => `	<node id="${i + 2}">
		<attribute name="Name" value="M${i}" />
		<attribute name="Position" value="${i} 0 ${-i}" />
		<component type="StaticModel" id="${i + 200}">
			<attribute name="Model" value="Model;Models/Mushroom.mdl" />
			<attribute name="Material" value="Material;Materials/${i % 2 ? 'NinjaSnowWar/SnowCrate' : 'Mushroom'}.xml" />
		</component>
	</node>
`,
    ).join('');
    const text = `<?xml version="1.0"?>\n<scene id="1">\n${nodes}</scene>\n`;
    const main = 'Data/Scenes/Field.xml';
    const resources = new MemoryResources([...game, [main, enc(text)]]);
    const t0 = performance.now();
    const { document } = await legacyFormat.import(new Map([[main, enc(text)]]), {
      main,
      resources,
      resourcePath: main,
    });
    expect(
      document
        .getRoot()
        .listMaterials()
        .map((m) => m.getName()),
    ).toEqual(['Mushroom', 'SnowCrate']);
    const out = await exportUrho(document, {});
    const seconds = (performance.now() - t0) / 1000;
    expect([...out.files.keys()].filter((k) => k.endsWith('.mdl'))).toEqual(['Models/Mushroom.mdl']);
    expect(new TextDecoder().decode(out.files.get('Scenes/Field.xml')!)).toBe(text);
    // swap one instance's material: only its Material attribute changes
    const m1 = document.getRoot().getDefaultScene()!.listChildren()[0].listChildren()[1];
    const snow = document.getRoot().listMaterials()[0];
    for (const n of m1.listChildren()[0].listChildren())
      for (const p of n.getMesh()?.listPrimitives() ?? []) p.setMaterial(snow);
    const edited = new TextDecoder().decode((await exportUrho(document, {})).files.get('Scenes/Field.xml')!);
    const diff = edited.split('\n').filter((l, i) => l !== text.split('\n')[i]);
    expect(diff).toEqual(['\t\t\t<attribute name="Material" value="Material;Materials/Mushroom.xml" />']);
    expect(seconds).toBeLessThan(60);
  }, 120_000);

  it('a prefab inside a .pak resolves inside it; export packs the tree into one .pak', async () => {
    const data = game
      .filter(([p]) => p.startsWith('Data/'))
      .map(([p, b]): [string, Uint8Array] => [p.slice(5), b]);
    const pak = writePak(createPak(new Map(data), { compress: true }));
    const files = legacyFormat.unpack!(pak, 'Data.pak');
    const r = await legacyFormat.import(files, { main: 'Objects/Ninja.xml' });
    expect(r.warnings.filter((w) => /MISSING/.test(w.code))).toEqual([]);
    expect(
      r.document
        .getRoot()
        .listMaterials()
        .map((m) => m.getName()),
    ).toEqual(['Ninja']);
    expect(r.document.getRoot().listTextures().length).toBe(1);
    const plain = await exportUrho(r.document, {});
    const packed = await exportUrho(r.document, { pak: 'lz4' });
    expect([...packed.files.keys()]).toEqual(['Ninja.pak']);
    const inside = legacyFormat.unpack!(packed.files.get('Ninja.pak')!, 'Ninja.pak');
    expect([...inside.keys()].sort()).toEqual([...plain.files.keys()].sort());
    for (const [k, b] of plain.files)
      expect(Buffer.from(inside.get(k)!).equals(Buffer.from(b)), k).toBe(true);
    for (const [k, b] of plain.files) expect(Buffer.from(b).equals(Buffer.from(files.get(k)!)), k).toBe(true);
  }, 60_000);

  it('every prefab and scene inside the corpus Data_299299.pak: valid .glb, byte-identical files back', async () => {
    const pakPath = corpusFiles('urho', ['.pak']).find((f) => /[/\\]Data_299299\.pak$/.test(f));
    if (!pakPath) return;
    const files = legacyFormat.unpack!(readBytes(pakPath), 'Data_299299.pak');
    const mains = [...files.keys()].filter((k) => /^(Objects|Scenes)\//.test(k));
    expect(mains.length).toBe(6);
    let identical = 0;
    for (const main of mains) {
      const { document, warnings } = await legacyFormat.import(files, { main });
      // the package holds no .mdl these prefabs name (they live in another package): warnings, not errors
      for (const w of warnings.filter((x) => x.code === 'MODEL_MISSING'))
        expect(w.message).toContain('tried Data/Models/');
      const glb = await io.writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const back = await exportUrho(await io.readBinary(glb), {});
      expect(back.files.has(main)).toBe(true);
      for (const [k, b] of back.files) {
        const orig = files.get(k);
        if (!orig) continue;
        expect(Buffer.from(b).equals(Buffer.from(orig)), `${main}: ${k}`).toBe(true);
        identical++;
      }
    }
    expect(identical).toBeGreaterThanOrEqual(6);
  }, 120_000);

  it('a prefab of a model with LOD levels and animations (Jack): MSFT_lod kept, .mdl and .ani byte-identical', async () => {
    const jack = corpusFiles('urho', ['.mdl', '.ani']).filter((f) => /[/\\]Jack(_Walk)?\.(mdl|ani)$/.test(f));
    if (jack.length !== 2) return;
    const entries: [string, Uint8Array][] = jack.map((f) => [
      `Data/Models/${f.split(/[/\\]/).pop()}`,
      readBytes(f),
    ]);
    const text = `<node id="1">
	<attribute name="Name" value="Jacks" />
	<node id="2">
		<attribute name="Name" value="A" />
		<attribute name="Position" value="2 0 0" />
		<component type="AnimatedModel" id="3">
			<attribute name="Model" value="Model;Models/Jack.mdl" />
			<attribute name="Material" value="Material;" />
		</component>
	</node>
	<node id="4">
		<attribute name="Name" value="B" />
		<component type="StaticModel" id="5">
			<attribute name="Model" value="Model;Models/Box.mdl" />
			<attribute name="Material" value="Material;" />
		</component>
	</node>
</node>`;
    const box = corpusFiles('urho', ['.mdl']).find((f) => /[/\\]Box\.mdl$/.test(f))!;
    entries.push(['Data/Models/Box.mdl', readBytes(box)], ['Data/Objects/Jacks.xml', enc(text)]);
    const resources = new MemoryResources(entries);
    const main = 'Data/Objects/Jacks.xml';
    const { document } = await legacyFormat.import(new Map([[main, enc(text)]]), {
      main,
      resources,
      resourcePath: main,
    });
    expect(document.getRoot().listAnimations().length).toBe(1);
    expect(
      document
        .getRoot()
        .listNodes()
        .filter((n) => n.getExtension('MSFT_lod')).length,
    ).toBe(1);
    const glb = await io.writeBinary(document);
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    const out = await exportUrho(await io.readBinary(glb), {});
    expect([...out.files.keys()].sort()).toEqual([
      'Models/Box.mdl',
      'Models/Jack.mdl',
      'Models/Jack_Walk.ani',
      'Objects/Jacks.xml',
    ]);
    const byName = new Map(entries);
    for (const [k, b] of out.files)
      expect(Buffer.from(b).equals(Buffer.from(byName.get(`Data/${k}`)!)), k).toBe(true);
  }, 60_000);

  it('inspect lists the model components of a prefab and the fields of a material', async () => {
    const byName = new Map(game);
    const prefab = legacyFormat.inspect!(new Map([['Ninja.xml', byName.get('Data/Objects/Ninja.xml')!]]));
    expect(prefab[0].facts).toEqual({ root: 'node', nodes: 2, 'model components': 1 });
    expect(prefab[0].rows).toEqual([
      [
        '',
        'AnimatedModel',
        'Models/NinjaSnowWar/Ninja.mdl',
        'Materials/NinjaSnowWar/Ninja.xml; Materials/NinjaSnowWar/Ninja.xml',
      ],
    ]);
    const mat = legacyFormat.inspect!(
      new Map([['K.xml', byName.get('Data/Models/Kachujin/Materials/Kachujin.xml')!]]),
    );
    expect(mat[0].facts!.techniques).toBe('Techniques/DiffNormalSpec.xml');
    expect(mat[0].rows!.length).toBe(6);
  });
});
