import {
  type ExportOptions,
  type FileSet,
  FormatError,
  type ImportOptions,
  type InspectSection,
  type LegacyFormat,
  MemoryResources,
  type ResourceReader,
  WarningCollector,
  extName,
  mainFile,
  resolveReference,
  stem,
} from '@gltf-legacy/core';
import { type TsoAnimation, readAnimation } from './anim.js';
import { exportTso } from './export.js';
import { TSO_LIMITS } from './limits.js';
import { rejectNonFinite } from './finite.js';
import { noteTrailingBytes } from './quirks.js';
import { type TsoImportOptions, importTso } from './import.js';
import { type TsoMesh, readMesh } from './mesh.js';
import { type TsoSkeleton, readSkeleton } from './skel.js';
import { MAX_VERSION, detectTsoKind, readTsoFile, sniffPadded } from './sniff.js';
import {
  TSO_REF_WITH_IDS,
  type TsoFileRef,
  detectOutfitKind,
  hex8,
  parseContentName,
  readAppearance,
  readBinding,
} from './outfit.js';
import { applyMeshBinding, importOutfit } from './outfit-import.js';
import { exportOutfit, isOutfitDocument, type TsoOutfitExportOptions } from './outfit-export.js';
import { outfitRoot } from './outfit-resolve.js';
import { farEntries, isFar, readFar, unpackFar } from './archive/far.js';
import { inspectFar } from './archive/far-inspect.js';
import { farModels } from './archive/far-models.js';
import { packFar } from './archive/far-export.js';
import { TSO_FORMAT_OPTIONS } from './format-options.js';
export { TSO_FORMAT_OPTIONS } from './format-options.js';

export * from './anim.js';
export * from './export.js';
export * from './import.js';
export * from './limits.js';
export { WARNING_CODES } from './warning-codes.js';
export * from './mesh.js';
export * from './props.js';
export * from './skel.js';
export * from './sniff.js';
export * from './outfit.js';
export * from './outfit-import.js';
export * from './outfit-export.js';
export { OUTFIT_FOLDERS, findById, outfitRoot, searchFolders } from './outfit-resolve.js';
export { TSO_AXES, convertRotations, convertVectors } from './space.js';
export * from './archive/index.js';

/** Extensions of the outfit files `legacyFormat.import` accepts as main inputs besides `extensions`. */
export const TSO_OUTFIT_EXTENSIONS = ['.apr', '.bnd'] as const;

/** Options of `legacyFormat.import`: the file set plus an explicit skeleton. */
export interface TsoFormatImportOptions extends ImportOptions, TsoImportOptions {
  /**
   * Skeleton to bind the mesh (or outfit) to, instead of a `.skel` in the set: bytes, a parsed
   * skeleton, or a path relative to the resource root (read through `resources`; a path that
   * names no file is `SKELETON_MISSING`).
   */
  skeleton?: Uint8Array | TsoSkeleton | string;
}

function chooseSkeleton(
  candidates: { name: string; skel: TsoSkeleton }[],
  mesh: TsoMesh | undefined,
  warnings: WarningCollector,
) {
  if (candidates.length <= 1) return candidates[0];
  const score = (s: TsoSkeleton) => {
    const names = new Set(s.bones.map((b) => b.name.toLowerCase()));
    return (mesh?.boneNames ?? []).filter((n) => names.has(n.toLowerCase())).length;
  };
  let best = candidates[0];
  for (const c of candidates) if (score(c.skel) > score(best.skel)) best = c;
  warnings.warn(
    'SKELETON_AMBIGUOUS',
    `${candidates.length} skeletons given; used "${best.name}" (most mesh bones)`,
  );
  return best;
}

/**
 * A `.skel` or `.anim` given beside the main file: parsed (a trailing pad noted, or refused when
 * `strict`), or `COMPANION_IGNORED` when it does not parse.
 */
function readCompanion(
  name: string,
  bytes: Uint8Array,
  options: { strict?: boolean },
  warnings: WarningCollector,
): { skel?: TsoSkeleton; animation?: TsoAnimation } | undefined {
  const ext = extName(name);
  let read: { skel?: TsoSkeleton; animation?: TsoAnimation };
  try {
    read = ext === '.skel' ? { skel: readSkeleton(bytes, name) } : { animation: readAnimation(bytes, name) };
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    warnings.warn('COMPANION_IGNORED', `"${name}" is not a TSO ${ext.slice(1)} file (${e.detail}); ignored`);
    return undefined;
  }
  noteTrailingBytes((read.skel ?? read.animation)?.trailing, bytes.length, name, options, warnings);
  return read;
}

