// Small deterministic PRNG (sfc32 seeded through splitmix32) so every campaign is reproducible
// from its seed alone.

/** Mixes a 32-bit seed into a well spread 32-bit value. */
export function splitmix32(seed) {
  let z = (seed + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Hashes a string (FNV-1a 32) — used to derive per-file seeds. */
export function hashString(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * A seeded random source.
 *
 * ```js
 * const rng = new Rng(42);
 * rng.int(10); // 0..9
 * ```
 */
export class Rng {
  constructor(seed) {
    this.a = splitmix32(seed);
    this.b = splitmix32(this.a);
    this.c = splitmix32(this.b);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }
  /** Next 32-bit unsigned value. */
  next() {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
  /** Uniform float in [0, 1). */
  float() {
    return this.next() / 4294967296;
  }
  /** Uniform integer in [0, n). */
  int(n) {
    return n <= 0 ? 0 : Math.floor(this.float() * n);
  }
  /** Integer in [lo, hi]. */
  range(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }
  /** True with probability p. */
  chance(p) {
    return this.float() < p;
  }
  /** A random element. */
  pick(list) {
    return list[this.int(list.length)];
  }
  /** Biased small integer: mostly 1..4, sometimes larger. */
  small(max = 64) {
    return this.chance(0.8) ? this.range(1, 4) : this.range(1, max);
  }
}
