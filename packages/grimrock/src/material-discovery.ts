/**
 * Finding the Lua files that define a model's materials, the way a Grimrock mod is laid out:
 * `<mod root>/mod_assets/scripts/*.lua`, plugin scripts anywhere below `mod_assets`, and paths
 * in the Lua (`mod_assets/textures/...`) relative to the folder that holds `mod_assets`.
 */
import {
  dirOf,
  FormatError,
  joinPath,
  type ResourceReader,
  resolveReference,
  type WarningCollector,
} from '@gltf-legacy/core';
import { type MaterialDefinition, type MaterialsLuaFile, readMaterialsLua } from './lua-materials.js';

/** Bounds of the Lua files read for materials. */
export interface MaterialDiscoveryOptions {
  /** Lua files to read besides the mod's scripts (root-relative); they override same-named definitions. */
  materials?: string | string[];
  /** Most Lua files read (default 256). */
  maxLuaFiles?: number;
  /** Largest Lua file read, in bytes (default 16 MiB; larger ones are skipped with a warning). */
  maxLuaBytes?: number;
  /** Most Lua bytes read in all (default 64 MiB; files past it are skipped with a warning). */
  maxTotalLuaBytes?: number;
}

export const MATERIAL_DISCOVERY_DEFAULTS: Required<Omit<MaterialDiscoveryOptions, 'materials'>> = {
  maxLuaFiles: 256,
  maxLuaBytes: 16 * 1024 * 1024,
  maxTotalLuaBytes: 64 * 1024 * 1024,
};

/**
 * The folder Lua paths are relative to for a main file at `path`: the folder holding the nearest
 * `mod_assets` folder above it, else the file's own folder. This is `legacyFormat.resourceRoot`.
 *
 * ```ts
 * grimrockModRoot('/mods/eob/mod_assets/models/monsters/slug.model'); // '/mods/eob'
 * grimrockModRoot('out/hero.model'); // 'out'
 * ```
 */
export function grimrockModRoot(path: string): string {
  const parts = path.replace(/\\/g, '/').split('/');
  parts.pop();
  for (let i = parts.length - 1; i >= 0; i--) {
    if (parts[i].toLowerCase() === 'mod_assets') return parts.slice(0, i).join('/');
  }
  return parts.join('/');
}

/**
 * The Lua files of the mod a file at `resourcePath` sits in: every `.lua` below
 * `<mod root>/mod_assets` and beside the file, root-relative, sorted by path.
 *
 * ```ts
 * await modLuaFiles(resources, 'mod_assets/models/monsters/slug.model'); // ['mod_assets/scripts/materials.lua']
 * ```
 */
export async function modLuaFiles(resources: ResourceReader, resourcePath: string): Promise<string[]> {
  const modRoot = grimrockModRoot(resourcePath);
  const isLua = (p: string) => p.toLowerCase().endsWith('.lua');
  const found = new Set<string>();
  const below = await resources.list(joinPath(modRoot, 'mod_assets'), { recursive: true });
  for (const p of below) if (isLua(p)) found.add(p);
  for (const p of await resources.list(dirOf(resourcePath))) if (isLua(p)) found.add(p);
  return [...found].sort();
}

/** A definition with the root-relative path of the Lua file it came from. */
export interface FoundDefinition {
  definition: MaterialDefinition;
  file: MaterialsLuaFile;
  /** Root-relative path of the Lua file. */
  path: string;
}

/**
 * Reads the Lua files of the mod a model sits in and returns the material definitions by name.
 * Order: every `.lua` below `<modRoot>/mod_assets` and beside the model (sorted by path), then the
 * `materials` option files; a later definition of a name replaces an earlier one (as in the game,
 * where the last `defineMaterial` of a name wins). A discovered file that is not valid Lua is a
 * warning (`MATERIAL_FILE_INVALID`); a `materials` file that is not valid Lua is an error.
 *
 * ```ts
 * const defs = await findMaterialDefinitions(resources, 'mod_assets/models/monsters/slug.model', {}, warnings);
 * defs.get('basic_slug_material')?.path; // 'mod_assets/scripts/materials.lua'
 * ```
 */
export async function findMaterialDefinitions(
  resources: ResourceReader,
  resourcePath: string,
  options: MaterialDiscoveryOptions,
  warnings: WarningCollector,
): Promise<{ definitions: Map<string, FoundDefinition>; files: string[] }> {
  const o = { ...MATERIAL_DISCOVERY_DEFAULTS, ...stripUndefined(options) };
  let discovered = await modLuaFiles(resources, resourcePath);
  if (discovered.length > o.maxLuaFiles) {
    warnings.warn(
      'MATERIAL_FILES_LIMITED',
      `${discovered.length} Lua files in the mod; only the first ${o.maxLuaFiles} are read for materials`,
    );
    discovered = discovered.slice(0, o.maxLuaFiles);
  }
  const explicit = (
    typeof options.materials === 'string' ? [options.materials] : (options.materials ?? [])
  ).map((p) => resolveReference(p, '', { file: 'materials option' }));
  const definitions = new Map<string, FoundDefinition>();
  const read: string[] = [];
  let total = 0;
  const add = async (path: string, strict: boolean) => {
    const actual = (await resources.find(path)) ?? path;
    const bytes = await resources.read(actual);
    if (!bytes) {
      warnings.warn('MATERIAL_FILE_MISSING', `materials file ${path} not found`);
      return;
    }
    if (bytes.length > o.maxLuaBytes) {
      warnings.warn(
        'MATERIAL_FILE_SKIPPED',
        `${actual}: ${bytes.length} bytes is above the ${o.maxLuaBytes} read; skipped`,
      );
      return;
    }
    if (total + bytes.length > o.maxTotalLuaBytes) {
      warnings.warn(
        'MATERIAL_FILE_SKIPPED',
        `${actual}: the Lua files read reach ${o.maxTotalLuaBytes} bytes in all; skipped`,
      );
      return;
    }
    total += bytes.length;
    let file: MaterialsLuaFile;
    try {
      file = readMaterialsLua(bytes, actual);
    } catch (e) {
      if (strict || !(e instanceof FormatError)) throw e;
      warnings.warn('MATERIAL_FILE_INVALID', `${e.message}; its materials are not read`);
      return;
    }
    read.push(actual);
    for (const definition of file.definitions) {
      if (definition.name) definitions.set(definition.name, { definition, file, path: actual });
    }
  };
  for (const p of discovered)
    if (!explicit.some((e) => e.toLowerCase() === p.toLowerCase())) await add(p, false);
  for (const p of explicit) await add(p, true);
  return { definitions, files: read };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
