import { basename } from 'node:path';
import { FormatError } from '@gltf-legacy/core';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';

/** Imports and expects success or a FormatError with a code — never anything else. */
async function tryImport(
  files: Map<string, Uint8Array>,
  main: string,
  frames: 'all' | 'first' = 'all',
): Promise<string> {
  try {
    await legacyFormat.import(files, { main, frames });
    return 'ok';
  } catch (e) {
    if (!(e instanceof FormatError)) throw new Error(`not a FormatError: ${(e as Error)?.stack ?? e}`);
    expect(e.code).toMatch(/^[A-Z_]+$/);
    return e.code;
  }
}

const samples = corpusFiles('unreal3d', ['_d.3d']).filter((f) =>
  /(box|Keycard|SporeProj|Tags)_d\.3d$/.test(f),
);

describe('hostile input', () => {
  for (const path of samples) {
    const d = readBytes(path);
    const a = readBytes(path.replace(/_d\.3d$/, '_a.3d'));
    const name = basename(path);
    const aname = name.replace('_d.3d', '_a.3d');
    it(`${name}: truncated at many offsets`, async () => {
      const codes = new Set<string>();
      for (const cut of [0, 1, 2, 3, 4, 10, 47, 48, 49, 63, 64, 65, d.length - 1]) {
        if (cut > d.length) continue;
        codes.add(
          await tryImport(
            new Map([
              [name, d.subarray(0, cut)],
              [aname, a],
            ]),
            name,
          ),
        );
      }
      for (const cut of [0, 1, 3, 4, 5, 20, a.length >> 1, a.length - 1]) {
        codes.add(
          await tryImport(
            new Map([
              [name, d],
              [aname, a.subarray(0, cut)],
            ]),
            name,
          ),
        );
      }
      expect(codes.has('TRUNCATED')).toBe(true);
    });
    it(`${name}: flipped bytes`, async () => {
      let s = 12345;
      for (let k = 0; k < 30; k++) {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        const dd = d.slice();
        const aa = a.slice();
        const target = k % 2 ? dd : aa;
        target[(s >>> 8) % target.length] ^= 1 << (s & 7);
        target[(s >>> 4) % Math.min(target.length, 64)] ^= 0xff;
        // Every byte is still parsed; 'first' only skips building the morph targets (speed).
        await tryImport(
          new Map([
            [name, dd],
            [aname, aa],
          ]),
          name,
          k % 5 ? 'first' : 'all',
        );
      }
    });
    it(`${name}: count fields blown up to 0xFFFF`, async () => {
      for (const off of [0, 2]) {
        const dd = d.slice();
        dd[off] = 0xff;
        dd[off + 1] = 0xff;
        await tryImport(
          new Map([
            [name, dd],
            [aname, a],
          ]),
          name,
        );
        const aa = a.slice();
        aa[off] = 0xff;
        aa[off + 1] = 0xff;
        await tryImport(
          new Map([
            [name, d],
            [aname, aa],
          ]),
          name,
        );
      }
    });
  }
  it('a .uc with garbage and absurd sequences still converts (with warnings)', async () => {
    const path = samples[0];
    const d = readBytes(path);
    const a = readBytes(path.replace(/_d\.3d$/, '_a.3d'));
    const uc = new TextEncoder().encode(
      '#exec MESH IMPORT MESH=box DATAFILE=box_d.3d\n#exec MESH SEQUENCE MESH=box SEQ=X STARTFRAME=99999 NUMFRAMES=1e9 RATE=-5\n#exec MESHMAP SCALE MESHMAP=box X=abc\n/* unterminated',
    );
    const r = await legacyFormat.import(
      new Map([
        ['box_d.3d', d],
        ['box_a.3d', a],
        ['box.uc', uc],
      ]),
      { main: 'box_d.3d' },
    );
    expect(r.warnings.some((w) => w.code === 'SEQUENCE_OUT_OF_RANGE')).toBe(true);
    expect(r.document.getRoot().listAnimations().length).toBe(1);
  });
});
