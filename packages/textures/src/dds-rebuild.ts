/**
 * A block-compressed DDS made back from its glTF image plus a small **residual**, so a `.glb`
 * need not carry the whole original. The residual is one zlib stream of the original file with
 * its level-0 blocks XOR-ed with the blocks {@link predictBlocks} finds from the image's pixels
 * (mostly zeros: the prediction usually is the original block) — the header and the smaller mip
 * levels, which the image cannot give, travel in it unchanged — with the blocks regrouped in
 * 4-byte lanes (`layout: 'lanes'`). Fields: `{ kind: 'dds', format, size, compression: 'zlib',
 * layout: 'lanes' }` (no `layout`: blocks in file order, as written before lanes existed). Core keeps the residual only when the rebuild gives the file back
 * byte for byte (else the file's bytes: nothing is ever lost).
 *
 * ```ts
 * const r = ddsResidual(dds, png)!; // slug_dif.dds: 699 192 → ~74 000 bytes
 * rebuildDds(r.fields, png, r.bytes); // the DDS, byte for byte
 * ```
 */
import { inflateNative, type KeptInfo, nativeZlib } from '@gltf-legacy/core';
import { unzlibSync } from 'fflate';
import { BC_BLOCK_BYTES, type BcFormat } from './bc.js';
import { predictBlocks } from './bc-predict.js';
import { readDdsHeader } from './dds-header.js';
import { TEXTURE_LIMITS } from './limits.js';
import { pixelsOf } from './pixels-cache.js';
import { decodePng } from './png.js';
import { zlibDeflate } from './png-write.js';

const FORMATS: readonly BcFormat[] = ['bc1', 'bc2', 'bc3', 'bc4', 'bc5'];

/** zlib level of residuals (9: they are written once and read rarely; native zlib is fast). */
export const DDS_RESIDUAL_LEVEL = 9;

/** The last prediction, by image bytes: import makes the residual and checks it on the same image. */
const predicted = new WeakMap<
  Uint8Array,
  { format: BcFormat; bytes: Uint8Array; width: number; height: number }
>();

function predictionFor(
  image: Uint8Array,
  format: BcFormat,
): { bytes: Uint8Array; width: number; height: number } {
  const hit = predicted.get(image);
  if (hit && hit.format === format) return hit;
  const rgba = pixelsOf(image) ?? decodePng(image);
  const { bytes } = predictBlocks(format, rgba.data, rgba.width, rgba.height);
  const entry = { format, bytes, width: rgba.width, height: rgba.height };
  predicted.set(image, entry);
  return entry;
}

/**
 * The blocks from `offset` on (level 0 and the mips), regrouped in 4-byte lanes: every block's
 * first 4 bytes, then every block's next 4, … (endpoints apart from indices deflate ~11 % smaller);
 * bytes after the last whole block stay in place. `inverse` undoes it.
 */
function lanes(bytes: Uint8Array, offset: number, blockBytes: number, inverse: boolean): Uint8Array {
  const out = new Uint8Array(bytes); // a copy (Buffer's slice would be a view)
  const n = Math.floor((bytes.byteLength - offset) / blockBytes);
  const k = blockBytes / 4;
  if (offset % 4 === 0) {
    // whole 4-byte lanes as words (DDS levels start at 128 or 148); `out` is aligned, `bytes`
    // made so with a copy when it is not
    const from = (bytes.byteOffset + offset) % 4 === 0 ? bytes : new Uint8Array(bytes);
    const src = new Uint32Array(from.buffer, from.byteOffset + offset, n * k);
    const dst = new Uint32Array(out.buffer, out.byteOffset + offset, n * k);
    for (let b = 0; b < n; b++)
      for (let l = 0; l < k; l++)
        if (inverse) dst[b * k + l] = src[l * n + b]!;
        else dst[l * n + b] = src[b * k + l]!;
    return out;
  }
  for (let b = 0; b < n; b++)
    for (let l = 0; l < k; l++) {
      const blockAt = offset + b * blockBytes + l * 4;
      const laneAt = offset + (l * n + b) * 4;
      const from = inverse ? laneAt : blockAt;
      const to = inverse ? blockAt : laneAt;
      out[to] = bytes[from]!;
      out[to + 1] = bytes[from + 1]!;
      out[to + 2] = bytes[from + 2]!;
      out[to + 3] = bytes[from + 3]!;
    }
  return out;
}

