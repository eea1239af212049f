/**
 * Back to the game: a model converted from a package exports with `--to unreal3d` to the sources
 * UCC rebuilds it from — `MESH_d.3d`, `MESH_a.3d`, `MESH.uc` (the package's scale, origin and
 * sequences) and the skin PCX — byte for byte the files the package unpacks to, through a .glb on
 * disk; importing them again gives the same triangles in every frame.
 */
import { join } from 'node:path';
import { hasCorpus, readBytes, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { exportUnreal, importUnrealFiles, legacyFormat, readPackage, unpackPackage } from '../src/index.js';
import { frameTriangles, UT99_DIR } from './package-helpers.js';

describe.runIf(hasCorpus('archives/unreal'))('package → glb → unreal3d → import', () => {
  for (const [pkgName, mesh] of [
    ['HeadHunter.u', 'Skull'],
    ['KillConfirmed.u', 'dogTag'],
  ] as const) {
    it(`${pkgName} ${mesh}: the exported sources are the unpacked ones, byte for byte`, async () => {
      const bytes = readBytes(join(UT99_DIR(), 'System', pkgName));
      const entries = unpackPackage(readPackage(bytes, pkgName));
      const { document } = await legacyFormat.import(new Map([[pkgName, bytes]]), { mesh });
      const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
      const glb = await io.writeBinary(document);
      const v = await validateGlb(glb);
      expect(v.issues.numErrors, validatorErrors(v)).toBe(0);
      const back = await exportUnreal(await io.readBinary(glb));
      const names = [...back.files.keys()].sort();
      const skins = [...entries.keys()].filter((k) => k.startsWith('Textures/'));
      expect(names).toEqual([`${mesh}.uc`, `${mesh}_a.3d`, `${mesh}_d.3d`, ...skins].sort());
      for (const n of names) expect(Buffer.compare(back.files.get(n)!, entries.get(n)!), n).toBe(0);
      const again = await importUnrealFiles(back.files, { main: `${mesh}_d.3d`, textures: false });
      for (const f of [0, 7, 29])
        expect(frameTriangles(again.document, f)).toEqual(frameTriangles(document, f));
    });
  }
});
