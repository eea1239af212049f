/**
 * Hostile packages: every failure is a FormatError naming file, offset and field, never another
 * exception, a hang or an allocation the bytes do not justify.
 */
import { join } from 'node:path';
import { FormatError } from '@gltf-legacy/core';
import { hasCorpus, readBytes } from '@gltf-legacy/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteReader } from '@gltf-legacy/core';
import {
  encodeCompactIndex,
  packageMeshes,
  readCompactIndex,
  readPackage,
  unpackPackage,
} from '../src/index.js';
import { buildPackage } from './package-builder.js';
import { UT99_DIR } from './package-helpers.js';

const NAMES = ['None', 'Core', 'Package', 'Texture', 'Engine', 'Foo', 'Bar', 'Class'];

function formatError(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    const f = e as FormatError;
    expect(f.file).toBe('t.u');
    expect(typeof f.offset).toBe('number');
    expect(f.field).toBeTruthy();
    return f;
  }
  throw new Error('no FormatError');
}

/** Reads a package and everything `convert` reads from it; only FormatErrors may escape. */
function readAll(bytes: Uint8Array, name: string): void {
  const pkg = readPackage(bytes, name);
  for (const i of packageMeshes(pkg)) pkg.readMesh(i);
  for (const i of pkg.exportsOf('Texture')) pkg.readTexture(i);
  unpackPackage(pkg);
}

describe('compact index', () => {
  it('round-trips every int32 in its shortest form (1–5 bytes)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -0x7fffffff, max: 0x7fffffff }), (v) => {
        const b = encodeCompactIndex(v);
        expect(b.length).toBeLessThanOrEqual(5);
        const r = new ByteReader(b);
        expect(readCompactIndex(r)).toBe(v);
        expect(r.offset).toBe(b.length);
      }),
    );
  });
  it('any bytes decode to an int32 or a BAD_COMPACT_INDEX / TRUNCATED FormatError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 7 }), (b) => {
        try {
          const v = readCompactIndex(new ByteReader(b, { file: 'x' }), 'f');
          expect(Math.abs(v)).toBeLessThanOrEqual(0x7fffffff);
        } catch (e) {
          expect(['BAD_COMPACT_INDEX', 'TRUNCATED']).toContain((e as FormatError).code);
        }
      }),
    );
  });
  it('a sixth byte is an error', () => {
    const e = formatError(() =>
      readCompactIndex(
        new ByteReader(Uint8Array.from([0x40, 0x80, 0x80, 0x80, 0x80, 0x01]), { file: 't.u' }),
        'x',
      ),
    );
    expect(e.code).toBe('BAD_COMPACT_INDEX');
    expect(e.offset).toBe(0);
  });
});

