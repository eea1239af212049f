/**
 * The `NAME_a.3d` aniv file: `u16 numFrames, u16 frameSize`, then frames of vertices, either the
 * packed 11/11/10 u32 layout or the Deus Ex layout of four i16 (formats/unreal3d.md §2).
 */
import { ByteReader, ByteWriter, FormatError, type WarningCollector } from '@gltf-legacy/core';
import { decodeDeusExArray, decodeUnrealPackedArray } from '@gltf-legacy/quantize';

export type AnivLayout = 'packed' | 'deusex';

/** A whole `_a.3d` file. */
export interface UnrealAniv {
  /** Header value as stored (may exceed `frameCount` for a truncated file). */
  numFrames: number;
  /** Bytes per frame as stored. */
  frameSize: number;
  layout: AnivLayout;
  /** Vertices per frame. */
  numVertices: number;
  /** Frames actually present. */
  frameCount: number;
  /** `frameCount·numVertices` packed vertices (layout `packed`). */
  packed?: Uint32Array;
  /** `frameCount·numVertices·4` words X, Y, Z, pad (layout `deusex`). */
  words?: Int16Array;
  /**
   * Bytes of each frame after its vertices (`frameSize − numVertices·stride` per frame), all
   * frames concatenated; empty for the usual files.
   */
  frameExtra: Uint8Array;
  /** Bytes after the last whole frame. */
  trailing: Uint8Array;
  /**
   * Bytes the last frame lacked in the file (a quirk UCC and the game accepted): the reader padded
   * them from the previous frame (`ANIV_TRUNCATED`); the writer leaves them out again. 0 or absent
   * for whole files.
   */
  missingBytes?: number;
}

/** Options of {@link readAniv}. */
export interface ReadAnivOptions {
  /** Vertices per frame (from the `_d.3d` header). Without it, `frameSize / 4` (packed). */
  numVertices?: number;
  /** Force a layout; default: `deusex` when `frameSize == 8·numVertices`, else `packed`. */
  layout?: AnivLayout;
  warnings?: WarningCollector;
  /**
   * Refuse a short file (`TRUNCATED`) and bytes after the last frame (`TRAILING_BYTES`) instead
   * of reading them with a warning (`ANIV_TRUNCATED`, `FILE_TRUNCATED`, `FILE_TOO_LONG`).
   */
  strict?: boolean;
}

/** Bytes per vertex of a layout. */
export function vertexStride(layout: AnivLayout): number {
  return layout === 'deusex' ? 8 : 4;
}

/**
 * Reads an aniv file. With `numVertices` (from the data file) the layout is detected from the
 * frame size; extra bytes per frame are kept. Missing frames at the end are dropped with a
 * warning (at least one frame must be whole).
 *
 * ```ts
 * const aniv = readAniv(bytes, 'box_a.3d', { numVertices: data.header.numVertices });
 * const frame0 = anivFrame(aniv, 0); // Float32Array of 3·numVertices raw integers
 * ```
 */
