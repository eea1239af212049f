/**
 * The TSO exporter: a glTF Document to `.mesh`, `.skel` and `.anim` files. The steps live in
 * `export/` (bones, geometry, bindings, mesh extras, skeleton, animation).
 */
import {
  ExportError,
  type FileSet,
  type Warning,
  WarningCollector,
  assertNodeTrees,
} from '@gltf-legacy/core';
import type { Document, Mesh, Node, Primitive, Skin } from '@gltf-transform/core';
import { mat4, quat, vec3 } from 'gl-matrix';
import { writeAnimation } from './anim.js';
import { type TsoMesh, writeMesh } from './mesh.js';
import { writeSkeleton } from './skel.js';
import { inv, mat, mul, trMatrix } from './space.js';

import { type BoneInfo, isTsoGroup, nodeWorld, uniqueName } from './export/common.js';
import { exportMesh, hasInfluences, storable } from './export/geometry.js';
import { exportSkeleton } from './export/skeleton.js';
import { exportAnimation } from './export/animation.js';
import { TSO_EXPORT_DEFAULTS, type TsoExportOptions } from './export/options.js';

export { TSO_EXPORT_DEFAULTS, type TsoExportOptions } from './export/options.js';
export { MAX_FRAMES } from './export/animation.js';
export { twoInfluences } from './export/geometry.js';

/**
 * Converts a glTF Document to TSO files: one `.mesh` with every triangle primitive (each vertex
 * a real vertex of its strongest joint, a second joint a blend vertex), a `.skel` from the
 * joints, and one `.anim` per animation.
 *
 * ```ts
 * const { files, warnings } = exportTso(doc, { name: 'axe' }); // axe.mesh, axe.skel, …
 * ```
 */
