import { WarningCollector } from '@gltf-legacy/core';
import { describe, expect, it } from 'vitest';
import { bakeTransforms, bakeTransformsNeeded } from '../src/index.js';
import { docWith } from './helpers.js';

describe('bakeTransforms', () => {
  it('applies a parent translation and a child scale to the vertices and flattens the node', async () => {
    const { document, node, mesh } = docWith([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    const scene = document.getRoot().listScenes()[0];
    const parent = document.createNode('parent').setTranslation([10, 0, 0]);
    scene.removeChild(node);
    scene.addChild(parent);
    parent.addChild(node.setScale([2, 2, 2]));
    const warnings = new WarningCollector();
    expect(bakeTransformsNeeded(document)).toBe(true);
    await document.transform(bakeTransforms({ warnings }));
    expect(node.getParentNode()).toBeNull();
    expect(node.getMatrix()).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const pos = node.getMesh()!.listPrimitives()[0].getAttribute('POSITION')!.getArray()!;
    expect(Array.from(pos)).toEqual([12, 0, 0, 10, 2, 0, 10, 0, 2]);
    expect(node.getMesh()).toBe(mesh);
    expect(warnings.has('TRANSFORMS_BAKED')).toBe(true);
  });

  it('copies a mesh shared by two nodes so each gets its own transform', async () => {
    const { document, node, mesh } = docWith([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const other = document.createNode('other').setMesh(mesh).setTranslation([0, 0, 5]);
    document.getRoot().listScenes()[0].addChild(other);
    await document.transform(bakeTransforms());
    expect(other.getMesh()).not.toBe(node.getMesh());
    const a = node.getMesh()!.listPrimitives()[0].getAttribute('POSITION')!.getArray()!;
    const b = other.getMesh()!.listPrimitives()[0].getAttribute('POSITION')!.getArray()!;
    expect(Array.from(a)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    expect(Array.from(b)).toEqual([0, 0, 5, 1, 0, 5, 0, 1, 5]);
  });

  it('has nothing to do for a flat scene of identity nodes', () => {
    expect(bakeTransformsNeeded(docWith([0, 0, 0, 1, 0, 0, 0, 1, 0]).document)).toBe(false);
  });
});

describe('bakeTransforms with a mirror', () => {
  it('keeps every vertex of a non-indexed primitive (no weld) and flips the winding', async () => {
    // two triangles sharing two identical corner positions: a weld would merge them
    const { document, node } = docWith([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0]);
    node.setScale([-1, 1, 1]);
    await document.transform(bakeTransforms());
    const prim = node.getMesh()!.listPrimitives()[0];
    expect(prim.getAttribute('POSITION')!.getCount()).toBe(6);
    // reversed winding (functions' reversePrimitiveWindingOrder starts each triangle at its last corner)
    expect(Array.from(prim.getIndices()!.getArray()!)).toEqual([2, 1, 0, 5, 4, 3]);
    expect(Array.from(prim.getAttribute('POSITION')!.getArray()!.slice(0, 9))).toEqual([
      0, 0, 0, -1, 0, 0, 0, 1, 0,
    ]);
  });
});
