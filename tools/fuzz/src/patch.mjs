// Byte patches: a fuzz input stored as copies from its seed files plus the bytes the mutations
// wrote. Regression notes keep inputs this way so that no corpus bytes (third-party files,
// not ours to redistribute) land in the repository; the seeds are re-read from the corpus.
import { createHash } from 'node:crypto';

/** Bytes a k-gram lookup compares; shorter matches are stored as literal bytes. */
const K = 8;

export function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

function gram(b, i) {
  // 8 bytes → 32-bit key (collisions are harmless: every candidate is verified)
  const lo = b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
  const hi = b[i + 4] | (b[i + 5] << 8) | (b[i + 6] << 16) | (b[i + 7] << 24);
  return (Math.imul(lo, 0x9e3779b1) ^ hi) >>> 0;
}

/**
 * Describes `bytes` as copies from `sources` plus literal bytes. Ops: `[source, start, length]`
 * (a copy) or a base64 string (literal bytes). Sources are indexed every `step` bytes, so
 * the index stays near a million entries whatever their size.
 *
 * ```js
 * const ops = diff(mutated, [seed]);
 * applyPatch(ops, [seed]); // equals mutated
 * ```
 */
export function diff(bytes, sources) {
  const total = sources.reduce((n, s) => n + s.length, 0);
  const step = Math.max(K, Math.ceil(total / (1 << 20)));
  const index = new Map();
  sources.forEach((s, si) => {
    for (let p = 0; p + K <= s.length; p += step) {
      const g = gram(s, p);
      if (!index.has(g)) index.set(g, si * 2 ** 32 + p);
    }
  });
  const ops = [];
  let pending = 0; // start of the literal run not yet emitted
  const flush = (end) => {
    if (end > pending) ops.push(Buffer.from(bytes.subarray(pending, end)).toString('base64'));
  };
  let i = 0;
  while (i + K <= bytes.length) {
    const hit = index.get(gram(bytes, i));
    if (hit !== undefined) {
      const si = Math.floor(hit / 2 ** 32);
      const src = sources[si];
      const p = hit % 2 ** 32;
      let len = 0;
      while (i + len < bytes.length && p + len < src.length && bytes[i + len] === src[p + len]) len++;
      if (len >= K) {
        // grow backwards over the literal run
        let back = 0;
        while (i - back > pending && p - back > 0 && bytes[i - back - 1] === src[p - back - 1]) back++;
        flush(i - back);
        ops.push([si, p - back, len + back]);
        i += len;
        pending = i;
        continue;
      }
    }
    i++;
  }
  flush(bytes.length);
  return ops;
}

/** Rebuilds the bytes a `diff` described. Throws a plain Error on a bad op. */
export function applyPatch(ops, sources) {
  const parts = ops.map((op) => {
    if (typeof op === 'string') return Buffer.from(op, 'base64');
    const [si, start, length] = op;
    const src = sources[si];
    if (!src || start < 0 || start + length > src.length)
      throw new Error(`patch copy ${JSON.stringify(op)} is outside its source`);
    return src.subarray(start, start + length);
  });
  // A buffer of its own, at offset 0, as the campaign's inputs are: Buffer.concat would place a
  // small input inside Node's shared 8 KiB pool, and a reader given a view with spare bytes after
  // it can behave differently (fuzz d309734b replayed clean from a pooled buffer).
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Literal (stored) bytes of a patch. */
export function literalBytes(ops) {
  return ops.reduce((n, op) => n + (typeof op === 'string' ? Buffer.from(op, 'base64').length : 0), 0);
}
