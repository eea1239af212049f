/**
 * Hostile archives: every bad table, offset, size, zlib stream, bomb and name gives a FormatError
 * naming file, offset and field (or, for names, an unnamed entry), never a hang or an allocation
 * the input does not justify.
 */
import { join } from 'node:path';
import { deflateRawSync, deflateSync } from 'node:zlib';
import { FormatError } from '@gltf-legacy/core';
import { corpusRoot, readBytes } from '@gltf-legacy/test-utils';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveFiles,
  grimrockArchiveEntries,
  grimrockArchiveFiles,
  readArchiveTable,
  readGrimrockArchive,
  useNativeZlib,
} from '../src/index.js';
import { buildArchive, fnv, withU32 } from './archive-builder.js';

const F = 'x.dat';

function formatError(f: () => unknown): FormatError {
  try {
    f();
  } catch (e) {
    if (e instanceof FormatError) return e;
    throw e;
  }
  throw new Error('no error');
}

const LUA = 'defineObject{ model = "mod_assets/models/box.fbx" }';
const small = () =>
  buildArchive([
    { path: 'mod_assets/scripts/init.lua', data: LUA },
    { path: 'mod_assets/models/box.model', data: 'MDL1\x02\0\0\0rest' },
    { path: 'mod_assets/readme.txt', data: 'stored text', zlib: false },
  ]);

describe('tables', () => {
  it('reads a small archive (stored and zlib entries)', () => {
    const a = readGrimrockArchive(small(), F);
    expect(a.entries.map((e) => [e.path, e.storage, e.kind])).toEqual([
      ['mod_assets/scripts/init.lua', 'zlib', 'lua'],
      ['mod_assets/models/box.model', 'zlib', 'model'],
      [undefined, 'stored', 'lua'], // readme.txt is named nowhere
    ]);
  });

  it('a count the file cannot hold: TRUNCATED at the count, before any allocation', () => {
    const e = formatError(() => readArchiveTable(withU32(small(), 4, 0xffffffff), F));
    expect([e.code, e.file, e.offset, e.field]).toEqual(['TRUNCATED', F, 4, 'count']);
  });

  it('a table cut short, an offset inside the table or past the file, a size past the file', () => {
    const b = small();
    expect(formatError(() => readArchiveTable(b.subarray(0, 30), F)).field).toBe('count');
    const inside = formatError(() => readArchiveTable(withU32(b, 8 + 20 + 4, 10), F));
    expect([inside.code, inside.offset, inside.field]).toEqual(['BAD_OFFSET', 32, 'entries[1].offset']);
    const past = formatError(() => readArchiveTable(withU32(b, 8 + 4, b.length + 1), F));
    expect([past.code, past.field]).toEqual(['BAD_OFFSET', 'entries[0].offset']);
    const size = formatError(() => readArchiveTable(withU32(b, 8 + 40 + 12, 1 << 30), F));
    expect([size.code, size.offset, size.field]).toEqual(['TRUNCATED', 60, 'entries[2].size']);
    const csize = formatError(() => readArchiveTable(withU32(b, 8 + 8, 0x7fffffff), F));
    expect([csize.code, csize.field]).toEqual(['TRUNCATED', 'entries[0].compressedSize']);
  });

  it('every truncation of a real archive is a FormatError or reads', () => {
    const real = readBytes(join(corpusRoot(), 'archives/grimrock/LNR/IO Dungeon 1.dat'));
    for (let n = 0; n < real.length; n += n < 1000 ? 7 : 997) {
      try {
        readGrimrockArchive(real.subarray(0, n), F);
      } catch (e) {
        expect(e, `length ${n}`).toBeInstanceOf(FormatError);
      }
    }
  });
});

