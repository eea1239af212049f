/**
 * Names (bones, tracks, morphs, entries) are NUL-terminated and usually UTF-8. A name that is not
 * valid UTF-8 is decoded as latin1; its stored bytes are kept so writing gives the same bytes.
 */
import { type ByteReader, decodeText } from '@gltf-legacy/core';

const utf8 = new TextEncoder();

/** Reads a NUL-terminated name; `raw` is set only when the bytes are not what UTF-8 would write. */
export function readName(r: ByteReader, field: string): { name: string; raw?: Uint8Array } {
  const start = r.offset;
  const name = r.cstring(field);
  const bytes = r.bytes.subarray(start, r.offset - 1);
  const enc = utf8.encode(name);
  if (enc.length === bytes.length && enc.every((b, i) => b === bytes[i])) return { name };
  return { name, raw: bytes.slice() };
}

/** The bytes to write for a name: the stored ones while they still decode to `name`, else UTF-8. */
export function nameBytes(name: string, raw?: Uint8Array): Uint8Array {
  return raw && decodeText(raw) === name ? raw : utf8.encode(name);
}
