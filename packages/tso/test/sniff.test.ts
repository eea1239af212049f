import { FormatError } from '@gltf-legacy/core';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  type TsoFileKind,
  detectTsoKind,
  readAnimation,
  readMesh,
  readSkeleton,
  writeAnimation,
  writeSkeleton,
} from '../src/index.js';
import { syntheticAdultSkeleton, twoBoneAnimation, twoBoneSkeleton } from './fixtures.js';

/** The definition sniffing must keep: the first reader (in name order) that parses it all. */
function byParsing(bytes: Uint8Array, name: string): TsoFileKind | undefined {
  if (bytes.length < 8) return undefined;
  const v = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  if (v === 0 || v > 0xff) return undefined;
  const order: TsoFileKind[] = name.endsWith('.skel')
    ? ['skel', 'anim', 'mesh']
    : name.endsWith('.anim')
      ? ['anim', 'skel', 'mesh']
      : ['mesh', 'skel', 'anim'];
  const read = { mesh: readMesh, skel: readSkeleton, anim: readAnimation };
  for (const k of order) {
    try {
      if (read[k](bytes).trailing.length === 0) return k;
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
    }
  }
  return undefined;
}

function* mutations(bytes: Uint8Array, seed: number): Generator<Uint8Array> {
  let s = seed;
  const rnd = (n: number) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
  yield bytes;
  for (let i = 0; i < 60; i++) {
    const b = bytes.slice();
    const kind = rnd(4);
    if (kind === 0) yield b.subarray(0, rnd(b.length));
    else if (kind === 1) {
      b[4 + rnd(b.length - 4)] ^= 1 << rnd(8);
      yield b;
    } else if (kind === 2) {
      // a count-like byte: small values keep the layout plausible
      b[4 + rnd(b.length - 4)] = rnd(4);
      yield b;
    } else {
      const at = rnd(b.length);
      const out = new Uint8Array(b.length + 1);
      out.set(b.subarray(0, at));
      out[at] = rnd(256);
      out.set(b.subarray(at), at + 1);
      yield out;
    }
  }
}

describe('sniffing by layout walk', () => {
  const skel = twoBoneSkeleton();
  skel.bones[1].hasProps = 1;
  skel.bones[1].props = [[['a', 'b']], []];
  const samples: [string, Uint8Array][] = [
    ...corpusFiles('tso', ['.mesh']).map((f) => [f, readBytes(f)] as [string, Uint8Array]),
    ['twobone.skel', writeSkeleton(skel)],
    ['adult.skel', writeSkeleton(syntheticAdultSkeleton())],
    ['twobone-wave.anim', writeAnimation(twoBoneAnimation())],
  ];

  it('answers exactly what parsing every reader would, on real files and mutations of them', () => {
    let checked = 0;
    let accepted = 0;
    for (const [name, bytes] of samples) {
      for (const b of mutations(bytes, name.length * 7919)) {
        for (const asName of [name, 'x.mesh', 'x.skel', 'x.anim']) {
          const want = byParsing(b, asName);
          expect(detectTsoKind(b, asName), `${name} as ${asName}`).toBe(want);
          checked++;
          if (want) accepted++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(accepted).toBeGreaterThan(50);
  });
});
