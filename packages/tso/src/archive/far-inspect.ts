/** The `inspect` tables of a FAR archive: its version and every entry (type, id, name, sizes, compression). */
import type { InspectSection } from '@gltf-legacy/core';
import { hex8 } from '../outfit.js';
import { storedOffset } from './far-common.js';
import { type FarFile, farEntryExtension } from './far.js';
import { isFar3Compressed } from './far3.js';

/**
 * One section listing a FAR archive's entries.
 *
 * ```ts
 * inspectFar(readFar(bytes, 'cpanel.dat'), 'cpanel.dat'); // [{ title: 'cpanel.dat: FAR 3 archive', rows: [...] }]
 * ```
 */
export function inspectFar(far: FarFile, name: string): InspectSection[] {
  if (far.version === 1)
    return [
      {
        title: `${name}: FAR 1${far.variant.slice(1)} archive`,
        facts: { version: `1${far.variant.slice(1)}`, entries: far.entries.length },
        columns: ['name', 'size', 'offset'],
        rows: far.entries.map((e) => [e.name, e.size, storedOffset(e)]),
      },
    ];
  let packed = 0;
  let unpacked = 0;
  for (const e of far.entries) {
    packed += e.packedSize;
    unpacked += e.size;
  }
  return [
    {
      title: `${name}: FAR 3 archive`,
      facts: { version: 3, entries: far.entries.length, unpackedBytes: unpacked, storedBytes: packed },
      columns: ['type', 'kind', 'file id', 'name', 'size', 'stored', 'compression'],
      rows: far.entries.map((e) => [
        hex8(e.typeId),
        farEntryExtension(e.name, e.typeId),
        hex8(e.fileId),
        e.name,
        e.size,
        e.packedSize,
        isFar3Compressed(e) ? 'refpack' : 'none',
      ]),
    },
  ];
}
