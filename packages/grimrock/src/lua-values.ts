/**
 * Lua values of a `defineMaterial{...}` table as plain data, and back to Lua source: string
 * literals decoded from their source text (all escapes of Lua 5.1–5.3, long brackets), numbers,
 * booleans, `nil`, nested tables; anything else (an expression, a variable, a function call) is
 * kept as its source text in `{ lua }` so it can be written back unchanged.
 */

/** A Lua expression that is not a literal, kept as its source text. */
export interface LuaExpression {
  lua: string;
}

/** A Lua table constructor: its fields in source order. */
export interface LuaTable {
  table: LuaField[];
}

/** A value in a material table. `null` is Lua `nil`. */
export type LuaValue = string | number | boolean | null | LuaTable | LuaExpression;

/** One field of a table constructor; `key` is `null` for a positional field (`{ 1, 2 }`). */
export interface LuaField {
  key: string | number | null;
  value: LuaValue;
}

/** Nesting of tables kept as data; deeper tables are kept as source text. */
export const MAX_LUA_TABLE_DEPTH = 32;

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\u0007',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '\n': '\n',
  '\r': '\n',
};

/**
 * The value of a Lua string literal from its source text (quoted or long-bracket).
 *
 * ```ts
 * decodeLuaString('"a\\tb"'); // 'a\tb'
 * decodeLuaString('[==[x]==]'); // 'x'
 * ```
 */
export function decodeLuaString(raw: string): string {
  const long = /^\[(=*)\[/.exec(raw);
  if (long) {
    let body = raw.slice(long[0].length, raw.length - long[0].length);
    // A newline right after the opening bracket is skipped.
    if (body.startsWith('\r\n')) body = body.slice(2);
    else if (body.startsWith('\n') || body.startsWith('\r')) body = body.slice(1);
    return body;
  }
  const body = raw.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i] ?? '';
    if (e in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[e];
      if (e === '\r' && body[i + 1] === '\n') i++;
    } else if (e === 'x') {
      out += String.fromCharCode(Number.parseInt(body.slice(i + 1, i + 3), 16) || 0);
      i += 2;
    } else if (e === 'z') {
      while (i + 1 < body.length && /\s/.test(body[i + 1])) i++;
    } else if (e === 'u') {
      const m = /^\{([0-9a-fA-F]+)\}/.exec(body.slice(i + 1));
      if (m) {
        const cp = Number.parseInt(m[1], 16);
        out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
        i += m[0].length;
      }
    } else if (/[0-9]/.test(e)) {
      let digits = e;
      while (digits.length < 3 && /[0-9]/.test(body[i + 1] ?? '')) digits += body[++i];
      out += String.fromCharCode(Number(digits) & 0xff);
    } else out += e;
  }
  return out;
}

/**
 * A Lua double-quoted string literal for `s`.
 *
 * ```ts
 * luaString('say "hi"'); // '"say \\"hi\\""'
 * ```
 */
export function luaString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\${String(c).padStart(3, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Lua source of a number (integers without a fraction, others shortest round-trip). */
export function luaNumber(n: number): string {
  if (Number.isNaN(n)) return '(0/0)';
  if (n === Number.POSITIVE_INFINITY) return 'math.huge';
  if (n === Number.NEGATIVE_INFINITY) return '-math.huge';
  if (Object.is(n, -0)) return '-0';
  return String(n);
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEYWORDS = new Set(
  'and break do else elseif end false for function goto if in local nil not or repeat return then true until while'.split(
    ' ',
  ),
);

/** Lua source of a table key (`name`, `["odd key"]`, `[3]`). */
export function luaKey(key: string | number): string {
  if (typeof key === 'number') return `[${luaNumber(key)}]`;
  return IDENT.test(key) && !KEYWORDS.has(key) ? key : `[${luaString(key)}]`;
}

/**
 * Lua source of a value (tables on one line).
 *
 * ```ts
 * luaValue({ table: [{ key: null, value: 1 }, { key: 'a', value: 'x' }] }); // '{ 1, a = "x" }'
 * ```
 */
export function luaValue(v: LuaValue): string {
  if (v === null) return 'nil';
  if (typeof v === 'string') return luaString(v);
  if (typeof v === 'number') return luaNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if ('lua' in v) return v.lua;
  if (!v.table.length) return '{}';
  const parts = v.table.map((f) =>
    f.key === null ? luaValue(f.value) : `${luaKey(f.key)} = ${luaValue(f.value)}`,
  );
  return `{ ${parts.join(', ')} }`;
}

/** Deep equality of Lua values (numbers by value, `-0` = `0`; expressions by source text). */
export function sameLuaValue(a: LuaValue, b: LuaValue): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if ('lua' in a || 'lua' in b) return 'lua' in a && 'lua' in b && a.lua === b.lua;
  if (a.table.length !== b.table.length) return false;
  return a.table.every((f, i) => f.key === b.table[i].key && sameLuaValue(f.value, b.table[i].value));
}

/** Checks that `v` (e.g. read back from glTF extras JSON) is a well-formed {@link LuaValue}. */
export function isLuaValue(v: unknown, depth = 0): v is LuaValue {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return true;
  if (typeof v !== 'object' || depth > MAX_LUA_TABLE_DEPTH) return false;
  const o = v as Record<string, unknown>;
  if (typeof o.lua === 'string') return true;
  return Array.isArray(o.table) && o.table.every((f) => isLuaField(f, depth + 1));
}

/** Checks one field (see {@link isLuaValue}). */
export function isLuaField(f: unknown, depth = 0): f is LuaField {
  if (!f || typeof f !== 'object') return false;
  const o = f as Record<string, unknown>;
  const keyOk = o.key === null || typeof o.key === 'string' || typeof o.key === 'number';
  return keyOk && 'value' in o && isLuaValue(o.value, depth);
}
