// Owns output files that are written piece by piece instead of being assembled in memory first.
// A .glb of an Unreal all-frames conversion is mostly morph-target deltas the document already
// holds: assembling the file duplicated all of them at the peak (issue 19: peak RSS ÷ (in + out)).

/**
 * A file known by its length and produced in pieces. Each piece is valid only until the next one
 * is asked for (a piece may be a reused scratch buffer), so a consumer writes or copies it first.
 *
 * ```ts
 * const file = new StreamedFile(8, function* () { yield header; yield body; });
 * await writeFile('x.bin', file.pieces()); // fs/promises writes an iterable piece by piece
 * const bytes = file.toBytes();             // or the whole file in one allocation
 * ```
 */
export class StreamedFile {
  constructor(
    /** The file's length in bytes: what the pieces add up to. */
    readonly byteLength: number,
    private readonly produce: () => Iterable<Uint8Array>,
  ) {}

  /** The pieces in order; checks at the end that they add up to {@link byteLength}. */
  *pieces(): Generator<Uint8Array> {
    let at = 0;
    for (const piece of this.produce()) {
      at += piece.byteLength;
      if (at > this.byteLength) break;
      yield piece;
    }
    if (at !== this.byteLength)
      throw new Error(`internal: a streamed file of ${this.byteLength} bytes produced ${at}`);
  }

  /** The whole file in one buffer. */
  toBytes(): Uint8Array {
    const out = new Uint8Array(this.byteLength);
    let at = 0;
    for (const piece of this.pieces()) {
      out.set(piece, at);
      at += piece.byteLength;
    }
    return out;
  }
}

/** What a conversion writes to one path: bytes, or a file produced in pieces. */
export type OutputData = Uint8Array | StreamedFile;

/**
 * The bytes of an output (a {@link StreamedFile} is assembled).
 *
 * ```ts
 * const glb = outputBytes(prepared.outputs.get('/out/Skull.glb')!);
 * ```
 */
export function outputBytes(data: OutputData): Uint8Array {
  return data instanceof StreamedFile ? data.toBytes() : data;
}

/**
 * What `fs/promises` `writeFile` takes for an output: the bytes, or the pieces of a
 * {@link StreamedFile} (written one after the other, each before the next is made).
 *
 * ```ts
 * await writeFile(path, outputContent(data), { flag: 'wx' });
 * ```
 */
export function outputContent(data: OutputData): Uint8Array | Iterable<Uint8Array> {
  return data instanceof StreamedFile ? data.pieces() : data;
}
