/**
 * Bounded zlib decompression for archive entries: Node's native zlib where the platform has it
 * (`zlib-native.ts`, reached without a `node:` import), fflate (pure JavaScript) in the browser
 * viewer (DecompressionStream is async only).
 *
 * The stated size is the contract: output past it stops the decoding at once (natively at the
 * stated size + 1; with fflate after at most one 64 KiB input slice's worth), output short of it
 * is an error, the zlib trailer's Adler-32 must match (natively checked by zlib, else here), and the
 * stream must end where the entry ends.
 */
import { FormatError } from '@gltf-legacy/core';
import { Inflate, inflateSync } from 'fflate';
import { inflateNative, nativeZlib } from './zlib-native.js';

/** Where an entry's bytes sit, for error messages. */
export interface ZlibSite {
  file: string;
  /** Offset of the zlib stream in the archive. */
  offset: number;
  field: string;
}

/** Most bytes DEFLATE can make of one input byte (a 1-bit length-258 code + a 1-bit distance). */
export const DEFLATE_MAX_RATIO = 1032;

/**
 * Compressed bytes handed to the streaming inflater at a time: the work (and fflate's output
 * buffer) between two size checks is at most 64 KiB × 1032 = 66 MiB past the stated size.
 */
const SLICE = 64 * 1024;

/** Output past the stated size that a one-call decode may produce (and drop) at worst. */
const ONE_CALL_SLACK = 4 * 1024 * 1024;

/**
 * Decompresses a zlib stream (`data`: header, DEFLATE data, Adler-32) that must give exactly
 * `size` bytes.
 *
 * ```ts
 * const bytes = inflateZlibExact(stream, 13307, { file: 'x.dat', offset: 793, field: 'entries[2]' });
 * ```
 */
export function inflateZlibExact(data: Uint8Array, size: number, site: ZlibSite): Uint8Array {
  const fail = (detail: string, code = 'BAD_ZLIB', at = site.offset) =>
    new FormatError(detail, {
      code,
      file: site.file,
      offset: at,
      field: site.field,
    });
  if (data.length < 6)
    throw fail(`a zlib stream of ${data.length} bytes has no room for its header and trailer`);
  const cmf = data[0];
  const flg = data[1];
  if ((cmf & 15) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0)
    throw fail(`not a zlib header (0x${cmf.toString(16)} 0x${flg.toString(16)})`);
  if (flg & 32) throw fail('the zlib stream needs a preset dictionary, which no archive carries');
  const body = data.subarray(2, data.length - 4);
  if (size > body.length * DEFLATE_MAX_RATIO + 258) {
    throw fail(
      `${size} bytes cannot come out of ${body.length} bytes of DEFLATE data (at most ${DEFLATE_MAX_RATIO}× + 258)`,
      'BAD_SIZE',
    );
  }
  const tooLong = () => fail(`the zlib stream holds more than the stated ${size} bytes`, 'SIZE_MISMATCH');
  const t = data.length - 4;
  const z = nativeZlib();
  if (z) {
    const r = inflateNative(z, data, size);
    if (!r.ok) {
      if (r.why === 'too-long') throw tooLong();
      if (r.why === 'adler') throw badAdler();
      throw fail(`bad zlib stream: ${r.message}`);
    }
    if (r.out.length !== size) throw short(r.out.length);
    if (r.consumed !== data.length) {
      throw fail(
        `the zlib stream ends after ${r.consumed} of its ${data.length} bytes`,
        'BAD_ZLIB',
        site.offset + r.consumed,
      );
    }
    return r.out;
  }
  let out: Uint8Array;
  let written = 0;
  if (body.length * DEFLATE_MAX_RATIO <= size + ONE_CALL_SLACK) {
    // small input: one call into a buffer one byte longer than stated (a longer stream fills it;
    // what does not fit is dropped, at most ONE_CALL_SLACK bytes of work)
    try {
      out = inflateSync(body, { out: new Uint8Array(size + 1) });
    } catch (e) {
      throw fail(`bad zlib stream: ${(e as Error).message}`);
    }
    if (out.length > size) throw tooLong();
    written = out.length;
    if (written === size) out = out.subarray(0, size);
    return checked(out, written);
  }
  out = new Uint8Array(size);
  const inflater = new Inflate((chunk) => {
    if (chunk.length > size - written) throw tooLong();
    out.set(chunk, written);
    written += chunk.length;
  });
  try {
    if (body.length === 0) inflater.push(body, true);
    for (let at = 0; at < body.length; at += SLICE) {
      const end = Math.min(body.length, at + SLICE);
      inflater.push(body.subarray(at, end), end === body.length);
    }
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw fail(`bad zlib stream: ${(e as Error).message}`);
  }
  return checked(out, written);

  function short(written: number): FormatError {
    return fail(`the zlib stream holds ${written} bytes, not the stated ${size}`, 'SIZE_MISMATCH');
  }

  function badAdler(detail = 'does not match the data'): FormatError {
    return fail(`the zlib stream's stored Adler-32 ${detail}`, 'BAD_ZLIB', site.offset + t);
  }

  function checked(out: Uint8Array, written: number): Uint8Array {
    if (written !== size) throw short(written);
    const stored = ((data[t] << 24) | (data[t + 1] << 16) | (data[t + 2] << 8) | data[t + 3]) >>> 0;
    const actual = adler32(out);
    if (stored !== actual)
      throw badAdler(`0x${stored.toString(16)} does not match the data's 0x${actual.toString(16)}`);
    return out;
  }
}

/** Adler-32 of `bytes` (RFC 1950). */
export function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    // 5552: the most bytes before b can overflow 2^32 (zlib's NMAX)
    const end = Math.min(n, i + 5552);
    for (; i < end; i++) {
      a += bytes[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}
