import { lstat, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { chooseResourceRoot, LegacyError, resolveReference } from '@gltf-legacy/core';
import { sniff } from '../registry.js';
import { resourceKey } from '../resource-pool.js';

/** Options of {@link gatherInput}. */
export interface GatherOptions {
  /** The resource root (`--resource-dir`); default: the format's own rule, else the input's folder. */
  resourceDir?: string;
  /** Group number of the resource keys (one per distinct root when several inputs are served). */
  group?: number;
}

/**
 * Limits of the resource tree sent to the page with a model: files whose extension can be a
 * texture or a file that links a model to its look, at most this many files and bytes, folders at
 * most this deep. What is over a limit is not sent (the importer then reports TEXTURE_MISSING).
 */
export const RESOURCE_GATHER_LIMITS = {
  maxFiles: 4000,
  maxBytes: 512 * 1024 * 1024,
  maxDepth: 12,
  /** Directory entries looked at in all. */
  maxEntries: 50_000,
  extensions: [
    '.pcx',
    '.bmp',
    '.tga',
    '.dds',
    '.png',
    '.jpg',
    '.jpeg',
    '.webp',
    '.3d',
    '.ani',
    '.uc',
    '.xml',
    '.lua',
    '.mat',
    '.apr',
    '.bnd',
    '.mesh',
    '.skel',
    '.mdl',
    '.model',
  ],
} as const;

/**
 * The folder a model's textures and material files are read from: `resourceDir`, else the
 * format's `resourceRoot` when it is an ancestor of the input, else the input's folder.
 */
export function resourceRootOf(
  path: string,
  resourceRoot?: (p: string) => string,
  resourceDir?: string,
): string {
  if (resourceDir) return resolve(resourceDir);
  return resolve(chooseResourceRoot(resolve(path).split(sep).join('/'), resourceRoot));
}

async function gatherTree(root: string, group: number, out: Map<string, Uint8Array>): Promise<void> {
  const L = RESOURCE_GATHER_LIMITS;
  let files = 0;
  let bytes = 0;
  let entries = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > L.maxDepth || entries > L.maxEntries) return;
    let list: import('node:fs').Dirent[];
    try {
      list = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of list) {
      if (++entries > L.maxEntries || files >= L.maxFiles) return;
      const p = join(dir, e.name);
      // symbolic links are never followed: nothing outside the root is sent
      if (e.isDirectory()) await walk(p, depth + 1);
      else if (
        e.isFile() &&
        (L.extensions as readonly string[]).some((x) => e.name.toLowerCase().endsWith(x))
      ) {
        const size = (await lstat(p)).size;
        if (bytes + size > L.maxBytes) continue;
        bytes += size;
        files++;
        out.set(
          resourceKey(group, relative(root, p).split(sep).join('/')),
          new Uint8Array(await readFile(p)),
        );
      }
    }
  };
  await walk(root, 0);
}

/**
 * The files one input needs in the viewer: the input (first) and its companions, by base name,
 * then the resource tree its textures and material files come from (keys `@res<group>/…`, see
 * resource-pool.ts), read with the same rules as the CLI: below the format's resource root (or
 * `resourceDir`), no symbolic links followed.
 */
export async function gatherInput(
  path: string,
  options: GatherOptions = {},
): Promise<Map<string, Uint8Array>> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (e) {
    throw new LegacyError('FILE_NOT_FOUND', `cannot read ${path}: ${(e as Error).message}`);
  }
  const name = basename(path);
  const dir = dirname(path);
  const files = new Map<string, Uint8Array>([[name, bytes]]);
  const kind = sniff(bytes, name);
  let wanted: string[] = [];
  if (kind === 'gltf') {
    // external buffers and images next to a .gltf
    const json = JSON.parse(new TextDecoder().decode(bytes)) as {
      buffers?: { uri?: string }[];
      images?: { uri?: string }[];
    };
    wanted = [...(json.buffers ?? []), ...(json.images ?? [])]
      .map((r) => r.uri)
      .filter((u): u is string => !!u && !u.startsWith('data:'));
    for (const uri of wanted) {
      // the same refusals as the CLI: no absolute paths, no climbing out of the folder, no URIs
      const rel = resolveReference(uri, '', { uri: true, file: name });
      try {
        files.set(decodeURIComponent(uri), new Uint8Array(await readFile(join(dir, ...rel.split('/')))));
      } catch {
        // missing resource: the converter reports it
      }
    }
    return files;
  }
  if (typeof kind === 'object' && kind.companions) {
    const siblings = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isFile() && d.name !== name)
      .map((d) => d.name);
    wanted = kind.companions(name, siblings);
    for (const c of wanted)
      if (!files.has(c) && siblings.includes(c)) files.set(c, new Uint8Array(await readFile(join(dir, c))));
  }
  if (typeof kind === 'object') {
    const root = resourceRootOf(path, kind.resourceRoot?.bind(kind), options.resourceDir);
    await gatherTree(root, options.group ?? 0, files);
  }
  return files;
}
