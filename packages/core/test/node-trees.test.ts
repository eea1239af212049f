import { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { assertNodeTrees, ExportError } from '../src/index.js';

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ExportError);
    return (e as ExportError).code;
  }
  return undefined;
}

describe('assertNodeTrees', () => {
  it('accepts a forest (two roots, a chain of 1000 nodes)', () => {
    const doc = new Document();
    let parent = doc.createNode('root');
    for (let i = 0; i < 1000; i++) {
      const n = doc.createNode(`n${i}`);
      parent.addChild(n);
      parent = n;
    }
    doc.createNode('other root').addChild(doc.createNode('leaf'));
    expect(codeOf(() => assertNodeTrees(doc))).toBeUndefined();
  });

  it('rejects a node that is its own child (fuzz: a mutated children index; tso hung, unreal3d overflowed its stack)', () => {
    const doc = new Document();
    const a = doc.createNode('a');
    a.addChild(a);
    expect(codeOf(() => assertNodeTrees(doc))).toBe('NODE_CYCLE');
  });

  it('rejects a cycle through three nodes; a second parent is impossible in a Document', () => {
    const doc = new Document();
    const [a, b, c] = ['a', 'b', 'c'].map((n) => doc.createNode(n));
    a.addChild(b);
    b.addChild(c);
    c.addChild(a);
    expect(codeOf(() => assertNodeTrees(doc))).toBe('NODE_CYCLE');
    const d2 = new Document();
    const [p, q, s] = ['p', 'q', 's'].map((n) => d2.createNode(n));
    p.addChild(s);
    q.addChild(s);
    // glTF-Transform moves a node on addChild (and so on reading a file with two parents)
    expect(p.listChildren()).toEqual([]);
    expect(codeOf(() => assertNodeTrees(d2))).toBeUndefined();
  });
});
