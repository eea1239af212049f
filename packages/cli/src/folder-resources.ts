/**
 * The {@link ResourceReader} of a folder on disk: what a conversion may read besides its inputs
 * (textures, material files, `.uc`, prefabs, glTF buffers and images) is looked up below one root
 * folder and nowhere else.
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import {
  chooseResourceRoot,
  type LegacyFormat,
  MAX_RESOURCE_BYTES,
  type ResourceReader,
  ResourceError,
  resolveReference,
} from '@gltf-legacy/core';
import { FolderIndex } from './folder-index.js';

/** Options of {@link FolderResources}. */
export interface FolderResourcesOptions {
  /** Largest file read, in bytes (RESOURCE_TOO_LARGE above). Default: core's `MAX_RESOURCE_BYTES` (256 MiB). */
  maxBytes?: number;
  /** Most files one `list` returns and folder entries it looks at (a bound on huge trees). */
  maxListEntries?: number;
  /** Label for messages (default: the root path). */
  label?: string;
  /**
   * The folder listings to look names up in (default: one of this reader's own). A batch passes
   * one index to every input, so each folder is listed once per batch, not once per input.
   */
  index?: FolderIndex;
}

export const FOLDER_RESOURCES_DEFAULTS: Required<Omit<FolderResourcesOptions, 'label' | 'index'>> = {
  maxBytes: MAX_RESOURCE_BYTES,
  maxListEntries: 100_000,
};

/** The real path (symbolic links followed), or undefined when it cannot be resolved. */
function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/** Whether a directory entry exists (a dangling symbolic link counts), without an exception. */
function entryExists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENOTDIR, EACCES, …: as the promise version's rejection
  }
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Reads files below `root`, by root-relative `/` paths: an exact name first, then a
 * case-insensitive match per path segment (the games ran on Windows). Every path goes through
 * `resolveReference` (absolute paths, `..` above the root and URI schemes are refused), and a
 * file whose real path (symbolic links followed) leaves the root's real path is refused with
 * `PATH_ESCAPE`; a file above `maxBytes` with `RESOURCE_TOO_LARGE`. Missing files are `undefined`.
 *
 * The interface is asynchronous; the file system calls behind it are synchronous: each is one
 * quick system call, where a promise was a trip through libuv's thread pool (~0.1–0.3 ms each,
 * a dozen a texture; issue 19). Names are looked up in a {@link FolderIndex} (each folder listed
 * once, shared by a batch: issue 31); the security checks (`realpath` containment, the size
 * limit) still run on every file read.
 *
 * ```ts
 * const resources = new FolderResources('game/System');
 * await resources.read('../Textures/Skin.PCX'); // throws ResourceError PATH_ESCAPE
 * await resources.read('textures/skin.pcx');    // bytes of game/System/Textures/Skin.pcx
 * ```
 */
export class FolderResources implements ResourceReader {
  readonly label: string;
  readonly root: string;
  private readonly options: Required<Omit<FolderResourcesOptions, 'label' | 'index'>>;
  private realRoot?: string;
  private readonly index: FolderIndex;

  constructor(root: string, options: FolderResourcesOptions = {}) {
    this.root = resolve(root);
    this.label = options.label ?? this.root;
    const { index, label: _l, ...rest } = options;
    this.options = { ...FOLDER_RESOURCES_DEFAULTS, ...rest };
    this.index = index ?? new FolderIndex();
  }

  private rootReal(): string {
    this.realRoot ??= realOrUndefined(this.root) ?? this.root;
    return this.realRoot;
  }

  /**
   * The on-disk path of a root-relative path (case as on disk), or undefined; no escape checks.
   * Each segment is looked up in its folder's listing (exact, then case-folded); a folder that
   * cannot be listed (no read permission) falls back to the exact name.
   */
  private locate(rel: string): string | undefined {
    let cur = this.root;
    for (const seg of rel.split('/')) {
      if (!seg || seg === '.') continue;
      const listing = this.index.listing(cur);
      const found = listing ? listing.find(seg) : entryExists(join(cur, seg)) ? seg : undefined;
      if (found === undefined) return undefined;
      cur = join(cur, found);
    }
    return cur;
  }

