/**
 * Animations a mod links to a model only through its Lua: `defineObject{ model = "….fbx",
 * animations = { idle = "….fbx", … } }` (Grimrock 1) or the same in an object's components
 * (Grimrock 2), where the clips sit in another folder than the model (`mod_assets/animations/…`)
 * and are not named `NAME_*.animation` beside it. The game loads `.animation` for the `.fbx` a
 * script names; so do we, from the resource root (a mod folder or an unpacked `.dat`), never
 * outside it.
 */
import {
  FormatError,
  joinPath,
  ResourceError,
  type ResourceReader,
  resolveReference,
  type WarningCollector,
} from '@gltf-legacy/core';
import { cookedPath, readObjectLinks } from './lua-objects.js';
import { grimrockModRoot, MATERIAL_DISCOVERY_DEFAULTS, modLuaFiles } from './material-discovery.js';

/** Options of {@link findLinkedAnimations}. */
export interface AnimationLinkOptions {
  /** Attach the animations the mod's Lua links to the model (default true). */
  luaAnimations?: boolean;
  /** Most Lua files read (default 256, as for materials). */
  maxLuaFiles?: number;
  /** Largest Lua file read, in bytes (default 16 MiB). */
  maxLuaBytes?: number;
  /** Most Lua bytes read in all (default 64 MiB). */
  maxTotalLuaBytes?: number;
  /** Most animations linked to one model (default 1024). */
  maxLinkedAnimations?: number;
}

export const ANIMATION_LINK_DEFAULTS: Required<AnimationLinkOptions> = {
  luaAnimations: true,
  maxLuaFiles: MATERIAL_DISCOVERY_DEFAULTS.maxLuaFiles,
  maxLuaBytes: MATERIAL_DISCOVERY_DEFAULTS.maxLuaBytes,
  maxTotalLuaBytes: MATERIAL_DISCOVERY_DEFAULTS.maxTotalLuaBytes,
  maxLinkedAnimations: 1024,
};

/** One animation a script links to the model. */
export interface LinkedAnimation {
  /** Root-relative path of the `.animation` file found. */
  path: string;
  bytes: Uint8Array;
  /** The keys the scripts give it (`idle`, `moveForward`, …), in the order met. */
  keys: string[];
  /** Root-relative path of the Lua file and line of the `defineObject` that links it first. */
  lua: string;
  line: number;
}

/**
 * The `.animation` files the mod's `defineObject` calls link to the model at `resourcePath`
 * (root-relative), each once, in the order the scripts name them. Linked files that are not in
 * the resource root (the base game's `assets/animations/…`, clips the mod does not ship) are
 * warnings `ANIMATION_LINK_MISSING`; a path that leaves the root is never read
 * (`ANIMATION_LINK_REFUSED`); a Lua file that is not valid Lua is skipped (its materials report it).
 *
 * ```ts
 * const linked = await findLinkedAnimations(resources, 'mod_assets/models/monsters/x.model', {}, warnings);
 * linked.map((a) => a.path); // ['mod_assets/animations/monsters/x/x_idle.animation', …]
 * ```
 */
export async function findLinkedAnimations(
  resources: ResourceReader,
  resourcePath: string,
  options: AnimationLinkOptions,
  warnings: WarningCollector,
): Promise<LinkedAnimation[]> {
  const o = { ...ANIMATION_LINK_DEFAULTS };
  for (const [k, v] of Object.entries(options))
    if (v !== undefined && k in o) (o as Record<string, unknown>)[k] = v;
  if (!o.luaAnimations || !/\.model$/i.test(resourcePath)) return [];
  const modRoot = grimrockModRoot(resourcePath);
  const prefix = modRoot ? `${modRoot}/` : '';
  const self = resourcePath.toLowerCase();
  const wanted = new Map<string, { keys: string[]; lua: string; line: number; written: string }>();
  let total = 0;
  for (const lua of (await modLuaFiles(resources, resourcePath)).slice(0, o.maxLuaFiles)) {
    const bytes = await resources.read(lua);
    if (!bytes || bytes.length > o.maxLuaBytes || total + bytes.length > o.maxTotalLuaBytes) continue;
    total += bytes.length;
    let objects: ReturnType<typeof readObjectLinks>;
    try {
      objects = readObjectLinks(bytes, lua);
    } catch (e) {
      if (e instanceof FormatError) continue;
      throw e;
    }
    for (const object of objects) {
      const shows = object.models.some(
        (m) => (prefix + cookedPath(m.replace(/\\/g, '/'), '.model')).toLowerCase() === self,
      );
      if (!shows) continue;
      for (const { key, path } of object.animations) {
        const cooked = cookedPath(path.replace(/\\/g, '/'), '.animation');
        const id = cooked.toLowerCase();
        const seen = wanted.get(id);
        if (seen) {
          if (!seen.keys.includes(key)) seen.keys.push(key);
        } else if (wanted.size < o.maxLinkedAnimations) {
          wanted.set(id, { keys: [key], lua, line: object.line, written: cooked });
        }
      }
    }
  }
  const out: LinkedAnimation[] = [];
  for (const w of wanted.values()) {
    let path: string;
    try {
      path = resolveReference(w.written, modRoot, { file: w.lua });
    } catch (e) {
      if (!(e instanceof ResourceError)) throw e;
      warnings.warn(
        'ANIMATION_LINK_REFUSED',
        `${w.lua} line ${w.line}: animation "${w.written}" (${w.keys.join(', ')}) leaves the resource root; not read`,
      );
      continue;
    }
    const found = await resources.find(path);
    const bytes = found ? await resources.read(found) : undefined;
    if (!found || !bytes) {
      warnings.warn(
        'ANIMATION_LINK_MISSING',
        `${w.lua} line ${w.line}: animation ${joinPath(modRoot, w.written)} (${w.keys.join(', ')}) is not in ${
          /^assets\//i.test(w.written) ? "the mod (it is the base game's)" : 'the mod'
        }; not attached`,
      );
      continue;
    }
    out.push({ path: found, bytes, keys: w.keys, lua: w.lua, line: w.line });
  }
  return out;
}
