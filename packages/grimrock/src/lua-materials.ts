/**
 * File model of the Lua scripts that define Grimrock materials: every `defineMaterial{...}` call
 * of a file, parsed with luaparse (a real Lua 5.1 parser: no `eval`, no Lua VM), with all of its
 * fields kept in source order and the exact source text of the call. Other definitions
 * (`defineObject`, `defineAnimationEvent`, …) and any other code are skipped.
 *
 * `writeMaterialsLua(readMaterialsLua(b))` is `b`, byte for byte: the file model keeps the whole
 * text (and its encoding), and each definition knows its source range.
 */
import { FormatError } from '@gltf-legacy/core';
import luaparse from 'luaparse';
import {
  callTable,
  checkLuaLength,
  LUA_READ_DEFAULTS,
  type LuaReadOptions,
  luaCalls,
  parseLua,
  tableFields,
} from './lua-parse.js';
import { type LuaField, type LuaValue, luaKey, luaValue, sameLuaValue } from './lua-values.js';

/** The typed fields of a Grimrock material, as the game reads them (all optional). */
export interface MaterialSettings {
  diffuseMap?: string;
  specularMap?: string;
  normalMap?: string;
  emissiveMap?: string;
  /** `Opaque`, `Translucent`, `Additive` or `Modulative`. */
  blendMode?: string;
  alphaTest?: boolean;
  doubleSided?: boolean;
  lighting?: boolean;
  /** Specular power (Blinn-Phong exponent). */
  glossiness?: number;
  depthBias?: number;
  /** `Wrap`, `Clamp`, … */
  textureAddressMode?: string;
}

/** One `defineMaterial{...}` call. */
export interface MaterialDefinition extends MaterialSettings {
  /** The `name` field ('' when it is not a string literal). */
  name: string;
  /** Every field of the table, in source order (the typed ones included). */
  fields: LuaField[];
  /** The exact source text of the call, from `defineMaterial` to the closing `}` or `)`. */
  text: string;
  /** Character range of {@link text} in the file's text. */
  start: number;
  end: number;
  /** 1-based line of the call. */
  line: number;
}

/** A Lua file read for its materials. */
export interface MaterialsLuaFile {
  /** File name (for messages and extras). */
  name: string;
  /** The whole text. */
  text: string;
  /** How bytes were decoded (`utf8` when valid UTF-8, else `latin1`, one byte per character). */
  encoding: 'utf8' | 'latin1';
  /** A UTF-8 byte order mark preceded the text. */
  bom: boolean;
  definitions: MaterialDefinition[];
  /** Lines of `defineMaterial` calls that could not be read as a literal table (skipped). */
  skipped: number[];
}

/** Bounds of {@link readMaterialsLua}. */
export type ReadMaterialsLuaOptions = LuaReadOptions;

export const READ_MATERIALS_LUA_DEFAULTS: Required<ReadMaterialsLuaOptions> = LUA_READ_DEFAULTS;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192)
    s += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 8192)));
  return s;
}

/** Bytes → text (UTF-8, else latin1), keeping what is needed to write the same bytes back. */
export function decodeLuaText(bytes: Uint8Array): {
  text: string;
  encoding: 'utf8' | 'latin1';
  bom: boolean;
} {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  try {
    return { text: utf8.decode(body), encoding: 'utf8', bom };
  } catch {
    return { text: latin1(bytes), encoding: 'latin1', bom: false };
  }
}

/** Text → bytes in the given encoding (characters above U+00FF become `?` in latin1). */
export function encodeLuaText(text: string, encoding: 'utf8' | 'latin1' = 'utf8', bom = false): Uint8Array {
  if (encoding === 'utf8') {
    const b = new TextEncoder().encode(text);
    if (!bom) return b;
    const out = new Uint8Array(b.length + 3);
    out.set([0xef, 0xbb, 0xbf]);
    out.set(b, 3);
    return out;
  }
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i] = c <= 0xff ? c : 0x3f;
  }
  return out;
}

/**
 * Reads the `defineMaterial{...}` calls of a Lua file. A Lua syntax error is a `FormatError`
 * (`LUA_SYNTAX`, with the line); text above the bound is `FormatError` `LUA_TOO_LARGE`.
 *
 * ```ts
 * const file = readMaterialsLua(bytes, 'mod_assets/scripts/materials.lua');
 * file.definitions.find((d) => d.name === 'basic_slug_material')?.diffuseMap;
 * // 'mod_assets/textures/monsters/slug_dif.tga'
 * ```
 */
export function readMaterialsLua(
  input: string | Uint8Array,
  name = 'materials.lua',
  options: ReadMaterialsLuaOptions = {},
): MaterialsLuaFile {
  const o = { ...READ_MATERIALS_LUA_DEFAULTS, ...options };
  const decoded =
    typeof input === 'string' ? { text: input, encoding: 'utf8' as const, bom: false } : decodeLuaText(input);
  const { text } = decoded;
  checkLuaLength(text, o.maxLength, name);
  const file: MaterialsLuaFile = { name, ...decoded, definitions: [], skipped: [] };
  // Files without the word need no parse (a large dungeon.lua defines objects, not materials).
  if (!text.includes('defineMaterial')) return file;
  const calls = luaCalls(parseLua(text, name), (callee) => callee === 'defineMaterial');
  for (const call of calls) {
    const line = call.loc?.start.line ?? 0;
    const table = callTable(call);
    if (!table) {
      file.skipped.push(line);
      continue;
    }
    if (file.definitions.length >= o.maxDefinitions) {
      throw new FormatError(`more than ${o.maxDefinitions} defineMaterial calls`, {
        code: 'COUNT_TOO_LARGE',
        file: name,
        offset: call.range![0],
        field: `line ${line}`,
      });
    }
    const [start, end] = call.range!;
    const fields = tableFields(table, text, 0);
    file.definitions.push({ ...settingsOf(fields), fields, text: text.slice(start, end), start, end, line });
  }
  return file;
}

