/**
 * @gltf-legacy/unreal3d — Unreal Engine 1 vertex meshes (`NAME_d.3d`, `NAME_a.3d`, `NAME.uc`)
 * to glTF 2.0 and back.
 */
import {
  baseName,
  decodeText,
  dirOf,
  joinPath,
  MemoryResources,
  type FileSet,
  FormatError,
  type ImportOptions,
  type ImportResult,
  type InspectSection,
  type LegacyFormat,
  mainFile,
  WarningCollector,
  KeptBytesExtension,
  type ResourceReader,
} from '@gltf-legacy/core';
import { anivPositions, readAniv } from './aniv.js';
import { looksLikeData, readData } from './data.js';
import { exportUnreal, type UnrealExportOptions, unreal3dExportLimits } from './export.js';
import { classMeshFiles, findClassFiles, unrealPackageDir } from './discovery.js';
import { loadMeshFiles, meshBase, unrealCompanions, unrealCompanionsIn } from './files.js';
import { UNREAL3D_LIMITS } from './limits.js';
import { attachSkins } from './skin-import.js';
import { importUnreal, type UnrealImportOptions } from './import.js';
import { parseUc, ucMesh, ucMeshNames } from './uc.js';
import {
  importPackage,
  inspectPackage,
  isPackageName,
  looksLikePackage,
  packageNotes,
  type UnpackedMeshPlace,
} from './package/format.js';
import { packageTextureEntries } from './package/entries.js';
import { GameTextureLookup, packageGameDir } from './package/game-lookup.js';
import { readPackage } from './package/package.js';
import { unpackPackage } from './package/unpack.js';
import { UNREAL3D_FORMAT_OPTIONS } from './format-options.js';
export { UNREAL3D_FORMAT_OPTIONS } from './format-options.js';

export * from './aniv.js';
export * from './data.js';
export * from './discovery.js';
export * from './pow2.js';
export * from './skin-image.js';
export * from './skin-import.js';
export * from './skins.js';
export * from './export.js';
export * from './files.js';
export * from './limits.js';
export * from './warning-codes.js';
export * from './import.js';
export * from './transform.js';
export * from './uc.js';
export * from './package/index.js';
export * from './package/format.js';

/**
 * Imports an Unreal mesh from a FileSet (`NAME_d.3d` main + `NAME_a.3d` + optional `.uc`).
 *
 * ```ts
 * const { document, warnings } = await importUnrealFiles(files, { main: 'box_d.3d' });
 * ```
 */
export async function importUnrealFiles(files: FileSet, options: ImportOptions & UnrealImportOptions = {}) {
  return importMeshFiles(files, options);
}

