/**
 * Issue 18.2: nothing in the input is silently lost on the way back. An `.animation` whose items
 * name nodes the model lacks (ANIMATION_TARGET_MISSING) keeps them in extras and export writes
 * them back at their places, so model + animation → .glb → model + animation is byte-exact.
 */
import { basename } from 'node:path';
import { KEPT_BYTES, KeptBytesExtension, removeKeptBytes } from '@gltf-legacy/core';
import { NodeIO } from '@gltf-transform/core';
import { corpusFiles, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { encodeFloats } from '../src/arrays.js';
import { keptUnmatchedKeys } from '../src/extras.js';
import {
  exportGrimrock,
  importGrimrock,
  type ModelFile,
  readAnimation,
  writeAnimation,
  writeModel,
} from '../src/index.js';

const corpus = [...corpusFiles('grimrock', ['.model']), ...corpusFiles('grimrock', ['.animation'])];
const bytesOf = (name: string) => readBytes(corpus.find((p) => basename(p) === name)!);

/** Through a .glb, as the CLI does (`json`: the .glb's JSON text). */
async function viaGlb(files: Map<string, Uint8Array>, main: string) {
  const { document, warnings } = importGrimrock(files, { main });
  const io = new NodeIO().registerExtensions([KeptBytesExtension]);
  const glb = await io.writeBinary(document);
  const json = new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer).getUint32(12, true)));
  return { document: await io.readBinary(glb), warnings, json };
}

/**
 * The .glb a writer before kept bytes made (issue 29): the unmatched items' keys as JSON-safe
 * floats in `extras.grimrock.unmatchedItems`, no extension.
 */
async function oldGlb(files: Map<string, Uint8Array>, main: string) {
  const { document } = importGrimrock(files, { main });
  for (const a of document.getRoot().listAnimations()) {
    const ex = a.getExtras().grimrock as { unmatchedItems?: Record<string, unknown>[] };
    ex.unmatchedItems?.forEach((item, k) => {
      const keys = keptUnmatchedKeys(a, k, item as never)!;
      item.positions = encodeFloats(keys.positions);
      item.rotations = encodeFloats(keys.rotations);
      item.scales = encodeFloats(keys.scales);
      delete item.counts;
      removeKeptBytes(a, `unmatched:${k}`);
    });
  }
  const glb = await new NodeIO().writeBinary(document);
  expect(new TextDecoder().decode(glb)).not.toContain(KEPT_BYTES);
  return new NodeIO().registerExtensions([KeptBytesExtension]).readBinary(glb);
}

describe('animation items for nodes the model lacks', () => {
  it('real files: the warrior walk on the snail (26 of 28 items name no snail node) comes back byte for byte', async () => {
    const walk = bytesOf('skeleton_warrior_axe_walk.animation');
    const files = new Map([
      ['snail_red.model', bytesOf('snail_red.model')],
      ['snail_red_walk.animation', walk],
    ]);
    const { document, warnings, json } = await viaGlb(files, 'snail_red.model');
    // issue 29: the 26 items' keys are bytes (kept bytes `unmatched:<k>`), not JSON number arrays
    expect(json).toContain('"unmatched:25"');
    expect(json).not.toMatch(/"positions":\[/);
    const missing = warnings.find((w) => w.code === 'ANIMATION_TARGET_MISSING')!;
    expect(missing.count).toBe(readAnimation(walk).items.length - 2);
    // the glTF animates only the snail's own nodes
    const targets = document
      .getRoot()
      .listAnimations()[0]
      .listChannels()
      .map((c) => c.getTargetNode()!.getName());
    expect([...new Set(targets)].sort()).toEqual(['capsule', 'local_srt']);
    const { files: out, warnings: exportWarnings } = await exportGrimrock(document, { name: 'snail_red' });
    expect(exportWarnings.map((w) => w.code)).not.toContain('ANIMATION_CHANNEL_DROPPED');
    expect(firstByteDiff(out.get('snail_red_walk.animation')!, walk)).toBe(-1);
    expect(firstByteDiff(out.get('snail_red.model')!, bytesOf('snail_red.model'))).toBe(-1);
    // a .glb written before kept bytes (the keys as JSON) still exports byte for byte
    const old = await exportGrimrock(await oldGlb(files, 'snail_red.model'), { name: 'snail_red' });
    expect(old.warnings.map((w) => w.code)).not.toContain('ANIMATION_CHANNEL_DROPPED');
    expect(firstByteDiff(old.files.get('snail_red_walk.animation')!, walk)).toBe(-1);
  });

  it('hand-made LoG2 clip with an Armature helper track first and last: byte-exact; dropped with a warning at another fps', async () => {
    const model: ModelFile = {
      magic: 'MDL1',
      version: 2,
      nodes: ['RootNode', 'lever'].map((name, i) => ({
        name,
        localToParent: Float32Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, i, 0),
        parent: i - 1,
        type: -1,
      })),
    };
    const track = (nodeName: string, y: number) => ({
      nodeName,
      positions: Float32Array.of(0, y, 0, 0, y + 0.5, 0, 0, y + 1, 0),
      rotations: Float32Array.of(0, 0, 0, 1),
      scales: Float32Array.of(1, 1, 1),
    });
    const anim = writeAnimation({
      magic: 'ANIM',
      version: 2,
      name: 'pull',
      framesPerSecond: 24,
      numFrames: 3,
      items: [track('Armature', 5), track('lever', 1), track('Armature_end', -2)],
    });
    const files = new Map([
      ['lever.model', writeModel(model)],
      ['lever_pull.animation', anim],
    ]);
    const { document, warnings } = await viaGlb(files, 'lever.model');
    expect(warnings.find((w) => w.code === 'ANIMATION_TARGET_MISSING')?.count).toBe(2);
    const back = await exportGrimrock(document, { name: 'lever' });
    expect(firstByteDiff(back.files.get('lever_pull.animation')!, anim)).toBe(-1);
    // At another rate the kept file-unit keys no longer fit the clip: left out, said so.
    const other = await exportGrimrock(document, { name: 'lever', fps: 30 });
    const items = readAnimation(other.files.get('lever_pull.animation')!).items.map((i) => i.nodeName);
    expect(items).toEqual(['lever']);
    expect(other.warnings.find((w) => w.code === 'ANIMATION_CHANNEL_DROPPED')?.count).toBe(2);
  });
});
