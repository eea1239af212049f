/**
 * Where Urho3D finds resources: a resource name (`Models/X.mdl`, `Materials/Y.xml`,
 * `Textures/Z.dds`) is looked up in each resource directory in turn — the engine's defaults are
 * `Data` then `CoreData` beside the executable in `bin/`; projects add their own.
 *
 * The conversion root ({@link urhoResourceRoot}) is the folder holding those directories, so that
 * both are reachable; {@link UrhoResourceDirs} resolves names against them, always through core's
 * `resolveReference` (no reference leaves the root) and `ResourceReader.read`.
 */
import { baseName, dirOf, type ResourceReader, resolveReference } from '@gltf-legacy/core';

/** Names of the folders that hold resources of one kind inside a resource directory. */
export const URHO_RESOURCE_SUBDIRS = [
  'models',
  'materials',
  'textures',
  'objects',
  'scenes',
  'techniques',
  'shaders',
  'renderpaths',
  'animations',
  'particle',
  'ui',
  'fonts',
  'scripts',
  'sounds',
  'music',
];

const RESOURCE_DIR = /^(core)?data$/i;

/**
 * The conversion root for a main file at `path`: the parent of the nearest ancestor folder named
 * `Data` / `CoreData` (`bin` for `bin/Data/Models/X.mdl`); else the parent of the nearest
 * `Models` / `Objects` / `Scenes` / `Materials` folder (a resource directory of another name, or
 * one we exported); else the file's own folder (`.` when that is the current one).
 *
 * ```ts
 * urhoResourceRoot('/games/Urho3D/bin/Data/Objects/Ninja.xml'); // '/games/Urho3D/bin'
 * urhoResourceRoot('out/Models/Jack.mdl');                      // 'out'
 * urhoResourceRoot('Jack.mdl');                                 // '.'
 * ```
 */
export function urhoResourceRoot(path: string): string {
  const parts = path.replace(/\\/g, '/').split('/');
  parts.pop(); // the file
  const join = (n: number) => {
    const p = parts.slice(0, n).join('/');
    return p === '' ? (path.startsWith('/') ? '/' : '.') : p;
  };
  for (let i = parts.length - 1; i >= 0; i--) if (RESOURCE_DIR.test(parts[i])) return join(i);
  for (let i = parts.length - 1; i >= 0; i--)
    if (['models', 'objects', 'scenes', 'materials'].includes(parts[i].toLowerCase())) return join(i);
  return join(parts.length);
}

/** A file found for a resource name: its root-relative path, the name as resolved and the bytes. */
export interface FoundResource {
  path: string;
  bytes: Uint8Array;
}

/**
 * Resolves resource names against the resource directories below a reader's root.
 *
 * ```ts
 * const dirs = new UrhoResourceDirs(resources, 'Data/Objects/Ninja.xml');
 * const found = await dirs.find('Models/NinjaSnowWar/Ninja.mdl', 'Data/Objects/Ninja.xml');
 * found?.path; // 'Data/Models/NinjaSnowWar/Ninja.mdl'
 * ```
 */
export class UrhoResourceDirs {
  private siblings: string[] | undefined;
  /** Resource directories tried first, root-relative (`''` is the root itself). */
  readonly dirs: string[];
  /** The main file sits in a resource directory of the root (`Data/…`, `MyData/…`). */
  private readonly binLike: boolean;

  constructor(
    readonly resources: ResourceReader,
    /** Root-relative path of the main file. */
    readonly mainPath: string,
  ) {
    const first = mainPath.replace(/\\/g, '/').split('/')[0];
    const dirs: string[] = [];
    this.binLike = mainPath.includes('/') && !URHO_RESOURCE_SUBDIRS.includes(first.toLowerCase());
    if (this.binLike) dirs.push(first);
    for (const d of ['Data', 'CoreData', '']) if (!dirs.includes(d)) dirs.push(d);
    this.dirs = dirs;
  }

  /** The resource directory a root-relative path lies in (`Data` for `Data/Models/X.mdl`), or `''`. */
  resourceDirOf(path: string): string {
    const first = path.split('/')[0].toLowerCase();
    const known = [...this.dirs, ...(this.siblings ?? [])];
    return path.includes('/') && known.some((d) => d && d.toLowerCase() === first) ? path.split('/')[0] : '';
  }

  /** The resource name of a root-relative path (`Models/X.mdl` for `Data/Models/X.mdl`). */
  resourceName(path: string): string {
    const d = this.resourceDirOf(path);
    return d ? path.slice(d.length + 1) : path;
  }

  /**
   * Finds a resource: `name` is resolved against each resource directory (then every other
   * top-level folder of the root), and read. `tried` receives the paths looked at. Throws
   * ResourceError for names that leave the root or are URIs.
   */
  async find(name: string, file?: string, tried: string[] = []): Promise<FoundResource | undefined> {
    resolveReference(name, '', { file }); // refuses absolute paths, URIs, escapes at the root
    for (const d of this.dirs) {
      const found = await this.tryRead(name, d, file, tried);
      if (found) return found;
    }
    // Other top-level folders only below a bin-like root (the main file sits in a resource
    // directory of it): elsewhere the root is just the file's folder, not worth a recursive listing.
    for (const d of this.binLike ? await this.siblingDirs() : []) {
      const found = await this.tryRead(name, d, file, tried);
      if (found) return found;
    }
    return undefined;
  }

  /** Reads `ref` relative to a root-relative folder (no resource-directory search). */
  async tryRead(
    ref: string,
    dir: string,
    file?: string,
    tried: string[] = [],
  ): Promise<FoundResource | undefined> {
    const p = resolveReference(ref, dir, { file });
    if (!tried.includes(p)) tried.push(p);
    const actual = await this.resources.find(p);
    if (actual === undefined) return undefined;
    const bytes = await this.resources.read(actual);
    return bytes ? { path: actual, bytes } : undefined;
  }

  private async siblingDirs(): Promise<string[]> {
    if (this.siblings) return this.siblings;
    const set = new Set<string>();
    try {
      for (const p of await this.resources.list('', { recursive: true })) {
        const i = p.indexOf('/');
        if (i > 0) set.add(p.slice(0, i));
        if (set.size > 64) break;
      }
    } catch {
      // a reader that cannot list: only the fixed directories
    }
    this.siblings = [...set].filter(
      (d) =>
        !this.dirs.some((x) => x.toLowerCase() === d.toLowerCase()) &&
        !URHO_RESOURCE_SUBDIRS.includes(d.toLowerCase()),
    );
    return this.siblings;
  }
}

/** `Models/A/B.mdl` → `A/B`; the path below the first resource subfolder, without extension. */
export function subPathStem(resourceName: string): string {
  const parts = resourceName.split('/');
  if (parts.length > 1 && URHO_RESOURCE_SUBDIRS.includes(parts[0].toLowerCase())) parts.shift();
  const last = baseName(parts.pop() ?? '');
  const dot = last.lastIndexOf('.');
  return [...parts, dot > 0 ? last.slice(0, dot) : last].join('/');
}

export { dirOf };
