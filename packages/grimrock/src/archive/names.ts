/**
 * Recovering the paths of archive entries, which the archive stores only as FNV-1a hashes: every
 * path-like string in the archive's own Lua scripts and models, with the game's renamings, joined
 * with the folders those strings name, and the dungeon editor's standard files. A path is
 * accepted only when its hash equals an entry's hash; a path that is absolute, climbs out (`..`)
 * or holds control characters is never accepted (`NAME_REFUSED`), so an extracted entry cannot
 * land outside the output folder.
 */
import { FNV_OFFSET, fnv1a32 } from './fnv.js';

/** The files a new dungeon editor project has (its `init.lua` imports them; `dungeon.lua` is the map). */
export const EDITOR_STANDARD_FILES: readonly string[] = [
  'init',
  'dungeon',
  'items',
  'monsters',
  'objects',
  'wall_sets',
  'recipes',
  'spells',
  'materials',
  'sounds',
].map((n) => `mod_assets/scripts/${n}.lua`);

/** The extensions the editor packs (modding guide: .lua, .model, .dds, .animation, .wav, .ogg). */
export const PACKED_EXTENSIONS: readonly string[] = ['.lua', '.model', '.animation', '.dds', '.wav', '.ogg'];

/**
 * The game's own renamings: scripts name the source asset, the archive holds the cooked one (an
 * `.fbx` is a model or an animation: `model = "x.fbx"`, `animations = { idle = "x_idle.fbx" }`).
 */
export const GAME_RENAMINGS: ReadonlyArray<readonly [string, string]> = [
  ['.fbx', '.model'],
  ['.fbx', '.animation'],
  ['.tga', '.dds'],
];

/** Bounds of name recovery. */
export interface NameRecoveryOptions {
  /** Most distinct strings taken from the archive's texts (default 65 536). */
  maxStrings?: number;
  /** Most folders strings are joined with (default 4 096). */
  maxFolders?: number;
  /** Most folder × word joins hashed (default 8 000 000, ~0.5 s). */
  maxJoins?: number;
}

export const NAME_RECOVERY_DEFAULTS: Required<NameRecoveryOptions> = {
  maxStrings: 65536,
  maxFolders: 4096,
  maxJoins: 8_000_000,
};

/** How a path was found. */
export type NameSource = 'editor' | 'string' | 'renamed' | 'joined';

export interface RecoveredName {
  path: string;
  source: NameSource;
}

export interface NameRecoveryNote {
  code: 'NAME_REFUSED' | 'NAMES_LIMITED';
  message: string;
}

/** What name recovery reads: each entry's hash, and the unpacked text of the ones that have strings. */
export interface NameRecoveryInput {
  hashes: readonly number[];
  /** Unpacked bytes of the Lua scripts and models (by entry index; others undefined). */
  texts: readonly (Uint8Array | undefined)[];
  /** Extra folders that hold the dungeon's scripts (the mod info's `dungeonFolder`). */
  scriptFolders?: readonly string[];
}

const QUOTED = /"([^"\r\n\0]{1,260})"|'([^'\r\n\0]{1,260})'/g;
// maximal runs of path characters (linear: no backtracking); kept when they end in an extension
const PATHLIKE = /[A-Za-z0-9_\-./\\]+/g;
const WORD = /^[A-Za-z0-9_\-. ]{1,64}$/;
const HAS_EXT = /\.[A-Za-z0-9]{1,10}$/;

