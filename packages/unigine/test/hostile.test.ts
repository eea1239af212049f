import { basename } from 'node:path';
import { FormatError } from '@gltf-legacy/core';
import { readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { INT2_MAX, encodeInt2, importUnigine, readAnim, readMesh } from '../src/index.js';
import { unigineCorpus } from './helpers.js';

const { supported } = unigineCorpus();
const SAMPLE = [
  'plane.mesh',
  'Line01.mesh',
  'viewcube.mesh',
  'fangzi_02.mesh',
  'actor_00_jump.anim',
  'fp2_QBZ95_long.anim',
  'QBZ95_long.anim',
];

/** Parses (and, when that works, imports): the only failure allowed is a FormatError with a code. */
function attempt(name: string, bytes: Uint8Array, importToo: boolean): 'ok' | string {
  try {
    if (name.endsWith('.mesh')) readMesh(bytes, name);
    else readAnim(bytes, name);
    if (importToo) importUnigine(new Map([[name, bytes]]), { main: name });
    return 'ok';
  } catch (e) {
    if (e instanceof FormatError && typeof e.code === 'string' && e.code.length > 0) return e.code;
    throw new Error(`${name}: not a FormatError: ${(e as Error)?.stack ?? e}`);
  }
}

/** A deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('hostile input', () => {
  const files = supported.filter((f) => SAMPLE.includes(basename(f)));
  it('uses the sample', () => expect(files.length).toBe(SAMPLE.length));

  it.each(files.map((f) => [basename(f), f]))(
    '%s: truncation at many offsets gives TRUNCATED-style FormatErrors',
    (name, path) => {
      const bytes = readBytes(path);
      const step = Math.max(1, Math.floor(bytes.length / 200));
      for (let n = 0; n < bytes.length; n += step) {
        const code = attempt(name, bytes.subarray(0, n), false);
        expect(code, `cut at ${n}`).not.toBe('ok');
      }
    },
  );

  it.each(files.map((f) => [basename(f), f]))(
    '%s: flipped bytes, giant counts and u32 0xFFFFFFFF never escape as other errors',
    (name, path) => {
      const bytes = readBytes(path);
      const rand = rng(bytes.length);
      const big = encodeInt2(INT2_MAX);
      // Importing is slower (glTF-Transform property graph): only for the small files, to stay fast.
      const small = bytes.length < 3000;
      for (let i = 0; i < 120; i++) {
        const at = Math.floor(rand() * bytes.length);
        const kind = i % 3;
        let m: Uint8Array;
        if (kind === 0) {
          m = bytes.slice();
          m[at] ^= 1 << Math.floor(rand() * 8);
        } else if (kind === 1) {
          // Replace one byte (often a compact count) with the largest compact integer.
          m = new Uint8Array(bytes.length + big.length - 1);
          m.set(bytes.subarray(0, at));
          m.set(big, at);
          m.set(bytes.subarray(at + 1), at + big.length);
        } else {
          m = bytes.slice();
          for (let k = 0; k < 4 && at + k < m.length; k++) m[at + k] = 0xff;
        }
        attempt(name, m, small);
      }
    },
  );

  it('refuses bone cycles and bad parents', () => {
    const path = supported.find((f) => f.endsWith('fp2_QBZ95_long.anim')) as string;
    const bytes = readBytes(path).slice();
    // Bone 0 "95" has parent −1 at offset 49 (int16): make it its own grandchild (parent 1 → 0 → 1).
    const view = new DataView(bytes.buffer);
    expect(view.getInt16(49, true)).toBe(-1);
    view.setInt16(49, 1, true);
    expect(() => readAnim(bytes, 'x.anim')).toThrow(expect.objectContaining({ code: 'BONE_CYCLE' }));
    view.setInt16(49, 99, true);
    expect(() => readAnim(bytes, 'x.anim')).toThrow(expect.objectContaining({ code: 'BAD_BONE_PARENT' }));
  });

  it('refuses indices outside the vertices and trailing bytes', () => {
    const path = supported.find((f) => f.endsWith('plane.mesh')) as string;
    const bytes = readBytes(path).slice();
    // plane.mesh ends with: 06 <6 u8 coord indices> 06 <6 u8 tri indices> "ms11"
    const tri = bytes.length - 4 - 6;
    bytes[tri] = 200;
    expect(() => readMesh(bytes, 'plane.mesh')).toThrow(expect.objectContaining({ code: 'BAD_INDEX' }));
    const longer = new Uint8Array(readBytes(path).length + 1);
    longer.set(readBytes(path));
    expect(() => readMesh(longer, 'plane.mesh')).toThrow(expect.objectContaining({ code: 'TRAILING_DATA' }));
  });
});