function importFileSet(files: FileSet, options: TsoFormatImportOptions = {}) {
  const warnings = new WarningCollector();
  const [mainName, mainBytes] = mainFile(files, options);
  const found = readTsoFile(mainBytes, mainName);
  const kind = found?.kind;
  if (!kind && mainBytes.length >= 4) {
    const version = new DataView(mainBytes.buffer, mainBytes.byteOffset, mainBytes.byteLength).getUint32(
      0,
      false,
    );
    if (version === 0 || version > MAX_VERSION) {
      throw new FormatError(
        `not a The Sims Online file: the leading big-endian version is ${version} (expected 1–${MAX_VERSION}; Unigine .mesh/.anim start with "ms1x"/"an1x")`,
        { code: 'BAD_VERSION', file: mainName, offset: 0, field: 'version' },
      );
    }
  }
  let mesh: TsoMesh | undefined;
  const skels: { name: string; skel: TsoSkeleton }[] = [];
  const animations: { name: string; animation: TsoAnimation }[] = [];
  const mainExt = extName(mainName);
  // The structural check already parsed the main file: no second read.
  if (found?.kind === 'skel') skels.push({ name: mainName, skel: found.model });
  else if (found?.kind === 'anim') animations.push({ name: stem(mainName), animation: found.model });
  else if (!kind && mainExt === '.skel')
    skels.push({ name: mainName, skel: readSkeleton(mainBytes, mainName) });
  else if (!kind && mainExt === '.anim')
    animations.push({ name: stem(mainName), animation: readAnimation(mainBytes, mainName) });
  else {
    mesh = found?.kind === 'mesh' ? found.model : readMesh(mainBytes, mainName);
    rejectNonFinite(mesh, mainBytes.length, mainName);
  }
  const mainModel = mesh ?? skels[0]?.skel ?? animations[0]?.animation;
  noteTrailingBytes(mainModel?.trailing, mainBytes.length, mainName, options, warnings);

  if (options.skeleton && typeof options.skeleton !== 'string') {
    const s =
      options.skeleton instanceof Uint8Array
        ? readSkeleton(options.skeleton, 'options.skeleton')
        : options.skeleton;
    skels.unshift({ name: 'options.skeleton', skel: s });
  }
  for (const [name, bytes] of files) {
    if (name === mainName) continue;
    const ext = extName(name);
    // The same version gate as for a main file, so whatever import accepts as a companion
    // also imports as the main file (export may write a .skel that becomes the main file).
    const version =
      bytes.length >= 4 ? ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0 : 0;
    if ((ext === '.skel' || ext === '.anim') && (version === 0 || version > MAX_VERSION)) {
      warnings.warn(
        'COMPANION_IGNORED',
        `"${name}" is not a TSO ${ext.slice(1)} file (leading version ${version} is not 1–${MAX_VERSION}); ignored`,
      );
      continue;
    }
    if (ext !== '.skel' && ext !== '.anim') {
      warnings.warn('COMPANION_IGNORED', `"${name}" is not a TSO companion (.skel or .anim); ignored`);
      continue;
    }
    const c = readCompanion(name, bytes, options, warnings);
    if (c?.skel) skels.push({ name, skel: c.skel });
    if (c?.animation) animations.push({ name: stem(name), animation: c.animation });
  }
  let chosen: { name: string; skel: TsoSkeleton } | undefined =
    options.skeleton && typeof options.skeleton !== 'string'
      ? skels[0]
      : chooseSkeleton(skels, mesh, warnings);
  if (chosen && mesh?.boneNames.length) {
    const names = new Set(chosen.skel.bones.map((b) => b.name.toLowerCase()));
    if (!mesh.boneNames.some((n) => names.has(n.toLowerCase()))) {
      warnings.warn(
        'SKELETON_MISMATCH',
        `skeleton "${chosen.name}" has none of the mesh's bones (${mesh.boneNames.join(', ')}); ignored`,
      );
      chosen = undefined;
    }
  }
  const document = importTso(
    { mesh, skeleton: chosen?.skel, animations },
    { ...options, meshName: options.meshName ?? stem(mainName) },
    warnings,
  );
  return { document, warnings: warnings.list() };
}

/**
 * Import entry: an `.apr` / `.bnd` main file imports as an outfit (its meshes and textures found
 * through `options.resources`, else among the given files), anything else as before; a lone
 * `.mesh` whose name carries its id picks up its texture through a sibling `Bindings/` folder.
 */
