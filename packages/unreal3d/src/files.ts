/**
 * Finding the files of one Unreal mesh in a FileSet and parsing them.
 */
import {
  baseName,
  type CompanionLookup,
  decodeText,
  FormatError,
  type FileSet,
  type WarningCollector,
} from '@gltf-legacy/core';
import { readAniv, type UnrealAniv } from './aniv.js';
import { looksLikeData, readData, type UnrealData } from './data.js';
import type { UnrealMeshFiles } from './import.js';
import { parseUc, type UcFile, ucMesh, ucMeshForFile, ucParam } from './uc.js';

const lower = (s: string) => s.toLowerCase();

/**
 * Base name of a mesh's files.
 *
 * ```ts
 * meshBase('Models/Key_d.3d'); // 'Key' (also for Key_a.3d and Key.uc)
 * ```
 */
export function meshBase(name: string): string {
  return baseName(name).replace(/(_[ad])?\.(3d|uc)$/i, '');
}

/**
 * Companion files for a main file: `NAME_a.3d`, `NAME.uc`, and when `NAME.uc` is absent every
 * `.uc` sibling (the importer keeps the one whose `MESH IMPORT` names this mesh).
 */
export function unrealCompanions(name: string, siblings: string[]): string[] {
  const b = lower(meshBase(name));
  const out: string[] = [];
  const isUcMain = /\.uc$/i.test(name);
  for (const s of siblings) {
    const l = lower(baseName(s));
    if (l === lower(baseName(name))) continue;
    if (l === `${b}_a.3d` || l === `${b}.uc`) out.push(s);
    if ((isUcMain || /_a\.3d$/i.test(name)) && l === `${b}_d.3d`) out.push(s);
  }
  if (!out.some((s) => lower(baseName(s)) === `${b}.uc`)) {
    for (const s of siblings) if (/\.uc$/i.test(s) && !out.includes(s)) out.push(s);
  }
  return out;
}

/**
 * {@link unrealCompanions} by lookups in an indexed folder (a batch of thousands of meshes in one
 * folder: no scan of every sibling per mesh). The same files, in another order.
 *
 * ```ts
 * unrealCompanionsIn('Skull_d.3d', folder); // ['Skull_a.3d', 'Skull.uc']
 * ```
 */
export function unrealCompanionsIn(name: string, folder: CompanionLookup): string[] {
  const b = lower(meshBase(name));
  const self = lower(baseName(name));
  const found: string[] = [];
  const add = (names: readonly string[]) => {
    for (const s of names) if (lower(s) !== self && !found.includes(s)) found.push(s);
  };
  add(folder.named(`${b}_a.3d`));
  add(folder.named(`${b}.uc`));
  if (/\.uc$/i.test(name) || /_a\.3d$/i.test(name)) add(folder.named(`${b}_d.3d`));
  // the order of unrealCompanions over a sorted listing (the order of the FileSet, which the
  // conversion's output follows): the matches sorted, then the other .uc files sorted
  const out = found.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const own = baseName(name);
  if (!out.some((s) => lower(s) === `${b}.uc`))
    for (const s of folder.withExtension('.uc')) if (s !== own && !out.includes(s)) out.push(s);
  return out;
}

/** A `.uc` found outside the FileSet (in the package's `Classes/`), root-relative path. */
export interface ExtraUc {
  file: string;
  bytes: Uint8Array;
  text: string;
  parsed: UcFile;
  /**
   * A class that imports no mesh but whose `defaultproperties` assign this one (`Mesh=…`): it
   * contributes skins (`Skin=`, `MultiSkins`, its own `TEXTURE IMPORT`) under this mesh name,
   * never the placement or sequences.
   */
  skinsFor?: string;
}

/** A `.uc` that imports the mesh: `file` is a FileSet key (`inFileSet`) or a root-relative path. */
export interface UcSourceFile {
  file: string;
  text: string;
  meshName: string;
  parsed: UcFile;
  inFileSet: boolean;
}

function find(files: FileSet, name: string | undefined): [string, Uint8Array] | undefined {
  if (!name) return undefined;
  const l = lower(baseName(name));
  for (const [k, v] of files) if (lower(baseName(k)) === l) return [k, v];
  return undefined;
}

/**
 * Picks and parses the data, aniv and `.uc` files of the mesh whose main file is `main`.
 * An `_a.3d` or a `.uc` naming no present data file is a `NEEDS_DATA_FILE` FormatError.
 */
