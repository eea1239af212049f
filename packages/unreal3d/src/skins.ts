/**
 * What a `.uc` class file says about the skins of a mesh: the `#exec TEXTURE IMPORT` lines (name →
 * `FILE=` as written), `#exec MESHMAP SETTEXTURE` slots, and the class's `defaultproperties`
 * `Skin=` / `MultiSkins(n)=` / `MultiSkins[n]=`. Pure text → data: no file is read here.
 */
import { type UcDirective, type UcFile, ucParam } from './uc.js';

/** One `#exec TEXTURE IMPORT` (the first import of a name; later `PALETTE=` re-imports are ignored). */
export interface UcTextureImport {
  /** `NAME=` as written. */
  name: string;
  /** `FILE=` as written (backslashes, any case), relative to the package folder. */
  file: string;
  /** The directive line as written. */
  raw: string;
  /** 0-based line number. */
  line: number;
  /** `FLAGS=` has PF_Masked (2) or `MASKED=1`: palette index 0 is transparent. */
  masked: boolean;
}

/**
 * The texture imports of a `.uc`, by lower-case name (first import of a name wins).
 *
 * ```ts
 * ucTextureImports(parseUc(text)).get('jsporifier')?.file; // 'Textures\\JSporifier.pcx'
 * ```
 */
export function ucTextureImports(uc: UcFile): Map<string, UcTextureImport> {
  const out = new Map<string, UcTextureImport>();
  for (const d of uc.directives) {
    if (d.command !== 'TEXTURE' || d.action !== 'IMPORT') continue;
    const name = ucParam(d, 'NAME');
    const file = ucParam(d, 'FILE');
    if (!name || !file || out.has(name.toLowerCase())) continue;
    out.set(name.toLowerCase(), { name, file, raw: d.raw, line: d.line, masked: isMaskedImport(d) });
  }
  return out;
}

function isMaskedImport(d: UcDirective): boolean {
  const flags = Number.parseInt(ucParam(d, 'FLAGS') ?? '', 10);
  const masked = (ucParam(d, 'MASKED') ?? '').trim().toLowerCase();
  return (Number.isFinite(flags) && (flags & 2) !== 0) || masked === '1' || masked === 'true';
}

/** Skins a class sets in its `defaultproperties` block. */
export interface UcDefaultSkins {
  /** `Skin=` texture name (package and group removed), if set and not `None`. */
  skin?: { name: string; raw: string; ref?: string };
  /** `MultiSkins(n)=` / `MultiSkins[n]=` by slot. */
  multiSkins: Map<number, { name: string; raw: string; ref?: string }>;
  /** Mesh names the block assigns (`Mesh=`, `PlayerViewMesh=`, `ThirdPersonMesh=`, …), lower case. */
  meshes: Set<string>;
}

/** Largest `defaultproperties` block read (characters); class files are a few KiB. */
const MAX_BLOCK = 1 << 20;
/** Longest property line read; longer ones are no skin assignment. */
const MAX_LINE = 4096;

/** `Texture'Pkg.Group.Name'`, `'Name'`, `"Name"` or `Name` → `Name` (undefined for `None`). */
export function objectName(value: string): string | undefined {
  let v = value.trim();
  const q = /^[A-Za-z_]\w*\s*'([^']*)'/.exec(v) ?? /^'([^']*)'/.exec(v) ?? /^"([^"]*)"/.exec(v);
  if (q) v = q[1];
  v = v.replace(/[;,\s].*$/, '');
  const name = v.slice(v.lastIndexOf('.') + 1);
  if (!name || name.toLowerCase() === 'none' || !/^[\w-]+$/.test(name)) return undefined;
  return name;
}

/**
 * `Texture'Pkg.Group.Name'` → `Pkg.Group.Name`: the whole object path when it has a package part
 * (a dot), else undefined (a plain name is looked up in the class's own imports only).
 *
 * ```ts
 * objectPath("Texture'Botpack.Skins.JSkull'"); // 'Botpack.Skins.JSkull'
 * ```
 */
export function objectPath(value: string): string | undefined {
  let v = value.trim();
  const q = /^[A-Za-z_]\w*\s*'([^']*)'/.exec(v) ?? /^'([^']*)'/.exec(v) ?? /^"([^"]*)"/.exec(v);
  if (q) v = q[1];
  v = v.replace(/[;,\s].*$/, '');
  return /^[\w-]+(\.[\w-]+)+$/.test(v) && objectName(v) !== undefined ? v : undefined;
}

/**
 * Reads the skins of a class's `defaultproperties` block (comments skipped, any case).
 *
 * ```ts
 * ucDefaultSkins("defaultproperties\n{\n Skin=Texture'Pkg.Skins.Keycard'\n Mesh=LodMesh'Keycard'\n}").skin?.name; // 'Keycard'
 * ```
 */
