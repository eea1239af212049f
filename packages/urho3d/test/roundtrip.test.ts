import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { corpusFiles, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';

const mdls = corpusFiles('urho', ['.mdl']);
const anis = corpusFiles('urho', ['.ani']);
const dir = mkdtempSync(join(tmpdir(), 'urho3d-rt-'));
const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);

describe('round trip through a .glb on disk is byte-identical', () => {
  for (const f of mdls) {
    it(basename(f), async () => {
      const main = basename(f);
      const siblings = [...mdls, ...anis].map((x) => basename(x));
      const files = new Map<string, Uint8Array>([[main, readBytes(f)]]);
      for (const c of legacyFormat.companions!(main, siblings)) files.set(c, readBytes(join(f, '..', c)));
      const { document } = await legacyFormat.import(files, { main });
      const path = join(dir, `${main}.glb`);
      writeFileSync(path, await io.writeBinary(document));
      const back = await io.readBinary(new Uint8Array(readFileSync(path)));
      const out = await legacyFormat.export!(back, { name: main.replace(/\.mdl$/, '') });
      expect([...out.files.keys()].sort()).toEqual([...files.keys()].sort());
      for (const [name, bytes] of files) {
        const got = out.files.get(name)!;
        expect(
          firstByteDiff(got, bytes),
          `${name}: first differing byte (of ${bytes.length}, got ${got.length})`,
        ).toBe(-1);
      }
    });
  }
});
