/**
 * Models keep their look: thumbnails of real textured game folders (corpus/textured) are drawn with
 * their skins. Each model is rendered as `preview` renders it (the viewer gathers its resource tree
 * and converts in the page) and, as the reference, the same converted model with every texture
 * removed: a textured thumbnail must differ from that untextured one over much of the model.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { corpusRoot, hasCorpus } from '@gltf-legacy/test-utils';
import { afterAll, describe, expect, test } from 'vitest';
import { addToPool, convertModel, createWebIO, type FilePool } from '../src/convert.js';
import { gatherInput } from '../src/node/files.js';
import { previewFiles } from '../src/node/preview.js';
import { decodePng, haveChromium } from './helpers.js';

const outDir = join(tmpdir(), `gltf-legacy-textured-preview-${process.pid}`);
afterAll(() => rm(outDir, { recursive: true, force: true }));

const T = () => join(corpusRoot(), 'textured');
/** One model per game whose skin ships in the corpus (QBZ95's diffuse, core/textures/common/white.dds, does not). */
const MODELS = () => [
  join(T(), 'unreal3d/MushMatch/Models/Sporifier_d.3d'),
  join(T(), 'grimrock/eob1-waterdeep/mod_assets/plugins/skeleton_warrior_axe/models/rusted_great_axe.model'),
  join(T(), 'urho/Urho3D/bin/Data/Objects/SnowCrate.xml'),
  join(T(), 'tso/FreeSO/TSOClient/FSO.Content.TSO/Content/Avatar/Appearances/woodaxe.5d34f33e0000000c.apr'),
];

/** The model as the page converts it, with every texture removed, as a .glb file. */
async function untexturedGlb(path: string): Promise<string> {
  const pool: FilePool = new Map();
  addToPool(pool, await gatherInput(path));
  const { document } = await convertModel(pool, basename(path));
  let textures = 0;
  for (const t of document.getRoot().listTextures()) {
    t.dispose();
    textures++;
  }
  expect(textures, `${basename(path)} converted without a texture`).toBeGreaterThan(0);
  const out = join(outDir, 'untextured', `${basename(path)}.glb`);
  writeFileSync(out, await createWebIO().writeBinary(document));
  return out;
}

describe.skipIf(!hasCorpus('textured') || !haveChromium())('textured thumbnails', () => {
  test('preview draws each game model with its skin (differs from the untextured render)', async () => {
    mkdirSync(join(outDir, 'untextured'), { recursive: true });
    const models = MODELS();
    const plain = [];
    for (const m of models) plain.push(await untexturedGlb(m));
    const size = 128;
    const textured = await previewFiles(models, { outDir: join(outDir, 'textured'), size });
    const reference = await previewFiles(plain, { outDir: join(outDir, 'plain'), size });
    for (let k = 0; k < models.length; k++) {
      const name = basename(models[k]);
      expect(textured[k].error, `${name}: ${textured[k].error?.message}`).toBeUndefined();
      expect(
        textured[k].warnings.filter((w) => w.code === 'TEXTURE_MISSING'),
        name,
      ).toEqual([]);
      const a = decodePng(new Uint8Array(await readFile(textured[k].outputs[0]))).rgba;
      const b = decodePng(new Uint8Array(await readFile(reference[k].outputs[0]))).rgba;
      const bg = a.slice(0, 3);
      let covered = 0;
      let changed = 0;
      for (let i = 0; i < a.length; i += 4) {
        const onModel = [0, 1, 2].some(
          (c) => Math.abs(a[i + c] - bg[c]) > 12 || Math.abs(b[i + c] - bg[c]) > 12,
        );
        if (!onModel) continue;
        covered++;
        if ([0, 1, 2].some((c) => Math.abs(a[i + c] - b[i + c]) > 16)) changed++;
      }
      expect(covered / (size * size), `${name} fills part of the frame`).toBeGreaterThan(0.02);
      // an untextured material is flat white-grey: the skin changes most of the model's pixels
      expect(changed / covered, `${name}: pixels changed by the texture`).toBeGreaterThan(0.5);
    }
  }, 90_000);
});
