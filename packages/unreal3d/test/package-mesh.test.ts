/**
 * Package meshes equal their sources: HeadHunter.u's LodMesh `Skull` (Skull_d.3d/_a.3d) and
 * KillConfirmed.u's `dogTag` (Tags_d.3d/_a.3d), each compiled by UCC with the `#exec` lines its
 * package keeps in the class's ScriptText. The source side is imported with exactly that text as
 * its `.uc`, so both sides have the same MESHMAP SCALE/ORIGIN.
 *
 * Tolerance: none in Unreal units. The package stores the same packed 11/11/10-bit integers the
 * `_a.3d` holds (UCC only reorders vertices for LOD), and UV bytes are copied, so every corner of
 * every frame is the same integer times the same node matrix; world positions are compared after
 * rounding to 10 µm (float32 rounding of the matrix product is ~1e-7 m at these sizes).
 */
import { join } from 'node:path';
import { corpusRoot, hasCorpus, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { importUnrealFiles, readPackage, unpackPackage } from '../src/index.js';
import { frameTriangles, UT99_DIR } from './package-helpers.js';

const cases = [
  { pkg: 'HeadHunter.u', mesh: 'Skull', source: 'Skull', script: 'SkullItem' },
  { pkg: 'KillConfirmed.u', mesh: 'dogTag', source: 'Tags', script: 'DogTagItemVisuals' },
];

describe.runIf(hasCorpus('archives/unreal'))('package meshes equal their sources', () => {
  for (const c of cases) {
    it(`${c.pkg} ${c.mesh} = ${c.source}_d.3d/_a.3d, frame by frame`, async () => {
      const bytes = readBytes(join(UT99_DIR(), 'System', c.pkg));
      const pkg = readPackage(bytes, c.pkg);
      const entries = unpackPackage(pkg);
      const files = new Map([...entries].filter(([n]) => n.startsWith(`${c.mesh}_`) || n === `${c.mesh}.uc`));
      const fromPkg = await importUnrealFiles(files, { main: `${c.mesh}_d.3d`, textures: false });

      // the .uc UCC compiled: the class's ScriptText, pointing at the corpus files
      const script = pkg.readTextBuffer(
        pkg.exports.findIndex((e) => e.name === 'ScriptText' && pkg.refName(e.outer) === c.script),
      );
      const ucText = script
        .replace(/ANIVFILE=\S+/i, `ANIVFILE=Models\\${c.source}_a.3d`)
        .replace(/DATAFILE=\S+/i, `DATAFILE=Models\\${c.source}_d.3d`)
        .replace(new RegExp(`MESH=${c.mesh}\\b`, 'gi'), `MESH=${c.mesh}`);
      const dir = join(corpusRoot(), 'unreal3d');
      const src = new Map<string, Uint8Array>([
        [`${c.source}_d.3d`, readBytes(join(dir, `${c.source}_d.3d`))],
        [`${c.source}_a.3d`, readBytes(join(dir, `${c.source}_a.3d`))],
        [`${c.source}.uc`, new TextEncoder().encode(ucText)],
      ]);
      const fromSrc = await importUnrealFiles(src, { main: `${c.source}_d.3d`, textures: false });

      const frames = pkg.readMesh(pkg.findExport(c.mesh, 'LodMesh')).animFrames;
      expect(frames).toBe(30);
      const tris = { Skull: 236, dogTag: 250 }[c.mesh];
      expect(frameTriangles(fromPkg.document, 0)).toHaveLength(tris!);
      for (let f = 0; f < frames; f++)
        expect(frameTriangles(fromPkg.document, f)).toEqual(frameTriangles(fromSrc.document, f));
      const clips = (d: typeof fromPkg.document) =>
        d
          .getRoot()
          .listAnimations()
          .map((a) => [a.getName(), a.listSamplers()[0].getInput()!.getMax([])[0]]);
      expect(clips(fromPkg.document)).toEqual(clips(fromSrc.document));
      const materials = (d: typeof fromPkg.document) =>
        d
          .getRoot()
          .listMaterials()
          .map((m) => [m.getAlphaMode(), m.getDoubleSided(), m.getExtension('KHR_materials_unlit') !== null]);
      expect(materials(fromPkg.document)).toEqual(materials(fromSrc.document));
    });
  }
});
