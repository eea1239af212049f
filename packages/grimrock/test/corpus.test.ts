import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { corpusFiles, firstByteDiff, readBytes, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  exportGrimrock,
  grimrockCompanions,
  importGrimrock,
  readAnimation,
  readModel,
  writeAnimation,
  writeModel,
} from '../src/index.js';

const models = corpusFiles('grimrock', ['.model']);
const animations = corpusFiles('grimrock', ['.animation']);
const allNames = [...models, ...animations].map((p) => basename(p));

function fileSet(modelPath: string): Map<string, Uint8Array> {
  const name = basename(modelPath);
  const files = new Map([[name, readBytes(modelPath)]]);
  for (const c of grimrockCompanions(name, allNames)) {
    files.set(c, readBytes(animations.find((p) => basename(p) === c)!));
  }
  return files;
}

describe('corpus: file model', () => {
  it('has the 21 corpus files', () => {
    expect(models.length + animations.length).toBe(21);
  });
  for (const path of models) {
    it(`${basename(path)} parses and writes back byte-identical`, () => {
      const bytes = readBytes(path);
      const model = readModel(bytes, basename(path));
      expect(model.version).toBe(2);
      expect(firstByteDiff(writeModel(model), bytes)).toBe(-1);
    });
  }
  for (const path of animations) {
    it(`${basename(path)} parses and writes back byte-identical`, () => {
      const bytes = readBytes(path);
      const anim = readAnimation(bytes, basename(path));
      expect(anim.version).toBe(basename(path).startsWith('log2_') ? 2 : 1);
      expect(firstByteDiff(writeAnimation(anim), bytes)).toBe(-1);
    });
  }
});

describe('corpus: import → glb validates, → glb on disk → export is byte-identical', () => {
  const dir = mkdtempSync(join(tmpdir(), 'grimrock-'));
  const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
  for (const path of models) {
    const name = basename(path);
    it(`${name}`, async () => {
      const files = fileSet(path);
      const { document } = importGrimrock(files, { main: name });
      const glb = await io.writeBinary(document);
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      const file = join(dir, name.replace(/\.model$/, '.glb'));
      writeFileSync(file, glb);
      const back = await io.read(file);
      const { files: out } = exportGrimrock(back, { name: name.replace(/\.model$/, '') });
      expect([...out.keys()].sort()).toEqual([...files.keys()].sort());
      for (const [n, bytes] of files) expect(firstByteDiff(out.get(n)!, bytes), n).toBe(-1);
    });
  }
});