export function readAniv(bytes: Uint8Array, fileName?: string, options: ReadAnivOptions = {}): UnrealAniv {
  const padded = padLastFrame(bytes, fileName, options);
  const r = new ByteReader(padded?.bytes ?? bytes, { file: fileName });
  const numFrames = r.u16('header.numFrames');
  const frameSize = r.u16('header.frameSize');
  let nv = options.numVertices;
  let layout: AnivLayout = options.layout ?? 'packed';
  if (nv === undefined) {
    nv = layout === 'deusex' ? frameSize >> 3 : frameSize >> 2;
  } else if (!options.layout && nv > 0 && frameSize === nv * 8) {
    layout = 'deusex';
  }
  const stride = vertexStride(layout);
  if (frameSize < nv * stride) {
    throw r.error(
      `frameSize ${frameSize} is smaller than numVertices ${nv} × ${stride} bytes (does the _a.3d belong to this _d.3d?)`,
      'header.frameSize',
      'BAD_FRAME_SIZE',
      2,
    );
  }
  let frameCount = numFrames;
  if (frameSize > 0) {
    const available = Math.floor(r.remaining / frameSize);
    if (available < numFrames) {
      if (available === 0 || options.strict) {
        throw r.error(
          available === 0
            ? `header says ${numFrames} frame(s) of ${frameSize} bytes but not even one is present`
            : `header says ${numFrames} frame(s) of ${frameSize} bytes but only ${available} are whole (strict)`,
          'frames',
          'TRUNCATED',
        );
      }
      options.warnings?.warn(
        'FILE_TRUNCATED',
        `${fileName ?? '_a.3d'}: header says ${numFrames} frames but only ${available} are whole; read those`,
      );
      frameCount = available;
    }
  }
  r.count(frameCount, frameSize, 'frames');
  const extra = frameSize - nv * stride;
  const frameExtra = new Uint8Array(frameCount * extra);
  let packed: Uint32Array | undefined;
  let words: Int16Array | undefined;
  if (extra === 0) {
    // Zero-copy views over `bytes` when aligned (the usual case: frames start at offset 4); a
    // copy otherwise. The model aliases the input: copy the bytes first if you mutate them.
    if (layout === 'packed') packed = r.u32Array(frameCount * nv, 'frames');
    else words = r.i16Array(frameCount * nv * 4, 'frames');
  } else {
    if (layout === 'packed') packed = new Uint32Array(frameCount * nv);
    else words = new Int16Array(frameCount * nv * 4);
    for (let f = 0; f < frameCount; f++) {
      r.scope(`frames[${f}]`, () => {
        if (packed) packed.set(r.u32Array(nv, 'vertices'), f * nv);
        else if (words) words.set(r.i16Array(nv * 4, 'vertices'), f * nv * 4);
        frameExtra.set(r.bytesView(extra, 'extra'), f * extra);
      });
    }
  }
  if (options.strict && r.remaining && frameCount === numFrames)
    throw r.error(`${r.remaining} byte(s) after the last frame (strict)`, 'trailing', 'TRAILING_BYTES');
  const trailing = r.bytesCopy(r.remaining, 'trailing');
  if (trailing.length && frameCount === numFrames) {
    options.warnings?.warn(
      'FILE_TOO_LONG',
      `${fileName ?? '_a.3d'}: ${trailing.length} byte(s) after the last frame were ignored (kept for export)`,
    );
  }
  if (extra > 0) {
    options.warnings?.warn(
      'FRAME_PADDING',
      `${fileName ?? '_a.3d'}: every frame carries ${extra} extra byte(s) after its vertices (kept, not used)`,
    );
  }
  const aniv: UnrealAniv = {
    numFrames,
    frameSize,
    layout,
    numVertices: nv,
    frameCount,
    packed,
    words,
    frameExtra,
    trailing,
  };
  if (padded) {
    // Views over the padded copy are fine: it is ours.
    aniv.missingBytes = padded.missing;
    options.warnings?.warn('ANIV_TRUNCATED', padded.message);
  }
  return aniv;
}

/**
 * A copy of an `_a.3d` whose last frame is a few bytes short (every other frame whole), the
 * missing bytes taken from the same place in the previous frame — so the vertices the file lacks
 * stand where they stood one frame before (UCC read such files and the game plays them). Null when
 * the file is not of that shape. Strict: the `TRUNCATED` FormatError instead.
 */
function padLastFrame(
  bytes: Uint8Array,
  fileName: string | undefined,
  options: ReadAnivOptions,
): { bytes: Uint8Array; missing: number; message: string } | null {
  if (bytes.length < 4) return null;
  const numFrames = bytes[0] | (bytes[1] << 8);
  const frameSize = bytes[2] | (bytes[3] << 8);
  const want = 4 + numFrames * frameSize;
  const missing = want - bytes.length;
  // Only the last frame short (and not missing altogether). With a frame before it, the missing
  // bytes are copied from it; an only frame gets zeros (those vertices at the mesh origin).
  if (numFrames < 1 || frameSize === 0 || missing <= 0 || missing >= frameSize) return null;
  const name = fileName ?? '_a.3d';
  const last = numFrames - 1;
  const at = 4 + last * frameSize + (frameSize - missing);
  if (options.strict)
    throw new FormatError(
      `frame ${last} ends ${missing} byte(s) short: the file has ${bytes.length} bytes, numFrames × frameSize needs ${want} (strict)`,
      { code: 'TRUNCATED', file: fileName, offset: bytes.length, field: `frames[${last}]` },
    );
  const out = new Uint8Array(want);
  out.set(bytes);
  if (last > 0) out.set(bytes.subarray(at - frameSize, 4 + last * frameSize), at);
  return {
    bytes: out,
    missing,
    message: `${name}: frame ${last} ends ${missing} byte(s) short at offset ${bytes.length} (numFrames × frameSize needs ${want}); ${
      last > 0
        ? `the missing bytes were taken from frame ${last - 1}`
        : 'the only frame: the missing vertices were read as 0 (the mesh origin)'
    }`,
  };
}

