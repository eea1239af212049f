/**
 * The Lua parsing shared by the readers of mod scripts (`defineMaterial`, `defineObject`): luaparse
 * (a real Lua 5.1 parser: no `eval`, no Lua VM), the calls of a function found anywhere in the
 * file (definitions may sit in loops or functions), and table constructors as plain data.
 */
import { FormatError } from '@gltf-legacy/core';
import luaparse from 'luaparse';
import { decodeLuaString, type LuaField, type LuaValue, MAX_LUA_TABLE_DEPTH } from './lua-values.js';

/** Bounds of the readers of mod scripts (`readMaterialsLua`, `readObjectLinks`). */
export interface LuaReadOptions {
  /** Largest text read, in characters (default 16 MiB). */
  maxLength?: number;
  /** Most definitions read (default 65536). */
  maxDefinitions?: number;
}

export const LUA_READ_DEFAULTS: Required<LuaReadOptions> = {
  maxLength: 16 * 1024 * 1024,
  maxDefinitions: 65536,
};

/**
 * Refuses a script text longer than `maxLength` characters (`FormatError` `LUA_TOO_LARGE`).
 *
 * ```ts
 * checkLuaLength(text, LUA_READ_DEFAULTS.maxLength, 'objects.lua');
 * ```
 */
export function checkLuaLength(text: string, maxLength: number, name: string): void {
  if (text.length > maxLength)
    throw new FormatError(`Lua file of ${text.length} characters is above the ${maxLength} read`, {
      code: 'LUA_TOO_LARGE',
      file: name,
    });
}

/** A luaparse AST node (parsed with ranges and locations). */
export type LuaNode = { type: string; range?: [number, number]; loc?: { start: { line: number } } } & Record<
  string,
  unknown
>;

/**
 * Every call in `ast` whose callee is a plain name `wanted(name)` accepts (`f{...}`, `f(...)`,
 * `f"..."`), in source order; walked with an explicit stack (no recursion on hostile nesting).
 *
 * ```ts
 * luaCalls(parseLua(text, 'init.lua'), (n) => n === 'defineMaterial').length;
 * ```
 */
export function luaCalls(ast: LuaNode, wanted: (name: string) => boolean): LuaNode[] {
  const stack: unknown[] = [ast];
  const calls: LuaNode[] = [];
  while (stack.length) {
    const n = stack.pop();
    if (!n || typeof n !== 'object') continue;
    if (Array.isArray(n)) {
      for (let i = n.length - 1; i >= 0; i--) stack.push(n[i]);
      continue;
    }
    const node = n as LuaNode;
    if (
      node.type === 'TableCallExpression' ||
      node.type === 'CallExpression' ||
      node.type === 'StringCallExpression'
    ) {
      const base = node.base as LuaNode | undefined;
      if (base?.type === 'Identifier' && wanted(base.name as string)) calls.push(node);
    }
    for (const [k, v] of Object.entries(node))
      if (k !== 'loc' && k !== 'range' && v && typeof v === 'object') stack.push(v);
  }
  return calls.sort((a, b) => a.range![0] - b.range![0]);
}

/**
 * Parses Lua 5.1 text (luaparse: a parser, no VM). A syntax error is a `FormatError` `LUA_SYNTAX`
 * with the line; nesting too deep for the parser is `LUA_TOO_DEEP`.
 *
 * ```ts
 * const ast = parseLua('defineObject{ name = "x" }', 'objects.lua');
 * ```
 */
export function parseLua(text: string, name: string): LuaNode {
  try {
    return luaparse.parse(text, {
      luaVersion: '5.1',
      ranges: true,
      locations: true,
      comments: false,
      scope: false,
      encodingMode: 'none',
    }) as unknown as LuaNode;
  } catch (e) {
    const err = e as { line?: number; index?: number; column?: number; message?: string };
    if (e instanceof RangeError) {
      throw new FormatError('Lua nesting too deep to parse', { code: 'LUA_TOO_DEEP', file: name });
    }
    if (typeof err.line === 'number') {
      throw new FormatError(`Lua syntax error at line ${err.line}: ${err.message}`, {
        code: 'LUA_SYNTAX',
        file: name,
        offset: err.index,
        field: `line ${err.line}`,
      });
    }
    throw e;
  }
}

/** The table constructor a call passes (`f{...}` or `f({...})`), if that is its one argument. */
export function callTable(call: LuaNode): LuaNode | undefined {
  if (call.type === 'TableCallExpression') return call.arguments as LuaNode;
  if (call.type === 'CallExpression') {
    const args = call.arguments as LuaNode[];
    if (args.length === 1 && args[0].type === 'TableConstructorExpression') return args[0];
  }
  return undefined;
}

/** The fields of a table constructor as data (literals decoded, the rest as source text). */
export function tableFields(table: LuaNode, text: string, depth: number): LuaField[] {
  return (table.fields as LuaNode[]).map((f) => {
    const value = luaValueOf(f.value as LuaNode, text, depth);
    if (f.type === 'TableKeyString') return { key: (f.key as LuaNode).name as string, value };
    if (f.type === 'TableKey') {
      const k = luaValueOf(f.key as LuaNode, text, depth);
      if (typeof k === 'string' || typeof k === 'number') return { key: k, value };
      return { key: luaKeySource(f, text), value };
    }
    return { key: null, value };
  });
}

/** A key that is neither a string nor a number literal: its source text as a string key. */
function luaKeySource(f: LuaNode, text: string): string {
  const r = (f.key as LuaNode).range!;
  return text.slice(r[0], r[1]);
}

function luaValueOf(n: LuaNode, text: string, depth: number): LuaValue {
  switch (n.type) {
    case 'StringLiteral':
      return decodeLuaString(n.raw as string);
    case 'NumericLiteral':
      return n.value as number;
    case 'BooleanLiteral':
      return n.value as boolean;
    case 'NilLiteral':
      return null;
    case 'UnaryExpression': {
      const arg = n.argument as LuaNode;
      if (n.operator === '-' && arg.type === 'NumericLiteral') return -(arg.value as number);
      break;
    }
    case 'TableConstructorExpression':
      if (depth < MAX_LUA_TABLE_DEPTH) return { table: tableFields(n, text, depth + 1) };
      break;
  }
  return { lua: text.slice(n.range![0], n.range![1]) };
}
