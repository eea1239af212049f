// Owns the level-of-detail vertex counts `inspect` shows for a document using MSFT_lod: the
// vertices a client without the extension draws (LOD 0) and those of every level.
import type { Document, Mesh, Node } from '@gltf-transform/core';

/** Vertex counts of LOD 0 and of all levels; undefined when no node has `MSFT_lod`. */
export interface LodStats {
  levels: number;
  lod0Vertices: number;
  allLodVertices: number;
}

type LodExtension = { listLods?: () => Node[] };

function meshVertices(mesh: Mesh): number {
  let n = 0;
  for (const p of mesh.listPrimitives()) n += p.getAttribute('POSITION')?.getCount() ?? 0;
  return n;
}

/**
 * Counts the vertices of the meshes reachable from the scenes (LOD 0) and of those plus every
 * node listed by a node's `MSFT_lod` (all levels); each mesh counted once per set.
 *
 * ```ts
 * const lod = lodStats(document); // { levels: 7, lod0Vertices: 5320, allLodVertices: 9876 }
 * ```
 */
export function lodStats(doc: Document): LodStats | undefined {
  const lod0 = new Set<Mesh>();
  const all = new Set<Mesh>();
  let levels = 0;
  const visit = (node: Node, set: Set<Mesh>, seen: Set<Node>, lowerLods: Node[]) => {
    if (seen.has(node)) return;
    seen.add(node);
    const mesh = node.getMesh();
    if (mesh) set.add(mesh);
    const lods = (node.getExtension('MSFT_lod') as LodExtension | null)?.listLods?.() ?? [];
    if (lods.length) {
      levels = Math.max(levels, lods.length + 1);
      lowerLods.push(...lods);
    }
    for (const child of node.listChildren()) visit(child, set, seen, lowerLods);
  };
  const lower: Node[] = [];
  const seen0 = new Set<Node>();
  for (const scene of doc.getRoot().listScenes())
    for (const node of scene.listChildren()) visit(node, lod0, seen0, lower);
  if (!levels) return undefined;
  for (const m of lod0) all.add(m);
  const seenAll = new Set<Node>(seen0);
  for (let i = 0; i < lower.length; i++) {
    const node = lower[i];
    if (seenAll.has(node)) continue;
    visit(node, all, seenAll, lower);
  }
  const sum = (s: Set<Mesh>) => [...s].reduce((n, m) => n + meshVertices(m), 0);
  return { levels, lod0Vertices: sum(lod0), allLodVertices: sum(all) };
}