async function importAny(files: FileSet, options: TsoFormatImportOptions = {}) {
  const [mainName, mainBytes] = mainFile(files, options);
  const warnings = new WarningCollector();
  const resources: ResourceReader = options.resources ?? new MemoryResources(files, 'input files');
  const resourcePath = options.resourcePath ?? mainName;
  let skeleton = options.skeleton;
  if (typeof skeleton === 'string') {
    const path = resolveReference(skeleton, '', { file: 'options.skeleton' });
    const bytes = await resources.read(path);
    if (!bytes) warnings.warn('SKELETON_MISSING', `skeleton "${path}" not found in ${resources.label}`);
    skeleton = bytes;
  }
  const parsed = skeleton instanceof Uint8Array ? readSkeleton(skeleton, 'options.skeleton') : skeleton;
  const ext = extName(mainName);
  const outfitKind =
    ext === '.apr'
      ? 'apr'
      : ext === '.bnd'
        ? 'bnd'
        : ext === '.mesh' || ext === '.skel' || ext === '.anim'
          ? undefined
          : detectOutfitKind(mainBytes, mainName);
  if (outfitKind) {
    // Companions: .anim files become animations, a .skel the skeleton when none is given.
    const animations: { name: string; animation: TsoAnimation }[] = [];
    let skel = parsed;
    for (const [name, bytes] of files) {
      const e = extName(name);
      if (name === mainName || (e !== '.anim' && e !== '.skel')) continue;
      if (e === '.skel' && skel) continue;
      const c = readCompanion(name, bytes, options, warnings);
      if (c?.skel) skel = c.skel;
      if (c?.animation) animations.push({ name: stem(name), animation: c.animation });
    }
    const document = await importOutfit(
      outfitKind,
      mainBytes,
      { ...options, resources, resourcePath, skeleton: skel, animations },
      warnings,
    );
    return { document, warnings: warnings.list() };
  }
  const result = importFileSet(files, { ...options, skeleton: parsed });
  warnings.merge(result.warnings);
  const hasMesh = result.document
    .getRoot()
    .listNodes()
    .some((n) => n.getMesh());
  if (hasMesh && parseContentName(resourcePath))
    await applyMeshBinding(result.document, resources, resourcePath, warnings);
  return { document: result.document, warnings: warnings.list() };
}

const refText = (r: TsoFileRef) =>
  r.kind === TSO_REF_WITH_IDS
    ? `${hex8(r.file!)} type ${hex8(r.type!)} group ${hex8(r.group!)}`
    : `kind ${r.kind}`;

/** The inspect table of an `.apr` or `.bnd`. */
function outfitSection(name: string, bytes: Uint8Array, kind: 'apr' | 'bnd'): InspectSection {
  if (kind === 'bnd') {
    const b = readBinding(bytes, name);
    return {
      title: `${name}: TSO binding`,
      facts: { version: b.version, bone: b.boneName, mesh: refText(b.mesh), texture: refText(b.texture) },
    };
  }
  const a = readAppearance(bytes, name);
  return {
    title: `${name}: TSO appearance`,
    facts: {
      version: a.version,
      thumbnail: `${hex8(a.thumbnailFileId)} type ${hex8(a.thumbnailTypeId)}`,
      bindings: a.bindings.length,
    },
    columns: ['binding file id', 'type id'],
    rows: a.bindings.map((b) => [hex8(b.fileId), hex8(b.typeId)]),
  };
}

function inspectFiles(files: FileSet, options: ImportOptions = {}): InspectSection[] {
  const sections: InspectSection[] = [];
  const [mainName] = mainFile(files, options);
  for (const [name, bytes] of files) {
    if (isFar(bytes)) {
      sections.push(...inspectFar(readFar(bytes, name), name));
      continue;
    }
    const ext = extName(name);
    const outfit = ext === '.apr' || ext === '.bnd' ? (ext.slice(1) as 'apr' | 'bnd') : undefined;
    if (outfit) {
      sections.push(outfitSection(name, bytes, outfit));
      continue;
    }
    const found = readTsoFile(bytes, name);
    const kind = found?.kind ?? (extName(name).slice(1) as 'mesh' | 'skel' | 'anim');
    if (kind === 'mesh') {
      const m = found?.kind === 'mesh' ? found.model : readMesh(bytes, name);
      const min = [Infinity, Infinity, Infinity];
      const max = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < m.realVertices.length; i += 6) {
        for (let c = 0; c < 3; c++) {
          min[c] = Math.min(min[c], m.realVertices[i + c]);
          max[c] = Math.max(max[c], m.realVertices[i + c]);
        }
      }
      sections.push({
        title: `${name}${name === mainName ? ' (main)' : ''}: TSO mesh`,
        facts: {
          version: m.version,
          bones: m.boneNames.length,
          faces: m.indices.length / 3,
          realVertices: m.uvs.length / 2,
          blendVertices: m.blendData.length / 2,
          vertexCount2: m.vertexCount2,
          boundsMin: min.map((v) => v.toFixed(4)).join(', '),
          boundsMax: max.map((v) => v.toFixed(4)).join(', '),
          note: 'vertex bounds are in bone space',
        },
        columns: ['bone', 'firstReal', 'realCount', 'firstBlend', 'blendCount'],
        rows: m.bindings.map((b) => [
          m.boneNames[b.boneIndex] ?? `#${b.boneIndex}`,
          b.firstRealVertex,
          b.realVertexCount,
          b.firstBlendVertex | 0,
          b.blendVertexCount,
        ]),
      });
    } else if (kind === 'skel') {
      const s = found?.kind === 'skel' ? found.model : readSkeleton(bytes, name);
      sections.push({
        title: `${name}: TSO skeleton "${s.name}"`,
        facts: { version: s.version, bones: s.bones.length },
        columns: ['bone', 'parent', 'translation', 'rotation', 'canTranslate', 'canRotate', 'canBlend'],
        rows: s.bones.map((b) => [
          b.name,
          b.parentName,
          Array.from(b.translation, (v) => v.toFixed(4)).join(' '),
          Array.from(b.rotation, (v) => v.toFixed(4)).join(' '),
          b.canTranslate,
          b.canRotate,
          b.canBlend,
        ]),
      });
    } else if (kind === 'anim') {
      const a = found?.kind === 'anim' ? found.model : readAnimation(bytes, name);
      sections.push({
        title: `${name}: TSO animation "${a.name}"`,
        facts: {
          version: a.version,
          duration: a.duration,
          distance: a.distance,
          isMoving: a.isMoving,
          translations: a.translations.length / 3,
          rotations: a.rotations.length / 4,
          motions: a.motions.length,
        },
        columns: ['bone', 'frames', 'duration', 'translation', 'rotation', 'events'],
        rows: a.motions.map((m) => [
          m.boneName,
          m.frameCount,
          m.duration,
          m.hasTranslation,
          m.hasRotation,
          m.timeProps.reduce((s, l) => s + l.length, 0),
        ]),
      });
    }
  }
  return sections;
}