/** True when `path` is a relative path that stays inside its root (no `..`, no root, no controls). */
export function isSafeEntryPath(path: string): boolean {
  if (!path || path.length > 1024 || path.startsWith('/') || path.includes(':') || path.includes('\\'))
    return false;
  for (let i = 0; i < path.length; i++)
    if (path.charCodeAt(i) < 32 || path.charCodeAt(i) === 127) return false;
  return path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

function renamed(path: string): string[] {
  const lower = path.toLowerCase();
  const out: string[] = [];
  for (const [from, to] of GAME_RENAMINGS)
    if (lower.endsWith(from)) out.push(path.slice(0, -from.length) + to);
  return out;
}

/**
 * Names entries by the strings of the archive. Returns the recovered name of each entry index
 * (missing = unnamed) and notes.
 *
 * ```ts
 * const { names } = recoverNames({ hashes: [0xe5d6d449], texts: [] });
 * names.get(0)?.path; // 'mod_assets/scripts/init.lua'
 * ```
 */
export function recoverNames(
  input: NameRecoveryInput,
  options: NameRecoveryOptions = {},
): { names: Map<number, RecoveredName>; notes: NameRecoveryNote[] } {
  const o = { ...NAME_RECOVERY_DEFAULTS, ...options };
  const names = new Map<number, RecoveredName>();
  const notes: NameRecoveryNote[] = [];
  const open = new Map<number, number[]>(); // hash → unnamed entry indices
  input.hashes.forEach((h, i) => {
    const list = open.get(h);
    if (list) list.push(i);
    else open.set(h, [i]);
  });
  const refused = new Set<string>();
  const tryPath = (path: string, source: NameSource, hash = fnv1a32(path)): void => {
    const list = open.get(hash);
    if (!list) return;
    if (!isSafeEntryPath(path)) {
      if (!refused.has(path)) {
        refused.add(path);
        notes.push({
          code: 'NAME_REFUSED',
          message: `${JSON.stringify(path)} hashes to entry ${list[0]} but is not a safe relative path; the entry stays unnamed`,
        });
      }
      return;
    }
    for (const i of list) names.set(i, { path, source });
    open.delete(hash);
  };

  for (const p of EDITOR_STANDARD_FILES) tryPath(p, 'editor');
  for (const f of input.scriptFolders ?? []) {
    tryPath(`${f}/init.lua`, 'editor');
    tryPath(`${f}/dungeon.lua`, 'editor');
  }

  // the strings of every script and model
  const strings = new Set<string>();
  const quoted = new Set<string>();
  const decoder = new TextDecoder('latin1');
  let limited = false;
  const add = (s: string) => {
    if (strings.size >= o.maxStrings) limited = true;
    else strings.add(s);
  };
  for (const bytes of input.texts) {
    if (!bytes || limited) continue;
    const text = decoder.decode(bytes);
    for (const m of text.matchAll(QUOTED)) {
      add(m[1] ?? m[2]);
      if (!limited) quoted.add(m[1] ?? m[2]);
    }
    for (const m of text.matchAll(PATHLIKE)) if (m[0].length <= 260 && HAS_EXT.test(m[0])) add(m[0]);
  }
  if (limited)
    notes.push({
      code: 'NAMES_LIMITED',
      message: `only the first ${o.maxStrings} strings of the archive's texts were tried as names`,
    });

  const folders = new Set<string>(['mod_assets/']);
  const words: string[] = [];
  for (const raw of strings) {
    const s = raw.replace(/\\/g, '/');
    const variants = new Set([s, s.toLowerCase()]);
    for (const v of [...variants]) {
      const lower = v.toLowerCase();
      if (v.includes('/') && !lower.startsWith('assets/') && !lower.startsWith('mod_assets/'))
        variants.add(`mod_assets/${v}`);
    }
    for (const v of variants) {
      tryPath(v, 'string');
      for (const r of renamed(v)) tryPath(r, 'renamed');
      // folders of asset references only: the game's paths start with assets/ or mod_assets/
      // (modding guide: "a valid asset reference"), and the editor packs mod_assets/
      const lower = v.toLowerCase();
      if (!lower.startsWith('mod_assets/') && !lower.startsWith('assets/')) continue;
      for (let i = v.indexOf('/'); i > 0; i = v.indexOf('/', i + 1)) {
        if (folders.size < o.maxFolders) folders.add(v.slice(0, i + 1));
      }
    }
    // words: quoted strings that could be a file name (`'timers'`, `"grim_bed_dif1.tga"`)
    if (quoted.has(raw) && WORD.test(s)) words.push(s);
  }

  // folder + word (+ extension): `'mod_assets/lnr/modules/'..name..'.lua'`, bare file names
  const plan = words.map((w) => ({ w, ext: HAS_EXT.test(w), renamed: renamed(w) }));
  let joins = 0;
  outer: for (const dir of folders) {
    const hd = fnv1a32(dir, FNV_OFFSET);
    for (const { w, ext, renamed: r } of plan) {
      if (open.size === 0) break outer;
      if (++joins > o.maxJoins) {
        notes.push({ code: 'NAMES_LIMITED', message: `folder × word joins stopped at ${o.maxJoins}` });
        break outer;
      }
      const hw = fnv1a32(w, hd);
      if (ext) {
        if (open.has(hw)) tryPath(dir + w, 'joined', hw);
        for (const x of r) {
          const hr = fnv1a32(x, hd);
          if (open.has(hr)) tryPath(dir + x, 'joined', hr);
        }
      } else {
        for (const e of PACKED_EXTENSIONS) {
          const he = fnv1a32(e, hw);
          if (open.has(he)) tryPath(dir + w + e, 'joined', he);
        }
      }
    }
  }
  return { names, notes };
}
