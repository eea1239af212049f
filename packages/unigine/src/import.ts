/**
 * UNIGINE import: the file models (`readMesh`/`readAnim`) → a glTF Document (`toDocument`,
 * `importUnigine`): the skeleton, the surfaces and the animations, in the steps of `import/`.
 */
import {
  FormatError,
  LegacyError,
  type ImportOptions,
  type ImportResult,
  WarningCollector,
  clipNameFromFile,
  extName,
  mainFile,
  stem,
  vertexAnimationEncoding,
} from '@gltf-legacy/core';
import { Document, type Node, type Scene, type Skin } from '@gltf-transform/core';
import { type AnimFile, readAnim } from './anim.js';
import { unigineMagic } from './common.js';
import { type JsonF32, packF32 } from './jsonf32.js';
import { boneWorldMatrices, inverseBindMatrix } from './math.js';
import { type MeshFile, readMesh } from './mesh.js';
import { type AnimFileExtras, keepTrailing, type UnigineRootExtras } from './extras.js';
import { type Ctx, accessor, f32 } from './import/context.js';
import { type SkeletonNodes, addSkeleton, bindPoseFloats } from './import/bones.js';
import { buildPrimitive } from './import/surface.js';
import { blockToAnimation } from './import/animation.js';

/** Options of {@link importUnigine}. */
export interface UnigineImportOptions {
  /**
   * Frames per second of animations. Neither ms11 nor an10 stores a rate (the engine sets the
   * playback speed); 30 matches the 3ds Max exports the samples come from.
   */
  fps: number;
}

export const UNIGINE_IMPORT_DEFAULTS: UnigineImportOptions = { fps: 30 };

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/**
 * Names of the `.anim` siblings of a mesh: `NAME.anim` and `NAME_*.anim` (case-insensitive).
 *
 * ```ts
 * animCompanions('arm.mesh', ['arm.anim', 'arm.mesh', 'leg.anim']); // ['arm.anim']
 * ```
 */
export function animCompanions(name: string, siblings: readonly string[]): string[] {
  const base = stem(name).toLowerCase();
  return siblings.filter((s) => {
    if (extName(s) !== '.anim') return false;
    const st = stem(s).toLowerCase();
    return st === base || st.startsWith(`${base}_`);
  });
}

/**
 * Builds a glTF document from a parsed mesh (optional) and parsed animation files.
 *
 * ```ts
 * const { document } = toDocument(readMesh(bytes, 'arm.mesh'), 'arm.mesh', [{ file: 'arm.anim', anim: readAnim(animBytes) }]);
 * ```
 */
export function toDocument(
  mesh: MeshFile | null,
  meshName: string,
  anims: { file: string; anim: AnimFile }[],
  options: Partial<UnigineImportOptions> & { strict?: boolean; compact?: boolean; float?: boolean } = {},
  warnings = new WarningCollector(),
): ImportResult {
  const fps = options.fps ?? UNIGINE_IMPORT_DEFAULTS.fps;
  if (!(fps > 0) || !Number.isFinite(fps))
    throw new LegacyError('BAD_OPTION', `fps must be a positive number, got ${fps}`);
  const doc = new Document();
  doc.createBuffer();
  const buffer = doc.getRoot().listBuffers()[0];
  const ctx: Ctx = {
    doc,
    buffer,
    warnings,
    fps,
    strict: options.strict === true,
    compact: vertexAnimationEncoding(options).compact,
    shared: new Map(),
  };
  const scene = doc.createScene(stem(meshName));
  doc.getRoot().setDefaultScene(scene);
  const rootExtras: UnigineRootExtras = { animFiles: [] };
  const skeleton: SkeletonNodes = { scene, nodeByName: new Map(), bindByName: new Map() };
  if (mesh) rootExtras.mesh = addMesh(ctx, skeleton, mesh, meshName);
  for (const { file, anim } of anims) {
    // Bones the model lacks become plain nodes, so every track keeps a target.
    if (mesh && !anim.bones.some((b) => mesh.bones.some((m) => m.name === b.name))) {
      warnings.warn(
        'ANIMATION_UNMATCHED',
        `${file} animates none of the bones of ${meshName}; its skeleton was added as separate nodes`,
      );
    }
    rootExtras.animFiles.push(addAnimFile(ctx, skeleton, anim, file, mesh ? stem(meshName) : ''));
  }
  doc.getRoot().setExtras({ unigine: rootExtras });
  return { document: doc, warnings: warnings.list() };
}

