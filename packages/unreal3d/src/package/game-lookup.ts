/**
 * Textures of other packages, found the way the game finds them: a reference `Pkg.Group.Name`
 * names its package, which the engine loads by name from its search paths (UT99's
 * `Paths=../System/*.u`, `../Textures/*.utx`). Here: the package's own folder, then `System/` and
 * `Textures/` below the resource root (any case, through the caller's {@link ResourceReader}, so
 * nothing outside the root is read), `.u` and `.utx` in each.
 */
import { baseName, dirOf, FormatError, joinPath, type ResourceReader } from '@gltf-legacy/core';
import { readPackage, type UnrealPackage } from './package.js';
import { type PackageTextureFile, packageTextureFile } from './unpack.js';

/** Folders below the resource root a package is looked for in, in order. */
export const GAME_PACKAGE_FOLDERS = ['System', 'Textures'] as const;

/** Folders of a UE1 game install that hold packages. */
const GAME_FOLDERS = new Set(['system', 'textures', 'maps', 'sounds', 'music']);

/**
 * The game folder of a package at `path`: the parent of its `System/`, `Textures/`, `Maps/`,
 * `Sounds/` or `Music/` folder (any case), else the package's own folder. The CLI reads textures
 * of other packages below it (nothing outside).
 *
 * ```ts
 * packageGameDir('UT/System/HeadHunter.u'); // 'UT'
 * packageGameDir('downloads/HeadHunter.u'); // 'downloads'
 * ```
 */
export function packageGameDir(path: string): string {
  const dir = dirOf(path.replace(/\\/g, '/'));
  return GAME_FOLDERS.has(baseName(dir).toLowerCase()) ? dirOf(dir) : dir;
}

/**
 * Root-relative paths a package named `name` is looked for at: the folder of the package that
 * names it (`from`), then `System/`, then `Textures/`; in each `NAME.u`, then `NAME.utx` (`.utx`
 * first in `Textures/`). Duplicates removed.
 *
 * ```ts
 * packageSearchPaths('Botpack', 'System/HeadHunter.u');
 * // ['System/Botpack.u', 'System/Botpack.utx', 'Textures/Botpack.utx', 'Textures/Botpack.u']
 * ```
 */
export function packageSearchPaths(name: string, from?: string): string[] {
  const out: string[] = [];
  const add = (p: string) => {
    if (!out.some((o) => o.toLowerCase() === p.toLowerCase())) out.push(p);
  };
  const own = from === undefined ? undefined : dirOf(from);
  if (own !== undefined) for (const ext of ['.u', '.utx']) add(joinPath(own, `${name}${ext}`));
  add(`System/${name}.u`);
  add(`System/${name}.utx`);
  add(`Textures/${name}.utx`);
  add(`Textures/${name}.u`);
  return out;
}

/** A texture found in another package. */
export interface FoundPackageTexture {
  /** Root-relative path of the package file read. */
  path: string;
  /** `Pkg.Group.Name` of the texture in that package. */
  object: string;
  /** Mip 0 as a file: PCX (P8, palette as stored) or PNG. */
  file: PackageTextureFile;
}

/** The answer of {@link GameTextureLookup.find}: the texture, or why not, with every path tried. */
export interface GameTextureAnswer {
  found?: FoundPackageTexture;
  tried: string[];
  /** The package was found but does not hold the texture, or cannot be read (message). */
  problem?: string;
}

/** A package name as written in a reference: letters, digits, `_`, `-` (nothing that is a path). */
const PACKAGE_NAME = /^[A-Za-z0-9_][\w-]*$/;

/** Splits `Pkg.Group.Name` → package, group path, name; undefined without a package part. */
export function splitObjectPath(ref: string): { pkg: string; group: string; name: string } | undefined {
  const parts = ref.split('.');
  if (parts.length < 2 || parts.some((p) => !p)) return undefined;
  if (!PACKAGE_NAME.test(parts[0])) return undefined;
  return { pkg: parts[0], group: parts.slice(1, -1).join('.'), name: parts[parts.length - 1] };
}

/**
 * Looks textures up in the packages of a game folder; each package file is read and opened once
 * per lookup object (one conversion).
 *
 * ```ts
 * const lookup = new GameTextureLookup(resources, 'System/HeadHunter.u');
 * const { found, tried } = await lookup.find('Botpack.Skins.JSkull');
 * ```
 */
export class GameTextureLookup {
  private readonly packages = new Map<
    string,
    Promise<{ path?: string; pkg?: UnrealPackage; error?: string }>
  >();

  constructor(
    readonly resources: ResourceReader,
    /** Root-relative path of the package (or model) whose references are resolved. */
    readonly from?: string,
  ) {}

  private open(name: string, tried: string[]) {
    const key = name.toLowerCase();
    let p = this.packages.get(key);
    if (!p) {
      p = (async () => {
        for (const path of packageSearchPaths(name, this.from)) {
          const found = await this.resources.find(path);
          if (!found) continue;
          const bytes = await this.resources.read(found);
          if (!bytes) continue;
          try {
            return { path: found, pkg: readPackage(bytes, found) };
          } catch (e) {
            if (!(e instanceof FormatError)) throw e;
            return { path: found, error: e.message };
          }
        }
        return {};
      })();
      this.packages.set(key, p);
    }
    tried.push(...packageSearchPaths(name, this.from));
    return p;
  }

  /**
   * The texture `ref` (`Pkg.Group.Name` or `Pkg.Name`): its package is opened and its `Texture`
   * export of that name (the one with that group path first) written as a file. Never throws for
   * a missing or unreadable package: the answer says why, with the paths tried.
   */
  async find(ref: string): Promise<GameTextureAnswer> {
    const tried: string[] = [];
    const parts = splitObjectPath(ref);
    if (!parts) return { tried, problem: `${ref} names no package` };
    const opened = await this.open(parts.pkg, tried);
    if (!opened.path) return { tried };
    if (!opened.pkg) return { tried, problem: `${opened.path} cannot be read: ${opened.error}` };
    const pkg = opened.pkg;
    const want = ref.toLowerCase();
    let best = -1;
    for (const i of pkg.exportsOf('Texture')) {
      if (pkg.exportName(i).toLowerCase() !== parts.name.toLowerCase()) continue;
      if (best < 0) best = i;
      if (`${parts.pkg}.${pkg.refPath(i + 1)}`.toLowerCase() === want) {
        best = i;
        break;
      }
    }
    if (best < 0) return { tried, problem: `${opened.path} holds no texture ${parts.name}` };
    let file: PackageTextureFile | undefined;
    try {
      file = packageTextureFile(pkg, best);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      return { tried, problem: `${opened.path}: texture ${parts.name} cannot be read: ${e.message}` };
    }
    if (!file)
      return {
        tried,
        problem: `${opened.path}: texture ${parts.name} is in a format this reader does not decode`,
      };
    return { tried, found: { path: opened.path, object: `${parts.pkg}.${pkg.refPath(best + 1)}`, file } };
  }
}
