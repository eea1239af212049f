/**
 * @gltf-legacy/grimrock — Legend of Grimrock 1/2 `.model` (MDL1) and `.animation` (ANIM v1/v2)
 * to glTF 2.0 and back.
 */
import {
  baseName,
  type FileSet,
  FormatError,
  type ImportOptions,
  type InspectSection,
  type LegacyFormat,
  mainFile,
  resolveReference,
  stem,
  type Warning,
  WarningCollector,
  KeptBytesExtension,
} from '@gltf-legacy/core';
import type { Document } from '@gltf-transform/core';
import { KHRMaterialsSpecular, KHRMaterialsUnlit } from '@gltf-transform/extensions';
import { isAnimation, readAnimation } from './animation.js';
import { type AnimationLinkOptions, findLinkedAnimations, type LinkedAnimation } from './animation-links.js';
import { archiveFiles, readGrimrockArchive } from './archive/archive.js';
import { grimrockArchiveEntries } from './archive/entries.js';
import { inspectArchive } from './archive/inspect.js';
import { isArchive } from './archive/table.js';
import { exportGrimrock, type GrimrockExportOptions } from './export.js';
import { importGrimrock } from './import.js';
import { grimrockModRoot } from './material-discovery.js';
import { exportGrimrockMaterials } from './material-export.js';
import { type GrimrockMaterialImportOptions, importGrimrockMaterials } from './material-import.js';
import { GRIMROCK_LIMITS } from './limits.js';
import { isModel, readModel, VERTEX_ARRAY_NAMES } from './model.js';
import { GRIMROCK_FORMAT_OPTIONS } from './format-options.js';
export { GRIMROCK_FORMAT_OPTIONS } from './format-options.js';

export * from './animation.js';
export * from './animation-links.js';
export * from './lua-objects.js';
export * from './archive/index.js';
export { AXES, defaultLayout, type Layout, rawAttributeName } from './arrays.js';
export * from './export.js';
export * from './import.js';
export { gltfToMat4x3, mat4x3ToGltf, mat4x3ToTRS, trsToMat4x3 } from './mat.js';
export * from './model.js';
export * from './limits.js';
export * from './lua-values.js';
export * from './warning-codes.js';
export * from './lua-materials.js';
export * from './material-mapping.js';
export * from './material-discovery.js';
export * from './material-import.js';
export * from './material-export.js';

/**
 * Imports a model with its materials: {@link importGrimrock}, then, when `options.resources` is
 * given, {@link importGrimrockMaterials} (the mod's `defineMaterial` Lua and DDS textures).
 *
 * ```ts
 * const { document, warnings } = await importGrimrockWithMaterials(files, {
 *   main: 'slug.model',
 *   resources: folderResources('eob1-waterdeep'),
 *   resourcePath: 'mod_assets/models/monsters/slug.model',
 * });
 * ```
 */
export async function importGrimrockWithMaterials(
  files: FileSet,
  options: ImportOptions & GrimrockMaterialImportOptions & AnimationLinkOptions = {},
): Promise<{ document: Document; warnings: Warning[] }> {
  const [main, bytes] = mainFile(files, options);
  if (isArchive(bytes)) {
    readGrimrockArchive(bytes, main); // a damaged archive: its own FormatError (BAD_ZLIB, …)
    throw new FormatError(
      'a .dat is an archive: unpack it (legacyFormat.unpack / grimrockArchiveFiles) and convert the models inside',
      {
        code: 'CONTAINER',
        file: main,
      },
    );
  }
  const links = new WarningCollector();
  const linked = options.resources
    ? await findLinkedAnimations(
        options.resources,
        resolveReference(options.resourcePath ?? main, ''),
        options,
        links,
      )
    : [];
  let set = files;
  if (linked.length) {
    // the clips the Lua links join the companions (a NAME_*.animation beside the model is one file)
    set = new Map(files);
    const names = new Set([...files.keys()].map((n) => baseName(n).toLowerCase()));
    for (const a of linked) {
      const name = baseName(a.path);
      if (names.has(name.toLowerCase())) continue;
      names.add(name.toLowerCase());
      set.set(name, a.bytes);
    }
  }
  const result = importGrimrock(set, options);
  markLinkedAnimations(result.document, linked);
  const more = await importGrimrockMaterials(result.document, options);
  return { document: result.document, warnings: [...links.list(), ...result.warnings, ...more] };
}

