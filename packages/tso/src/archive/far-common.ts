/**
 * What FAR1 and FAR3 share: the 16-byte header (`FAR!byAZ`, u32 version, u32 manifest offset,
 * little-endian) and the checks on entry names and data ranges.
 */
import { type ByteReader, FormatError } from '@gltf-legacy/core';

const storedOffsets = new WeakMap<object, number>();

/**
 * Where an entry's data was in the archive it was read from (0 for a new entry). Kept beside the
 * model, not in it: the writer lays data out afresh, and `read(write(read(x)))` equals `read(x)`.
 *
 * ```ts
 * storedOffset(readFar3(bytes).entries[0]); // 16
 * ```
 */
export function storedOffset(entry: object): number {
  return storedOffsets.get(entry) ?? 0;
}

/** Records {@link storedOffset} for an entry just read. */
export function setStoredOffset<T extends object>(entry: T, offset: number): T {
  storedOffsets.set(entry, offset);
  return entry;
}

/** The 8-byte signature of every FAR archive. */
export const FAR_MAGIC = 'FAR!byAZ';

/** True when `bytes` start with `FAR!byAZ`. */
export function hasFarMagic(bytes: Uint8Array): boolean {
  if (bytes.length < 8) return false;
  for (let i = 0; i < 8; i++) if (bytes[i] !== FAR_MAGIC.charCodeAt(i)) return false;
  return true;
}

/** The FAR version of `bytes` (as stored), or undefined without `FAR!byAZ` and a whole 16-byte header. */
export function farVersion(bytes: Uint8Array): number | undefined {
  if (bytes.length < 16 || !hasFarMagic(bytes)) return undefined;
  return new DataView(bytes.buffer, bytes.byteOffset + 8, 4).getUint32(0, true);
}

/**
 * An entry name as stored (bytes, latin1), refused when it could not be a file name of the
 * archive: a NUL, an absolute path or drive, or a `..` segment (`BAD_NAME`).
 */
export function farName(
  r: ByteReader,
  length: number,
  field: string,
): { name: string; nameBytes: Uint8Array } {
  const at = r.offset;
  const nameBytes = r.bytesView(length, field);
  let name = '';
  for (let i = 0; i < nameBytes.length; i++) {
    if (nameBytes[i] === 0) throw r.error('entry name holds a NUL byte', field, 'BAD_NAME', at + i);
    name += String.fromCharCode(nameBytes[i]);
  }
  const segments = name.split(/[\\/]/);
  if (/^[\\/]/.test(name) || /^[a-z]:/i.test(name) || segments.includes('..'))
    throw r.error(`entry name "${name}" is absolute or climbs out with ".."`, field, 'BAD_NAME', at);
  return { name, nameBytes };
}

/** Throws `BAD_OFFSET` unless `[offset, offset + size)` lies inside the archive's data (after its header). */
export function checkRange(
  file: string | undefined,
  total: number,
  offset: number,
  size: number,
  at: number,
  field: string,
): void {
  if (offset < 16 || offset > total || size > total - offset)
    throw new FormatError(
      `entry data [${offset}, ${offset + size}) is outside the archive's data [16, ${total})`,
      { code: 'BAD_OFFSET', file, offset: at, field },
    );
}
