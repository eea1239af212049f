/**
 * Issue 29's rule for what we write: bytes glTF cannot hold travel as bytes
 * (`GLTF_LEGACY_kept_bytes`), so no `extras` anywhere in a .glb's JSON holds
 * - an array of more than {@link MAX_NUMBERS} numbers,
 * - a table of numbers (arrays of arrays … of numbers) of more than {@link MAX_TABLE} numbers in
 *   all — raw records kept as rows (small per-bone or per-slot records stay readable JSON),
 * - a string that looks like base64 of more than {@link MAX_BASE64} characters (or a base64
 *   data URI).
 * `extrasFindings(json)` lists every violation with its JSON path (empty: the file is clean).
 */

/** Longest array of numbers an `extras` may hold. */
export const MAX_NUMBERS = 16;
/** Most numbers a table of numbers (nested arrays) in `extras` may hold. */
export const MAX_TABLE = 256;
/** Longest base64-looking string an `extras` may hold (a SHA-256 in hex is 64 characters). */
export const MAX_BASE64 = 64;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** How many numbers `v` holds when it is an array of numbers or of such arrays, else -1. */
function numberTable(v: unknown[]): number {
  let n = 0;
  for (const x of v) {
    if (typeof x === 'number') n++;
    else if (Array.isArray(x)) {
      const k = numberTable(x);
      if (k < 0) return -1;
      n += k;
    } else return -1;
  }
  return n;
}

/**
 * Every place under an `extras` key of `json` (a glTF JSON document) that breaks the rule above,
 * as `path: what` strings.
 *
 * ```ts
 * extrasFindings({ nodes: [{ extras: { trailing: new Array(17).fill(0) } }] });
 * // ['.nodes[0].extras.trailing: 17 numbers']
 * ```
 */
export function extrasFindings(json: unknown): string[] {
  const out: string[] = [];
  const visit = (v: unknown, path: string, inExtras: boolean): void => {
    if (Array.isArray(v)) {
      if (inExtras) {
        const flat = v.length > 0 && v.every((x) => typeof x === 'number');
        if (flat && v.length > MAX_NUMBERS) out.push(`${path}: ${v.length} numbers`);
        if (!flat) {
          const n = numberTable(v);
          if (n > MAX_TABLE) {
            out.push(`${path}: a table of ${n} numbers`);
            return;
          }
        }
      }
      v.forEach((x, i) => {
        visit(x, `${path}[${i}]`, inExtras);
      });
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) visit(x, `${path}.${k}`, inExtras || k === 'extras');
    } else if (inExtras && typeof v === 'string') {
      if ((v.length > MAX_BASE64 && BASE64.test(v)) || /^data:[^,]*;base64,/.test(v))
        out.push(`${path}: base64-like string of ${v.length} characters`);
    }
  };
  visit(json, '', false);
  return out;
}