/** `extras.grimrock.lua` on the clips a script linked: the Lua file, line and keys (`idle`, …). */
function markLinkedAnimations(document: Document, linked: LinkedAnimation[]): void {
  for (const a of linked) {
    const clip = document
      .getRoot()
      .listAnimations()
      .find((c) => c.getName() === stem(a.path));
    if (!clip) continue;
    const extras = clip.getExtras() as { grimrock?: Record<string, unknown> };
    clip.setExtras({
      ...extras,
      grimrock: { ...extras.grimrock, lua: { file: a.lua, line: a.line, keys: a.keys, path: a.path } },
    });
  }
}

/**
 * Exports a model with its materials: {@link exportGrimrock} plus {@link exportGrimrockMaterials}
 * (`NAME_materials.lua` and the textures as `.dds` under `mod_assets/`).
 *
 * ```ts
 * const { files } = await exportGrimrockWithMaterials(document, { name: 'slug' });
 * ```
 */
export async function exportGrimrockWithMaterials(
  document: Document,
  options: GrimrockExportOptions = {},
): Promise<{ files: FileSet; warnings: Warning[] }> {
  const model = await exportGrimrock(document, options);
  // The Lua defines what the written .model names, in the order import will create them again.
  const materials = await exportGrimrockMaterials(document, {
    name: options.name,
    materials: model.materials,
  });
  const files: FileSet = new Map([...model.files, ...materials.files]);
  // Textures are written now: the model exporter's TEXTURE_DROPPED no longer applies.
  const warnings = [...model.warnings.filter((w) => w.code !== 'TEXTURE_DROPPED'), ...materials.warnings];
  return { files, warnings };
}

/**
 * `.animation` files beside a model that belong to it: `NAME_*.animation` for `NAME.model`
 * (case-insensitive), sorted.
 *
 * ```ts
 * grimrockCompanions('skeleton_warrior_axe.model', ['skeleton_warrior_axe_walk.animation', 'snail.model']);
 * // ['skeleton_warrior_axe_walk.animation']
 * ```
 */
export function grimrockCompanions(name: string, siblings: string[]): string[] {
  const b = baseName(name);
  if (!b.toLowerCase().endsWith('.model')) return [];
  const prefix = `${stem(b).toLowerCase()}_`;
  return siblings
    .filter((s) => {
      const sb = baseName(s).toLowerCase();
      return sb.endsWith('.animation') && sb.startsWith(prefix);
    })
    .sort();
}

function fmt(v: ArrayLike<number>): string {
  return Array.from(v, (x) => +x.toFixed(4)).join(', ');
}

/**
 * Facts about the file model (not the glTF mapping) for `gltf-legacy inspect`.
 *
 * ```ts
 * inspectGrimrock(new Map([['slug.model', bytes]]));
 * ```
 */