// node:zlib where the platform has it, fflate in the browser viewer: both paths give the same errors
describe.each([
  ['native zlib', true],
  ['fflate (browser path)', false],
])('zlib entries, %s', (_, native) => {
  beforeAll(() => useNativeZlib(native));
  afterAll(() => useNativeZlib(true));
  const one = (data: Uint8Array | string) => buildArchive([{ path: 'a.lua', data }]);
  const DATA = 'x'.repeat(1000);

  it('a stream longer or shorter than stated is SIZE_MISMATCH', () => {
    const b = one(DATA);
    // both size fields (table and the entry's own u32) say 999 / 1001
    const at = readArchiveTable(b, F).entries[0].offset;
    for (const size of [999, 1001]) {
      const e = formatError(() => readGrimrockArchive(withU32(withU32(b, 8 + 12, size), at, size), F));
      expect([e.code, e.file, e.field]).toEqual(['SIZE_MISMATCH', F, 'entries[0].data']);
    }
    const inner = formatError(() => readGrimrockArchive(withU32(b, at, 999), F));
    expect([inner.code, inner.offset, inner.field]).toEqual(['SIZE_MISMATCH', at, 'entries[0].size']);
  });

  it('a bad header, corrupt DEFLATE data, a cut stream or a wrong Adler-32 is BAD_ZLIB', () => {
    const b = one(DATA);
    const at = readArchiveTable(b, F).entries[0].offset;
    const header = b.slice();
    header[at + 4] = 0x79;
    expect(formatError(() => readGrimrockArchive(header, F)).code).toBe('BAD_ZLIB');
    const adler = b.slice();
    adler[b.length - 1] ^= 1;
    const ea = formatError(() => readGrimrockArchive(adler, F));
    expect([ea.code, ea.offset]).toEqual(['BAD_ZLIB', b.length - 4]);
    // a stream cut in the middle (compressed size shortened)
    const cut = withU32(b, 8 + 8, readArchiveTable(b, F).entries[0].compressedSize - 8);
    expect(formatError(() => readGrimrockArchive(cut, F)).code).toMatch(/BAD_ZLIB|SIZE_MISMATCH/);
    // DEFLATE block type 3 (reserved)
    const bad = buildArchive([{ path: 'a', data: 'x' }]);
    const o = readArchiveTable(bad, F).entries[0].offset;
    bad[o + 6] = 0x07;
    expect(formatError(() => readGrimrockArchive(bad, F)).code).toMatch(/BAD_ZLIB|SIZE_MISMATCH/);
  });

  it('bytes after the end of the zlib stream are BAD_ZLIB', () => {
    const z = deflateSync(Buffer.from(DATA));
    const blob = Buffer.concat([Buffer.alloc(4), z, Buffer.from([1, 2, 3, 4, 5])]);
    blob.writeUInt32LE(DATA.length, 0);
    const head = Buffer.alloc(28);
    head.write('GRA2', 0, 'latin1');
    head.writeUInt32LE(1, 4);
    head.writeUInt32LE(fnv('a.lua'), 8);
    head.writeUInt32LE(28, 12);
    head.writeUInt32LE(blob.length, 16);
    head.writeUInt32LE(DATA.length, 20);
    head.writeUInt32LE(1, 24);
    const e = formatError(() => readGrimrockArchive(new Uint8Array(Buffer.concat([head, blob])), F));
    expect([e.code, e.file, e.field]).toEqual(['BAD_ZLIB', F, 'entries[0].data']);
  });

  it('a size DEFLATE cannot produce from the stream is BAD_SIZE, before allocating it', () => {
    const b = one('tiny');
    const at = readArchiveTable(b, F).entries[0].offset;
    const e = formatError(() =>
      readGrimrockArchive(withU32(withU32(b, 8 + 12, 200_000_000), at, 200_000_000), F),
    );
    expect([e.code, e.field]).toEqual(['BAD_SIZE', 'entries[0].data']);
  });

  it('a bomb (64 MiB of zeros stated as 100 bytes) stops at the stated size, quickly', () => {
    const zeros = deflateSync(new Uint8Array(64 * 1024 * 1024), { level: 9 });
    const blob = Buffer.concat([Buffer.alloc(4), zeros]);
    blob.writeUInt32LE(100, 0);
    const head = Buffer.alloc(28);
    head.write('GRA2', 0, 'latin1');
    head.writeUInt32LE(1, 4);
    head.writeUInt32LE(fnv('a.lua'), 8);
    head.writeUInt32LE(28, 12);
    head.writeUInt32LE(blob.length, 16);
    head.writeUInt32LE(100, 20);
    head.writeUInt32LE(1, 24);
    const t = performance.now();
    const e = formatError(() => readGrimrockArchive(new Uint8Array(Buffer.concat([head, blob])), F));
    expect(e.code).toBe('SIZE_MISMATCH');
    expect(performance.now() - t).toBeLessThan(5000);
  });

  it('entries above the unpack limits (--max-unpacked) are UNPACKED_TOO_LARGE', () => {
    const b = buildArchive([
      { path: 'a.lua', data: DATA },
      { path: 'b.lua', data: DATA },
    ]);
    const limits = (maxEntryBytes: number, maxTotalBytes: number) =>
      formatError(() => readGrimrockArchive(b, F, { limits: { maxEntryBytes, maxTotalBytes } }));
    expect([limits(999, 1e9).code, limits(999, 1e9).field]).toEqual([
      'UNPACKED_TOO_LARGE',
      'entries[0].size',
    ]);
    expect([limits(1000, 1999).code, limits(1000, 1999).field]).toEqual([
      'UNPACKED_TOO_LARGE',
      'entries[1].size',
    ]);
    expect(
      readGrimrockArchive(b, F, { limits: { maxEntryBytes: 1000, maxTotalBytes: 2000 } }).entries,
    ).toHaveLength(2);
  });

  it('an encrypted entry is listed, and unpacking it is ENCRYPTED_ENTRY', () => {
    const b = buildArchive([
      { path: 'mod_assets/scripts/init.lua', data: LUA },
      { path: 'assets/x.model', data: 'secret', flags: 2 },
    ]);
    const a = readGrimrockArchive(b, F);
    expect(a.entries.map((e) => e.kind)).toEqual(['lua', 'encrypted']);
    const e = formatError(() => archiveFiles(a));
    expect([e.code, e.file, e.offset, e.field]).toEqual([
      'ENCRYPTED_ENTRY',
      F,
      8 + 20 + 16,
      'entries[1].flags',
    ]);
    expect(formatError(() => grimrockArchiveFiles(b, F)).code).toBe('ENCRYPTED_ENTRY');
    // as container entries: listed (path by hash, compression 'encrypted'); only read() throws
    const list = grimrockArchiveEntries(b, F)!;
    expect(list.map((x) => [x.path, x.compression])).toEqual([
      ['mod_assets/scripts/init.lua', 'zlib'],
      [`unnamed/${fnv('assets/x.model').toString(16).padStart(8, '0')}.bin`, 'encrypted'],
    ]);
    expect(new TextDecoder().decode(list[0].read())).toBe(LUA);
    expect(formatError(() => list[1].read()).code).toBe('ENCRYPTED_ENTRY');
  });
});

