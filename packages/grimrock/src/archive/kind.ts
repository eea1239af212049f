/**
 * What an archive entry holds, sniffed from its bytes (its path is only a hash): the file kinds
 * the dungeon editor packs (`.lua`, `.model`, `.animation`, `.dds`, `.wav`, `.ogg`) and the mod
 * info of entry 0.
 */

export type EntryKind = 'model' | 'animation' | 'dds' | 'ogg' | 'wav' | 'lua' | 'modinfo' | 'bin';

/** File extension of each kind (`unnamed/<hash>.<ext>` when extracted). */
export const KIND_EXTENSIONS: Readonly<Record<EntryKind, string>> = {
  model: 'model',
  animation: 'animation',
  dds: 'dds',
  ogg: 'ogg',
  wav: 'wav',
  lua: 'lua',
  modinfo: 'modinfo',
  bin: 'bin',
};

function magic(b: Uint8Array, s: string, at = 0): boolean {
  if (b.length < at + s.length) return false;
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s.charCodeAt(i)) return false;
  return true;
}

/**
 * The kind of an entry's bytes.
 *
 * ```ts
 * sniffEntryKind(new TextEncoder().encode('MDL1\x02\0\0\0')); // 'model'
 * ```
 */
export function sniffEntryKind(b: Uint8Array): EntryKind {
  if (magic(b, 'MDL1')) return 'model';
  if (magic(b, 'ANIM')) return 'animation';
  if (magic(b, 'DDS ')) return 'dds';
  if (magic(b, 'OggS')) return 'ogg';
  if (magic(b, 'RIFF') && magic(b, 'WAVE', 8)) return 'wav';
  if (readModInfo(b)) return 'modinfo';
  return looksLikeText(b) ? 'lua' : 'bin';
}

/** Text: no NUL and at most 1 % control bytes other than tab, CR, LF in the first 4 KiB. */
function looksLikeText(b: Uint8Array): boolean {
  const n = Math.min(b.length, 4096);
  if (n === 0) return false;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = b[i];
    if (c === 0) return false;
    if (c < 32 && c !== 9 && c !== 10 && c !== 13) control++;
  }
  return control * 100 <= n;
}

/** The mod info the editor writes as entry 0: five `u32 length + bytes` strings. */
export interface ModInfo {
  uuid: string;
  name: string;
  author: string;
  description: string;
  /** The folder of the dungeon's scripts (`mod_assets/scripts`). */
  dungeonFolder: string;
}

/**
 * Reads the editor's mod info (entry 0 of an export), or undefined when `b` is not exactly five
 * length-prefixed strings, the first a 36-character UUID.
 */
export function readModInfo(b: Uint8Array): ModInfo | undefined {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < 5; i++) {
    if (at + 4 > b.length) return undefined;
    const n = dv.getUint32(at, true);
    at += 4;
    if (n > b.length - at) return undefined;
    out.push(new TextDecoder('latin1').decode(b.subarray(at, at + n)));
    at += n;
  }
  if (at !== b.length || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(out[0]))
    return undefined;
  const [uuid, name, author, description, dungeonFolder] = out;
  return { uuid, name, author, description, dungeonFolder };
}
