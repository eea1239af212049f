/**
 * @gltf-legacy/unigine — UNIGINE ms11 `.mesh` and an10 `.anim` ⇄ glTF 2.0.
 *
 * ```ts
 * import { legacyFormat } from '@gltf-legacy/unigine';
 * const { document } = await legacyFormat.import(new Map([['arm.mesh', bytes], ['arm.anim', anim]]), { main: 'arm.mesh' });
 * ```
 */
import {
  type FileSet,
  type ImportOptions,
  type InspectSection,
  type LegacyFormat,
  extName,
  mainFile,
} from '@gltf-legacy/core';
import { readAnim } from './anim.js';
import { unigineMagic } from './common.js';
import { UNIGINE_EXPORT_DEFAULTS, exportUnigine } from './export.js';
import { animationLimits } from './export/animation.js';
import { UNIGINE_LIMITS } from './limits.js';
import { animCompanions, importUnigine } from './import.js';
import { type UnigineMaterialExportOptions, exportUnigineMaterials } from './mat-export.js';
import { applyUnigineMaterials, unigineResourceRoot } from './mat-import.js';
import {
  type MaterialLibrary,
  attribute,
  libraryMaterials,
  libraryVersion,
  materialEntries,
  readMaterialLibrary,
} from './mat.js';
import type { MatElement } from './mat-xml.js';
import { readMesh } from './mesh.js';

export { type AnimFile, readAnim, writeAnim } from './anim.js';
export { GLTF_TO_UNIGINE, UNIGINE_TO_GLTF } from './axes.js';
export {
  type AnimationBlock,
  FLAG_POS,
  FLAG_POS_X,
  FLAG_POS_Y,
  FLAG_POS_Z,
  FLAG_ROT,
  FLAG_SCALE,
  FLAG_SCALE_X,
  FLAG_SCALE_Y,
  FLAG_SCALE_Z,
} from './block.js';
export { ANIM_MAGIC, MESH_MAGIC, type TextEncoding, type UnigineBone, unigineMagic } from './common.js';
export {
  UNIGINE_EXPORT_DEFAULTS,
  type UnigineExportOptions,
  type UnigineExportResult,
  exportUnigine,
} from './export.js';
export { MAX_BLOCK_ENTRIES, keysOnFrames, sampleFrames } from './export/frames.js';
export { encodeTangentFrames } from './export/tangents.js';
export {
  ATTR_COORD,
  ATTR_TBN,
  ATTR_TRI,
  ATTR_WBONES,
  ATTR_WCOUNT,
  ATTR_WVALUES,
  type AnimFileExtras,
  type UnigineAnimationExtras,
  type UnigineRootExtras,
  type UnigineSurfaceExtras,
} from './extras.js';
export {
  UNIGINE_IMPORT_DEFAULTS,
  type UnigineImportOptions,
  animCompanions,
  importUnigine,
  toDocument,
} from './import.js';
export { UNIGINE_DEFAULT_FPS, UNIGINE_LIMITS } from './limits.js';
export { WARNING_CODES } from './warning-codes.js';
export { READ_DEFAULTS, type ReadOptions } from './sections.js';
export { INT2_MAX, decodeInt2, encodeInt2, int2Size } from './int2.js';
export { type JsonF32, packF32, unpackF32 } from './jsonf32.js';
export { type MeshFile, type MeshSurface, indexWidth, readMesh, writeMesh } from './mesh.js';
export {
  type MaterialEntries,
  type MaterialLibrary,
  MAX_MATERIAL_LIBRARY_CHARS,
  addMaterial,
  attribute,
  createMaterialElement,
  createMaterialLibrary,
  findEntry,
  libraryMaterials,
  libraryVersion,
  materialEntries,
  readMaterialLibrary,
  setAttribute,
  setEntry,
  writeMaterialLibrary,
} from './mat.js';
export {
  MAT_XML_LIMITS,
  type MatAttribute,
  type MatElement,
  type MatElementSource,
  type MatXmlLimits,
  isUnchanged,
  parseMatXml,
  writeMatElement,
} from './mat-xml.js';
export {
  type LoadedLibrary,
  MAX_MATERIAL_DEPTH,
  MaterialIndex,
  type MaterialDefinitionRef,
  type ResolvedEntry,
  type ResolvedMaterial,
  activeEntry,
  isActive,
  parameterNumbers,
  resolveMaterial,
} from './mat-resolve.js';
export {
  UNIGINE_MATERIAL_DEFAULTS,
  type UnigineMaterialExtras,
  type UnigineMaterialOptions,
  applyUnigineMaterials,
  isCoreLibrary,
  unigineResourceRoot,
} from './mat-import.js';
export {
  UNIGINE_MATERIAL_EXPORT_DEFAULTS,
  type UnigineMaterialExportOptions,
  exportUnigineMaterials,
} from './mat-export.js';
import { UNIGINE_FORMAT_OPTIONS } from './format-options.js';
export { UNIGINE_FORMAT_OPTIONS } from './format-options.js';
export { describeMaterial } from './mat-describe.js';

