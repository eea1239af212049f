/**
 * @gltf-legacy/urho3d — Urho3D / Dry `.mdl` (UMDL/UMD2), `.ani` (UANI) and `.pak` (UPAK/ULZ4)
 * to glTF 2.0 and back.
 */
import {
  baseName,
  type ExportOptions,
  type FileSet,
  FormatError,
  type ImportOptions,
  type InspectSection,
  type LegacyFormat,
  mainFile,
  stem,
  WarningCollector,
} from '@gltf-legacy/core';
import { MemoryResources, type ResourceReader } from '@gltf-legacy/core';
import { readAni } from './ani.js';
import { exportUrho } from './export.js';
import { importUrho, type UrhoAnimationInput } from './import.js';
import { inspectUrho } from './inspect.js';
import { inspectUrhoXml } from './inspect-xml.js';
import { UrhoMaterialLoader } from './material-import.js';
import { assignGeometryMaterials, isMaterialFile, loneModelMaterial } from './model-materials.js';
import { importUrhoPrefab } from './prefab-import.js';
import { isPrefabXml } from './prefab-xml.js';
import { UrhoResourceDirs, urhoResourceRoot } from './resource-dirs.js';
import { URHO3D_LIMITS } from './limits.js';
import { readMdl } from './mdl.js';
import { MSFTLod } from './msft-lod.js';
import { urhoAxes } from './space.js';
import { extractPak, pakEntries, readPak } from './pak.js';
import { URHO3D_FORMAT_OPTIONS } from './format-options.js';
export { URHO3D_FORMAT_OPTIONS } from './format-options.js';

export * from './ani.js';
export * from './attributes.js';
export * from './export.js';
export * from './import.js';
export * from './inspect.js';
export * from './inspect-xml.js';
export * from './limits.js';
export * from './lz4.js';
export * from './material-export.js';
export * from './material-import.js';
export * from './material-values.js';
export * from './material-xml.js';
export * from './mdl.js';
export * from './model-materials.js';
export * from './prefab-export.js';
export * from './prefab-import.js';
export * from './prefab-xml.js';
export * from './resource-dirs.js';
export * from './msft-lod.js';
export * from './pak.js';
export * from './space.js';
export * from './xml.js';
export * from './extras.js';
export { WARNING_CODES } from './warning-codes.js';

function magicOf(bytes: Uint8Array): string {
  return bytes.length >= 4 ? String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) : '';
}

/** Format options of {@link importUrhoFiles} (besides core's `resources` / `resourcePath`). */
export interface ImportUrhoFilesOptions extends ImportOptions {
  /** Material resource name for a lone `.mdl` (`Materials/Stone.xml`), used for every geometry. */
  material?: string;
  /** Base name of the document (default: the main file's stem). */
  name?: string;
  /** `gltf` (default: forward stays +Z) or `assetimporter` (Z mirror): see `ImportUrhoOptions.axes`. */
  axes?: 'gltf' | 'assetimporter';
}

/** Resources of an import: `options.resources`, else the file set itself (paths as keys). */
function resourcesOf(files: FileSet, options: ImportOptions): ResourceReader {
  return options.resources ?? new MemoryResources(files, 'input files');
}

/**
 * Imports a FileSet: the main `.mdl` plus `.ani` companions, a `.ani` alone (one node per
 * track), or a prefab / scene `.xml` (its models, materials and textures are read through
 * `options.resources`). A lone `.mdl` gets its material from `options.material`, or
 * `Materials/NAME.xml` beside it or in the resource directory, or the only material in its
 * folder's `Materials/` (read through `options.resources`, else the file set); else placeholders.
 * A `.pak` must be unpacked first ({@link legacyFormat}.unpack).
 *
 * ```ts
 * const { document } = await importUrhoFiles(new Map([['Jack.mdl', mdl], ['Jack_Walk.ani', ani]]), { main: 'Jack.mdl' });
 * ```
 */
