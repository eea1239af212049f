import { join } from 'node:path';
import { MemoryResources, textureSourcePath } from '@gltf-legacy/core';
import { decodeTexture, encodeTexture, fromGltfImage } from '@gltf-legacy/textures';
import { corpusRoot, firstByteDiff, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { exportGrimrockWithMaterials, legacyFormat, readMaterialsLua } from '../src/index.js';

const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
const GLTF = join(corpusRoot(), 'gltf');

const DDS_ENCODER = (() => {
  try {
    encodeTexture({ width: 4, height: 4, data: new Uint8Array(64) }, 'dds');
    return true;
  } catch {
    return false;
  }
})();

describe('foreign glTF → Grimrock materials', () => {
  for (const [file, name] of [
    ['BoxTextured.glb', 'box'],
    ['CesiumMilkTruck/CesiumMilkTruck.gltf', 'truck'],
  ] as const) {
    // One export per file: BC-encoding the truck's 2048² texture with mips takes tens of seconds.
    it(`${file}: one defineMaterial per material, DDS textures the importer reads back`, async () => {
      const doc = await io.read(join(GLTF, file));
      const { files, warnings } = await exportGrimrockWithMaterials(doc, { name });
      const lua = readMaterialsLua(files.get(`${name}_materials.lua`)!, `${name}_materials.lua`);
      const used = doc
        .getRoot()
        .listMaterials()
        .filter((m) => m.listParents().some((p) => p.propertyType === 'Primitive'));
      expect(lua.definitions.map((d) => d.name).sort()).toEqual(
        used.map((m) => m.getName() || 'default').sort(),
      );
      for (const def of lua.definitions) {
        expect(def.fields.map((f) => f.key)).toEqual(
          expect.arrayContaining([
            'name',
            'doubleSided',
            'lighting',
            'alphaTest',
            'blendMode',
            'textureAddressMode',
            'glossiness',
            'depthBias',
          ]),
        );
        expect(def.text.startsWith('defineMaterial{\n\tname = ')).toBe(true);
      }
      const textured = used.filter((m) => m.getBaseColorTexture());
      expect(textured.length).toBeGreaterThan(0);
      if (!DDS_ENCODER) {
        expect(warnings.map((w) => w.code)).toContain('TEXTURE_DROPPED');
        return;
      }
      expect(warnings.map((w) => w.code)).not.toContain('TEXTURE_DROPPED');
      for (const def of lua.definitions.filter((d) => d.diffuseMap)) {
        expect(def.diffuseMap).toMatch(new RegExp(`^mod_assets/textures/${name}/.+\\.tga$`));
        expect(files.has(def.diffuseMap!.replace(/\.tga$/, '.dds'))).toBe(true);
      }
      // Read back: the exported folder is a mod root of its own.
      const resources = new MemoryResources(files);
      const back = await legacyFormat.import(new Map([[`${name}.model`, files.get(`${name}.model`)!]]), {
        main: `${name}.model`,
        resources,
        resourcePath: `${name}.model`,
      });
      expect(back.warnings.map((w) => w.code)).not.toContain('MATERIAL_MISSING');
      expect(back.warnings.map((w) => w.code)).not.toContain('TEXTURE_MISSING');
      // The truck's materials share one 2048² JPEG (and one exported DDS): decode each image once,
      // not once per material (~1 s of CPU each); the comparisons per material stay the same.
      const decoded = new Map<unknown, ReturnType<typeof decodeTexture>>();
      const once = (key: unknown, decode: () => ReturnType<typeof decodeTexture>) => {
        let d = decoded.get(key);
        if (!d) decoded.set(key, (d = decode()));
        return d;
      };
      for (const m of textured) {
        const mat = back.document
          .getRoot()
          .listMaterials()
          .find((x) => x.getName() === m.getName())!;
        const texture = mat.getBaseColorTexture()!;
        const path = textureSourcePath(texture)!;
        expect(path.endsWith('.dds')).toBe(true);
        // The glTF image is exactly the decoded DDS; its size is the source image's.
        const dds = once(path, () => decodeTexture(files.get(path)!, path));
        const got = once(texture.getImage(), () => fromGltfImage(texture.getImage()!, texture.getMimeType()));
        expect(firstByteDiff(got.data, dds.data)).toBe(-1);
        const source = m.getBaseColorTexture()!;
        const orig = once(source.getImage(), () => fromGltfImage(source.getImage()!, source.getMimeType()));
        expect([got.width, got.height]).toEqual([orig.width, orig.height]);
      }
      const report = await validateGlb(await io.writeBinary(back.document));
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    }, 600_000);
  }
});
