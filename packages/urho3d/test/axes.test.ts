// Issue 18.3: Urho3D models face +Z in glTF ("the front of a glTF asset faces +Z") with +Y up.
// How the facing is established: Jack is a Biped rig; a foot's toe bone (Bip01_L_Toe0Nub) lies
// in front of its foot bone (Bip01_L_Foot) — toes point where the character walks — and the head
// (Bip01_HeadNub) lies above the pelvis. A character facing +Z with +Y up in right-handed glTF
// has its left side on +X, so the left foot must also be at a larger x than the right one
// (a mirror on the wrong axis would turn the character round or swap its sides).
import { KeptBytesExtension } from '@gltf-legacy/core';
import { corpusFiles, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { type Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { legacyFormat, MSFTLod, recordedAxes } from '../src/index.js';

const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, MSFTLod, KeptBytesExtension]);
const jackPath = corpusFiles('urho', ['.mdl']).find((f) => f.endsWith('/Jack.mdl'))!;
const jack = readBytes(jackPath);

async function importJack(axes?: string): Promise<Document> {
  const { document } = await legacyFormat.import(new Map([['Jack.mdl', jack]]), { main: 'Jack.mdl', axes });
  return io.readBinary(await io.writeBinary(document)); // what a glTF tool reads
}

function at(doc: Document, bone: string): number[] {
  const node = doc
    .getRoot()
    .listNodes()
    .find((n) => n.getName() === bone)!;
  return [...node.getWorldTranslation()];
}

describe('axes: Urho3D forward (+Z) is glTF forward (+Z), up is +Y', () => {
  it('Jack faces +Z in the .glb: toes in front of the feet, head above the pelvis, left foot on +X', async () => {
    const doc = await importJack();
    const foot = at(doc, 'Bip01_L_Foot');
    const toe = at(doc, 'Bip01_L_Toe0Nub');
    expect(toe[2] - foot[2]).toBeGreaterThan(0.1); // measured 0.19
    expect(at(doc, 'Bip01_HeadNub')[1] - at(doc, 'Bip01_Pelvis')[1]).toBeGreaterThan(0.5); // +Y up
    expect(at(doc, 'Bip01_L_Foot')[0]).toBeGreaterThan(at(doc, 'Bip01_R_Foot')[0]);
    expect(recordedAxes(doc)).toBe('gltf');
  });

  it("axes: 'assetimporter' keeps the Z mirror (the model faces -Z), recorded for export", async () => {
    const doc = await importJack('assetimporter');
    expect(at(doc, 'Bip01_L_Toe0Nub')[2] - at(doc, 'Bip01_L_Foot')[2]).toBeLessThan(-0.1);
    expect(at(doc, 'Bip01_L_Foot')[0]).toBeLessThan(at(doc, 'Bip01_R_Foot')[0]);
    expect(recordedAxes(doc)).toBe('assetimporter');
  });

  for (const axes of [undefined, 'assetimporter']) {
    it(`.mdl → .glb → .mdl is byte-identical with axes ${axes ?? '(default)'}`, async () => {
      const out = await legacyFormat.export!(await importJack(axes), { name: 'Jack' });
      expect(firstByteDiff(out.files.get('Jack.mdl')!, jack)).toBe(-1);
    });
  }

  it('an export option overrides the recorded axes; an unknown value is refused', async () => {
    const doc = await importJack();
    const other = await legacyFormat.export!(doc, { name: 'Jack', axes: 'assetimporter' });
    expect(firstByteDiff(other.files.get('Jack.mdl')!, jack)).not.toBe(-1);
    await expect(legacyFormat.export!(doc, { name: 'Jack', axes: 'z' })).rejects.toThrow(/axes must be/);
  });
});