describe('hostile packages', () => {
  const good = () =>
    buildPackage({
      names: NAMES,
      imports: [
        { classPackage: 1, className: 2, outer: 0, name: 4 },
        { classPackage: 1, className: 7, outer: -1, name: 3 },
      ],
      exports: [{ classRef: -2, name: 6, data: Uint8Array.from([0]) }],
    });

  it('a well-formed synthetic package reads', () => {
    const pkg = readPackage(good(), 't.u');
    expect(pkg.refPath(-2)).toBe('Engine.Texture');
    expect(pkg.exportClass(0)).toBe('Texture');
    expect(pkg.open(0).props.items).toEqual([]);
  });

  it('a later engine version is UNSUPPORTED_VERSION, another tag BAD_MAGIC', () => {
    const b = good();
    b[4] = 118; // UT2003
    const e = formatError(() => readPackage(b, 't.u'));
    expect([e.code, e.offset, e.field]).toEqual(['UNSUPPORTED_VERSION', 4, 'header.version']);
    expect(e.message).toMatch(/version 118/);
    const c = good();
    c[0] = 0;
    expect(formatError(() => readPackage(c, 't.u')).code).toBe('BAD_MAGIC');
  });

  it('a name index past the table is BAD_NAME_INDEX with the field', () => {
    const b = buildPackage({
      names: NAMES,
      imports: [{ classPackage: 1, className: 60, outer: 0, name: 4 }],
      exports: [],
    });
    const e = formatError(() => readPackage(b, 't.u'));
    expect([e.code, e.field]).toEqual(['BAD_NAME_INDEX', 'imports[0].className']);
  });

  it('huge or negative table counts are refused before allocating', () => {
    for (const [at, v, code] of [
      [12, 0x7fffffff, 'BAD_COUNT'],
      [12, -5, 'BAD_COUNT'],
      [20, 100, 'COUNT_TOO_LARGE'],
    ] as const) {
      const b = good();
      new DataView(b.buffer).setInt32(at, v, true);
      expect(formatError(() => readPackage(b, 't.u')).code).toBe(code);
    }
  });

  it('an export whose bytes run past the file is BAD_OFFSET', () => {
    const b = buildPackage({
      names: NAMES,
      imports: [],
      exports: [{ classRef: 0, name: 5, data: new Uint8Array(40) }],
    });
    // the serial size is the second-to-last compact index of the table: make it 1000
    const pkg = readPackage(b, 't.u');
    const at = pkg.exports[0].at;
    const patched = new Uint8Array([
      ...b.subarray(0, at),
      0,
      0,
      0,
      0,
      0,
      0,
      5,
      0,
      0,
      0,
      0,
      ...encodeCompactIndex(1000),
      ...encodeCompactIndex(pkg.exports[0].serialOffset),
    ]);
    const e = formatError(() => readPackage(patched, 't.u'));
    expect([e.code, e.field]).toEqual(['BAD_OFFSET', 'exports[0].serialSize']);
  });

  it('an import chain that loops is IMPORT_CYCLE', () => {
    const b = buildPackage({
      names: NAMES,
      imports: [
        { classPackage: 1, className: 2, outer: -2, name: 4 },
        { classPackage: 1, className: 2, outer: -1, name: 5 },
      ],
      exports: [],
    });
    const e = formatError(() => readPackage(b, 't.u'));
    expect(e.code).toBe('IMPORT_CYCLE');
    expect(e.field).toMatch(/^imports\[\d\]\.outer$/);
  });

  it('a property of type 0 is UNKNOWN_PROPERTY_TYPE naming it', () => {
    const b = buildPackage({
      names: NAMES,
      imports: [],
      exports: [{ classRef: 0, name: 5, data: Uint8Array.from([6, 0x00, 0]) }],
    });
    const pkg = readPackage(b, 't.u');
    const e = formatError(() => pkg.open(0));
    expect(e.code).toBe('UNKNOWN_PROPERTY_TYPE');
    expect(e.message).toMatch(/property Bar has type 0/);
    expect(e.field).toBe('exports[0](Foo).properties[0].info');
  });

  it('a property list without None, or a value past the object, is TRUNCATED', () => {
    const b = buildPackage({
      names: NAMES,
      imports: [],
      exports: [{ classRef: 0, name: 5, data: Uint8Array.from([6, 0x22, 1, 2]) }],
    });
    expect(formatError(() => readPackage(b, 't.u').open(0)).code).toBe('TRUNCATED');
  });
});

describe.runIf(hasCorpus('archives/unreal'))('mutated real packages', () => {
  const name = 'HeadHunter.u';
  const original = () => readBytes(join(UT99_DIR(), 'System', name));

  it('truncated at 300 offsets: a FormatError with a code (or the whole package)', () => {
    const b = original();
    for (let k = 0; k < 300; k++) {
      const n = Math.floor((k * b.length) / 300);
      try {
        readAll(b.subarray(0, n), name);
      } catch (e) {
        expect(e, `cut at ${n}`).toBeInstanceOf(FormatError);
      }
    }
  });

  it('bytes flipped inside the mesh and texture exports: a FormatError or a result, never another error', () => {
    const b = original();
    const pkg = readPackage(b, name);
    const ranges = [...packageMeshes(pkg), ...pkg.exportsOf('Texture'), ...pkg.exportsOf('Palette')].map(
      (i) => pkg.exports[i],
    );
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 255 }), (which, pos, xor) => {
        const e = ranges[which % ranges.length];
        const m = b.slice();
        m[e.serialOffset + (pos % e.serialSize)] ^= xor;
        try {
          readAll(m, name);
        } catch (err) {
          expect(err).toBeInstanceOf(FormatError);
        }
      }),
      { numRuns: 50 },
    );
  });
});