export async function importUrhoFiles(files: FileSet, options: ImportUrhoFilesOptions = {}) {
  const [main, bytes] = mainFile(files, options);
  const magic = magicOf(bytes);
  const warnings = new WarningCollector();
  if (isPrefabXml(bytes)) {
    return importUrhoPrefab(bytes, main, {
      resources: resourcesOf(files, options),
      resourcePath: options.resourcePath ?? main,
      name: options.name,
      axes: urhoAxes(options.axes),
      strict: options.strict,
      frameNormals: options.frameNormals,
    });
  }
  if (magic === 'UPAK' || magic === 'ULZ4') {
    throw new FormatError(
      'a .pak is a container: unpack it (legacyFormat.unpack / extractPak) and convert the models inside',
      {
        code: 'CONTAINER',
        file: main,
      },
    );
  }
  const anims: UrhoAnimationInput[] = [];
  let model = null;
  if (magic === 'UANI')
    anims.push({
      fileName: stem(main),
      animation: readAni(bytes, main, { strict: options.strict, warnings }),
    });
  else model = readMdl(bytes, main);
  for (const [name, b] of files) {
    if (name === main) continue;
    if (magicOf(b) === 'UANI')
      anims.push({ fileName: stem(name), animation: readAni(b, name, { strict: options.strict, warnings }) });
    else if (!name.includes('/'))
      warnings.warn('COMPANION_IGNORED', `companion ${name} is not a .ani animation; ignored`);
  }
  const result = importUrho(model, anims, {
    name: options.name ?? stem(main),
    axes: urhoAxes(options.axes),
    frameNormals: options.frameNormals,
  });
  warnings.merge(result.warnings);
  if (model) {
    const doc = result.document;
    const dirs = new UrhoResourceDirs(resourcesOf(files, options), options.resourcePath ?? main);
    const loader = new UrhoMaterialLoader(doc, dirs, warnings);
    const material = await loneModelMaterial(loader, options.resourcePath ?? main, options.material);
    if (material) {
      const top = doc.getRoot().getDefaultScene()?.listChildren()[0];
      if (top) {
        const e = top.getExtras() as any;
        top.setExtras({
          ...e,
          urho3d: { ...e.urho3d, modelPath: dirs.resourceName(options.resourcePath ?? main) },
        });
      }
      assignGeometryMaterials(
        doc,
        doc.getRoot().listMeshes(),
        model.geometries.map(() => material),
      );
    }
  }
  return { document: result.document, warnings: warnings.list() };
}

/** The format as the CLI registers it (plus `gltfExtensions`: MSFT_lod, for reading .glb files back). */
export const legacyFormat: LegacyFormat & { gltfExtensions: (typeof MSFTLod)[] } = {
  id: 'urho3d',
  label: 'Urho3D / Dry model, animation and package',
  extensions: ['.mdl', '.ani', '.pak', '.xml'],
  mainExtension: '.mdl',
  // prefabs and scenes (`<node>`/`<scene>` XML) convert on their own; material XML is read through them
  mainExtensions: ['.mdl', '.xml'],
  gltfExtensions: [MSFTLod],
  limits: URHO3D_LIMITS,
  options: URHO3D_FORMAT_OPTIONS,
  // an export with materials is a resource tree: its prefab names the model and the materials
  exportEntry: (files) =>
    [...files].find(([k, b]) => k.toLowerCase().endsWith('.xml') && isPrefabXml(b))?.[0],
  capabilities: {
    import: true,
    export: true,
    skins: true,
    morphTargets: true,
    animations: true,
    container: true,
  },
  sniff(bytes: Uint8Array): boolean {
    const m = magicOf(bytes);
    return m === 'UMDL' || m === 'UMD2' || m === 'UANI' || m === 'UPAK' || m === 'ULZ4' || isPrefabXml(bytes);
  },
  resourceRoot: urhoResourceRoot,
  companions(name: string, siblings: string[]): string[] {
    if (name.toLowerCase().endsWith('.xml')) return []; // a prefab reads its models through resources
    const base = stem(name).toLowerCase();
    return siblings.filter((s) => {
      const b = baseName(s).toLowerCase();
      return s !== name && b.endsWith('.ani') && b.startsWith(base);
    });
  },
  unpack(bytes: Uint8Array, name: string): FileSet {
    return extractPak(readPak(bytes, name), name);
  },
  entries(bytes, name, options) {
    const m = magicOf(bytes);
    // a package may be appended to another file (found by its trailer): only by its name then
    if (m !== 'UPAK' && m !== 'ULZ4' && !name.toLowerCase().endsWith('.pak')) return undefined;
    return pakEntries(readPak(bytes, name), name, options);
  },
  import: importUrhoFiles,
  async export(document, options: ExportOptions = {}) {
    return exportUrho(document, options);
  },
  inspect(files: FileSet, options?: ImportOptions): InspectSection[] {
    const [main, bytes] = mainFile(files, options);
    if (isPrefabXml(bytes) || isMaterialFile(bytes)) return inspectUrhoXml(bytes, main);
    return inspectUrho(bytes, main);
  },
};
