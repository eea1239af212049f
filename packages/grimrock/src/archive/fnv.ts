/**
 * FNV-1a, 32-bit: the hash a Grimrock archive names its entries by. Checked on the three real
 * GRA2 archives: the path exactly as the scripts write it (case kept, `/` separators, UTF-8),
 * e.g. `mod_assets/lnr/ClassMasterFile.lua` → 0xbd719c35 (lower-cased it would be 0xea45ce55).
 */

export const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * Continues an FNV-1a hash over `bytes` (start with {@link FNV_OFFSET}).
 *
 * ```ts
 * fnv1a32Bytes(new TextEncoder().encode('mod_assets/scripts/init.lua')); // 0xe5d6d449
 * ```
 */
export function fnv1a32Bytes(bytes: Uint8Array, hash = FNV_OFFSET): number {
  let h = hash >>> 0;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], FNV_PRIME) >>> 0;
  return h;
}

const encoder = new TextEncoder();

/**
 * FNV-1a (32-bit) of a path's UTF-8 bytes, continuing from `hash`.
 *
 * ```ts
 * fnv1a32('mod_assets/scripts/init.lua').toString(16); // 'e5d6d449'
 * ```
 */
export function fnv1a32(path: string, hash = FNV_OFFSET): number {
  let h = hash >>> 0;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c < 0x80) h = Math.imul(h ^ c, FNV_PRIME) >>> 0;
    else return fnv1a32Bytes(encoder.encode(path.slice(i)), h);
  }
  return h;
}
