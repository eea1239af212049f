import {
  type ExportOptions,
  type FileSet,
  FormatError,
  type ImportOptions,
  type InspectSection,
  type LegacyFormat,
  WarningCollector,
  extName,
  mainFile,
  stem,
} from '@gltf-legacy/core';
import { type TsoAnimation, readAnimation } from './anim.js';
import { exportTso } from './export.js';
import { type TsoImportOptions, importTso } from './import.js';
import { type TsoMesh, readMesh } from './mesh.js';
import { type TsoSkeleton, readSkeleton } from './skel.js';
import { MAX_VERSION, detectTsoKind, readTsoFile } from './sniff.js';

export * from './anim.js';
export * from './export.js';
export * from './import.js';
export * from './mesh.js';
export * from './props.js';
export * from './skel.js';
export * from './sniff.js';
export { TSO_AXES, convertRotations, convertVectors } from './space.js';

/** Options of `legacyFormat.import`: the file set plus an explicit skeleton. */
export interface TsoFormatImportOptions extends ImportOptions, TsoImportOptions {
  /** Skeleton bytes (or a parsed skeleton) to bind the mesh to, instead of a `.skel` in the set. */
  skeleton?: Uint8Array | TsoSkeleton;
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

/** Parses a TSO file set (main + `.skel` / `.anim` companions) and imports it. */
/**
 * A NaN or infinite vertex coordinate has no glTF meaning (glTF accessors hold finite floats):
 * bound to a rotated bone, ∞·0 and ∞−∞ give NaN positions, and JavaScript does not keep NaN bit
 * patterns through the X mirror, so import could not give the same file back: such meshes are
 * rejected (`NAN_VERTEX`). The file model reads them unchanged.
 */
function rejectNonFinite(mesh: TsoMesh, size: number, file: string): void {
  const real = mesh.realVertices;
  const blend = mesh.blendVertices;
  const realAt = size - mesh.trailing.length - 4 * (real.length + blend.length);
  for (const [arr, field, at] of [
    [real, 'realVertices', realAt],
    [blend, 'blendVertices', realAt + 4 * real.length],
  ] as const) {
    for (let i = 0; i < arr.length; i++) {
      // x − x is 0 for finite x, NaN for NaN and ±∞
      if (arr[i] - arr[i] !== 0)
        throw new FormatError(`vertex ${Math.floor(i / 6)} has a non-finite coordinate (${arr[i]})`, {
          code: 'NAN_VERTEX',
          file,
          offset: at + 4 * i,
          field: `${field}[${i}]`,
        });
    }
  }
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

  if (options.skeleton) {
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
    try {
      if (ext === '.skel') skels.push({ name, skel: readSkeleton(bytes, name) });
      else if (ext === '.anim') animations.push({ name: stem(name), animation: readAnimation(bytes, name) });
      else warnings.warn('COMPANION_IGNORED', `"${name}" is not a TSO companion (.skel or .anim); ignored`);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      warnings.warn(
        'COMPANION_IGNORED',
        `"${name}" is not a TSO ${ext.slice(1)} file (${e.detail}); ignored`,
      );
    }
  }
  let chosen: { name: string; skel: TsoSkeleton } | undefined = options.skeleton
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

function inspectFiles(files: FileSet, options: ImportOptions = {}): InspectSection[] {
  const sections: InspectSection[] = [];
  const [mainName] = mainFile(files, options);
  for (const [name, bytes] of files) {
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
  label: 'The Sims Online .mesh / .skel / .anim',
  extensions: ['.mesh', '.skel', '.anim'],
  mainExtension: '.mesh',
  capabilities: { import: true, export: true, skins: true, morphTargets: false, animations: true },
  sniff(bytes: Uint8Array, name: string): boolean {
    return detectTsoKind(bytes, name) !== undefined;
  },
  companions(name: string, siblings: string[]): string[] {
    const self = name.toLowerCase();
    return siblings.filter((s) => {
      const e = extName(s);
      return s.toLowerCase() !== self && (e === '.skel' || e === '.anim');
    });
  },
  async import(files: FileSet, options?: ImportOptions) {
    return importFileSet(files, options as TsoFormatImportOptions);
  },
  async export(document, options?: ExportOptions) {
    return exportTso(document, options);
  },
  inspect: inspectFiles,
};
