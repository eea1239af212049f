/**
 * A Grimrock archive (`.dat`) as a whole: the table, every entry unpacked (bounded by core's
 * unpack limits), its kind, and the names recovered from its own scripts and models.
 */
import { type FileSet, FormatError, type UnpackLimits, unpackLimits } from '@gltf-legacy/core';
import { hex8, readArchiveEntry, UnpackBudget } from './entry.js';
import { type EntryKind, KIND_EXTENSIONS, type ModInfo, readModInfo, sniffEntryKind } from './kind.js';
import { type NameRecoveryNote, type NameRecoveryOptions, type NameSource, recoverNames } from './names.js';
import { type ArchiveLayout, type ArchiveTableEntry, readArchiveTable } from './table.js';

export interface ArchiveEntry extends ArchiveTableEntry {
  /** The recovered path (its FNV-1a equals `hash`), or undefined: unnamed. */
  path?: string;
  /** How the path was found. */
  source?: NameSource;
  /** Sniffed from the bytes; `encrypted` when they cannot be read. */
  kind: EntryKind | 'encrypted';
  /** The unpacked bytes (undefined for an encrypted entry). */
  data?: Uint8Array;
}

export interface GrimrockArchive {
  file: string;
  layout: ArchiveLayout;
  entries: ArchiveEntry[];
  /** The editor's mod info (entry 0 of an export), when there is one. */
  modInfo?: ModInfo;
  notes: NameRecoveryNote[];
}

export interface ReadArchiveOptions extends NameRecoveryOptions {
  /** Bounds on the unpacked bytes (default: core's `unpackLimits()`, i.e. `--max-unpacked`). */
  limits?: Readonly<UnpackLimits>;
}

/**
 * Reads a whole archive: every entry unpacked, kinds sniffed, paths recovered. Encrypted entries
 * are listed (`kind: 'encrypted'`, no data); reading one is {@link archiveFiles}' error.
 *
 * ```ts
 * const archive = readGrimrockArchive(bytes, 'Fetch Quest.dat');
 * archive.entries[12].path; // 'mod_assets/grim_bed/models/env/grim_bed.model'
 * ```
 */
export function readGrimrockArchive(
  bytes: Uint8Array,
  file: string,
  options: ReadArchiveOptions = {},
): GrimrockArchive {
  const table = readArchiveTable(bytes, file);
  const budget = new UnpackBudget(file, options.limits ?? unpackLimits());
  const entries: ArchiveEntry[] = table.entries.map((e) => {
    if (e.storage === 'encrypted') return { ...e, kind: 'encrypted' };
    const data = readArchiveEntry(bytes, e, file, budget);
    return { ...e, data, kind: sniffEntryKind(data) };
  });
  const modEntry = entries.find((e) => e.kind === 'modinfo');
  const modInfo = modEntry?.data ? readModInfo(modEntry.data) : undefined;
  const { names, notes } = recoverNames(
    {
      hashes: entries.map((e) => e.hash),
      texts: entries.map((e) =>
        e.kind === 'lua' || e.kind === 'model' || e.kind === 'animation' ? e.data : undefined,
      ),
      scriptFolders: modInfo ? [modInfo.dungeonFolder] : [],
    },
    options,
  );
  for (const [i, n] of names) {
    entries[i].path = n.path;
    entries[i].source = n.source;
  }
  return { file, layout: table.layout, entries, modInfo, notes };
}

/** Where an unnamed entry goes: `unnamed/<hash>.<kind>` (`unnamed/352aabe8.dds`). */
export function unnamedPath(entry: Pick<ArchiveEntry, 'hash' | 'kind'>): string {
  const ext = entry.kind === 'encrypted' ? 'bin' : KIND_EXTENSIONS[entry.kind];
  return `unnamed/${hex8(entry.hash)}.${ext}`;
}

/**
 * The archive's files by path (recovered, else `unnamed/<hash>.<kind>`): what `unpack` gives the
 * converter, a resource tree like a mod folder. An encrypted entry is `ENCRYPTED_ENTRY`; two
 * entries of one path both stay (the later as `unnamed/<hash>~<index>.<kind>`).
 *
 * ```ts
 * const files = archiveFiles(readGrimrockArchive(bytes, 'Fetch Quest.dat'));
 * files.get('mod_assets/grim_bed/textures/env/grim_bed_dif.dds'); // DDS bytes
 * ```
 */
export function archiveFiles(archive: GrimrockArchive): FileSet {
  const out: FileSet = new Map();
  for (const e of archive.entries) {
    if (!e.data) {
      throw new FormatError(
        `entry ${e.index} (hash 0x${hex8(e.hash)}) is encrypted (flags ${e.flags}), as in the base game's archives; gltf-legacy ships no keys`,
        {
          code: 'ENCRYPTED_ENTRY',
          file: archive.file,
          offset: e.row + 16,
          field: `entries[${e.index}].flags`,
        },
      );
    }
    let path = e.path ?? unnamedPath(e);
    if (out.has(path)) path = unnamedPath(e).replace(/\.([a-z]+)$/, `~${e.index}.$1`);
    out.set(path, e.data);
  }
  return out;
}
