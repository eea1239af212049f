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
import { readAni } from './ani.js';
import { exportUrho } from './export.js';
import { importUrho, type UrhoAnimationInput } from './import.js';
import { inspectUrho } from './inspect.js';
import { readMdl } from './mdl.js';
import { MSFTLod } from './msft-lod.js';
import { extractPak, readPak } from './pak.js';

export * from './ani.js';
export * from './attributes.js';
export * from './export.js';
export * from './import.js';
export * from './inspect.js';
export * from './lz4.js';
export * from './mdl.js';
export * from './msft-lod.js';
export * from './pak.js';
export * from './space.js';

function magicOf(bytes: Uint8Array): string {
  return bytes.length >= 4 ? String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) : '';
}

/**
 * Imports a FileSet: the main `.mdl` plus `.ani` companions, or a `.ani` alone (one node per
 * track). A `.pak` must be unpacked first ({@link legacyFormat}.unpack).
 *
 * ```ts
 * const { document } = await importUrhoFiles(new Map([['Jack.mdl', mdl], ['Jack_Walk.ani', ani]]), { main: 'Jack.mdl' });
 * ```
 */
export async function importUrhoFiles(files: FileSet, options: ImportOptions = {}) {
  const [main, bytes] = mainFile(files, options);
  const magic = magicOf(bytes);
  const warnings = new WarningCollector();
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
  if (magic === 'UANI') anims.push({ fileName: stem(main), animation: readAni(bytes, main) });
  else model = readMdl(bytes, main);
  for (const [name, b] of files) {
    if (name === main) continue;
    if (magicOf(b) === 'UANI') anims.push({ fileName: stem(name), animation: readAni(b, name) });
    else warnings.warn('COMPANION_IGNORED', `companion ${name} is not a .ani animation; ignored`);
  }
  const result = importUrho(model, anims, { name: (options.name as string | undefined) ?? stem(main) });
  warnings.merge(result.warnings);
  return { document: result.document, warnings: warnings.list() };
}

/** The format as the CLI registers it (plus `gltfExtensions`: MSFT_lod, for reading .glb files back). */
export const legacyFormat: LegacyFormat & { gltfExtensions: (typeof MSFTLod)[] } = {
  id: 'urho3d',
  label: 'Urho3D / Dry model, animation and package',
  extensions: ['.mdl', '.ani', '.pak'],
  mainExtension: '.mdl',
  gltfExtensions: [MSFTLod],
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
    return m === 'UMDL' || m === 'UMD2' || m === 'UANI' || m === 'UPAK' || m === 'ULZ4';
  },
  companions(name: string, siblings: string[]): string[] {
    const base = stem(name).toLowerCase();
    return siblings.filter((s) => {
      const b = baseName(s).toLowerCase();
      return s !== name && b.endsWith('.ani') && b.startsWith(base);
    });
  },
  unpack(bytes: Uint8Array, name: string): FileSet {
    return extractPak(readPak(bytes, name), name);
  },
  import: importUrhoFiles,
  async export(document, options: ExportOptions = {}) {
    return exportUrho(document, options);
  },
  inspect(files: FileSet, options?: ImportOptions): InspectSection[] {
    const [main, bytes] = mainFile(files, options);
    return inspectUrho(bytes, main);
  },
};