/**
 * The Sims Online format as the CLI registers it.
 *
 * ```ts
 * const { document } = await legacyFormat.import(new Map([['axe.mesh', bytes], ['adult.skel', skel]]), { main: 'axe.mesh' });
 * ```
 */
export const legacyFormat: LegacyFormat = {
  id: 'tso',
  label: 'The Sims Online .mesh / .skel / .anim / .apr / .bnd',
  // `.apr`/`.bnd` are main inputs too (sniffed, imported as outfits, TSO_OUTFIT_EXTENSIONS).
  // FAR archives (`.dat`, `.far`) are containers: converting one converts its outfits.
  extensions: ['.mesh', '.skel', '.anim', '.apr', '.bnd', '.dat', '.far'],
  mainExtension: '.mesh',
  mainExtensions: ['.mesh', ...TSO_OUTFIT_EXTENSIONS],
  capabilities: {
    import: true,
    export: true,
    skins: true,
    morphTargets: false,
    animations: true,
    container: true,
  },
  options: TSO_FORMAT_OPTIONS,
  // an outfit export: its appearance names every binding, mesh and texture
  exportEntry: (files) => [...files.keys()].find((k) => k.toLowerCase().endsWith('.apr')),
  limits: TSO_LIMITS,
  sniff(bytes: Uint8Array, name: string): boolean {
    return (
      isFar(bytes) ||
      detectTsoKind(bytes, name) !== undefined ||
      detectOutfitKind(bytes, name) !== undefined ||
      sniffPadded(bytes, name) !== undefined
    );
  },
  resourceRoot: outfitRoot,
  companions(name: string, siblings: string[]): string[] {
    const self = name.toLowerCase();
    return siblings.filter((s) => {
      const e = extName(s);
      return s.toLowerCase() !== self && (e === '.skel' || e === '.anim');
    });
  },
  async import(files: FileSet, options?: ImportOptions) {
    return importAny(files, options as TsoFormatImportOptions);
  },
  async export(document, options?: ExportOptions) {
    const { far, ...rest } = (options ?? {}) as TsoOutfitExportOptions & {
      far?: boolean | 'none' | 'refpack';
    };
    const o = rest as TsoOutfitExportOptions;
    const out = isOutfitDocument(document, o)
      ? await exportOutfit(document, o)
      : await exportTso(document, rest);
    if (!far) return out;
    // --far [refpack]: every file in one FAR3 archive NAME.dat
    const name = `${String(rest.name ?? 'model').replace(/[^\w.-]+/g, '_')}.dat`;
    return {
      files: packFar(out.files, name, { compression: far === 'refpack' ? 'refpack' : 'none' }),
      warnings: out.warnings,
    };
  },
  inspect: inspectFiles,
  unpack(bytes: Uint8Array, name: string): FileSet {
    return unpackFar(bytes, name);
  },
  containerModels: farModels,
  entries(bytes, name, options) {
    return isFar(bytes) ? farEntries(readFar(bytes, name), name, options) : undefined;
  },
};