function settingsOf(fields: LuaField[]): MaterialSettings & { name: string } {
  const get = (k: string) => {
    let v: LuaValue | undefined;
    for (const f of fields) if (f.key === k) v = f.value; // the last one wins, as in Lua
    return v;
  };
  const str = (k: string) => {
    const v = get(k);
    return typeof v === 'string' ? v : undefined;
  };
  const num = (k: string) => {
    const v = get(k);
    return typeof v === 'number' ? v : undefined;
  };
  const bool = (k: string) => {
    const v = get(k);
    return typeof v === 'boolean' ? v : undefined;
  };
  const s: MaterialSettings & { name: string } = { name: str('name') ?? '' };
  for (const k of [
    'diffuseMap',
    'specularMap',
    'normalMap',
    'emissiveMap',
    'blendMode',
    'textureAddressMode',
  ] as const) {
    const v = str(k);
    if (v !== undefined) s[k] = v;
  }
  for (const k of ['alphaTest', 'doubleSided', 'lighting'] as const) {
    const v = bool(k);
    if (v !== undefined) s[k] = v;
  }
  for (const k of ['glossiness', 'depthBias'] as const) {
    const v = num(k);
    if (v !== undefined) s[k] = v;
  }
  return s;
}

/**
 * The bytes of a materials file as read (byte-exact inverse of {@link readMaterialsLua}).
 *
 * ```ts
 * writeMaterialsLua(readMaterialsLua(bytes)); // identical bytes
 * ```
 */
export function writeMaterialsLua(file: MaterialsLuaFile): Uint8Array {
  return encodeLuaText(file.text, file.encoding, file.bom);
}

/**
 * True when `source` is exactly one Lua expression (what a `{ lua }` value must be before it is
 * written into a table: text from a `.glb` made elsewhere must not close the table and run code).
 *
 * ```ts
 * isLuaExpression('base .. "a.tga"'); // true
 * isLuaExpression('1 } os.execute("x") defineMaterial{'); // false
 * ```
 */
export function isLuaExpression(source: string): boolean {
  if (source.length > 65536) return false;
  try {
    const ast = luaparse.parse(`local _ = ${source}`, {
      luaVersion: '5.1',
      ranges: true,
      comments: false,
    }) as unknown as {
      body: { type: string; init: unknown[] }[];
    };
    return ast.body.length === 1 && ast.body[0].type === 'LocalStatement' && ast.body[0].init.length === 1;
  } catch {
    return false;
  }
}

/**
 * True when `text` is exactly one `defineMaterial{...}` call (nothing before or after it but
 * whitespace) whose fields are `fields`: a kept source text from a `.glb` is written back only then.
 *
 * ```ts
 * isDefinitionText(def.text, def.fields); // true for a definition read from a file
 * ```
 */
export function isDefinitionText(text: string, fields: LuaField[]): boolean {
  let file: MaterialsLuaFile;
  try {
    file = readMaterialsLua(text, 'kept.lua');
  } catch {
    return false;
  }
  if (file.definitions.length !== 1 || file.skipped.length) return false;
  const d = file.definitions[0];
  if (text.slice(0, d.start).trim() || text.slice(d.end).trim()) return false;
  return (
    d.fields.length === fields.length &&
    d.fields.every((f, i) => f.key === fields[i].key && sameLuaValue(f.value, fields[i].value))
  );
}

/**
 * Source text of one `defineMaterial{...}` call from its fields, in the layout of the Dungeon
 * Editor's files (one field per line, tab-indented, trailing commas).
 *
 * ```ts
 * formatDefineMaterial([{ key: 'name', value: 'rock' }, { key: 'glossiness', value: 20 }]);
 * // 'defineMaterial{\n\tname = "rock",\n\tglossiness = 20,\n}'
 * ```
 */
export function formatDefineMaterial(fields: LuaField[]): string {
  const lines = fields.map((f) => `\t${f.key === null ? '' : `${luaKey(f.key)} = `}${luaValue(f.value)},`);
  return `defineMaterial{\n${lines.join('\n')}\n}`;
}

/**
 * A materials file made of definition texts: a header comment, then each definition separated by
 * one blank line, ending with a newline.
 *
 * ```ts
 * const lua = materialsLuaText(['defineMaterial{\n\tname = "a",\n}'], 'hero');
 * ```
 */
export function materialsLuaText(definitions: string[], modelName: string): string {
  const header = `-- Materials of ${modelName.replace(/[\r\n]/g, ' ')} (written by gltf-legacy)\n\n`;
  return `${header}${definitions.join('\n\n')}\n`;
}
