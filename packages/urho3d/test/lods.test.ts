// Issue 18.5: a glTF client without MSFT_lod shows LOD 0 only. The lower levels live on nodes
// that no scene contains (the extension's own layout: they are reachable through the LOD 0
// node's MSFT_lod `ids` only), and inspect counts the vertices of LOD 0 and of all levels apart.
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { type Node, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { legacyFormat, type Lod, lodVertexCounts, MSFTLod, readMdl } from '../src/index.js';

const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, MSFTLod]);
const jack = readBytes(corpusFiles('urho', ['.mdl']).find((f) => f.endsWith('/Jack.mdl'))!);

describe('LOD levels', () => {
  it('Jack: the scene draws LOD 0 only; levels 1-6 are reachable through MSFT_lod alone', async () => {
    const { document: imported } = await legacyFormat.import(new Map([['Jack.mdl', jack]]), {
      main: 'Jack.mdl',
    });
    const doc = await io.readBinary(await io.writeBinary(imported));
    const drawn: Node[] = [];
    const visit = (n: Node) => {
      if (n.getMesh()) drawn.push(n);
      for (const c of n.listChildren()) visit(c);
    };
    for (const n of doc.getRoot().getDefaultScene()!.listChildren()) visit(n);
    expect(drawn.map((n) => n.getName())).toEqual(['Jack_mesh']);
    const lod = drawn[0].getExtension<Lod>('MSFT_lod')!;
    const levels = lod.listLods();
    expect(levels.map((n) => n.getName())).toEqual([1, 2, 3, 4, 5, 6].map((l) => `Jack_LOD${l}`));
    for (const n of levels) {
      expect(n.getParentNode()).toBeNull(); // not a child of any scene node
      expect(
        doc
          .getRoot()
          .listScenes()
          .some((s) => s.listChildren().includes(n)),
      ).toBe(false);
    }
    // The drawn mesh holds exactly the LOD 0 vertices inspect reports.
    const counts = lodVertexCounts(readMdl(jack));
    let drawnVertices = 0;
    for (const p of drawn[0].getMesh()!.listPrimitives())
      drawnVertices += new Set(p.getIndices()!.getArray()!).size;
    expect(drawnVertices).toBe(counts.lod0Vertices);
    let all = drawnVertices;
    for (const n of levels)
      for (const p of n.getMesh()!.listPrimitives())
        if (!(p.getExtras() as any)?.urho3d?.fill) all += new Set(p.getIndices()!.getArray()!).size;
    expect(all).toBe(counts.allLodVertices);
  });

  it('inspect reports LOD 0 vertices and all-LOD vertices separately', () => {
    const s = legacyFormat.inspect!(new Map([['Jack.mdl', jack]]), { main: 'Jack.mdl' });
    const facts = s[0].facts as Record<string, number>;
    expect(facts.lod0Vertices).toBeGreaterThan(0);
    expect(facts.allLodVertices).toBeGreaterThan(facts.lod0Vertices);
    // Jack: every level indexes the one vertex buffer (4640 vertices) that LOD 0 uses whole; the first test checks these counts against the glTF meshes
    expect(facts).toMatchObject({ vertices: 4640, lod0Vertices: 4640, allLodVertices: 12196 });
  });
});
