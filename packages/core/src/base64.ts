/**
 * Base64 for small binary blobs kept in glTF `extras` (raw bytes the glTF side cannot hold).
 * Uses `btoa`/`atob`, present in Node 20 and every browser, so formats stay browser-safe.
 */

/** Bytes → base64 text. */
export function encodeBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Base64 text → bytes (throws on invalid input). */
export function decodeBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
