import {
  FormatError,
  type ResourceReader,
  type WarningCollector,
  baseName,
  dirOf,
  joinPath,
  resolveReference,
} from '@gltf-legacy/core';
import {
  TSO_REF_WITH_IDS,
  TSO_TYPE_IDS,
  type TsoBindingFile,
  contentIdTag,
  hex8,
  parseContentName,
  readBinding,
} from './outfit.js';
import { buildIdIndex, type TsoIdIndex } from './archive/id-index.js';

/**
 * Finding the files an outfit links to. The content folders of FreeSO's `Avatar` folder
 * (`Appearances/`, `Bindings/`, `Meshes/`, `Textures/`) name every file `NAME.<file id><type id>.ext`;
 * a link is a (file id, type id) pair, found by listing the folder and matching the
 * `.<id8hex><type8hex>.` part of the names, case-insensitively.
 */

/** Folder names of the `Avatar` content tree (lower case). */
export const OUTFIT_FOLDERS = {
  appearances: 'Appearances',
  bindings: 'Bindings',
  meshes: 'Meshes',
  textures: 'Textures',
  animations: 'Animations',
  skeletons: 'Skeletons',
} as const;

const CONTENT_FOLDERS = new Set(
  [...Object.values(OUTFIT_FOLDERS), 'Outfits', 'Thumbnails'].map((s) => s.toLowerCase()),
);

/**
 * The `Avatar` folder of a content file: the parent of its `Meshes/`, `Bindings/`, `Appearances/`,
 * `Textures/` (… ) folder, else the file's own folder. This is `legacyFormat.resourceRoot`.
 *
 * ```ts
 * outfitRoot('Content/Avatar/Appearances/woodaxe.5d34f33e0000000c.apr'); // 'Content/Avatar'
 * outfitRoot('stuff/woodaxe.mesh');                                        // 'stuff'
 * ```
 */
export function outfitRoot(path: string): string {
  const dir = dirOf(path);
  return CONTENT_FOLDERS.has(baseName(dir).toLowerCase()) ? dirOf(dir) : dir;
}

/** Folders (root-relative) searched for files of one kind: `<Avatar>/<Kind>/`, then the file's own folder. */
export function searchFolders(resourcePath: string, folder: string): string[] {
  const own = dirOf(resourcePath);
  const first = joinPath(outfitRoot(resourcePath), folder);
  return first.toLowerCase() === own.toLowerCase() ? [own] : [first, own];
}

/** A file found by id: its root-relative path and bytes. */
export interface FoundFile {
  path: string;
  bytes: Uint8Array;
}

/** Listed folders indexed by the `<file id><type id>` of their names (one listing per folder and import). */
export type FolderIndex = Map<string, Map<string, string>>;

async function folderIndex(
  resources: ResourceReader,
  folder: string,
  cache: FolderIndex,
): Promise<Map<string, string>> {
  const key = folder.toLowerCase();
  let index = cache.get(key);
  if (index) return index;
  index = new Map();
  let names: string[] = [];
  try {
    names = await resources.list(folder);
  } catch {
    // an unreadable folder has no files for us
  }
  for (const n of names) {
    const id = parseContentName(n);
    if (!id) continue;
    const tag = contentIdTag(id.fileId, id.typeId);
    if (!index.has(tag)) index.set(tag, n);
  }
  cache.set(key, index);
  return index;
}

/**
 * The file with these ids in the first folder that has one, read through `resources`, else
 * anywhere below the root: a loose content file or an entry of a FAR3 archive (`.dat`/`.far`;
 * see `buildIdIndex`, built once per `cache`), the way the game finds content by id. Listed
 * names go through `resolveReference` like any name found in a file. Each folder is listed once
 * per `cache` (an appearance naming thousands of bindings costs one listing, not thousands).
 * `warnings` receives `ARCHIVE_IGNORED` for an archive under the root that does not read, when the
 * root's index is built (once per `cache`).
 */
export async function findById(
  resources: ResourceReader,
  folders: string[],
  fileId: number,
  typeId: number,
  from: string,
  cache: FolderIndex = new Map(),
  warnings?: WarningCollector,
): Promise<FoundFile | undefined> {
  const tag = contentIdTag(fileId, typeId);
  for (const folder of folders) {
    const hit = (await folderIndex(resources, folder, cache)).get(tag);
    if (!hit) continue;
    const path = resolveReference(baseName(hit), folder, { file: from });
    const bytes = await resources.read(path);
    if (bytes) return { path, bytes };
  }
  // then anywhere under the root: loose content files and FAR3 archive entries, by id
  const source = (await idIndexOf(resources, cache, warnings)).get(tag);
  const bytes = await source?.read();
  return source && bytes ? { path: source.path, bytes } : undefined;
}

/** One id index of the whole root per folder cache (that is, per import). */
const idIndexes = new WeakMap<FolderIndex, Promise<TsoIdIndex>>();

function idIndexOf(
  resources: ResourceReader,
  cache: FolderIndex,
  warnings: WarningCollector | undefined,
): Promise<TsoIdIndex> {
  let index = idIndexes.get(cache);
  if (!index) idIndexes.set(cache, (index = buildIdIndex(resources, { warnings })));
  return index;
}

/** How a link was written, for warnings: `mesh f5c2c184 (type 00000009) in Meshes/ or ./`. */
export function describeLink(what: string, fileId: number, typeId: number, folders: string[]): string {
  return `${what} ${hex8(fileId)} (type ${hex8(typeId)}) in ${folders.map((f) => `${f || '.'}/`).join(' or ')}`;
}

/** A binding read from the resources, with its path. */
export interface FoundBinding {
  path: string;
  binding: TsoBindingFile;
}

/**
 * The binding whose mesh reference names the mesh file `meshPath` (by the ids in its name), from
 * the `Bindings/` folder beside the mesh's folder or inside it. Unreadable `.bnd` files are
 * skipped with `BINDING_IGNORED`; several matches take the first by name (`BINDING_AMBIGUOUS`).
 */
export async function bindingForMesh(
  resources: ResourceReader,
  meshPath: string,
  warnings: WarningCollector,
): Promise<FoundBinding | undefined> {
  const id = parseContentName(meshPath);
  if (!id) return undefined;
  const meshDir = dirOf(meshPath);
  const folders = [
    joinPath(dirOf(meshDir), OUTFIT_FOLDERS.bindings),
    joinPath(meshDir, OUTFIT_FOLDERS.bindings),
  ];
  const found: FoundBinding[] = [];
  for (const folder of folders) {
    let names: string[];
    try {
      names = await resources.list(folder);
    } catch {
      continue;
    }
    for (const n of names) {
      if (!baseName(n).toLowerCase().endsWith('.bnd')) continue;
      const path = resolveReference(baseName(n), folder, { file: meshPath });
      const bytes = await resources.read(path);
      if (!bytes) continue;
      try {
        const binding = readBinding(bytes, path);
        const m = binding.mesh;
        if (m.kind === TSO_REF_WITH_IDS && m.file === id.fileId && m.type === id.typeId)
          found.push({ path, binding });
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        warnings.warn('BINDING_IGNORED', `"${path}" is not a readable .bnd (${e.detail}); ignored`);
      }
    }
    if (found.length) break;
  }
  if (found.length > 1)
    warnings.warn(
      'BINDING_AMBIGUOUS',
      `${found.length} bindings name mesh ${hex8(id.fileId)}; used "${found[0].path}"`,
    );
  return found[0];
}

/** The type id a binding's texture is expected to have (0x14) — any type id in the file is used as written. */
export const TEXTURE_TYPE_ID = TSO_TYPE_IDS.texture;
