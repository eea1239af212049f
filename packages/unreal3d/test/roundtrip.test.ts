import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { corpusFiles, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';
import { fileSetFor } from './helpers.js';

const dataFiles = corpusFiles('unreal3d', ['_d.3d']);
const dir = mkdtempSync(join(tmpdir(), 'unreal3d-'));
const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);

describe('round trip through a .glb on disk', () => {
  for (const path of dataFiles) {
    it(`${basename(path)} → .glb → files: byte-identical _d.3d and _a.3d, same .uc`, async () => {
      const files = fileSetFor(path);
      const main = basename(path);
      const { document } = await legacyFormat.import(files, { main });
      const glbPath = join(dir, `${main}.glb`);
      writeFileSync(glbPath, await io.writeBinary(document));
      const back = await io.read(glbPath);
      const base = main.replace(/_d\.3d$/, '');
      const { files: out, warnings } = await (legacyFormat.export as NonNullable<typeof legacyFormat.export>)(
        back,
        { name: base },
      );
      expect(warnings).toEqual([]);
      expect(firstByteDiff(out.get(`${base}_d.3d`) as Uint8Array, readBytes(path))).toBe(-1);
      expect(
        firstByteDiff(out.get(`${base}_a.3d`) as Uint8Array, readBytes(path.replace(/_d\.3d$/, '_a.3d'))),
      ).toBe(-1);
      const ucName = [...files.keys()].find((k) => k.toLowerCase() === `${base.toLowerCase()}.uc`);
      if (ucName) {
        // The glTF came from us unchanged: the class file comes back verbatim.
        expect(new TextDecoder().decode(out.get(`${base}.uc`))).toBe(
          readFileSync(path.replace(/_d\.3d$/, '.uc'), 'utf8'),
        );
      }
    });
  }
});

describe('round trip of the other morph encodings (issues 19, 30)', () => {
  const animated = dataFiles.filter((p) => /(MBeaconWeap|Sporifier|SporeProj)_d\.3d$/.test(p));
  it('finds the animated corpus meshes', () => expect(animated.length).toBe(3));
  for (const path of animated) {
    // the default (portable) is the round trip above; compact: true is issue 19's quantized one
    const modes = [{ compact: true }, { compact: true, frameNormals: false }, { frameNormals: false }];
    for (const opts of modes) {
      it(`${basename(path)} ${JSON.stringify(opts)} → .glb → files: byte-identical _a.3d`, async () => {
        const main = basename(path);
        const { document } = await legacyFormat.import(fileSetFor(path), { main, ...opts });
        const back = await io.readBinary(await io.writeBinary(document));
        const base = main.replace(/_d\.3d$/, '');
        const { files: out, warnings } = await (
          legacyFormat.export as NonNullable<typeof legacyFormat.export>
        )(back, { name: base });
        expect(warnings).toEqual([]);
        expect(firstByteDiff(out.get(`${base}_d.3d`) as Uint8Array, readBytes(path))).toBe(-1);
        expect(
          firstByteDiff(out.get(`${base}_a.3d`) as Uint8Array, readBytes(path.replace(/_d\.3d$/, '_a.3d'))),
        ).toBe(-1);
      });
    }
  }
});