  /**
   * Refuses a path whose real path leaves the root (a symbolic link out of it); undefined for a
   * dangling link, PATH_ESCAPE for one that cannot be resolved (a loop).
   */
  private checkInside(ref: string, abs: string): string | undefined {
    let real: string;
    try {
      real = realpathSync.native(abs);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw new ResourceError(
        'PATH_ESCAPE',
        ref,
        `cannot be resolved in the resource folder ${this.label} (${code ?? 'error'}: a symbolic link loop?)`,
      );
    }
    if (!inside(this.rootReal(), real))
      throw new ResourceError(
        'PATH_ESCAPE',
        ref,
        `is a symbolic link out of the resource folder ${this.label}; only files inside it are read`,
      );
    return real;
  }

  async find(path: string): Promise<string | undefined> {
    const rel = resolveReference(path, '');
    const abs = this.locate(rel);
    if (!abs) return undefined;
    const real = this.checkInside(path, abs);
    if (!real || !statSync(real).isFile()) return undefined;
    return relative(this.root, abs).split(sep).join('/');
  }

  async read(path: string): Promise<Uint8Array | undefined> {
    const rel = resolveReference(path, '');
    const abs = this.locate(rel);
    if (!abs) return undefined;
    const real = this.checkInside(path, abs);
    if (!real) return undefined;
    const info = statSync(real);
    if (!info.isFile()) return undefined;
    if (info.size > this.options.maxBytes)
      throw new ResourceError(
        'RESOURCE_TOO_LARGE',
        path,
        `is ${info.size} bytes, more than the ${this.options.maxBytes} bytes a resource may have`,
      );
    const b = readFileSync(real);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }

  async list(dir: string, options: { recursive?: boolean } = {}): Promise<string[]> {
    const rel = dir ? resolveReference(dir, '') : '';
    const abs = rel ? this.locate(rel) : this.root;
    if (!abs) return [];
    const rootReal = this.rootReal();
    if (!inside(rootReal, realOrUndefined(abs) ?? '')) return [];
    const out: string[] = [];
    let seen = 0;
    const walk = (d: string): void => {
      const entries = this.index.listing(d)?.entries;
      if (!entries) return;
      for (const e of entries) {
        if (++seen > this.options.maxListEntries) return;
        const p = join(d, e.name);
        if (e.kind === 'file') out.push(relative(this.root, p).split(sep).join('/'));
        else if (e.kind === 'link') {
          // listed only when it points at a file inside the root; linked folders are not walked
          const real = realOrUndefined(p);
          if (real && inside(rootReal, real) && statSync(real).isFile())
            out.push(relative(this.root, p).split(sep).join('/'));
        } else if (e.kind === 'dir' && options.recursive) walk(p);
      }
    };
    walk(abs);
    return out;
  }
}

/** Where a conversion's resources come from: the reader and the main file's path below its root. */
export interface InputResources {
  resources: FolderResources;
  /** The input's path relative to the root, `/`-separated. */
  resourcePath: string;
  /** The root folder (absolute). */
  root: string;
}

/**
 * The resource root of an input file: `resourceDir` (`--resource-dir`) when given, else the
 * format's `resourceRoot` (the folder the game treats as its data root) when it is an ancestor of
 * the input, else the input's folder. An input outside `resourceDir` sits at its root by name.
 *
 * ```ts
 * const { resources, resourcePath } = inputResources('game/Models/Skull_d.3d', unreal3d);
 * await format.import(files, { main, resources, resourcePath }); // resourcePath 'Models/Skull_d.3d'
 * ```
 */
export function inputResources(
  input: string,
  format?: Pick<LegacyFormat, 'resourceRoot'>,
  resourceDir?: string,
  index?: FolderIndex,
): InputResources {
  const abs = resolve(input);
  const root = resourceDir
    ? resolve(resourceDir)
    : resolve(chooseResourceRoot(abs.split(sep).join('/'), format?.resourceRoot?.bind(format)));
  const resourcePath =
    inside(root, abs) && abs !== root ? relative(root, abs).split(sep).join('/') : basename(abs);
  return { resources: new FolderResources(root, { index }), resourcePath, root };
}