/** XORs `pred` into `bytes` at `offset` (in place). */
function xorInto(bytes: Uint8Array, offset: number, pred: Uint8Array): void {
  let i = 0;
  if ((bytes.byteOffset + offset) % 4 === 0 && pred.byteOffset % 4 === 0) {
    // a word at a time where both are aligned (XOR does not care about byte order)
    const words = pred.byteLength >> 2;
    const a = new Uint32Array(bytes.buffer, bytes.byteOffset + offset, words);
    const b = new Uint32Array(pred.buffer, pred.byteOffset, words);
    for (let w = 0; w < words; w++) a[w]! ^= b[w]!;
    i = words * 4;
  }
  for (; i < pred.byteLength; i++) bytes[offset + i]! ^= pred[i]!;
}

/**
 * The residual of a BC1–BC5 DDS whose level 0 the PNG `image` holds, or undefined (not such a
 * DDS, or the image is another size).
 *
 * ```ts
 * const r = ddsResidual(ddsBytes, pngBytes);
 * ```
 */
export function ddsResidual(
  original: Uint8Array,
  image: Uint8Array,
): { fields: KeptInfo; bytes: Uint8Array } | undefined {
  const info = readDdsHeader(original);
  if (info.pixelFormat.kind !== 'bc') return undefined;
  const format = info.pixelFormat.format;
  const l0 = info.levels[0]!;
  const pred = predictionFor(image, format);
  if (pred.width !== l0.width || pred.height !== l0.height) return undefined;
  const payload = original.slice();
  xorInto(payload, l0.offset, pred.bytes);
  return {
    fields: {
      kind: 'dds',
      format,
      size: original.byteLength,
      compression: 'zlib',
      layout: 'lanes',
    },
    bytes: zlibDeflate(lanes(payload, l0.offset, BC_BLOCK_BYTES[format], false), DDS_RESIDUAL_LEVEL),
  };
}

/**
 * The residual's zlib stream inflated: natively on Node when the stream is sound and gives exactly
 * `size` bytes (the same bytes fflate gives, without the pure-JS inflate and its JIT work in every
 * thread), else fflate as before (browsers, and any stream native zlib refuses).
 */
function inflateResidual(residual: Uint8Array, size: number): Uint8Array {
  const z = nativeZlib();
  const r = z && inflateNative(z, residual, size);
  if (r?.ok && r.out.byteLength === size && r.consumed === residual.byteLength) return r.out;
  return unzlibSync(residual, { out: new Uint8Array(size) });
}

/**
 * The DDS made back from the PNG `image`, the residual's fields and bytes, or undefined when
 * they do not fit (another image, a damaged residual).
 *
 * ```ts
 * const dds = rebuildDds({ kind: 'dds', format: 'bc1', size: 699192, compression: 'zlib' }, png, residual);
 * ```
 */
export function rebuildDds(
  fields: KeptInfo,
  image: Uint8Array,
  residual: Uint8Array,
): Uint8Array | undefined {
  const format = fields.format as BcFormat;
  const size = fields.size;
  if (!FORMATS.includes(format) || fields.compression !== 'zlib') return undefined;
  if (
    typeof size !== 'number' ||
    !Number.isInteger(size) ||
    size < 128 ||
    size > TEXTURE_LIMITS.maxDecodedBytes
  )
    return undefined;
  if (fields.layout !== undefined && fields.layout !== 'lanes') return undefined;
  let payload = inflateResidual(residual, size);
  if (payload.byteLength !== size) return undefined;
  const info = readDdsHeader(payload);
  // residuals written before `layout` existed (2026-11-28 morning) have the blocks in file order
  if (fields.layout === 'lanes')
    payload = lanes(payload, info.levels[0]!.offset, BC_BLOCK_BYTES[format], true);
  if (info.pixelFormat.kind !== 'bc' || info.pixelFormat.format !== format) return undefined;
  const l0 = info.levels[0]!;
  const pred = predictionFor(image, format);
  if (pred.width !== l0.width || pred.height !== l0.height) return undefined;
  xorInto(payload, l0.offset, pred.bytes);
  return payload;
}
