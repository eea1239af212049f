import { basename } from 'node:path';
import { FormatError } from '@gltf-legacy/core';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { importGrimrock, readAnimation, readModel } from '../src/index.js';

/**
 * Damaged files: the only allowed outcomes are success or a FormatError with a code. Everything
 * runs through read + import (import only for files small enough to keep this fast).
 */
const small = [...corpusFiles('grimrock', ['.model']), ...corpusFiles('grimrock', ['.animation'])].filter(
  (p) => readBytes(p).length < 25_000,
);

function attempt(bytes: Uint8Array, name: string, withImport: boolean): string {
  try {
    if (name.endsWith('.model')) readModel(bytes, name);
    else readAnimation(bytes, name);
    if (withImport) importGrimrock(new Map([[name, bytes]]), { main: name });
    return 'ok';
  } catch (e) {
    if (!(e instanceof FormatError)) throw new Error(`${name}: ${e instanceof Error ? e.stack : e}`);
    expect(e.code).toMatch(/^[A-Z_]+$/);
    return e.code;
  }
}

describe('hostile input', () => {
  it('uses small corpus files of both kinds', () => {
    expect(small.some((p) => p.endsWith('.model'))).toBe(true);
    expect(small.some((p) => p.endsWith('.animation'))).toBe(true);
  });

  for (const path of small) {
    const name = basename(path);
    const bytes = readBytes(path);
    it(`${name}: truncated at many offsets`, () => {
      const codes = new Set<string>();
      const step = Math.max(1, Math.floor(bytes.length / 80));
      for (let n = 0; n < bytes.length; n += step) codes.add(attempt(bytes.subarray(0, n), name, false));
      expect(codes.has('ok')).toBe(false);
      expect(codes.has('TRUNCATED') || codes.has('COUNT_TOO_LARGE') || codes.has('BAD_MAGIC')).toBe(true);
    });

    it(`${name}: every 32-bit field blown up to 0xFFFFFFFF / 0x7FFFFFFF / NaN`, () => {
      const limit = Math.min(bytes.length - 3, 2000);
      const step = bytes.length > 2000 ? 4 : 1;
      for (let o = 0; o < limit; o += step) {
        for (const v of [0xffffffff, 0x7fffffff, 0x7fc00000]) {
          const b = bytes.slice();
          new DataView(b.buffer).setUint32(o, v, true);
          attempt(b, name, bytes.length < 6000 && o % 64 === 0);
        }
      }
    });

    it(`${name}: flipped bytes`, () => {
      let seed = 12345;
      const rnd = () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed;
      };
      for (let k = 0; k < 25; k++) {
        const b = bytes.slice();
        for (let j = 0; j < 4; j++) b[rnd() % b.length] ^= 1 << (rnd() % 8);
        attempt(b, name, true);
      }
    });
  }

  it('large files (skeleton warrior, slug and their animations): truncated at 40 offsets, read only', () => {
    const large = [...corpusFiles('grimrock', ['.model']), ...corpusFiles('grimrock', ['.animation'])].filter(
      (p) => readBytes(p).length >= 25_000,
    );
    expect(large.length).toBeGreaterThan(3);
    for (const path of large) {
      const bytes = readBytes(path);
      for (let k = 0; k < 40; k++) {
        const code = attempt(bytes.subarray(0, Math.floor((bytes.length * k) / 40)), basename(path), false);
        expect(code).not.toBe('ok');
      }
    }
  });

  it('parent cycles and out-of-range indices are FormatErrors', () => {
    // RootNode → a → b → a: build a 3-node model by hand.
    const nodes: [string, number][] = [
      ['RootNode', -1],
      ['a', 2],
      ['b', 1],
    ];
    const parts: number[] = [];
    const enc = new TextEncoder();
    const i32 = (v: number) => {
      const b = new Uint8Array(4);
      new DataView(b.buffer).setInt32(0, v, true);
      parts.push(...b);
    };
    parts.push(...enc.encode('MDL1'));
    i32(2);
    i32(nodes.length);
    for (const [n, p] of nodes) {
      i32(n.length);
      parts.push(...enc.encode(n));
      for (let k = 0; k < 12; k++) i32(0);
      i32(p);
      i32(-1);
    }
    const bytes = Uint8Array.from(parts);
    expect(() => readModel(bytes, 'cycle.model')).toThrow(expect.objectContaining({ code: 'PARENT_CYCLE' }));
    const bad = bytes.slice();
    // Parent of node 1 → 7 (out of range).
    const at = 12 + (4 + 8 + 48 + 8) + (4 + 1 + 48);
    new DataView(bad.buffer).setInt32(at, 7, true);
    expect(() => readModel(bad, 'oob.model')).toThrow(expect.objectContaining({ code: 'BAD_INDEX' }));
  });
});
