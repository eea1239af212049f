/**
 * Where an Unreal package keeps what a mesh needs: the package folder (the parent of `Models/`),
 * its `Classes/*.uc` and the texture files the `.uc` names relative to the package folder.
 */
import {
  baseName,
  decodeText,
  dirOf,
  joinPath,
  type ResourceReader,
  resolveReference,
  type WarningCollector,
} from '@gltf-legacy/core';
import { ucDefaultSkins } from './skins.js';
import { parseUc, type UcFile, ucMeshForFile, ucParam } from './uc.js';

/** Limits of the `.uc` search (a `Classes/` folder of a big mod holds hundreds of classes). */
export interface ClassSearchOptions {
  /** Most `.uc` files read per conversion. */
  maxFiles?: number;
  /** Largest `.uc` read (bytes); larger ones are skipped. */
  maxFileBytes?: number;
  /** Most `.uc` bytes read in all. */
  maxTotalBytes?: number;
}

export const CLASS_SEARCH_DEFAULTS: Required<ClassSearchOptions> = {
  maxFiles: 512,
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 32 * 1024 * 1024,
};

/** How many folders above the model a `Models/` folder is looked for. */
const MODELS_DEPTH = 3;

/**
 * The package folder of a model at root-relative `path`: the parent of the nearest `Models/`
 * ancestor (any case, at most 3 levels up), else the model's own folder. `.uc` `FILE=` paths and
 * `Classes/` are relative to it; the CLI uses it as the resource root.
 *
 * ```ts
 * unrealPackageDir('MushMatch/Models/Sporifier_d.3d'); // 'MushMatch'
 * unrealPackageDir('stuff/box_d.3d');                  // 'stuff'
 * unrealPackageDir('MushMatch/Classes/Sporifier.uc');  // 'MushMatch' (a class file: parent of Classes/)
 * ```
 */
export function unrealPackageDir(path: string): string {
  let dir = dirOf(path.replace(/\\/g, '/'));
  if (/\.uc$/i.test(path) && baseName(dir).toLowerCase() === 'classes') return dirOf(dir);
  for (let i = 0; i < MODELS_DEPTH && dir; i++) {
    if (baseName(dir).toLowerCase() === 'models') return dirOf(dir);
    dir = dirOf(dir);
  }
  return dirOf(path.replace(/\\/g, '/'));
}

/** The folder `.uc` paths of a class file are relative to: the parent of `Classes/`, else `fallback`. */
export function ucBaseDir(ucPath: string, fallback: string): string {
  const dir = dirOf(ucPath);
  return baseName(dir).toLowerCase() === 'classes' ? dirOf(dir) : fallback;
}

/** A `.uc` that imports the mesh, with its root-relative path. */
export interface FoundClass {
  path: string;
  bytes: Uint8Array;
  text: string;
  parsed: UcFile;
  meshName: string;
  /** The class imports no mesh; its defaults assign this one (it contributes skins only). */
  skinsOnly?: true;
}

/**
 * Reads the `.uc` files of the package that import the data file `dataFile` (`MESH IMPORT` with
 * that `DATAFILE`, or `MESH=` equal to its stem): every `.uc` of `Classes/` beside or above
 * `Models/` (the package folder's and the model folder's), and `NAME.uc` beside the model.
 * Bounded by {@link CLASS_SEARCH_DEFAULTS}; a search cut short warns `UC_SEARCH_LIMITED`.
 *
 * ```ts
 * const found = await findClassFiles(resources, 'Models/Sporifier3P_d.3d', 'Sporifier3P_d.3d', warnings);
 * found.map((f) => f.path); // ['Classes/Sporifier.uc']
 * ```
 */