/** {@link importUnrealFiles}; `place`: a package's mesh unpacked by `importPackage`. */
async function importMeshFiles(
  files: FileSet,
  options: ImportOptions & UnrealImportOptions,
  place?: UnpackedMeshPlace,
): Promise<ImportResult> {
  const [main, mainBytes] = mainFile(files, place ? { main: place.main } : options);
  // A package (.u, .utx): one of its meshes, through the sources it is built from.
  if (looksLikePackage(mainBytes)) return importPackage(mainBytes, main, options, importMeshFiles);
  const warnings = new WarningCollector();
  const givenResources = place ? place.resources : options.resources;
  // Without a resource reader the FileSet itself is the folder (keys may be `Textures/X.pcx`).
  const resources = givenResources ?? new MemoryResources(files, 'the given files');
  const resourcePath = ((place ? place.resourcePath : options.resourcePath) ?? main).replace(/\\/g, '/');
  if (/\.uc$/i.test(main) && givenResources) {
    // A class file as main: its MESH IMPORT names the data files, relative to the package folder.
    const more = await classMeshFiles(resources, resourcePath, parseUc(decodeText(mainBytes)), files);
    if (more.size) files = new Map([...files, ...more]);
  }
  const dataGuess = /\.uc$/i.test(main) ? undefined : `${meshBase(main)}_d.3d`;
  // a package's unpacked mesh has no other class file to find (see UnpackedMeshPlace)
  const found = dataGuess && !place ? await findClassFiles(resources, resourcePath, dataGuess, warnings) : [];
  const modelDir = dirOf(resourcePath);
  const extra = found
    .filter((f) => !(dirOf(f.path).toLowerCase() === modelDir.toLowerCase() && files.has(baseName(f.path))))
    .map((f) => ({
      file: f.path,
      bytes: f.bytes,
      text: f.text,
      parsed: f.parsed,
      ...(f.skinsOnly ? { skinsFor: f.meshName } : {}),
    }));
  const mesh = loadMeshFiles(files, main, warnings, extra, { strict: options.strict === true });
  const document = importUnreal(
    mesh,
    {
      frames: options.frames === 'first' || options.static === true ? 'first' : 'all',
      scale: options.scale === undefined ? undefined : Number(options.scale),
      axes: options.axes === 'swap' ? 'swap' : 'gltf',
      normals: options.normals !== false,
      compact: options.compact === true,
      float: options.float === true,
      frameNormals: options.frameNormals !== false,
    },
    warnings,
  );
  if (options.textures !== false) {
    const packageDir = unrealPackageDir(resourcePath);
    const sources = mesh.ucSources.map((s) => ({
      path: s.inFileSet ? joinPath(modelDir, s.file) : s.file,
      parsed: s.parsed,
      meshName: s.meshName,
    }));
    // another package's textures: that package in the game folder (a package's own folder tree
    // when converted from one: the CLI passes it as containerResources)
    const containerResources = (place ? place.containerResources : options.containerResources) as
      | ResourceReader
      | undefined;
    const game = new GameTextureLookup(
      containerResources ?? resources,
      containerResources
        ? ((place ? place.containerPath : options.containerPath) as string | undefined)
        : resourcePath,
    );
    await attachSkins(document, { resources, packageDir, sources, game }, warnings);
  }
  return { document, warnings: warnings.list() };
}

/** Inspection of a lone file (no companions given): what the file itself says. */
function inspectAlone(name: string, bytes: Uint8Array): InspectSection[] {
  if (/\.uc$/i.test(name)) {
    const uc = parseUc(decodeText(bytes));
    return ucMeshNames(uc).map((m) => {
      const mesh = ucMesh(uc, m);
      return {
        title: `.uc mesh ${m}`,
        facts: {
          dataFile: mesh.dataFile ?? '',
          anivFile: mesh.anivFile ?? '',
          scale: mesh.scale.join(' '),
          directives: mesh.directives.length,
        },
        columns: ['sequence', 'start', 'frames', 'rate'],
        rows: mesh.sequences.map((s) => [s.name, s.startFrame, s.numFrames, s.rate]),
      };
    });
  }
  if (/_a\.3d$/i.test(name)) {
    const aniv = readAniv(bytes, name);
    return [
      {
        title: `${name} (aniv, without its _d.3d)`,
        facts: {
          numFrames: aniv.numFrames,
          frameSize: aniv.frameSize,
          framesPresent: aniv.frameCount,
          'verticesPerFrame (if packed)': aniv.numVertices,
        },
      },
    ];
  }
  const data = readData(bytes, name);
  return [
    {
      title: `${name} (data, without its _a.3d: no positions)`,
      facts: {
        numPolys: data.header.numPolys,
        numVertices: data.header.numVertices,
        trianglesPresent: data.polys.types.length,
      },
    },
  ];
}