/** Extensions of files given beside a mesh that belong to its look (material libraries, textures). */
const LOOK_FILES = new Set(['.mat', '.dds', '.png', '.tga', '.jpg', '.jpeg', '.bmp', '.pcx']);

const round = (v: number) => Number(v.toPrecision(6));
const boundsText = (b: Float32Array) =>
  `min (${[b[0], b[1], b[2]].map(round).join(', ')}) max (${[b[3], b[4], b[5]].map(round).join(', ')}) sphere (${[b[6], b[7], b[8]].map(round).join(', ')}) r ${round(b[9])}`;

/**
 * Facts about a `.mat` library: version, and per material its parent, states, parameters and
 * textures as the material itself sets them (before inheritance).
 *
 * ```ts
 * inspectMaterialLibrary(readMaterialLibrary(text, 'qbz95.mat')).rows?.[0]; // ['qbz95_03_base', 'mesh_pbr_base', '', '', '']
 * ```
 */
export function inspectMaterialLibrary(lib: MaterialLibrary): InspectSection {
  const list = (m: Map<string, MatElement>) =>
    [...m].map(([k, e]) => `${k}=${(e.text ?? '').trim()}`).join('; ');
  const materials = libraryMaterials(lib);
  return {
    title: `${lib.name} (material library)`,
    facts: { version: libraryVersion(lib) ?? 'none', materials: materials.length },
    columns: ['material', 'parent', 'states', 'parameters', 'textures'],
    rows: materials.map((m) => {
      const e = materialEntries(m);
      return [
        attribute(m, 'name') ?? '',
        attribute(m, 'parent') ?? '',
        list(e.states),
        list(e.parameters),
        list(e.textures),
      ];
    }),
  };
}

/**
 * Facts about UNIGINE files (file model, not glTF): version, counts, names, bounds.
 *
 * ```ts
 * inspectUnigine(new Map([['box.mesh', bytes]])); // [{ title: 'box.mesh (ms11 mesh)', facts: {...}, ... }]
 * ```
 */
