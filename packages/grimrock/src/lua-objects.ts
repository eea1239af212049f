/**
 * What a mod's `defineObject{...}` calls link: the model an object shows and the animations it
 * plays. Legend of Grimrock 1 writes both in the object's table
 * (`defineObject{ model = "….fbx", animations = { idle = "….fbx" } }`); Grimrock 2 writes them in
 * its components (`components = { { class = "Model", model = "…" }, { class = "Animation",
 * animations = { … } } }`). Both are read: every `model` string and every `animations` table
 * anywhere in the object's table. Wrappers named `…defineObject` (`fw_defineObject` of the LNR
 * framework) count too. Scripts name the source asset (`.fbx`); the game loads the cooked one
 * (`.model`, `.animation`) of the same path: {@link cookedPath}.
 */
import { FormatError } from '@gltf-legacy/core';
import {
  callTable,
  checkLuaLength,
  LUA_READ_DEFAULTS,
  type LuaReadOptions,
  luaCalls,
  parseLua,
  tableFields,
} from './lua-parse.js';
import type { LuaField } from './lua-values.js';
import { decodeLuaText } from './lua-materials.js';

/** One object definition's links. */
export interface ObjectLinks {
  /** The `name` field ('' when it is not a string literal). */
  name: string;
  /** 1-based line of the call. */
  line: number;
  /** Every `model` string of the table, as written. */
  models: string[];
  /** Every entry of every `animations` table: the key (`idle`, `moveForward`) and the path as written. */
  animations: { key: string; path: string }[];
}

/** Bounds of {@link readObjectLinks}. */
export type ReadObjectLinksOptions = LuaReadOptions;

export const READ_OBJECT_LINKS_DEFAULTS: Required<ReadObjectLinksOptions> = LUA_READ_DEFAULTS;

/**
 * The models and animations the `defineObject` calls of a Lua file link. A Lua syntax error is a
 * `FormatError` (`LUA_SYNTAX`); a call whose argument is not a table literal is skipped.
 *
 * ```ts
 * const [o] = readObjectLinks('defineObject{ name = "x", model = "m/x.fbx", animations = { idle = "a/x_idle.fbx" } }');
 * o.models; // ['m/x.fbx']
 * o.animations; // [{ key: 'idle', path: 'a/x_idle.fbx' }]
 * ```
 */
export function readObjectLinks(
  input: string | Uint8Array,
  name = 'objects.lua',
  options: ReadObjectLinksOptions = {},
): ObjectLinks[] {
  const o = { ...READ_OBJECT_LINKS_DEFAULTS, ...options };
  const text = typeof input === 'string' ? input : decodeLuaText(input).text;
  checkLuaLength(text, o.maxLength, name);
  // files without the word need no parse
  if (!text.includes('defineObject')) return [];
  const calls = luaCalls(parseLua(text, name), (callee) => callee.endsWith('defineObject'));
  const out: ObjectLinks[] = [];
  for (const call of calls) {
    const table = callTable(call);
    if (!table) continue;
    if (out.length >= o.maxDefinitions) {
      throw new FormatError(`more than ${o.maxDefinitions} defineObject calls`, {
        code: 'COUNT_TOO_LARGE',
        file: name,
        offset: call.range![0],
      });
    }
    const fields = tableFields(table, text, 0);
    const links: ObjectLinks = {
      name: '',
      line: call.loc?.start.line ?? 0,
      models: [],
      animations: [],
    };
    for (const f of fields) if (f.key === 'name' && typeof f.value === 'string') links.name = f.value;
    collect(fields, links);
    if (links.models.length || links.animations.length) out.push(links);
  }
  return out;
}

/** `model` strings and `animations` tables anywhere in `fields` (an explicit stack: no recursion). */
function collect(fields: LuaField[], links: ObjectLinks): void {
  const stack: LuaField[][] = [fields];
  while (stack.length) {
    for (const f of stack.pop()!) {
      const v = f.value;
      if (f.key === 'model' && typeof v === 'string') links.models.push(v);
      else if (f.key === 'animations' && v && typeof v === 'object' && 'table' in v) {
        for (const a of v.table)
          if (typeof a.value === 'string') links.animations.push({ key: String(a.key ?? ''), path: a.value });
      } else if (v && typeof v === 'object' && 'table' in v) stack.push(v.table);
    }
  }
}

/**
 * The file the game loads for an asset path a script writes: `.fbx` → `kind` (`.model` for a
 * model, `.animation` for an animation); other paths unchanged.
 *
 * ```ts
 * cookedPath('mod_assets/animations/x_idle.fbx', '.animation'); // 'mod_assets/animations/x_idle.animation'
 * ```
 */
export function cookedPath(path: string, kind: '.model' | '.animation'): string {
  return /\.fbx$/i.test(path) ? path.slice(0, -4) + kind : path;
}