export function exportTso(
  doc: Document,
  options: TsoExportOptions = {},
): { files: FileSet; warnings: Warning[] } {
  assertNodeTrees(doc);
  const o = { ...TSO_EXPORT_DEFAULTS, ...(options as Partial<typeof TSO_EXPORT_DEFAULTS>) };
  const warnings = new WarningCollector();
  const root = doc.getRoot();
  const files: FileSet = new Map();

  for (const n of root.listNodes())
    for (const p of n.getMesh()?.listPrimitives() ?? [])
      if (p.getMode() < 4)
        warnings.warn('PRIMITIVE_DROPPED', 'points and lines cannot be stored in a TSO mesh; dropped');

  // ---- which nodes become bones
  // Only nodes with a primitive TSO can store (triangles with vertices) carry mesh data.
  const meshNodes = root.listNodes().filter((n) => n.getMesh()?.listPrimitives().some(storable));
  const boneNodes: Node[] = [];
  const boneIndex = new Map<Node, number>();
  const addBone = (n: Node) => {
    if (!boneIndex.has(n)) {
      boneIndex.set(n, boneNodes.length);
      boneNodes.push(n);
    }
  };
  for (const n of meshNodes) {
    const skin = n.getSkin();
    if (skin) for (const j of skin.listJoints()) addBone(j);
    // A primitive without JOINTS_0/WEIGHTS_0 (even on a skinned node) is rigid on its node.
    if (
      !skin ||
      n
        .getMesh()!
        .listPrimitives()
        .some((p) => storable(p) && !hasInfluences(p))
    )
      addBone(n);
  }
  // Bones of an imported TSO skeleton (even when no mesh uses them, e.g. a .skel converted alone).
  for (const n of root.listNodes()) {
    const x = n.getExtras()?.tso as { canTranslate?: unknown } | undefined;
    if (x && x.canTranslate !== undefined) addBone(n);
  }
  for (const a of root.listAnimations())
    for (const c of a.listChannels()) {
      const t = c.getTargetNode();
      if (t && (c.getTargetPath() === 'translation' || c.getTargetPath() === 'rotation')) addBone(t);
    }
  if (!boneNodes.length)
    throw new ExportError(
      'NOTHING_TO_EXPORT',
      'the document has no mesh, skin or animated node to write as TSO files',
    );

  // ---- bone hierarchy and rest frames
  const used = new Set<string>();
  const bones: BoneInfo[] = boneNodes.map((node, i) => ({
    node,
    name: uniqueName(node.getName(), used, `bone${i}`),
    parent: -1,
    t: [0, 0, 0],
    r: [0, 0, 0, 1],
    world: mat(),
    baked: false,
  }));
  for (const b of bones) {
    for (let p = b.node.getParentNode(); p; p = p.getParentNode()) {
      const k = boneIndex.get(p);
      if (k !== undefined) {
        b.parent = k;
        break;
      }
    }
  }
  // Parents before children.
  const order: number[] = [];
  const placed = new Uint8Array(bones.length);
  const place = (i: number) => {
    if (placed[i]) return;
    placed[i] = 1;
    if (bones[i].parent >= 0) place(bones[i].parent);
    order.push(i);
  };
  for (let i = 0; i < bones.length; i++) place(i);
  let scaled = 0;
  for (const i of order) {
    const b = bones[i];
    const s = b.node.getScale();
    const unit = Math.abs(s[0] - 1) < 1e-6 && Math.abs(s[1] - 1) < 1e-6 && Math.abs(s[2] - 1) < 1e-6;
    const parentNode = b.node.getParentNode();
    const direct =
      b.parent >= 0 ? parentNode === bones[b.parent].node : !parentNode || isTsoGroup(parentNode);
    const parentWorld = b.parent >= 0 ? bones[b.parent].world : mat();
    if (direct && unit) {
      b.t = [...b.node.getTranslation()];
      b.r = [...b.node.getRotation()];
    } else {
      b.baked = true;
      const rel = mul(inv(parentWorld), nodeWorld(b.node));
      const t = vec3.create();
      const r = quat.create();
      const sc = vec3.create();
      mat4.getTranslation(t, rel);
      mat4.getScaling(sc, rel);
      mat4.getRotation(r, rel);
      quat.normalize(r, r);
      b.t = [t[0], t[1], t[2]];
      b.r = [r[0], r[1], r[2], r[3]];
      if (Math.abs(sc[0] - 1) > 1e-4 || Math.abs(sc[1] - 1) > 1e-4 || Math.abs(sc[2] - 1) > 1e-4) scaled++;
    }
    b.world = mul(parentWorld, trMatrix(b.t, b.r));
  }
  warnings.warn(
    'BONE_SCALE_DROPPED',
    'TSO bones have no scale: scaled nodes became unscaled bones (geometry is baked at rest)',
    scaled,
  );
  const boneInv = bones.map((b) => inv(b.world));

  // ---- mesh
  const written = options.meshNodes ? meshNodes.filter((n) => options.meshNodes!.includes(n)) : meshNodes;
  const meshes = written.map((n) => n.getMesh()!);
  const prims: { node: Node; mesh: Mesh; prim: Primitive }[] = [];
  for (let i = 0; i < written.length; i++)
    for (const prim of meshes[i].listPrimitives()) prims.push({ node: written[i], mesh: meshes[i], prim });
  const skins = meshNodes.map((n) => n.getSkin()).filter((s): s is Skin => !!s);
  const tsoOf = (x: { getExtras(): Record<string, unknown> }) =>
    (x.getExtras()?.tso ?? undefined) as Record<string, any> | undefined;
  const placeholder = skins.some((s) => tsoOf(s)?.noSkeleton);
  const writeSkel = o.skeleton === 'always' || (o.skeleton === 'auto' && !placeholder);
  let meshModel: TsoMesh | undefined;
  if (prims.length) {
    meshModel = exportMesh(prims, bones, boneIndex, boneInv, o, warnings);
    files.set(`${o.name}.mesh`, writeMesh(meshModel));
  }

  // ---- skeleton
  if (writeSkel) {
    const info =
      skins.map((s) => tsoOf(s)?.skeleton).find((x) => x) ??
      bones.map((b) => tsoOf(b.node)?.skeleton).find((x) => x);
    files.set(`${o.name}.skel`, writeSkeleton(exportSkeleton(bones, order, info, o.name, warnings)));
  }

  // ---- animations
  const animNames = new Set<string>();
  for (const a of options.animations === false ? [] : root.listAnimations()) {
    const { anim, file } = exportAnimation(a, bones, boneIndex, o, warnings);
    if (!anim.motions.length) {
      warnings.warn(
        'ANIMATION_DROPPED',
        `animation "${a.getName()}" moves no bone (only scale or morph weights); not written`,
      );
      continue;
    }
    const base = file ?? `${o.name}-${(anim.name || 'anim').replace(/[^A-Za-z0-9_.-]+/g, '_')}`;
    let name = `${base}.anim`;
    for (let k = 2; animNames.has(name.toLowerCase()); k++) name = `${base}_${k}.anim`;
    animNames.add(name.toLowerCase());
    files.set(name, writeAnimation(anim));
  }
  for (const n of root.listNodes())
    if (n.getCamera()) warnings.warn('CAMERA_DROPPED', 'TSO files hold no cameras; dropped');
  if (root.listTextures().length && !options.texturesWritten)
    warnings.warn(
      'TEXTURE_DROPPED',
      'TSO meshes reference textures through .bnd/.apr files; textures not written',
    );
  return { files, warnings: warnings.list() };
}