/** The mesh: its skeleton, one glTF mesh of its surfaces, the skin, its embedded animations. */
function addMesh(
  ctx: Ctx,
  skeleton: SkeletonNodes,
  mesh: MeshFile,
  meshName: string,
): NonNullable<UnigineRootExtras['mesh']> {
  const { doc, buffer } = ctx;
  const extras: NonNullable<UnigineRootExtras['mesh']> = {
    file: meshName,
    encoding: mesh.encoding,
    bounds: f32(mesh.bounds),
    animationNames: mesh.animationNames,
  };
  // bytes after the closing magic: kept bytes of the root (not hex in extras)
  keepTrailing(doc.getRoot(), meshName, mesh.trailing);
  const boneNodes = addSkeleton(doc, skeleton, mesh.bones, mesh.bindPose, false);
  const gmesh = doc.createMesh(stem(meshName));
  const maxTargets = Math.max(0, ...mesh.surfaces.map((s) => s.targets.length - 1));
  mesh.surfaces.forEach((s, si) => {
    const prim = buildPrimitive(ctx, s, si, mesh.bones.length);
    // glTF needs the same target count on every primitive of a mesh: pad with zero targets.
    const pos = prim.getAttribute('POSITION');
    for (let t = prim.listTargets().length; t < maxTargets; t++) {
      const zero = new Float32Array((pos?.getCount() ?? 0) * 3);
      prim.addTarget(
        doc.createPrimitiveTarget(`pad_${t}`).setAttribute('POSITION', accessor(doc, buffer, 'VEC3', zero)),
      );
    }
    gmesh.addPrimitive(prim);
  });
  if (maxTargets > 0)
    gmesh.setExtras({
      targetNames: mesh.surfaces.find((s) => s.targets.length - 1 === maxTargets)?.targetNames.slice(1) ?? [],
    });
  const meshNode = doc.createNode(stem(meshName)).setMesh(gmesh);
  skeleton.scene.addChild(meshNode);
  if (mesh.bones.length) meshNode.setSkin(addSkin(ctx, skeleton.scene, mesh, boneNodes, stem(meshName)));
  mesh.animations.forEach((block, a) => {
    blockToAnimation(
      ctx,
      block,
      mesh.bones.map((b) => b.name),
      mesh.bindPose,
      skeleton.nodeByName,
      {
        source: 'mesh',
        file: meshName,
        index: a,
        name: mesh.animationNames[a],
        glName: mesh.animationNames[a],
      },
    );
  });
  return extras;
}

/**
 * The skin of the mesh's bones: inverse bind matrices from the bind pose (glTF axes); several
 * root bones are grouped under one plain node (glTF wants one common root).
 */
function addSkin(ctx: Ctx, scene: Scene, mesh: MeshFile, boneNodes: Node[], name: string): Skin {
  const { doc, buffer, warnings } = ctx;
  const world = boneWorldMatrices(
    mesh.bones.map((b) => b.parent),
    (j) => ({
      t: boneNodes[j].getTranslation(),
      r: boneNodes[j].getRotation(),
      s: boneNodes[j].getScale(),
    }),
  );
  const ibm = new Float32Array(mesh.bones.length * 16);
  for (let i = 0; i < mesh.bones.length; i++) {
    const inv = inverseBindMatrix(world[i]);
    if (inv) ibm.set(inv, i * 16);
    else {
      warnings.warn(
        'SINGULAR_BIND_POSE',
        `bone "${mesh.bones[i].name}" has a singular bind pose; identity inverse bind matrix used`,
      );
      ibm.set(IDENTITY, i * 16);
    }
  }
  const skin = doc
    .createSkin(name)
    .setInverseBindMatrices(doc.createAccessor().setType('MAT4').setArray(ibm).setBuffer(buffer));
  for (const n of boneNodes) skin.addJoint(n);
  const roots = mesh.bones
    .map((b, i) => (b.parent < 0 ? boneNodes[i] : null))
    .filter((n): n is Node => n !== null);
  if (roots.length === 1) skin.setSkeleton(roots[0]);
  else if (roots.length > 1) {
    const group = doc.createNode(`${name}_skeleton`).setExtras({ unigine: { skeletonRoot: true } });
    scene.addChild(group);
    for (const r of roots) {
      scene.removeChild(r);
      group.addChild(r);
    }
    skin.setSkeleton(group);
  }
  return skin;
}

