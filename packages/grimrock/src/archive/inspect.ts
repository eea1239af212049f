/** `gltf-legacy inspect` of a Grimrock archive: the table, recovered paths, kinds, sizes. */
import type { InspectSection } from '@gltf-legacy/core';
import { type GrimrockArchive, readGrimrockArchive } from './archive.js';
import { hex8 } from './entry.js';

/**
 * Sections for an archive: facts (layout, entries, named, mod info) and one row per entry:
 * hash, recovered path or `unnamed`, kind, stored and unpacked size, storage.
 *
 * ```ts
 * inspectArchive(bytes, 'Fetch Quest.dat')[1].rows?.[12];
 * // [12, '0aee7979', 'mod_assets/grim_bed/models/env/grim_bed.model', 'model', 45493, 78423, 'zlib', 'renamed']
 * ```
 */
export function inspectArchive(bytes: Uint8Array, file: string): InspectSection[] {
  return archiveSections(readGrimrockArchive(bytes, file));
}

/** {@link inspectArchive} of an archive already read. */
export function archiveSections(a: GrimrockArchive): InspectSection[] {
  const named = a.entries.filter((e) => e.path).length;
  const facts: Record<string, string | number> = {
    layout: a.layout,
    entries: a.entries.length,
    named,
    unnamed: a.entries.length - named,
    encrypted: a.entries.filter((e) => e.storage === 'encrypted').length,
    unpackedBytes: a.entries.reduce((s, e) => s + (e.data ? e.size : 0), 0),
  };
  if (a.modInfo) {
    facts.dungeonName = a.modInfo.name;
    facts.author = a.modInfo.author;
    facts.uuid = a.modInfo.uuid;
    facts.dungeonFolder = a.modInfo.dungeonFolder;
  }
  for (const n of a.notes) facts[n.code] = n.message;
  return [
    { title: `Archive ${a.file}`, facts },
    {
      title: 'Entries',
      columns: ['#', 'hash', 'path', 'kind', 'stored', 'size', 'storage', 'named by'],
      rows: a.entries.map((e) => [
        e.index,
        hex8(e.hash),
        e.path ?? 'unnamed',
        e.kind,
        e.compressedSize || e.size,
        e.size,
        e.storage,
        e.source ?? (e.kind === 'modinfo' ? 'mod info (entry role)' : '-'),
      ]),
    },
  ];
}
