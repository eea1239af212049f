// Hostile FAR archives and RefPack streams: every damage is a FormatError naming the file, the
// offset and the field, never another exception, a hang or an allocation the input does not
// justify.
import { FormatError } from '@gltf-legacy/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createFar1,
  createFar3,
  readFar,
  readFar3,
  readFar3Entry,
  readFarEntry,
  unpackFar,
  writeFar1,
  writeFar3,
} from '../src/index.js';

const enc = (s: string) => new TextEncoder().encode(s);

/** Runs `fn` and returns the FormatError it throws (fails the test if it throws nothing or something else). */
function formatError(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (e) {
    if (e instanceof FormatError) return e;
    throw e;
  }
  throw new Error('expected a FormatError');
}

/** A FAR3 archive of one compressed entry whose RefPack block is `stream` and manifest size `size`. */
function far3WithStream(stream: number[], size: number): Uint8Array {
  const far = createFar3([{ name: 'x.bmp', typeId: 1, fileId: 2, data: new Uint8Array(1) }], {
    compression: 'refpack',
  });
  const e = far.entries[0];
  e.size = size;
  const stored = new Uint8Array(9 + 4 + stream.length);
  const dv = new DataView(stored.buffer);
  stored[0] = 1;
  dv.setUint32(1, size, true);
  dv.setUint32(5, 4 + stream.length, true);
  dv.setUint32(9, 4 + stream.length, true);
  stored.set(stream, 13);
  e.stored = stored;
  return writeFar3(far);
}

/** `10 FB` + the 3-byte big-endian size + commands. */
const rp = (size: number, ...commands: number[]) => [
  0x10,
  0xfb,
  size >> 16,
  (size >> 8) & 255,
  size & 255,
  ...commands,
];

function entryError(
  bytes: Uint8Array,
  limits?: { maxEntryBytes: number; maxTotalBytes: number },
): FormatError {
  const far = readFar3(bytes, 'bad.dat');
  return formatError(() => readFar3Entry(far, far.entries[0], 'bad.dat', limits));
}

describe('RefPack streams that lie', () => {
  it('a copy reaching before the start of the output', () => {
    // 2 literals, then a copy of 3 from 5 back (only 2 bytes exist)
    const e = entryError(far3WithStream(rp(5, 0x02 | (0 << 2), 4, 0x41, 0x42, 0xfc), 5));
    expect(e.code).toBe('BAD_REFPACK');
    expect(e.file).toBe('bad.dat');
    expect(e.field).toBe('entries[0].data');
    expect(e.offset).toBe(16 + 13 + 5); // the command, in the archive
    expect(e.message).toMatch(/before the start of the output/);
  });

  it('a copy or literals past the stated size, a stop before it, a stream cut short', () => {
    // 4 literals then a copy of 10 into a 6-byte output
    expect(entryError(far3WithStream(rp(6, 0xe0, 1, 2, 3, 4, 0x1c, 0), 6)).message).toMatch(
      /runs past the unpacked size 6/,
    );
    // 8 literals into a 6-byte output
    expect(entryError(far3WithStream(rp(6, 0xe1, 1, 2, 3, 4, 5, 6, 7, 8, 0xfc), 6)).code).toBe('BAD_REFPACK');
    // stops after 4 of 6
    expect(entryError(far3WithStream(rp(6, 0xe0, 1, 2, 3, 4, 0xfc), 6)).message).toMatch(
      /stops after 4 of 6/,
    );
    // 8 literals announced, 2 present
    expect(entryError(far3WithStream(rp(8, 0xe1, 1, 2), 8)).code).toBe('TRUNCATED');
    // a 4-byte copy command cut after 2 bytes
    expect(entryError(far3WithStream(rp(8, 0xe0, 1, 2, 3, 4, 0xc0, 0), 8)).code).toBe('TRUNCATED');
    // not a RefPack signature where one must be: read as stored only when the bytes are there
    const raw = far3WithStream([0x10, 0xfa, 0, 0, 9, 1, 2], 50);
    expect(entryError(raw).code).toBe('TRUNCATED');
  });

  it('a stream whose size disagrees with the manifest', () => {
    const e = entryError(far3WithStream(rp(4, 0xe0, 1, 2, 3, 4, 0xfc), 5));
    expect([e.code, e.field]).toEqual(['BAD_SIZE', 'entries[0]']);
  });

  it('a decompression bomb: sizes past the limits or past what the stream can describe', () => {
    // 1 GiB claimed by a 7-byte stream: refused before any allocation
    const claim = far3WithStream([0x90, 0xfb, 0x40, 0, 0, 0, 0xfc], 2 ** 30);
    const t = performance.now();
    expect(entryError(claim).code).toBe('UNPACKED_TOO_LARGE');
    expect(entryError(claim, { maxEntryBytes: 2 ** 31, maxTotalBytes: 2 ** 31 }).code).toBe(
      'COUNT_TOO_LARGE',
    );
    expect(performance.now() - t).toBeLessThan(500);
    // a real bomb (16 MiB of zeros in a 65 KB stream) is bounded by the limits the caller sets
    const zeros = new Uint8Array(16 << 20);
    const far = createFar3([{ name: 'z.bin', typeId: 1, fileId: 1, data: zeros }], {
      compression: 'refpack',
    });
    const bytes = writeFar3(far);
    expect(bytes.length).toBeLessThan(70_000);
    const small = { maxEntryBytes: 1 << 20, maxTotalBytes: 1 << 20 };
    expect(entryError(bytes, small).code).toBe('UNPACKED_TOO_LARGE');
    expect(formatError(() => unpackFar(bytes, 'z.dat', small)).code).toBe('UNPACKED_TOO_LARGE');
    const read = readFar3(bytes);
    expect(readFar3Entry(read, read.entries[0]).length).toBe(16 << 20);
  });
});

