/**
 * Export, nodes: the file order of the glTF nodes (parents first, helper nodes left out, a
 * `RootNode` synthesized for foreign documents) and each node's `localToParent` matrix.
 */
import type { WarningCollector } from '@gltf-legacy/core';
import type { Animation, Document, Node, Scene } from '@gltf-transform/core';
import { decodeFloats } from '../arrays.js';
import { type GrimrockNodeExtras, gx } from '../extras.js';
import { mat4x3ToTRS, trsToMat4x3 } from '../mat.js';

export function close(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++)
    if (!(Math.abs(a[i] - b[i]) <= 1e-6 * Math.max(1, Math.abs(b[i])))) return false;
  return true;
}

export interface Entry {
  node: Node | null;
  parent: number;
}

/**
 * File order of the nodes: for a document imported from Grimrock, the document's node order
 * (parents first) without synthetic helper nodes; otherwise a synthesized `RootNode` followed
 * by a depth-first walk of the scene.
 */
export function orderNodes(doc: Document, scene: Scene, fromGrimrock: boolean): Entry[] {
  const inScene = new Set<Node>();
  scene.traverse((n) => {
    inScene.add(n);
  });
  const synthetic = (n: Node) => !!gx<GrimrockNodeExtras>(n)?.synthetic;
  const parentOf = (n: Node): Node | null => {
    let p = n.getParentNode();
    while (p && synthetic(p)) p = p.getParentNode();
    return p;
  };
  if (fromGrimrock) {
    const list = doc
      .getRoot()
      .listNodes()
      .filter((n) => inScene.has(n) && !synthetic(n));
    const idx = new Map(list.map((n, i) => [n, i]));
    const ok = list.every((n, i) => {
      const p = parentOf(n);
      return !p || (idx.get(p) ?? i) < i;
    });
    const ordered = ok ? list : dfs(scene.listChildren(), synthetic);
    const oi = new Map(ordered.map((n, i) => [n, i]));
    return ordered.map((n) => {
      const p = parentOf(n);
      return { node: n, parent: p ? (oi.get(p) ?? -1) : -1 };
    });
  }
  const ordered = dfs(scene.listChildren(), synthetic);
  const oi = new Map(ordered.map((n, i) => [n, i + 1]));
  return [
    { node: null, parent: -1 },
    ...ordered.map((n) => {
      const p = parentOf(n);
      return { node: n, parent: p ? (oi.get(p) ?? 0) : 0 };
    }),
  ];
}

export function dfs(roots: Node[], skip: (n: Node) => boolean): Node[] {
  const out: Node[] = [];
  const seen = new Set<Node>();
  const visit = (n: Node) => {
    if (seen.has(n)) return;
    seen.add(n);
    if (!skip(n)) out.push(n);
    for (const c of n.listChildren()) visit(c);
  };
  for (const r of roots) visit(r);
  return out;
}

export function identity4x3(): Float32Array {
  return Float32Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
}

/** The node's Mat4x3: the imported matrix when the TRS still matches it, else composed from TRS. */
export function nodeMatrix(node: Node): Float32Array {
  const raw = decodeFloats(gx<GrimrockNodeExtras>(node)?.matrix, 12);
  const t = node.getTranslation();
  const r = node.getRotation();
  const s = node.getScale();
  if (raw) {
    const d = mat4x3ToTRS(raw);
    if (close(t, d.t) && close(r, d.r) && close(s, d.s)) return Float32Array.from(raw);
  }
  return trsToMat4x3(t, r, s);
}

/**
 * The node names written, in entry order: the glTF names (`node_<i>` when empty, `RootNode` for
 * the synthesized root); an animated node that shares its name gets a `_<k>` suffix, since
 * Grimrock animations address nodes by name (`NODE_RENAMED`).
 */
export function nodeNames(entries: Entry[], animations: Animation[], warnings: WarningCollector): string[] {
  const animated = new Set<Node>();
  for (const a of animations)
    for (const c of a.listChannels()) if (c.getTargetNode()) animated.add(c.getTargetNode()!);
  const baseNames = entries.map((e, i) => (e.node ? e.node.getName() || `node_${i}` : 'RootNode'));
  const taken = new Set(baseNames);
  const seen = new Set<string>();
  return entries.map((e, i) => {
    let n = baseNames[i];
    const dup = seen.has(n);
    seen.add(n);
    if (dup && e.node && animated.has(e.node)) {
      let k = 2;
      while (taken.has(`${n}_${k}`)) k++;
      warnings.warn(
        'NODE_RENAMED',
        `animated node "${n}" shares its name with another node; renamed to "${n}_${k}" (Grimrock animations address nodes by name)`,
      );
      n = `${n}_${k}`;
      taken.add(n);
    }
    return n;
  });
}