function inspectUnreal(files: FileSet, options?: ImportOptions): InspectSection[] {
  const warnings = new WarningCollector();
  const [main, mainBytes] = mainFile(files, options);
  if (looksLikePackage(mainBytes)) return inspectPackage(mainBytes, main);
  let m: ReturnType<typeof loadMeshFiles>;
  try {
    m = loadMeshFiles(files, main, warnings);
  } catch (e) {
    if (e instanceof FormatError && (e.code === 'MISSING_ANIV' || e.code === 'NEEDS_DATA_FILE'))
      return inspectAlone(main, mainBytes);
    throw e;
  }
  const { data, aniv, uc } = m;
  const styles = new Map<string, number>();
  for (let i = 0; i < data.polys.types.length; i++) {
    const k = `tex ${data.polys.textures[i]} type 0x${data.polys.types[i].toString(16)} flags 0x${data.polys.flags[i].toString(16)}`;
    styles.set(k, (styles.get(k) ?? 0) + 1);
  }
  const pos = anivPositions(aniv);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < pos.length; i += 3) {
    for (let c = 0; c < 3; c++) {
      min[c] = Math.min(min[c], pos[i + c]);
      max[c] = Math.max(max[c], pos[i + c]);
    }
  }
  const sections: InspectSection[] = [
    {
      title: `${m.dataFile} (data)`,
      facts: {
        numPolys: data.header.numPolys,
        numVertices: data.header.numVertices,
        trianglesPresent: data.polys.types.length,
        trailingBytes: data.trailing.length,
      },
      columns: ['texture / type / flags', 'triangles'],
      rows: [...styles].map(([k, v]) => [k, v]),
    },
    {
      title: `${m.anivFile} (aniv)`,
      facts: {
        numFrames: aniv.numFrames,
        frameSize: aniv.frameSize,
        layout: aniv.layout,
        framesPresent: aniv.frameCount,
        boundsMin: min.join(' '),
        boundsMax: max.join(' '),
      },
    },
  ];
  if (uc) {
    sections.push({
      title: `.uc mesh ${uc.name}`,
      facts: {
        scale: uc.scale.join(' '),
        origin: `${uc.origin.x} ${uc.origin.y} ${uc.origin.z}`,
        rotOrigin: `${uc.origin.pitch} ${uc.origin.yaw} ${uc.origin.roll}`,
        directives: uc.directives.length,
      },
      columns: ['sequence', 'start', 'frames', 'rate'],
      rows: uc.sequences.map((s) => [s.name, s.startFrame, s.numFrames, s.rate]),
    });
    if (uc.textures.length)
      sections.push({
        title: 'skins',
        columns: ['num', 'texture', 'file'],
        rows: uc.textures.map((t) => [t.num, t.name, t.file ?? '']),
      });
  }
  if (warnings.size)
    sections.push({
      title: 'warnings',
      columns: ['code', 'message'],
      rows: warnings.list().map((w) => [w.code, w.message]),
    });
  return sections;
}

/** The format as the CLI registers it. */
export const legacyFormat: LegacyFormat = {
  id: 'unreal3d',
  label: 'Unreal Engine 1 vertex mesh (_d.3d + _a.3d + .uc; packages .u/.utx)',
  extensions: ['.3d', '.uc', '.u', '.utx', '.unr'],
  mainExtension: '_d.3d',
  gltfExtensions: [KeptBytesExtension],
  capabilities: {
    import: true,
    export: true,
    skins: false,
    morphTargets: true,
    animations: true,
    container: true,
  },
  options: UNREAL3D_FORMAT_OPTIONS,
  limits: UNREAL3D_LIMITS,
  exportLimits: (document, options) => unreal3dExportLimits(document, (options ?? {}) as UnrealExportOptions),
  sniff(bytes: Uint8Array, name: string): boolean {
    if (looksLikePackage(bytes)) return true;
    if (/_a\.3d$/i.test(name)) {
      // Routed here so the importer can say it needs the _d.3d (or use one beside it).
      if (bytes.length < 4) return false;
      const frames = bytes[0] | (bytes[1] << 8);
      const size = bytes[2] | (bytes[3] << 8);
      return frames > 0 && size > 0 && size % 4 === 0 && Math.abs(bytes.length - 4 - frames * size) < size;
    }
    return looksLikeData(bytes);
  },
  companions: (name, siblings) => (isPackageName(name) ? [] : unrealCompanions(name, siblings)),
  companionsIn: (name, folder) => (isPackageName(name) ? [] : unrealCompanionsIn(name, folder)),
  // a package is a container of its meshes' sources (MESH_d.3d, MESH_a.3d, MESH.uc, Textures/…)
  unpack: (bytes, name) => unpackPackage(readPackage(bytes, name)),
  unpackNotes: packageNotes,
  // `extract Foo.utx --out-dir DIR`: the package's textures as PNG, named by object
  entries: (bytes, name) => packageTextureEntries(bytes, name),
  // a package's root is its game folder (System/ → its parent), a loose mesh's its package folder
  resourceRoot: (path) => (isPackageName(path) ? packageGameDir(path) : unrealPackageDir(path)),
  import: (files, options) => importUnrealFiles(files, options),
  export: (document, options) => exportUnreal(document, (options ?? {}) as UnrealExportOptions),
  inspect: inspectUnreal,
};