describe('FAR tables that lie', () => {
  const good = writeFar3(
    createFar3(
      [
        { name: 'a.apr', typeId: 0xc, fileId: 1, data: enc('appearance') },
        { name: 'b.bnd', typeId: 0xb, fileId: 2, data: enc('binding!') },
      ],
      { compression: 'refpack' },
    ),
  );
  const manifest = new DataView(good.buffer).getUint32(12, true);
  const patch = (at: number, v: number, width = 4) => {
    const b = good.slice();
    const dv = new DataView(b.buffer);
    if (width === 4) dv.setUint32(at, v, true);
    else if (width === 2) dv.setUint16(at, v, true);
    else b[at] = v;
    return b;
  };

  it('a header cut short, a manifest offset or count past the file', () => {
    expect(formatError(() => readFar(enc('FAR!byAY________'), 'h.dat')).code).toBe('BAD_MAGIC');
    expect(formatError(() => readFar(good.subarray(0, 10), 'h.dat')).field).toBe('version');
    expect(formatError(() => readFar(good.subarray(0, 14), 'h.dat')).field).toBe('manifestOffset');
    const past = formatError(() => readFar3(patch(12, good.length + 5), 'm.dat'));
    expect([past.code, past.field, past.file]).toEqual(['BAD_OFFSET', 'manifestOffset', 'm.dat']);
    const count = formatError(() => readFar3(patch(manifest, 0x7fffffff), 'c.dat'));
    expect([count.code, count.field, count.offset]).toEqual(['COUNT_TOO_LARGE', 'count', manifest + 4]);
    expect(formatError(() => readFar(patch(8, 2), 'v.dat')).code).toBe('UNSUPPORTED_VERSION');
  });

  it('a manifest cut short', () => {
    for (let cut = manifest + 4; cut < good.length; cut += 3) {
      const e = formatError(() => readFar3(good.subarray(0, cut), 't.dat'));
      expect(['TRUNCATED', 'COUNT_TOO_LARGE']).toContain(e.code);
      expect(e.file).toBe('t.dat');
      expect(e.field).toMatch(/^(count|entries\[\d\]\.\w+)$/);
    }
  });

  it('entry offsets and sizes past the file', () => {
    const rec = manifest + 4;
    const off = formatError(() => readFar3(patch(rec + 8, good.length), 'o.dat'));
    expect([off.code, off.field, off.offset]).toEqual(['BAD_OFFSET', 'entries[0].offset', rec + 8]);
    const size = formatError(() => readFar3(patch(rec + 4, 0xffff, 2), 's.dat'));
    expect(size.code).toBe('BAD_OFFSET');
    const inHeader = formatError(() => readFar3(patch(rec + 8, 4), 'i.dat'));
    expect(inHeader.code).toBe('BAD_OFFSET');
  });

  it('names with NUL, "..", an absolute path or a drive', () => {
    for (const name of [
      'a\u0000b.apr',
      '../up.apr',
      'x/../../up.apr',
      '/etc/passwd',
      '\\\\host\\x',
      'C:\\x.apr',
    ]) {
      const far3 = writeFar3(createFar3([{ name, typeId: 1, fileId: 1, data: enc('x') }]));
      const e3 = formatError(() => readFar3(far3, 'n.dat'));
      expect([e3.code, e3.field]).toEqual(['BAD_NAME', 'entries[0].name']);
      const far1 = writeFar1(createFar1([[name, enc('x')]], '1b'));
      const e1 = formatError(() => readFar(far1, 'n.far'));
      expect([e1.code, e1.field]).toEqual(['BAD_NAME', 'entries[0].name']);
    }
    const nul = formatError(() =>
      readFar3(writeFar3(createFar3([{ name: 'ab\u0000', typeId: 1, fileId: 1, data: enc('x') }])), 'n.dat'),
    );
    expect(nul.offset).toBe(16 + 1 + 4 + 24 + 2); // the NUL byte itself
  });

  it('random damage to a FAR3 or FAR1 archive: read, or a FormatError — quickly (property)', () => {
    const far1 = writeFar1(
      createFar1(
        [
          ['a.otf', enc('<OTF>x</OTF>')],
          ['b.otf', enc('<OTF/>')],
        ],
        '1b',
      ),
    );
    const body = new Uint8Array(3000).map((_, i) => (i % 97) ^ (i >> 5));
    const far3 = writeFar3(
      createFar3(
        [
          { name: 'big.mesh', typeId: 9, fileId: 7, data: body },
          { name: 'b.bnd', typeId: 0xb, fileId: 2, data: enc('binding binding binding') },
        ],
        { compression: 'refpack' },
      ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(far1, far3),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        fc.option(fc.nat()),
        (base, edits, cut) => {
          const b = base.slice(0, cut === null ? base.length : 16 + (cut % base.length));
          for (const [at, v] of edits) if (b.length) b[at % b.length] = v;
          const t = performance.now();
          try {
            const far = readFar(b, 'fuzz.dat');
            for (let i = 0; i < far.entries.length; i++) {
              const data = readFarEntry(far, i, 'fuzz.dat', {
                maxEntryBytes: 1 << 20,
                maxTotalBytes: 1 << 20,
              });
              expect(data.length).toBe(far.entries[i].size);
            }
          } catch (e) {
            if (!(e instanceof FormatError)) throw e;
            expect(e.file).toBe('fuzz.dat');
          }
          expect(performance.now() - t).toBeLessThan(1000);
        },
      ),
      { numRuns: 400 },
    );
  });
});
