/**
 * Names of the skins an export writes into a fresh `.uc`: texture names and `FILE=` names come
 * from glTF names, URIs and extras (untrusted text), so they are reduced to what UCC and our own
 * importer accept — an identifier for `NAME=`, a plain file name for `FILE=` (printable ASCII
 * letters, digits, `_` and `-`, one `.pcx`/`.bmp` extension: no separator, no NUL, no `..`).
 */
import type { UcTexture } from './uc.js';

/** A `FILE=` base name the export writes as it is. */
const SAFE_FILE = /^[A-Za-z0-9_][A-Za-z0-9_-]*\.(pcx|bmp)$/i;

/**
 * An UnrealScript identifier for a texture name (`Walk skin` → `Walk_skin`; empty → `Skin{num}`).
 *
 * ```ts
 * safeSkinName('Jt\u0000x', 0); // 'Jt_x'
 * safeSkinName('', 3);          // 'Skin3'
 * ```
 */
export function safeSkinName(name: string | undefined, num: number): string {
  let out = (name ?? '').replace(/[^A-Za-z0-9_]/g, '_');
  if (!out) out = `Skin${num}`;
  if (/^[0-9]/.test(out)) out = `_${out}`;
  return out;
}

/**
 * A plain file name for a skin: the base name of `file` (after the last `/` or `\`) when it is a
 * safe `.pcx`/`.bmp` name, else its stem made safe (`.bmp` kept), else `NAME.pcx`.
 *
 * ```ts
 * safeSkinFile('Textures\\JSporifier.pcx', 'JSporifier'); // 'JSporifier.pcx'
 * safeSkinFile('a\u0000b.pcx', 'Skin');                   // 'a_b.pcx'
 * safeSkinFile('..', 'Skin');                             // 'Skin.pcx'
 * ```
 */
export function safeSkinFile(file: string | undefined, name: string): string {
  const base = (file ?? '').split(/[\\/]/).pop() ?? '';
  if (SAFE_FILE.test(base)) return base;
  const ext = /\.bmp$/i.test(base) ? 'bmp' : 'pcx';
  const stem = base
    .replace(/\.(pcx|bmp)$/i, '')
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .replace(/^[-]/, '_');
  // A stem of separators or dots only says nothing: use the texture name.
  return /[A-Za-z0-9]/.test(stem) ? `${stem}.${ext}` : `${safeSkinName(name, 0)}.${ext}`;
}

/**
 * The skin list of a fresh `.uc` with every name and file made safe ({@link safeSkinName},
 * {@link safeSkinFile}); entries already safe are returned unchanged (same objects).
 *
 * ```ts
 * safeUcTextures([{ num: 0, name: 'a b', file: 'x\u0000.pcx' }]); // [{ num: 0, name: 'a_b', file: 'x_.pcx' }]
 * ```
 */
export function safeUcTextures(textures: UcTexture[]): UcTexture[] {
  return textures.map((t) => {
    const name = safeSkinName(t.name, t.num);
    const file = t.file === undefined ? undefined : safeSkinFile(t.file, name);
    if (name === t.name && file === t.file) return t;
    const out: UcTexture = { num: t.num, name };
    if (file !== undefined) out.file = file;
    return out;
  });
}

/**
 * The file `writeUc` makes the `.uc` import for texture slot `num` (relative to the package
 * folder): the `FILE=` of the FIRST texture of that slot's name (later imports of one name are
 * not written), `Textures/NAME.pcx` without one; undefined when the slot has no texture.
 *
 * ```ts
 * ucSkinFile([{ num: 0, name: 'A', file: 'a.pcx' }, { num: 1, name: 'A', file: 'b.pcx' }], 1); // 'Textures/a.pcx'
 * ```
 */
export function ucSkinFile(textures: UcTexture[], num: number, folder = 'Textures'): string | undefined {
  const t = textures.find((x) => x.num === num);
  if (!t) return undefined;
  const first = textures.find((x) => x.name.toLowerCase() === t.name.toLowerCase()) ?? t;
  const file = first.file ?? `${first.name}.pcx`;
  return folder ? `${folder}/${file}` : file;
}