/**
 * Writes an aniv file from the model (header as stored, frames, per-frame extra bytes, trailing).
 *
 * ```ts
 * writeAniv(readAniv(bytes)); // identical to bytes
 * ```
 */
export function writeAniv(model: UnrealAniv): Uint8Array {
  const { frameCount, numVertices: nv, layout, frameSize } = model;
  const stride = vertexStride(layout);
  const extra = frameSize - nv * stride;
  const w = new ByteWriter({ capacity: 4 + frameCount * frameSize + model.trailing.length });
  w.u16(model.numFrames).u16(frameSize);
  if (extra <= 0) {
    if (layout === 'packed' && model.packed) w.u32Array(model.packed.subarray(0, frameCount * nv));
    else if (model.words) w.i16Array(model.words.subarray(0, frameCount * nv * 4));
  } else {
    for (let f = 0; f < frameCount; f++) {
      if (layout === 'packed' && model.packed) w.u32Array(model.packed.subarray(f * nv, (f + 1) * nv));
      else if (model.words) w.i16Array(model.words.subarray(f * nv * 4, (f + 1) * nv * 4));
      w.bytes(model.frameExtra.subarray(f * extra, (f + 1) * extra));
    }
  }
  w.bytes(model.trailing);
  const out = w.finish();
  // A file read with a short last frame is written short again.
  const missing = model.missingBytes ?? 0;
  return missing > 0 && missing < frameSize && !model.trailing.length
    ? out.subarray(0, out.length - missing)
    : out;
}

/**
 * Raw integer positions (X, Y, Z in Unreal axes) of one frame: `3·numVertices` floats.
 *
 * ```ts
 * const [x, y, z] = anivFrame(aniv, 0);
 * ```
 */
export function anivFrame(
  aniv: UnrealAniv,
  frame: number,
  out = new Float32Array(aniv.numVertices * 3),
): Float32Array {
  const nv = aniv.numVertices;
  if (aniv.layout === 'packed' && aniv.packed)
    return decodeUnrealPackedArray(aniv.packed.subarray(frame * nv, (frame + 1) * nv), out);
  if (aniv.words) return decodeDeusExArray(aniv.words.subarray(frame * nv * 4, (frame + 1) * nv * 4), out);
  return out;
}

/**
 * Raw integer X, Y, Z (Unreal axes) of vertex `v` in frame `frame`, written to `out[o..o+2]`.
 *
 * ```ts
 * const c = new Float64Array(3);
 * anivVertex(aniv, 0, 5, c); // vertex 5 of frame 0
 * ```
 */
export function anivVertex(
  aniv: UnrealAniv,
  frame: number,
  v: number,
  out: { [i: number]: number },
  o = 0,
): void {
  const i = frame * aniv.numVertices + v;
  if (aniv.layout === 'packed' && aniv.packed) {
    const p = aniv.packed[i];
    out[o] = ((p & 0x7ff) << 21) >> 21;
    out[o + 1] = (((p >>> 11) & 0x7ff) << 21) >> 21;
    out[o + 2] = p >> 22;
  } else if (aniv.words) {
    out[o] = aniv.words[i * 4];
    out[o + 1] = aniv.words[i * 4 + 1];
    out[o + 2] = aniv.words[i * 4 + 2];
  }
}

/** All frames as raw integer positions: `frameCount·numVertices·3` floats. */
export function anivPositions(aniv: UnrealAniv): Float32Array {
  if (aniv.layout === 'packed' && aniv.packed) return decodeUnrealPackedArray(aniv.packed);
  if (aniv.words) return decodeDeusExArray(aniv.words);
  return new Float32Array(0);
}