export function inspectUnigine(files: FileSet, options: ImportOptions = {}): InspectSection[] {
  const [main] = mainFile(files, options);
  const sections: InspectSection[] = [];
  const names = [main, ...[...files.keys()].filter((f) => f !== main)];
  for (const name of names) {
    const bytes = files.get(name) as Uint8Array;
    const kind = unigineMagic(bytes)?.kind;
    if (extName(name) === '.mat') {
      sections.push(inspectMaterialLibrary(readMaterialLibrary(bytes, name)));
    } else if (kind === 'anim') {
      const a = readAnim(bytes, name);
      sections.push({
        title: `${name} (an10 animation)`,
        facts: {
          version: a.magic,
          bones: a.bones.length,
          animations: a.animations.length,
          encoding: a.encoding,
          bounds: boundsText(a.bounds),
        },
        columns: ['animation', 'animated bones', 'frames', 'component mask', 'position box', 'scale box'],
        rows: a.animations.map((b, i) => [
          a.animationNames[i],
          b.bones.length,
          b.numFrames,
          `0x${b.componentMask.toString(16)}`,
          b.boxes ? Array.from(b.boxes.subarray(0, 6), round).join(' ') : '',
          b.boxes ? Array.from(b.boxes.subarray(6, 12), round).join(' ') : '',
        ]),
      });
    } else {
      const m = readMesh(bytes, name);
      sections.push({
        title: `${name} (ms11 mesh)`,
        facts: {
          version: m.magic,
          surfaces: m.surfaces.length,
          bones: m.bones.length,
          embeddedAnimations: m.animationNames.join(', ') || 'none',
          encoding: m.encoding,
          bounds: boundsText(m.bounds),
        },
        columns: [
          'surface',
          'coordinate vertices',
          'triangle vertices',
          'triangles',
          'weights',
          'uv0',
          'uv1',
          'colours',
          'targets',
          'bounds',
        ],
        rows: m.surfaces.map((s) => [
          s.name,
          s.targets[0].length / 3,
          s.tangents.length / 4,
          s.triIndices.length / 3,
          s.weightCounts.length,
          s.uv0.length / 2,
          s.uv1.length / 2,
          s.colors.length / 4,
          s.targetNames.length,
          boundsText(s.bounds),
        ]),
      });
      if (m.bones.length) {
        sections.push({
          title: `${name} bones`,
          columns: ['index', 'name', 'parent'],
          rows: m.bones.map((b, i) => [i, b.name, b.parent]),
        });
      }
    }
  }
  return sections;
}

/** The UNIGINE format as the CLI registers it. */
export const legacyFormat: LegacyFormat = {
  id: 'unigine',
  label: 'UNIGINE mesh (ms11) + animation (an10)',
  extensions: ['.mesh', '.anim'],
  mainExtension: '.mesh',
  capabilities: { import: true, export: true, skins: true, morphTargets: true, animations: true },
  options: UNIGINE_FORMAT_OPTIONS,
  limits: UNIGINE_LIMITS,
  exportLimits: (document, options) => ({
    ...UNIGINE_LIMITS,
    animation: animationLimits(document, Number(options?.fps ?? UNIGINE_EXPORT_DEFAULTS.fps)),
  }),
  /** By magic: `ms11`/`an10`, and the other UNIGINE versions so they get an UNSUPPORTED_VERSION error. */
  sniff(bytes: Uint8Array): boolean {
    return unigineMagic(bytes) !== null;
  },
  companions(name: string, siblings: string[]): string[] {
    if (extName(name) !== '.mesh') return [];
    return animCompanions(
      name,
      siblings.filter((s) => s !== name),
    );
  },
  resourceRoot(path: string): string {
    return unigineResourceRoot(path);
  },
  async import(files, options) {
    const opts = options ?? {};
    const main = opts.main ?? files.keys().next().value;
    const model = new Map<string, Uint8Array>();
    const look = new Map<string, Uint8Array>();
    for (const [k, v] of files) (k !== main && LOOK_FILES.has(extName(k)) ? look : model).set(k, v);
    const result = importUnigine(model, opts);
    const mat = await applyUnigineMaterials(result.document, opts, look);
    return { document: result.document, warnings: [...result.warnings, ...mat.list()] };
  },
  async export(document, options) {
    const opts = options ?? {};
    const never = opts.materialLibrary === 'never';
    const r = await exportUnigine(document, { ...opts, materials: !never });
    if (!r.mesh || never) return { files: r.files, warnings: r.warnings };
    const name =
      r.files
        .keys()
        .next()
        .value?.replace(/\.mesh$/i, '') ?? 'model';
    const mats = await exportUnigineMaterials(
      name,
      r.mesh.surfaces.map((s, i) => [s.name, r.surfaceMaterials[i] ?? null]),
      opts as Partial<UnigineMaterialExportOptions>,
    );
    const files = new Map(r.files);
    for (const [k, v] of mats.files) if (!files.has(k)) files.set(k, v);
    return { files, warnings: [...r.warnings, ...mats.warnings.list()] };
  },
  inspect(files, options) {
    return inspectUnigine(files, options ?? {});
  },
};
