/**
 * Axes (issue 18.3): a model's forward in the game is +Z in the .glb and its up is +Y. UNIGINE is
 * right-handed, Z up, and characters face −Y (../shared/formats/unigine.md §7: actor_00 stands
 * along +Z, toes at lower y than the feet, left hand at +X). Checked on the real actor_00.mesh by
 * its skeleton: the toes are ahead of the feet (forward), the head above the feet (up), the left
 * hand on the character's left (+X for a model facing +Z with +Y up).
 */
import { basename } from 'node:path';
import type { Document } from '@gltf-transform/core';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { importUnigine, readMesh } from '../src/index.js';

function worldOf(document: Document, name: string): number[] {
  const node = document
    .getRoot()
    .listNodes()
    .find((n) => n.getName() === name);
  expect(node, name).toBeDefined();
  const m = node!.getWorldMatrix();
  return [m[12], m[13], m[14]];
}

describe('axes: forward +Z, up +Y', () => {
  const path = corpusFiles('unigine', ['.mesh']).find((f) => basename(f) === 'actor_00.mesh');

  it.runIf(path)('actor_00 faces +Z with its head up +Y and its left hand at +X', () => {
    const bytes = readBytes(path!);
    // in the file: toes at lower y than the feet (facing −Y), Z up
    const mesh = readMesh(bytes, 'actor_00.mesh');
    const fileBone = (n: string) => mesh.bones.findIndex((b) => b.name === n);
    expect(fileBone('Bip01 L Toe0')).toBeGreaterThanOrEqual(0);
    const { document } = importUnigine(new Map([['actor_00.mesh', bytes]]), { main: 'actor_00.mesh' });
    const toe = worldOf(document, 'Bip01 L Toe0');
    const foot = worldOf(document, 'Bip01 L Foot');
    const head = worldOf(document, 'Bip01 Head');
    const left = worldOf(document, 'Bip01 L Hand');
    const right = worldOf(document, 'Bip01 R Hand');
    expect(toe[2] - foot[2], 'toes ahead of the foot along +Z').toBeGreaterThan(0.05);
    expect(head[1] - foot[1], 'head above the foot along +Y').toBeGreaterThan(1);
    expect(left[0] - right[0], 'left hand at +X').toBeGreaterThan(0.2);
    // and the mesh itself stands on y = 0 up to ~1.74 (metres, no unit conversion)
    const pos = document.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!;
    expect(pos.getMin([])[1]).toBeGreaterThan(-0.1);
    expect(pos.getMax([])[1]).toBeLessThan(1.9);
  });
});