export function inspectGrimrock(files: FileSet, options?: ImportOptions): InspectSection[] {
  const [name, bytes] = mainFile(files, options);
  if (isArchive(bytes)) return inspectArchive(bytes, name);
  if (isAnimation(bytes)) {
    const a = readAnimation(bytes, name);
    return [
      {
        title: `Animation ${name}`,
        facts: {
          version: a.version,
          game: a.version === 1 ? 'Legend of Grimrock' : 'Legend of Grimrock 2',
          name: a.name,
          framesPerSecond: a.framesPerSecond,
          numFrames: a.numFrames,
          durationSeconds: +(a.numFrames / a.framesPerSecond).toFixed(4),
          items: a.items.length,
          ...(a.trailing ? { trailingBytes: a.trailing.byteLength } : {}),
        },
        columns: ['item', 'positions', 'rotations', 'scales'],
        rows: a.items.map((it) => [
          it.nodeName,
          it.positions.length / 3,
          it.rotations.length / 4,
          it.scales.length / 3,
        ]),
      },
    ];
  }
  const m = readModel(bytes, name);
  const sections: InspectSection[] = [
    {
      title: `Model ${name}`,
      facts: {
        magic: m.magic,
        version: m.version,
        nodes: m.nodes.length,
        meshEntities: m.nodes.filter((n) => n.meshEntity).length,
        ...(m.trailing ? { trailingBytes: m.trailing.byteLength } : {}),
      },
      columns: ['#', 'name', 'parent', 'type', 'translation'],
      rows: m.nodes.map((n, i) => [
        i,
        n.name,
        n.parent,
        n.type === 0 ? 'mesh' : 'empty',
        fmt(n.localToParent.subarray(9, 12)),
      ]),
    },
  ];
  m.nodes.forEach((n, i) => {
    const e = n.meshEntity;
    if (!e) return;
    sections.push({
      title: `Mesh of node ${i} "${n.name}"`,
      facts: {
        meshVersion: e.mesh.version,
        vertices: e.mesh.numVertices,
        indices: e.mesh.indices.length,
        triangles: Math.floor(e.mesh.indices.length / 3),
        segments: e.mesh.segments.length,
        bones: e.bones.length,
        castShadow: e.castShadow,
        emissiveColor: fmt(e.emissiveColor),
        boundMin: fmt(e.mesh.boundMin),
        boundMax: fmt(e.mesh.boundMax),
        boundCenter: fmt(e.mesh.boundCenter),
        boundRadius: +e.mesh.boundRadius.toFixed(4),
        materials: e.mesh.segments.map((s) => s.material).join(', '),
      },
      columns: ['array', 'dataType', 'dim', 'stride'],
      rows: e.mesh.arrays
        .map((a, k) => [VERTEX_ARRAY_NAMES[k], a.dataType, a.dim, a.stride])
        .filter((r) => r[3] !== 0),
    });
  });
  return sections;
}

/**
 * The files of a `.dat` mod archive by path (recovered from its scripts and models, else
 * `unnamed/<hash>.<kind>`), unpacked within core's unpack limits: a resource tree like the mod's
 * folder.
 *
 * ```ts
 * const files = grimrockArchiveFiles(bytes, 'Fetch Quest.dat');
 * files.has('mod_assets/grim_bed/models/env/grim_bed.model'); // true
 * ```
 */
export function grimrockArchiveFiles(bytes: Uint8Array, name: string): FileSet {
  return archiveFiles(readGrimrockArchive(bytes, name));
}

/** The Grimrock format as the CLI registers it. */
export const legacyFormat: LegacyFormat = {
  id: 'grimrock',
  label: 'Legend of Grimrock 1/2 model, animation and mod archive',
  extensions: ['.model', '.animation', '.dat'],
  mainExtension: '.model',
  capabilities: {
    import: true,
    export: true,
    skins: true,
    morphTargets: false,
    animations: true,
    container: true,
  },
  options: GRIMROCK_FORMAT_OPTIONS,
  sniff(bytes: Uint8Array): boolean {
    return isModel(bytes) || isAnimation(bytes) || isArchive(bytes);
  },
  unpack(bytes: Uint8Array, name: string): FileSet {
    return grimrockArchiveFiles(bytes, name);
  },
  // `gltf-legacy extract`: entries under their recovered paths, else unnamed/<hash>.<kind>
  entries: grimrockArchiveEntries,
  companions: grimrockCompanions,
  resourceRoot: grimrockModRoot,
  async import(files, options) {
    return importGrimrockWithMaterials(files, options as GrimrockMaterialImportOptions);
  },
  async export(document, options) {
    return exportGrimrockWithMaterials(document, options as GrimrockExportOptions);
  },
  gltfExtensions: [KHRMaterialsSpecular, KHRMaterialsUnlit, KeptBytesExtension],
  limits: GRIMROCK_LIMITS,
  inspect: inspectGrimrock,
};
