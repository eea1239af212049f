/**
 * Step 3 of the export stage, for formats without a node tree: GPU instances become nodes
 * (`uninstance`), static mesh nodes move to the scene root (`flatten`) and their transforms are
 * applied to their vertices (`clearNodeTransform`), a shared mesh being copied per node — all
 * from `@gltf-transform/functions`. Skinned meshes keep their skeleton; animated nodes are left
 * where they are (the exporter reports what it cannot hold).
 */
import { type Document, Logger, MathUtils, type Node, type Transform, type mat4 } from '@gltf-transform/core';
import type { WarningCollector } from '@gltf-legacy/core';
import { clearNodeTransform, flatten, uninstance } from '@gltf-transform/functions';
import { ensureIndices } from './utils.js';

export interface BakeTransformsOptions {
  /** Receives `TRANSFORMS_BAKED` (count: mesh nodes changed). */
  warnings?: WarningCollector;
}

export const BAKE_TRANSFORMS_DEFAULTS: BakeTransformsOptions = {};

const IDENTITY: mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const INSTANCING = 'EXT_mesh_gpu_instancing';

/** Nodes with a mesh and no skin that are animated (themselves or an ancestor). */
function animatedNodes(document: Document): Set<Node> {
  const out = new Set<Node>();
  for (const anim of document.getRoot().listAnimations())
    for (const ch of anim.listChannels()) {
      const n = ch.getTargetNode();
      if (n) out.add(n);
    }
  return out;
}

function hasAnimatedAncestor(node: Node, animated: Set<Node>): boolean {
  for (let n: Node | null = node; n; n = n.getParentNode()) if (animated.has(n)) return true;
  return false;
}

/** Static mesh nodes whose transform would be baked (world matrix not identity, or nested). */
function staticMeshNodes(document: Document): Node[] {
  const animated = animatedNodes(document);
  return document
    .getRoot()
    .listNodes()
    .filter((n) => n.getMesh() && !n.getSkin() && !hasAnimatedAncestor(n, animated));
}

/** True when the document has GPU instances, or a static mesh node with a transform or a parent. */
export function bakeTransformsNeeded(document: Document): boolean {
  if (
    document
      .getRoot()
      .listExtensionsUsed()
      .some((e) => e.extensionName === INSTANCING)
  )
    return true;
  const meshUsers = new Map<unknown, number>();
  for (const node of staticMeshNodes(document)) {
    if (node.getParentNode() || !MathUtils.eq(node.getMatrix(), IDENTITY)) return true;
    meshUsers.set(node.getMesh(), (meshUsers.get(node.getMesh()) ?? 0) + 1);
  }
  return [...meshUsers.values()].some((n) => n > 1);
}

/**
 * Bakes static mesh nodes' world transforms into their vertices and flattens them to the scene
 * root, so the exporter can read vertices as they appear.
 *
 * ```ts
 * await document.transform(bakeTransforms({ warnings }));
 * ```
 */
export function bakeTransforms(options: Partial<BakeTransformsOptions> = {}): Transform {
  const { warnings } = { ...BAKE_TRANSFORMS_DEFAULTS, ...options };
  return async (document: Document): Promise<void> => {
    // flatten() prunes the emptied parents and logs it; that log line is ours to report, not print.
    const logger = document.getLogger();
    document.setLogger(new Logger(Logger.Verbosity.SILENT));
    try {
      await bakeAll(document, warnings);
    } finally {
      document.setLogger(logger);
    }
  };
}

async function bakeAll(document: Document, warnings: WarningCollector | undefined): Promise<void> {
  if (
    document
      .getRoot()
      .listExtensionsUsed()
      .some((e) => e.extensionName === INSTANCING)
  ) {
    await document.transform(uninstance());
  }
  await document.transform(flatten());
  let baked = 0;
  const seen = new Set<unknown>();
  for (const node of staticMeshNodes(document)) {
    let mesh = node.getMesh()!;
    if (seen.has(mesh)) {
      mesh = mesh.clone();
      node.setMesh(mesh);
    }
    seen.add(mesh);
    if (MathUtils.eq(node.getMatrix(), IDENTITY)) continue;
    // A mirroring transform flips the winding; on a non-indexed primitive that flip would weld.
    for (const prim of mesh.listPrimitives()) ensureIndices(document, prim);
    clearNodeTransform(node);
    baked++;
  }
  warnings?.warn(
    'TRANSFORMS_BAKED',
    'node transforms were applied to the vertices of static meshes (the format has no node tree)',
    Math.max(baked, 1),
  );
}
