/**
 * Node's native zlib inflate, reached through `process.getBuiltinModule` (`nodeBuiltin`) so that
 * no `node:` import reaches a browser bundle: the viewer converts client-side and its callers take
 * fflate's pure-JavaScript inflate where {@link nativeZlib} gives `null`. Used by Grimrock's
 * archive entries and by the textures package's PNG reader and DDS residuals.
 */
import { nodeBuiltin } from './node-builtin.js';

/** The part of `node:zlib` used here. */
export interface NodeZlib {
  inflateSync(
    data: Uint8Array,
    options: { chunkSize: number; maxOutputLength: number; info: true },
  ): { buffer: Uint8Array; engine: { bytesWritten: number } };
}

let forcedOff = false;

/** `node:zlib` when the platform has it (Node ≥ 20.16), else `null` (browsers). */
export function nativeZlib(): NodeZlib | null {
  return forcedOff ? null : nodeBuiltin<NodeZlib>('node:zlib');
}

/**
 * For tests and benches: force the pure-JavaScript inflate everywhere (`false`) or the
 * platform's (`true`).
 *
 * ```ts
 * useNativeZlib(false); // fflate from now on, as in a browser
 * useNativeZlib(true);
 * ```
 */
export function useNativeZlib(on: boolean): void {
  forcedOff = !on;
}

/** What a native inflate gave, or why it stopped. */
export type NativeInflateResult =
  | { ok: true; out: Uint8Array; consumed: number }
  | { ok: false; why: 'too-long' | 'adler' | 'data'; message: string };

/**
 * Inflates a zlib stream (header, DEFLATE data, Adler-32, all checked by zlib) natively into one
 * buffer of `size + 1` bytes, stopping as soon as the output passes `size` (node's
 * `maxOutputLength`): a bomb costs at most that buffer. The caller checks the exact length (a
 * shorter stream comes back shorter) and `consumed` (input bytes up to the stream's end).
 *
 * ```ts
 * const r = inflateNative(nativeZlib()!, stream, 13307);
 * if (r.ok) console.log(r.out.length, r.consumed); // 13307 and stream.length for a sound entry
 * ```
 */
export function inflateNative(z: NodeZlib, data: Uint8Array, size: number): NativeInflateResult {
  try {
    // one output chunk of size + 1: the result is that chunk (no concatenation copy), and a
    // stream that fills it is longer than stated and stops there
    const r = z.inflateSync(data, {
      chunkSize: Math.max(64, size + 1),
      maxOutputLength: Math.max(1, size),
      info: true,
    });
    const out = r.buffer;
    return {
      ok: true,
      out: new Uint8Array(out.buffer, out.byteOffset, out.byteLength),
      consumed: r.engine.bytesWritten,
    };
  } catch (e) {
    const err = e as { code?: string; message?: string };
    const message = String(err.message ?? e);
    if (err.code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, why: 'too-long', message };
    if (/incorrect data check/.test(message)) return { ok: false, why: 'adler', message };
    return { ok: false, why: 'data', message };
  }
}