/**
 * One `.anim` file: its skeleton (bones the model lacks as plain nodes), its header in extras
 * (bind-pose entries that differ from the nodes'), its blocks as glTF animations named by core's
 * rule (`actor_00_idle.anim` beside `actor_00.mesh` is the clip `idle`).
 */
function addAnimFile(
  ctx: Ctx,
  skeleton: SkeletonNodes,
  anim: AnimFile,
  file: string,
  base: string,
): AnimFileExtras {
  addSkeleton(ctx.doc, skeleton, anim.bones, anim.bindPose, true);
  const overrides: Record<string, JsonF32> = {};
  anim.bones.forEach((b, i) => {
    const mine = bindPoseFloats(anim.bindPose, i);
    const theirs = skeleton.bindByName.get(b.name);
    if (!theirs || theirs.some((v, k) => !Object.is(v, mine[k]))) overrides[String(i)] = packF32(mine);
  });
  const fx: AnimFileExtras = {
    file,
    encoding: anim.encoding,
    bounds: f32(anim.bounds),
    bones: anim.bones.map((b) => [b.name, b.parent]),
    animationNames: anim.animationNames,
  };
  if (Object.keys(overrides).length) fx.bindPoseOverrides = overrides;
  keepTrailing(ctx.doc.getRoot(), file, anim.trailing);
  const suffix = clipNameFromFile(file, base);
  anim.animations.forEach((block, a) => {
    const animName = anim.animationNames[a];
    const glName = anim.animations.length === 1 && suffix !== base ? suffix : `${suffix}/${animName}`;
    blockToAnimation(
      ctx,
      block,
      anim.bones.map((b) => b.name),
      anim.bindPose,
      skeleton.nodeByName,
      { source: 'anim', file, index: a, name: animName, glName },
    );
  });
  return fx;
}

/** The `TRAILING_DATA` warning of a file read with its trailing bytes kept: file, offset, count. */
function warnTrailing(
  model: MeshFile | AnimFile,
  file: string,
  size: number,
  warnings: WarningCollector,
): void {
  const t = model.trailing;
  if (!t) return;
  warnings.warn(
    'TRAILING_DATA',
    `${file}: ${t.length} byte(s) after the closing "${model.magic}" (offset ${size - t.length}) kept in extras; the engine stops reading at the closing magic`,
    t.length,
  );
}

/**
 * Imports a UNIGINE `.mesh` (ms11) with its `.anim` (an10) companions, or a lone `.anim`, into a
 * glTF-Transform Document.
 *
 * ```ts
 * const files = new Map([['actor_00.mesh', meshBytes], ['actor_00_idle.anim', idleBytes]]);
 * const { document, warnings } = importUnigine(files, { main: 'actor_00.mesh', fps: 30 });
 * ```
 */
export function importUnigine(
  files: Map<string, Uint8Array>,
  options: ImportOptions & Partial<UnigineImportOptions> = {},
): ImportResult {
  const warnings = new WarningCollector();
  const [name, bytes] = mainFile(files, options);
  const kind = unigineMagic(bytes)?.kind;
  // Quirks the engine tolerates are read with a warning unless `strict` (README, "Quirks").
  const read = { keepTrailing: options.strict !== true };
  const anims: { file: string; anim: AnimFile }[] = [];
  let mesh: MeshFile | null = null;
  if (kind === 'anim') {
    const anim = readAnim(bytes, name, read);
    warnTrailing(anim, name, bytes.length, warnings);
    anims.push({ file: name, anim });
  } else {
    mesh = readMesh(bytes, name, read);
    warnTrailing(mesh, name, bytes.length, warnings);
  }
  for (const [file, b] of files) {
    if (file === name) continue;
    if (extName(file) !== '.anim' || unigineMagic(b)?.kind !== 'anim') {
      warnings.warn('COMPANION_IGNORED', `${file} is not a UNIGINE .anim file; ignored`);
      continue;
    }
    try {
      const anim = readAnim(b, file, read);
      warnTrailing(anim, file, b.length, warnings);
      anims.push({ file, anim });
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      warnings.warn('COMPANION_IGNORED', `${file} could not be read (${e.code}: ${e.detail}); ignored`);
    }
  }
  anims.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return toDocument(
    mesh,
    name,
    anims,
    {
      fps: options.fps === undefined ? undefined : Number(options.fps),
      strict: options.strict === true,
      compact: options.compact === true,
      float: options.float === true,
    },
    warnings,
  );
}
