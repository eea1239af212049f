/**
 * A minimal `Buffer` for the browser: `@gltf-legacy/unreal3d` stores raw bytes in extras as base64
 * with `Buffer.from(u8).toString('base64')` / `Buffer.from(s, 'base64')`. Only those two uses are
 * provided; Node's real Buffer is left alone.
 */
export class BrowserBuffer extends Uint8Array {
  static override from(value: unknown, encoding?: unknown): BrowserBuffer {
    if (typeof value === 'string') {
      if (encoding !== 'base64')
        throw new Error(`Buffer shim: only base64 strings (got ${String(encoding)})`);
      const bin = atob(value);
      const out = new BrowserBuffer(bin.length);
      for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
      return out;
    }
    const src = value as ArrayLike<number>;
    const out = new BrowserBuffer(src.length);
    out.set(src);
    return out;
  }

  override toString(encoding?: string): string {
    if (encoding !== 'base64') return new TextDecoder().decode(this);
    let bin = '';
    for (let i = 0; i < this.length; i += 0x8000) bin += String.fromCharCode(...this.subarray(i, i + 0x8000));
    return btoa(bin);
  }
}

const g = globalThis as { Buffer?: unknown };
g.Buffer ??= BrowserBuffer;