describe('names', () => {
  it('a path with `..`, a root or a NUL is never accepted: the entry stays unnamed', () => {
    const evil = ['../../evil.lua', '/etc/evil.lua', 'mod_assets/../../x.lua', 'C:/x.lua'];
    const b = buildArchive([
      { path: 'mod_assets/scripts/init.lua', data: evil.map((p) => `import "${p}"`).join('\n') },
      // a NUL makes a script binary: its strings are not read, and no quoted string holds a NUL
      { path: 'mod_assets/scripts/dungeon.lua', data: 'import "a\0b.lua"' },
      ...evil.map((p) => ({ path: p, data: 'boom' })),
      { path: 'a\0b.lua', data: 'nul' },
    ]);
    const a = readGrimrockArchive(b, F);
    expect(a.entries.map((e) => e.path)).toEqual([
      'mod_assets/scripts/init.lua',
      'mod_assets/scripts/dungeon.lua',
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(a.notes.filter((n) => n.code === 'NAME_REFUSED')).toHaveLength(evil.length);
    const files = [...archiveFiles(a).keys()];
    expect(files.every((p) => p.startsWith('mod_assets/') || /^unnamed\/[0-9a-f]{8}\.lua$/.test(p))).toBe(
      true,
    );
  });

  it('names two entries of one hash alike, and keeps both when unpacked', () => {
    const b = buildArchive([
      { path: 'mod_assets/scripts/init.lua', data: LUA },
      { path: 'mod_assets/scripts/init.lua', data: 'second' },
    ]);
    const files = grimrockArchiveFiles(b, F);
    expect([...files.keys()]).toEqual([
      'mod_assets/scripts/init.lua',
      `unnamed/${fnv('mod_assets/scripts/init.lua').toString(16)}~1.lua`,
    ]);
  });
});

it('reads the earlier GRAR layout (16-byte rows, no flags)', () => {
  const b = buildArchive(
    [
      { path: 'mod_assets/scripts/init.lua', data: LUA },
      { path: 'mod_assets/models/box.model', data: 'MDL1\x02\0\0\0' },
      { path: 'mod_assets/x.lua', data: 'stored', zlib: false },
    ],
    'GRAR',
  );
  const a = readGrimrockArchive(b, F);
  expect(a.layout).toBe('GRAR');
  expect(a.entries.map((e) => [e.path, e.storage, e.size])).toEqual([
    ['mod_assets/scripts/init.lua', 'zlib', LUA.length],
    ['mod_assets/models/box.model', 'zlib', 8],
    [undefined, 'stored', 6],
  ]);
});

it('random corruptions of a small archive: read, or a FormatError (fast-check)', () => {
  const base = small();
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), {
        minLength: 1,
        maxLength: 8,
      }),
      fc.nat(base.length),
      (flips, cut) => {
        const b = base.slice(0, Math.max(cut, 8));
        for (const [i, v] of flips) if (i < b.length) b[i] = v;
        try {
          const a = readGrimrockArchive(b, F);
          for (const e of a.entries) if (e.data) expect(e.data.length).toBe(e.size);
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
        }
      },
    ),
    { numRuns: 400 },
  );
});

it('raw DEFLATE without the zlib header is BAD_ZLIB', () => {
  const raw = deflateRawSync(Buffer.from('hello hello hello'));
  const blob = Buffer.concat([Buffer.alloc(4), raw]);
  blob.writeUInt32LE(17, 0);
  const head = Buffer.alloc(28);
  head.write('GRA2', 0, 'latin1');
  head.writeUInt32LE(1, 4);
  head.writeUInt32LE(1, 8);
  head.writeUInt32LE(28, 12);
  head.writeUInt32LE(blob.length, 16);
  head.writeUInt32LE(17, 20);
  head.writeUInt32LE(1, 24);
  expect(formatError(() => readGrimrockArchive(new Uint8Array(Buffer.concat([head, blob])), F)).code).toBe(
    'BAD_ZLIB',
  );
});
