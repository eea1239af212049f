/**
 * The bytes of one archive entry: stored, or `u32 size` + zlib stream; encrypted entries are
 * refused (`ENCRYPTED_ENTRY`: we ship no keys). Sizes are checked against core's unpack limits
 * (`--max-unpacked`) before anything is allocated.
 */
import { FormatError, type UnpackLimits, unpackLimits } from '@gltf-legacy/core';
import type { ArchiveTableEntry } from './table.js';
import { inflateZlibExact } from './zlib.js';

/** Counts the unpacked bytes of one archive against {@link UnpackLimits}. */
export class UnpackBudget {
  private total = 0;
  constructor(
    readonly file: string,
    readonly limits: Readonly<UnpackLimits> = unpackLimits(),
  ) {}

  /** Reserves `size` bytes for `entry`, or throws `UNPACKED_TOO_LARGE`. */
  take(entry: ArchiveTableEntry): void {
    const at = entry.row + 12;
    const field = `entries[${entry.index}].size`;
    if (entry.size > this.limits.maxEntryBytes) {
      throw new FormatError(
        `entry of ${entry.size} bytes is above the ${this.limits.maxEntryBytes} allowed per entry (--max-unpacked)`,
        { code: 'UNPACKED_TOO_LARGE', file: this.file, offset: at, field },
      );
    }
    if (this.total + entry.size > this.limits.maxTotalBytes) {
      throw new FormatError(
        `entries unpack to more than the ${this.limits.maxTotalBytes} bytes allowed per archive (--max-unpacked)`,
        { code: 'UNPACKED_TOO_LARGE', file: this.file, offset: at, field },
      );
    }
    this.total += entry.size;
  }
}

/**
 * The unpacked bytes of `entry` (a view into `bytes` when stored).
 *
 * ```ts
 * const { entries } = readArchiveTable(bytes, 'Fetch Quest.dat');
 * const model = readArchiveEntry(bytes, entries[12], 'Fetch Quest.dat'); // MDL1…
 * ```
 */
export function readArchiveEntry(
  bytes: Uint8Array,
  entry: ArchiveTableEntry,
  file: string,
  budget: UnpackBudget = new UnpackBudget(file),
): Uint8Array {
  const field = `entries[${entry.index}]`;
  if (entry.storage === 'encrypted') {
    throw new FormatError(
      `entry ${entry.index} (hash 0x${hex8(entry.hash)}) is encrypted (flags ${entry.flags}), as in the base game's archives; gltf-legacy ships no keys`,
      {
        code: 'ENCRYPTED_ENTRY',
        file,
        offset: entry.offset,
        field: `${field}.flags`,
      },
    );
  }
  budget.take(entry);
  if (entry.storage === 'stored') return bytes.subarray(entry.offset, entry.offset + entry.size);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const inner = dv.getUint32(entry.offset, true);
  if (inner !== entry.size) {
    throw new FormatError(`the entry's own size ${inner} differs from the table's ${entry.size}`, {
      code: 'SIZE_MISMATCH',
      file,
      offset: entry.offset,
      field: `${field}.size`,
    });
  }
  const stream = bytes.subarray(entry.offset + 4, entry.offset + entry.compressedSize);
  return inflateZlibExact(stream, entry.size, {
    file,
    offset: entry.offset + 4,
    field: `${field}.data`,
  });
}

/** `0x`-less, zero-padded lower-case hex of a u32 (`0aee7979`). */
export function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}
