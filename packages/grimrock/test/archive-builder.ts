/** Builds GRA2 / GRAR archives for tests (independent of the reader): entries by path or hash. */
import { deflateSync } from 'node:zlib';

export interface BuildEntry {
  /** Path (hashed with FNV-1a) or the hash itself. */
  path: string | number;
  data: Uint8Array | string;
  /** Default true: u32 size + zlib stream. */
  zlib?: boolean;
  /** GRA2 flags (default 1 when zlib, else 0). */
  flags?: number;
}

export function fnv(path: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(path, 'utf8')) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

/** An archive of `entries` in order (data after the table, back to back). */
export function buildArchive(entries: BuildEntry[], layout: 'GRA2' | 'GRAR' = 'GRA2'): Uint8Array {
  const row = layout === 'GRA2' ? 20 : 16;
  const blobs = entries.map((e) => {
    const data = typeof e.data === 'string' ? Buffer.from(e.data, 'utf8') : Buffer.from(e.data);
    if (e.zlib === false) return { stored: data, compressed: 0, size: data.length };
    const z = deflateSync(data);
    const stored = Buffer.concat([Buffer.alloc(4), z]);
    stored.writeUInt32LE(data.length, 0);
    return { stored, compressed: stored.length, size: data.length };
  });
  const head = Buffer.alloc(8 + entries.length * row);
  head.write(layout, 0, 'latin1');
  head.writeUInt32LE(entries.length, 4);
  let offset = head.length;
  entries.forEach((e, i) => {
    const at = 8 + i * row;
    head.writeUInt32LE(typeof e.path === 'number' ? e.path : fnv(e.path), at);
    head.writeUInt32LE(offset, at + 4);
    head.writeUInt32LE(blobs[i].compressed, at + 8);
    head.writeUInt32LE(blobs[i].size, at + 12);
    if (layout === 'GRA2') head.writeUInt32LE(e.flags ?? (e.zlib === false ? 0 : 1), at + 16);
    offset += blobs[i].stored.length;
  });
  return new Uint8Array(Buffer.concat([head, ...blobs.map((b) => b.stored)]));
}

/** Sets a u32 of a copy of `bytes`. */
export function withU32(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(at, value >>> 0, true);
  return out;
}