export function ucDefaultSkins(text: string): UcDefaultSkins {
  const out: UcDefaultSkins = { multiSkins: new Map(), meshes: new Set() };
  const start = text.search(/^[ \t]*defaultproperties\b/im);
  if (start < 0) return out;
  const block = text.slice(start, start + MAX_BLOCK);
  let inComment = false;
  // Lines from their first non-blank character (blank runs are skipped by the regex engine).
  for (const found of block.matchAll(/\S[^\r\n]*/g)) {
    const rawLine = found[0];
    if (rawLine.length > MAX_LINE) continue;
    let line = rawLine;
    if (inComment) {
      const end = line.indexOf('*/');
      if (end < 0) continue;
      line = line.slice(end + 2);
      inComment = false;
    }
    if (line.includes('/')) {
      line = line.replace(/\/\*.*?\*\//g, '');
      const open = line.indexOf('/*');
      if (open >= 0) {
        line = line.slice(0, open);
        inComment = true;
      }
      line = line.replace(/\/\/.*$/, '');
    }
    line = line.trim();
    if (line === '}') break;
    const m = /^([A-Za-z_]\w*)[ \t]*(?:[([][ \t]*(\d+)[ \t]*[)\]][ \t]*)?=[ \t]*(.+)$/.exec(line);
    if (!m) continue;
    const key = m[1].toLowerCase();
    if (key === 'skin') {
      const name = objectName(m[3]);
      if (name) out.skin = { name, raw: rawLine, ref: objectPath(m[3]) };
    } else if (key === 'multiskins' && m[2] !== undefined) {
      const slot = Number.parseInt(m[2], 10);
      const name = objectName(m[3]);
      if (name && slot < 256) out.multiSkins.set(slot, { name, raw: rawLine, ref: objectPath(m[3]) });
    } else if (key.endsWith('mesh')) {
      const name = objectName(m[3]);
      if (name) out.meshes.add(name.toLowerCase());
    }
  }
  return out;
}

/** Where a skin candidate came from. */
export type SkinSource = 'multiskins' | 'skin' | 'settexture';

/** One texture that could be drawn on a texture slot of a mesh, from one `.uc`. */
export interface SkinCandidate {
  /** The texture's object name (package and group removed). */
  name: string;
  /** `Pkg.Group.Name` as written, when the reference names a package (looked up in the game folder). */
  ref?: string;
  source: SkinSource;
  /** The `.uc` line that assigns it. */
  line: string;
  /** Index of the `.uc` (in the list given to {@link skinCandidates}). */
  uc: number;
}

/** A parsed `.uc` with what {@link skinCandidates} needs. */
export interface UcSkinSource {
  parsed: UcFile;
  /** The mesh name this `.uc` imports the data file as. */
  meshName: string;
  /** `ucDefaultSkins(parsed.text)`, when the caller has it already (asked once per slot otherwise). */
  defaults?: UcDefaultSkins;
}

/**
 * The textures a slot may show, in the engine's order of preference (UT's `UMesh::GetTexture`:
 * `MultiSkins[n]`, then for slot 0 the class's `Skin` before the mesh's own `SETTEXTURE`, for
 * other slots after it), over every `.uc` that describes the mesh (first `.uc` first within each
 * kind). `defaultproperties` count only when the class assigns this mesh.
 *
 * ```ts
 * skinCandidates([{ parsed, meshName: 'Sporifier' }], 0)[0]; // { name: 'JSporifier', source: 'settexture', … }
 * ```
 */
export function skinCandidates(sources: UcSkinSource[], slot: number): SkinCandidate[] {
  const multi: SkinCandidate[] = [];
  const skin: SkinCandidate[] = [];
  const set: SkinCandidate[] = [];
  sources.forEach((s, uc) => {
    const lname = s.meshName.toLowerCase();
    for (const d of s.parsed.directives) {
      if (d.command !== 'MESHMAP' || d.action !== 'SETTEXTURE') continue;
      if ((ucParam(d, 'MESHMAP') ?? '').toLowerCase() !== lname) continue;
      if (Math.trunc(Number.parseFloat(ucParam(d, 'NUM') ?? '0') || 0) !== slot) continue;
      const value = ucParam(d, 'TEXTURE');
      if (value) {
        // TEXTURE=Pkg.Group.Name names another package's texture; a plain name is kept as written
        const ref = objectPath(value);
        const name = ref ? ref.slice(ref.lastIndexOf('.') + 1) : value;
        const at = set.findIndex((c) => c.uc === uc);
        const c: SkinCandidate = { name, ref, source: 'settexture', line: d.raw, uc };
        if (at >= 0)
          set[at] = c; // a later SETTEXTURE of the same slot replaces the earlier one
        else set.push(c);
      }
    }
    const dp = s.defaults ?? ucDefaultSkins(s.parsed.text);
    if (!dp.meshes.has(lname)) return;
    const m = dp.multiSkins.get(slot);
    if (m) multi.push({ name: m.name, ref: m.ref, source: 'multiskins', line: m.raw.trim(), uc });
    if (dp.skin)
      skin.push({ name: dp.skin.name, ref: dp.skin.ref, source: 'skin', line: dp.skin.raw.trim(), uc });
  });
  return slot === 0 ? [...multi, ...skin, ...set] : [...multi, ...set, ...skin];
}
