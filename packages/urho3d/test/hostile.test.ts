import { basename } from 'node:path';
import { FormatError } from '@gltf-legacy/core';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { extractPakEntry, importUrho, readAni, readMdl, readPak } from '../src/index.js';

// Small corpus files of each type, plus a slice of a big one.
const pick = (names: string[]) =>
  corpusFiles('urho', ['.mdl', '.ani', '.pak']).filter((f) => names.includes(basename(f)));
const samples = pick([
  'Box.mdl',
  'CubicBezier.mdl',
  'Ninja.mdl',
  'MaterialPreview.mdl',
  'Ninja_Walk.ani',
  'Mutant_Throw_LY.ani',
  'CoreData_299299.pak',
]);

let calls = 0;
/** Parses; every 6th successful parse is also imported (building Documents is the slow part). */
function parseAll(bytes: Uint8Array, name: string): void {
  const deep = calls++ % 6 === 0;
  if (name.endsWith('.ani')) {
    const a = readAni(bytes, name);
    if (deep) importUrho(null, [{ fileName: 'x', animation: a }]);
  } else if (name.endsWith('.pak')) {
    // The table is what the damage hits; decoding a few entries exercises the LZ4 checks.
    const pak = readPak(bytes, name);
    for (const e of [...pak.entries.slice(0, 4), ...pak.entries.slice(-2)]) extractPakEntry(pak, e, name);
  } else {
    const m = readMdl(bytes, name);
    if (deep) importUrho(m, [], { name: 'x' });
  }
}

function expectOnlyFormatErrors(bytes: Uint8Array, name: string, what: string): void {
  try {
    parseAll(bytes, name);
  } catch (e) {
    if (!(e instanceof FormatError)) throw new Error(`${name} ${what}: ${(e as Error)?.stack ?? e}`);
    expect(typeof e.code).toBe('string');
  }
}

describe('hostile input gives success or FormatError only', () => {
  for (const f of samples) {
    const name = basename(f);
    const bytes = readBytes(f);
    it(`${name}: truncations`, () => {
      const step = Math.max(1, Math.floor(bytes.length / 150));
      for (let n = 0; n < bytes.length; n += step)
        expectOnlyFormatErrors(bytes.slice(0, n), name, `truncated at ${n}`);
    });
    it(`${name}: byte flips and 0xFFFFFFFF counts`, () => {
      let seed = 1234;
      const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) % 0x7fffffff) / 0x7fffffff;
      const limit = Math.min(bytes.length, 4096);
      for (let k = 0; k < 80; k++) {
        const b = bytes.slice();
        const at = Math.floor(rand() * limit);
        b[at] ^= 1 << Math.floor(rand() * 8);
        expectOnlyFormatErrors(b, name, `bit flip at ${at}`);
      }
      for (let at = 4; at + 4 <= limit; at += Math.max(4, Math.floor(limit / 50))) {
        const b = bytes.slice();
        new DataView(b.buffer).setUint32(at, 0xffffffff, true);
        expectOnlyFormatErrors(b, name, `u32 0xFFFFFFFF at ${at}`);
        new DataView(b.buffer).setUint32(at, 0x7fffffff, true);
        expectOnlyFormatErrors(b, name, `u32 0x7FFFFFFF at ${at}`);
      }
    });
  }
  it('bad magic, bone cycles and bad indices have stable codes', () => {
    expect(() => readMdl(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(FormatError);
    const box = readBytes(samples.find((f) => basename(f) === 'Box.mdl')!);
    try {
      readMdl(box.slice(0, 10));
      throw new Error('no error');
    } catch (e) {
      expect((e as FormatError).code).toBe('COUNT_TOO_LARGE');
    }
  });
});

describe('amplification limits', () => {
  it('many geometries expanding one big shared vertex buffer fail with TOO_LARGE, not a huge allocation', () => {
    // 1 vertex buffer of 600 000 position-only vertices, 100 geometries each using all of it.
    const vc = 600000;
    const w = new DataView(new ArrayBuffer(4 + 4 + 16 + vc * 12 + 4 + 8 + 12 + 4 + 100 * 32 + 4 + 4 + 24));
    const u8 = new Uint8Array(w.buffer);
    u8.set([0x55, 0x4d, 0x44, 0x4c]);
    let o = 4;
    const u32 = (v: number) => {
      w.setUint32(o, v, true);
      o += 4;
    };
    u32(1);
    u32(vc);
    u32(1); // POSITION only
    u32(0);
    u32(0);
    o += vc * 12;
    u32(1); // one index buffer: 3 16-bit indices (all 0)
    u32(3);
    u32(2);
    o += 6;
    u32(100); // 100 geometries, one LOD each over the whole buffer
    for (let g = 0; g < 100; g++) {
      u32(0);
      u32(1);
      w.setFloat32(o, 0, true);
      o += 4;
      u32(0);
      u32(0);
      u32(0);
      u32(0);
      u32(3);
    }
    u32(0);
    u32(0);
    const bytes = u8.subarray(0, o + 24);
    const m = readMdl(bytes, 'big.mdl');
    expect(m.geometries.length).toBe(100);
    try {
      importUrho(m, [], { name: 'x' });
      throw new Error('no error');
    } catch (e) {
      expect((e as FormatError).code).toBe('TOO_LARGE');
    }
  });
});