export async function findClassFiles(
  resources: ResourceReader,
  resourcePath: string,
  dataFile: string,
  warnings: WarningCollector,
  options: ClassSearchOptions = {},
): Promise<FoundClass[]> {
  const o = { ...CLASS_SEARCH_DEFAULTS, ...options };
  const modelDir = dirOf(resourcePath.replace(/\\/g, '/'));
  const pkg = unrealPackageDir(resourcePath);
  const paths: string[] = [];
  const seen = new Set<string>();
  const add = (p: string) => {
    if (!/\.uc$/i.test(p) || seen.has(p.toLowerCase())) return;
    seen.add(p.toLowerCase());
    paths.push(p);
  };
  const stem = baseName(dataFile).replace(/_[ad]\.3d$/i, '');
  try {
    const beside = await resources.find(joinPath(modelDir, `${stem}.uc`));
    if (beside) add(beside);
  } catch {
    // a name that cannot be a path: nothing beside
  }
  for (const dir of new Set([joinPath(pkg, 'Classes'), joinPath(modelDir, 'Classes')])) {
    let list: string[] = [];
    try {
      list = await resources.list(dir);
    } catch {
      list = [];
    }
    for (const p of list) add(p);
  }
  const out: FoundClass[] = [];
  // classes that import no mesh: kept when their defaults may assign one (`Mesh=`), checked below
  const users: { path: string; bytes: Uint8Array; text: string }[] = [];
  let total = 0;
  let skipped = 0;
  for (const [i, path] of paths.entries()) {
    if (i >= o.maxFiles || total >= o.maxTotalBytes) {
      skipped = paths.length - i;
      break;
    }
    const bytes = await resources.read(path);
    if (!bytes) continue;
    if (bytes.length > o.maxFileBytes) {
      skipped++;
      continue;
    }
    total += bytes.length;
    // Cheap test before parsing: a class that imports no mesh is skipped.
    const text = decodeText(bytes);
    if (!/mesh\s+import/i.test(text)) {
      if (/^[ \t]*defaultproperties\b/im.test(text) && /mesh\s*=/i.test(text))
        users.push({ path, bytes, text });
      continue;
    }
    const parsed = parseUc(text);
    const meshName = ucMeshForFile(parsed, dataFile);
    if (meshName) out.push({ path, bytes, text, parsed, meshName });
  }
  // a class that uses the mesh (its defaults assign it) sets skins too, as the game draws it:
  // `Skin=`, `MultiSkins(n)=` and its own `TEXTURE IMPORT`s (the mesh name: the importing
  // class's `MESH=`, else the file stem)
  const meshNames = new Set([...out.map((f) => f.meshName.toLowerCase()), stem.toLowerCase()]);
  for (const u of users) {
    const assigned = [...ucDefaultSkins(u.text).meshes].find((m) => meshNames.has(m));
    if (!assigned) continue;
    const name = out.find((f) => f.meshName.toLowerCase() === assigned)?.meshName ?? stem;
    out.push({ ...u, parsed: parseUc(u.text), meshName: name, skinsOnly: true });
  }
  if (skipped)
    warnings.warn(
      'UC_SEARCH_LIMITED',
      `${skipped} .uc file(s) of ${joinPath(pkg, 'Classes') || 'Classes'} were not read (more than ${o.maxFiles} files, ${o.maxFileBytes} bytes each or ${o.maxTotalBytes} bytes in all)`,
      skipped,
    );
  return out;
}

/**
 * For a class file converted as the main file: the `_d.3d`/`_a.3d` its `MESH IMPORT`s name
 * (`DATAFILE=`/`ANIVFILE=`, relative to the package folder), read through `resources`, keyed by
 * base name, for the meshes whose data file exists. Entries already in `have` are not read again.
 *
 * ```ts
 * await classMeshFiles(resources, 'Classes/Sporifier.uc', ucText, files); // Map { 'Sporifier_d.3d' => …, 'Sporifier_a.3d' => … }
 * ```
 */
export async function classMeshFiles(
  resources: ResourceReader,
  ucPath: string,
  uc: UcFile,
  have: Map<string, Uint8Array>,
): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const base = unrealPackageDir(ucPath);
  const known = new Set([...have.keys()].map((k) => baseName(k).toLowerCase()));
  for (const d of uc.directives) {
    if (d.command !== 'MESH' || d.action !== 'IMPORT') continue;
    const data = ucParam(d, 'DATAFILE');
    if (!data) continue;
    const dataPath = resolveReference(data, base, { file: ucPath });
    if (known.has(baseName(dataPath).toLowerCase())) return out;
    const dataBytes = await resources.read(dataPath);
    if (!dataBytes) continue;
    out.set(baseName(dataPath), dataBytes);
    const aniv = ucParam(d, 'ANIVFILE');
    if (aniv) {
      const anivPath = resolveReference(aniv, base, { file: ucPath });
      const anivBytes = known.has(baseName(anivPath).toLowerCase())
        ? undefined
        : await resources.read(anivPath);
      if (anivBytes) out.set(baseName(anivPath), anivBytes);
    }
    return out;
  }
  return out;
}
