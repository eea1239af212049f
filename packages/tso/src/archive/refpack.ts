/**
 * RefPack (EA's QFS): the byte-oriented LZ77 that compresses FAR3 entries. A stream is a header
 * (`10 FB` — flag bits 0x01: a compressed size follows, 0x80: sizes are 4 bytes — then the
 * unpacked size, big-endian) and commands, each some literal bytes then an optional copy of
 * earlier output:
 *
 * | first byte | bytes | literals | copy length | copy offset (distance back) |
 * |---|---|---|---|---|
 * | `0x00–0x7F` | 2 | `b0 & 3` | `((b0 >> 2) & 7) + 3` (3–10) | `((b0 & 0x60) << 3) + b1 + 1` (≤ 1024) |
 * | `0x80–0xBF` | 3 | `b1 >> 6` | `(b0 & 0x3F) + 4` (4–67) | `((b1 & 0x3F) << 8) + b2 + 1` (≤ 16384) |
 * | `0xC0–0xDF` | 4 | `b0 & 3` | `((b0 & 0x0C) << 6) + b3 + 5` (5–1028) | `((b0 & 0x10) << 12) + (b1 << 8) + b2 + 1` (≤ 131072) |
 * | `0xE0–0xFB` | 1 | `((b0 & 0x1F) + 1) × 4` (4–112) | — | — |
 * | `0xFC–0xFF` | 1 | `b0 & 3`, then the stream ends | — | — |
 *
 * Facts from the RefPack description FreeSO's decompressor cites (niotso wiki) and the layout of
 * the corpus' FAR3 archives; the code is our own.
 */
import { FormatError } from '@gltf-legacy/core';

/** Where a stream sits, for errors. */
export interface RefPackContext {
  file?: string;
  /** Offset of `src[0]` in the file. */
  offset?: number;
  /** Field path of the entry (`entries[3].data`). */
  field?: string;
}

/** Largest output one input byte can describe (a 4-byte command: 3 literals + 1028 copied). */
export const REFPACK_MAX_RATIO = 258;

/** The header of a RefPack stream: its unpacked size and where the commands start. */
export interface RefPackHeader {
  size: number;
  /** Offset of the first command in the stream. */
  start: number;
  /** The compressed size the header states (flag 0x01), else undefined. */
  packedSize?: number;
}

function fail(message: string, code: string, ctx: RefPackContext, at: number): FormatError {
  return new FormatError(message, { code, file: ctx.file, offset: (ctx.offset ?? 0) + at, field: ctx.field });
}

/**
 * Reads the header of a RefPack stream (`10 FB` + big-endian sizes).
 *
 * ```ts
 * refpackHeader(new Uint8Array([0x10, 0xfb, 0, 5, 0xc8])); // { size: 1480, start: 5 }
 * ```
 */
export function refpackHeader(src: Uint8Array, ctx: RefPackContext = {}): RefPackHeader {
  const flags = src[0];
  if (src.length < 2 || src[1] !== 0xfb || (flags & 0x3e) !== 0x10)
    throw fail(
      `not a RefPack stream (signature ${[...src.subarray(0, 2)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}, expected 10 fb)`,
      'BAD_REFPACK',
      ctx,
      0,
    );
  const width = flags & 0x80 ? 4 : 3;
  const fields = flags & 0x01 ? 2 : 1;
  if (src.length < 2 + width * fields) throw fail('RefPack header is cut short', 'TRUNCATED', ctx, 0);
  const be = (at: number) => {
    let v = 0;
    for (let i = 0; i < width; i++) v = v * 256 + src[at + i];
    return v;
  };
  const packedSize = fields === 2 ? be(2) : undefined;
  return { size: be(2 + width * (fields - 1)), start: 2 + width * fields, packedSize };
}

/**
 * Decompresses the RefPack commands of `src` from `start` into exactly `size` bytes. Throws a
 * {@link FormatError}: `BAD_REFPACK` for a copy reaching before the start of the output or past
 * `size`, or a stream that ends before `size` bytes; `TRUNCATED` for a command cut short. The
 * caller bounds `size` (against its limits and the input length) before calling.
 *
 * ```ts
 * const { size, start } = refpackHeader(stream);
 * const bytes = refpackDecompress(stream, start, size, { file: 'a.dat' });
 * ```
 */
export function refpackDecompress(
  src: Uint8Array,
  start: number,
  size: number,
  ctx: RefPackContext = {},
): Uint8Array {
  const out = new Uint8Array(size);
  const n = src.length;
  let s = start;
  let d = 0;
  for (;;) {
    if (s >= n) {
      if (d === size) return out; // a stream that fills its size and stops without a stop command
      throw fail(`RefPack stream ends after ${d} of ${size} bytes`, 'TRUNCATED', ctx, s);
    }
    const at = s;
    const b0 = src[s];
    let plain: number;
    let len = 0;
    let off = 0;
    if (b0 < 0x80) {
      if (s + 2 > n) throw fail('RefPack command is cut short', 'TRUNCATED', ctx, at);
      const b1 = src[s + 1];
      plain = b0 & 3;
      len = ((b0 >> 2) & 7) + 3;
      off = ((b0 & 0x60) << 3) + b1 + 1;
      s += 2;
    } else if (b0 < 0xc0) {
      if (s + 3 > n) throw fail('RefPack command is cut short', 'TRUNCATED', ctx, at);
      const b1 = src[s + 1];
      plain = b1 >> 6;
      len = (b0 & 0x3f) + 4;
      off = ((b1 & 0x3f) << 8) + src[s + 2] + 1;
      s += 3;
    } else if (b0 < 0xe0) {
      if (s + 4 > n) throw fail('RefPack command is cut short', 'TRUNCATED', ctx, at);
      plain = b0 & 3;
      len = ((b0 & 0x0c) << 6) + src[s + 3] + 5;
      off = ((b0 & 0x10) << 12) + (src[s + 1] << 8) + src[s + 2] + 1;
      s += 4;
    } else if (b0 < 0xfc) {
      plain = ((b0 & 0x1f) + 1) << 2;
      s += 1;
    } else {
      plain = b0 & 3;
      s += 1;
    }
    if (plain) {
      if (s + plain > n)
        throw fail(`RefPack literals run past the stream (${plain} bytes)`, 'TRUNCATED', ctx, at);
      if (d + plain > size)
        throw fail(`RefPack literals run past the unpacked size ${size}`, 'BAD_REFPACK', ctx, at);
      const end = d + plain;
      while (d < end) out[d++] = src[s++];
    }
    if (len) {
      if (off > d)
        throw fail(
          `RefPack copy reaches ${off} bytes back from output byte ${d}, before the start of the output`,
          'BAD_REFPACK',
          ctx,
          at,
        );
      if (d + len > size)
        throw fail(
          `RefPack copy of ${len} bytes runs past the unpacked size ${size}`,
          'BAD_REFPACK',
          ctx,
          at,
        );
      // byte by byte: copies are short (3–1028) and may overlap their own output
      let from = d - off;
      const end = d + len;
      while (d < end) out[d++] = out[from++];
    } else if (b0 >= 0xfc) {
      if (d !== size) throw fail(`RefPack stream stops after ${d} of ${size} bytes`, 'BAD_REFPACK', ctx, at);
      return out;
    }
  }
}
