/**
 * The PNG reader under `decodePng` / `decodePngIndexed`: the common PNGs (8-bit samples, not
 * interlaced, only IHDR, PLTE, tRNS, IDAT, IEND and chunks fast-png skips) are read here with
 * Node's native inflate into one buffer of the exact size, then unfiltered (pHYs and tEXt are
 * checked as fast-png checks them, other ancillary chunks skipped as it skips them); everything else —
 * other bit depths, interlacing, damaged or odd files, and every PNG off Node (browsers) — goes
 * to fast-png, as before. The fast path returns only what fast-png returns for the same bytes:
 * whenever it is unsure (a stream that is short, long or damaged, a chunk out of place, an unknown
 * filter) it steps aside and fast-png decodes or throws exactly as it did. On Node the pure-JS
 * inflate then never runs for a sound PNG, which also spares each thread's JIT its many
 * recompilations of fflate's inflate.
 *
 * ```ts
 * const png = readPng(bytes); // { width, height, depth, channels, data, palette?, transparency? }
 * ```
 */
import { inflateNative, nativeZlib } from '@gltf-legacy/core';
import { decode } from 'fast-png';

/** What the decoders read from a PNG (the part of fast-png's `DecodedPng` they use). */
export type RawPng = Pick<
  ReturnType<typeof decode>,
  'width' | 'height' | 'depth' | 'channels' | 'data' | 'palette' | 'transparency'
>;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** The big-endian u32 at `o` (PNG's byte order); the caller has checked the bounds. */
export function be32(b: Uint8Array, o: number): number {
  return ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
}

function typeOf(b: Uint8Array, o: number): string {
  return String.fromCharCode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!);
}

/**
 * Reads a PNG: the native fast path when it applies, else fast-png (which throws for a PNG it
 * cannot read, as it always did).
 */
export function readPng(bytes: Uint8Array): RawPng {
  return readPngNative(bytes) ?? decode(bytes);
}

/**
 * The fast path alone: the PNG, or undefined when it does not apply (`readPng` then uses
 * fast-png). Exported for the tests that hold it to fast-png's answers.
 */
export function readPngNative(b: Uint8Array): RawPng | undefined {
  const z = nativeZlib();
  if (!z || b.byteLength < 8 + 25 + 12) return undefined;
  for (let i = 0; i < 8; i++) if (b[i] !== SIGNATURE[i]) return undefined;
  if (be32(b, 8) !== 13 || typeOf(b, 12) !== 'IHDR') return undefined;
  const width = be32(b, 16);
  const height = be32(b, 20);
  const depth = b[24]!;
  const colourType = b[25]!;
  const channels = CHANNELS[colourType];
  // compression, filter method and interlace all 0; 8-bit samples
  if (depth !== 8 || !channels || b[26] !== 0 || b[27] !== 0 || b[28] !== 0) return undefined;
  if (width < 1 || height < 1) return undefined;
  let palette: number[][] | undefined;
  let transparency: Uint16Array | undefined;
  const idat: Uint8Array[] = [];
  let idatBytes = 0;
  let o = 33;
  let ended = false;
  while (o + 12 <= b.byteLength) {
    const length = be32(b, o);
    const type = typeOf(b, o + 4);
    const data = o + 8;
    if (length > b.byteLength - data - 4) return undefined;
    if (type === 'IEND') {
      ended = true;
      break;
    }
    if (type === 'PLTE') {
      if (palette || transparency || length % 3 !== 0) return undefined;
      palette = [];
      for (let i = 0; i < length; i += 3) palette.push([b[data + i]!, b[data + i + 1]!, b[data + i + 2]!]);
    } else if (type === 'tRNS') {
      if (transparency) return undefined;
      if (colourType === 3) {
        if (!palette || length > palette.length) return undefined;
        for (let i = 0; i < palette.length; i++) palette[i]!.push(i < length ? b[data + i]! : 255);
        transparency = new Uint16Array(0); // marks tRNS as seen (palette entries hold the alphas)
      } else if (colourType === 0 || colourType === 2) {
        if (length % 2 !== 0 || length / 2 > width * height) return undefined;
        transparency = new Uint16Array(length / 2);
        for (let i = 0; i < length / 2; i++) transparency[i] = (b[data + i * 2]! << 8) | b[data + i * 2 + 1]!;
      } else return undefined;
    } else if (type === 'IDAT') {
      idat.push(b.subarray(data, data + length));
      idatBytes += length;
    } else if (type === 'pHYs') {
      if (length !== 9) return undefined; // fast-png refuses another length
    } else if (type === 'tEXt') {
      // fast-png reads a keyword of 1–79 bytes up to the first NUL (past the chunk if need be)
      const nul = b.subarray(data, data + length).indexOf(0);
      if (nul < 1 || nul > 79) return undefined;
    } else if (type === 'IHDR' || type === 'iCCP' || type === 'acTL' || type === 'fcTL' || type === 'fdAT')
      return undefined; // chunks fast-png reads (and may refuse): left to it
    o = data + length + 4;
  }
  if (!ended || !idat.length) return undefined;
  const stride = width * channels;
  if (!Number.isSafeInteger(height * (stride + 1))) return undefined;
  const size = height * (stride + 1);
  // DEFLATE expands at most ~1032:1: a header claiming more than the stream can hold is left to
  // fast-png (and never costs an allocation here)
  if (size > idatBytes * 1032 + 64) return undefined;
  let stream: Uint8Array;
  if (idat.length === 1) stream = idat[0]!;
  else {
    stream = new Uint8Array(idatBytes);
    let at = 0;
    for (const part of idat) {
      stream.set(part, at);
      at += part.byteLength;
    }
  }
  const inflated = inflateNative(z, stream, size);
  if (!inflated.ok || inflated.out.byteLength !== size || inflated.consumed !== stream.byteLength)
    return undefined;
  const pixels = unfilter(inflated.out, width, height, channels);
  if (!pixels) return undefined;
  const png: RawPng = { width, height, depth, channels, data: pixels };
  if (palette) png.palette = palette;
  if (transparency && colourType !== 3) png.transparency = transparency;
  return png;
}

/** The rows without their filters (filter bytes 0–4), or undefined for another filter byte. */
function unfilter(raw: Uint8Array, width: number, height: number, bpp: number): Uint8Array | undefined {
  const stride = width * bpp;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    const up = row - stride;
    switch (filter) {
      case 0:
        out.set(raw.subarray(src, src + stride), row);
        break;
      case 1:
        for (let i = 0; i < stride; i++)
          out[row + i] = (raw[src + i]! + (i >= bpp ? out[row + i - bpp]! : 0)) & 255;
        break;
      case 2:
        for (let i = 0; i < stride; i++) out[row + i] = (raw[src + i]! + (y ? out[up + i]! : 0)) & 255;
        break;
      case 3:
        for (let i = 0; i < stride; i++) {
          const a = i >= bpp ? out[row + i - bpp]! : 0;
          const u = y ? out[up + i]! : 0;
          out[row + i] = (raw[src + i]! + ((a + u) >> 1)) & 255;
        }
        break;
      case 4:
        for (let i = 0; i < stride; i++) {
          const a = i >= bpp ? out[row + i - bpp]! : 0;
          const u = y ? out[up + i]! : 0;
          const c = i >= bpp && y ? out[up + i - bpp]! : 0;
          const pa = Math.abs(u - c);
          const pb = Math.abs(a - c);
          const pc = Math.abs(a + u - 2 * c);
          out[row + i] = (raw[src + i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? u : c)) & 255;
        }
        break;
      default:
        return undefined;
    }
  }
  return out;
}