export function loadMeshFiles(
  files: FileSet,
  main: string,
  warnings: WarningCollector,
  extraUcs: ExtraUc[] = [],
  options: { strict?: boolean } = {},
): UnrealMeshFiles & { ucSources: UcSourceFile[] } {
  const strict = options.strict === true;
  let mainName = main;
  let mainBytes = files.get(main);
  if (!mainBytes) throw new FormatError(`file set has no "${main}"`, { code: 'MISSING_FILE', file: main });
  const ucs: [string, string][] = [];
  for (const [k, v] of files) if (/\.uc$/i.test(k)) ucs.push([k, decodeText(v)]);

  if (/\.uc$/i.test(main)) {
    // A class file as main: use the data file of its first mesh that is present.
    const uc = parseUc(decodeText(mainBytes));
    let found: [string, Uint8Array] | undefined;
    for (const d of uc.directives) {
      if (d.command === 'MESH' && d.action === 'IMPORT') found ??= find(files, ucParam(d, 'DATAFILE'));
    }
    found ??= find(files, `${meshBase(main)}_d.3d`);
    if (!found) {
      throw new FormatError(
        'a .uc class file holds no geometry: convert the NAME_d.3d it imports (with NAME_a.3d and the .uc beside it)',
        {
          code: 'NEEDS_DATA_FILE',
          file: main,
        },
      );
    }
    [mainName, mainBytes] = found;
  } else if (/_a\.3d$/i.test(main) || !looksLikeData(mainBytes)) {
    if (/_a\.3d$/i.test(main)) {
      const alt = find(files, `${meshBase(main)}_d.3d`);
      if (!alt) {
        throw new FormatError(
          `${baseName(main)} is an Unreal animation (aniv) file: it holds vertex positions only; convert ${meshBase(main)}_d.3d (triangles) with this file beside it`,
          { code: 'NEEDS_DATA_FILE', file: main },
        );
      }
      [mainName, mainBytes] = alt;
    }
  }

  const data: UnrealData = readData(mainBytes, baseName(mainName), { warnings, strict });
  const base = meshBase(mainName);

  // The .uc: NAME.uc first, then any .uc whose MESH IMPORT names this data file.
  // Every .uc of the set (and the package's, found by the caller) that imports this data file
  // describes it; the first is the primary (its text is kept for export), the others are merged.
  const ucSources: UcSourceFile[] = [];
  const ordered = [...ucs].sort(
    (a, b) =>
      Number(lower(baseName(b[0])) === `${lower(base)}.uc`) -
      Number(lower(baseName(a[0])) === `${lower(base)}.uc`),
  );
  for (const [file, text] of ordered) {
    const parsed = parseUc(text);
    const meshName = ucMeshForFile(parsed, baseName(mainName));
    if (meshName) ucSources.push({ file, text, meshName, parsed, inFileSet: true });
    else
      warnings.warn('COMPANION_IGNORED', `${baseName(file)} does not import ${baseName(mainName)}; ignored`);
  }
  const skinOnly: UcSourceFile[] = [];
  for (const x of extraUcs) {
    const same = ucSources.some(
      (s) => s.inFileSet && lower(baseName(s.file)) === lower(baseName(x.file)) && s.text === x.text,
    );
    if (!same) {
      const meshName = ucMeshForFile(x.parsed, baseName(mainName));
      if (meshName)
        ucSources.push({ file: x.file, text: x.text, meshName, parsed: x.parsed, inFileSet: false });
      else if (x.skinsFor)
        skinOnly.push({
          file: x.file,
          text: x.text,
          meshName: x.skinsFor,
          parsed: x.parsed,
          inFileSet: false,
        });
    }
  }
  // the primary .uc (placement, sequences, the text export keeps) is one that imports the mesh
  const ucInfo = ucSources[0];
  ucSources.push(...skinOnly);
  const uc = ucInfo ? ucMesh(ucInfo.parsed, ucInfo.meshName) : undefined;

  const anivEntry = find(files, uc?.anivFile) ?? find(files, `${base}_a.3d`);
  if (!anivEntry) {
    throw new FormatError(
      `the vertex positions live in ${base}_a.3d, which was not given beside ${baseName(mainName)}`,
      {
        code: 'MISSING_ANIV',
        file: mainName,
      },
    );
  }
  const aniv: UnrealAniv = readAniv(anivEntry[1], baseName(anivEntry[0]), {
    numVertices: data.header.numVertices,
    warnings,
    strict,
  });
  const ucBytes = ucInfo
    ? (files.get(ucInfo.file) ?? extraUcs.find((x) => x.file === ucInfo.file)?.bytes)
    : undefined;
  const ucEncoding: 'latin1' | undefined = ucBytes && !isUtf8(ucBytes) ? 'latin1' : undefined;
  return {
    data,
    aniv,
    uc,
    ucText: ucInfo?.text,
    ucEncoding,
    ucFile: ucInfo ? baseName(ucInfo.file) : undefined,
    ucSources,
    name: uc?.name ?? base,
    dataFile: baseName(mainName),
    anivFile: baseName(anivEntry[0]),
    fileBase: base,
  };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** True when the bytes are valid UTF-8 (class files from the 90s are often latin1). */
function isUtf8(b: Uint8Array): boolean {
  try {
    strictUtf8.decode(b);
    return true;
  } catch {
    return false;
  }
}
