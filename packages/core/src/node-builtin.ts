/**
 * A Node built-in module where the platform has one, reached through `process.getBuiltinModule`
 * (Node ≥ 20.16) so that no `node:` import reaches a browser bundle: the viewer converts
 * client-side and takes the pure-JavaScript path where this gives `null`.
 */

const cache = new Map<string, unknown>();

/**
 * The module `id` (e.g. `'node:zlib'`), typed as the caller's view of it, or `null` off Node.
 *
 * ```ts
 * const zlib = nodeBuiltin<{ deflateSync(d: Uint8Array): Uint8Array }>('node:zlib');
 * const z = zlib ? zlib.deflateSync(bytes) : jsDeflate(bytes);
 * ```
 */
export function nodeBuiltin<T>(id: string): T | null {
  if (!cache.has(id)) {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    let module: unknown = null;
    try {
      module = proc?.getBuiltinModule?.(id) ?? null;
    } catch {
      module = null;
    }
    cache.set(id, module);
  }
  return cache.get(id) as T | null;
}
