/**
 * FAR version 1 (The Sims, TSO's early data): header `FAR!byAZ`, u32 version 1, u32 manifest
 * offset; the manifest is a u32 count and per entry u32 size, u32 size again (a second size field,
 * equal in every known file), u32 data offset, the name length — u32 in variant `1a`, u16 in
 * `1b` — and the name. Entries are stored, never compressed. The file does not say its variant:
 * {@link readFar1} takes the one whose manifest ends exactly at the end of the file.
 */
import { ByteReader, ByteWriter, FormatError } from '@gltf-legacy/core';
import { checkRange, FAR_MAGIC, farName, setStoredOffset } from './far-common.js';

export type Far1Variant = '1a' | '1b';

export interface Far1Entry {
  name: string;
  /** The name's bytes as stored. */
  nameBytes: Uint8Array;
  /** Size (the first size field). */
  size: number;
  /** The second size field, as stored. */
  size2: number;
  /** The entry's bytes (a view into the archive). */
  data: Uint8Array;
}

export interface Far1File {
  version: 1;
  variant: Far1Variant;
  entries: Far1Entry[];
}

/** Options of {@link readFar1}. */
export interface ReadFar1Options {
  /** The name-length width; default: detected (the variant whose manifest ends at the end of the file). */
  variant?: Far1Variant;
}

function parse(
  bytes: Uint8Array,
  file: string | undefined,
  variant: Far1Variant,
): { far: Far1File; end: number } {
  const r = new ByteReader(bytes, { file });
  r.expectMagic(FAR_MAGIC);
  const version = r.u32('version');
  if (version !== 1) throw r.error(`FAR version ${version}, expected 1`, 'version', 'UNSUPPORTED_VERSION', 8);
  const manifestOffset = r.u32('manifestOffset');
  if (manifestOffset < 16) throw r.error('manifest overlaps the header', 'manifestOffset', 'BAD_OFFSET', 12);
  r.seek(manifestOffset, 'manifestOffset');
  const perEntry = variant === '1a' ? 16 : 14;
  const n = r.count(r.u32('count'), perEntry, 'count');
  const entries: Far1Entry[] = [];
  for (let i = 0; i < n; i++) {
    const field = `entries[${i}]`;
    const at = r.offset;
    const size = r.u32(`${field}.size`);
    const size2 = r.u32(`${field}.size2`);
    const offset = r.u32(`${field}.offset`);
    const nameLength = variant === '1a' ? r.u32(`${field}.nameLength`) : r.u16(`${field}.nameLength`);
    const { name, nameBytes } = farName(r, nameLength, `${field}.name`);
    checkRange(file, manifestOffset, offset, size, at, `${field}.offset`);
    entries.push(
      setStoredOffset({ name, nameBytes, size, size2, data: bytes.subarray(offset, offset + size) }, offset),
    );
  }
  // no entries: both variants are the same bytes (read as 1a)
  return { far: { version: 1, variant: n ? variant : '1a', entries }, end: r.offset };
}

/**
 * Reads a FAR1 archive (entries are views into `bytes`). Throws a {@link FormatError} naming the
 * file, offset and field: `BAD_MAGIC`, `TRUNCATED`, `COUNT_TOO_LARGE`, `BAD_OFFSET` (data outside
 * the area between header and manifest), `BAD_NAME` (NUL, absolute, `..`).
 *
 * ```ts
 * const far = readFar1(bytes, '1b.far'); // far.variant === '1b'
 * far.entries[0].name; // 'accessoryrack.otf'
 * ```
 */
export function readFar1(bytes: Uint8Array, file?: string, options: ReadFar1Options = {}): Far1File {
  if (options.variant) return parse(bytes, file, options.variant).far;
  let a: { far: Far1File; end: number } | undefined;
  let b: { far: Far1File; end: number } | undefined;
  let errA: unknown;
  try {
    a = parse(bytes, file, '1a');
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    errA = e;
  }
  if (a && a.end === bytes.length) return a.far;
  try {
    b = parse(bytes, file, '1b');
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    if (a) return a.far;
    // neither variant reads: the error of the likelier one (a 1b name's first two characters
    // make the high half of 1a's u32 name length non-zero; real names are far shorter than 64K)
    throw likely1b(bytes) ? e : (errA as FormatError);
  }
  if (b.end === bytes.length || !a) return b.far;
  return a.far;
}

function likely1b(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const manifest = dv.getUint32(12, true);
  return manifest + 4 + 16 <= bytes.length && dv.getUint16(manifest + 4 + 14, true) !== 0;
}

/**
 * Writes a FAR1 archive: header, the entries' data in table order, the manifest at the end (the
 * layout of the known archives, so `writeFar1(readFar1(b))` equals `b` for them). Offsets are
 * recomputed; the second size field is kept as read (equal to the size for new entries).
 *
 * ```ts
 * const bytes = writeFar1(createFar1(new Map([['a.otf', xml]]), '1b'));
 * ```
 */
export function writeFar1(far: Far1File): Uint8Array {
  const w = new ByteWriter();
  w.string(FAR_MAGIC);
  w.u32(1);
  const manifestAt = w.offset;
  w.u32(0);
  const offsets: number[] = [];
  for (const e of far.entries) {
    offsets.push(w.offset);
    w.bytes(e.data);
  }
  w.patchU32(manifestAt, w.offset);
  w.u32(far.entries.length);
  far.entries.forEach((e, i) => {
    w.u32(e.data.length);
    w.u32(e.size2 === e.size ? e.data.length : e.size2);
    w.u32(offsets[i]);
    if (far.variant === '1a') w.u32(e.nameBytes.length);
    else {
      if (e.nameBytes.length > 0xffff)
        throw new FormatError(`entry name of ${e.nameBytes.length} bytes does not fit FAR 1b's u16 length`, {
          code: 'NAME_TOO_LONG',
          field: `entries[${i}].name`,
        });
      w.u16(e.nameBytes.length);
    }
    w.bytes(e.nameBytes);
  });
  return w.finish();
}

/**
 * A FAR1 archive of files (name → bytes; names are latin1, one byte per character).
 *
 * ```ts
 * const far = createFar1(new Map([['objects/chair.iff', iff]]), '1a');
 * ```
 */
export function createFar1(files: Iterable<[string, Uint8Array]>, variant: Far1Variant = '1a'): Far1File {
  const entries: Far1Entry[] = [];
  for (const [name, data] of files) {
    const nameBytes = Uint8Array.from(name, (c) => c.charCodeAt(0) & 255);
    entries.push({ name, nameBytes, size: data.length, size2: data.length, data });
  }
  return { version: 1, variant, entries };
}
