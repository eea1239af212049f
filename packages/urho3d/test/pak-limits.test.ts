import { basename } from 'node:path';
import { FormatError, setUnpackLimits, UNPACK_LIMITS_DEFAULTS } from '@gltf-legacy/core';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkPakLimits,
  createPak,
  extractPak,
  extractPakEntry,
  legacyFormat,
  readPak,
  writePak,
} from '../src/index.js';

const MiB = 1024 * 1024;

/** A ULZ4 package of `entries` (name → zero bytes of that length): compresses ~250:1. */
function zeroPak(entries: [string, number][], compress = true): Uint8Array {
  return writePak(createPak(new Map(entries.map(([n, len]) => [n, new Uint8Array(len)])), { compress }));
}

function thrown(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (e) {
    return e as FormatError;
  }
  throw new Error('did not throw');
}

afterEach(() => {
  setUnpackLimits();
});

describe('.pak decompression limits', () => {
  it('no corpus package comes near the defaults (largest: Data_299299.pak, 3.99 MB unpacked)', () => {
    const totals = corpusFiles('urho', ['.pak']).map((p) => {
      const pak = readPak(readBytes(p), basename(p));
      checkPakLimits(pak, basename(p));
      return {
        name: basename(p),
        total: pak.entries.reduce((s, e) => s + e.size, 0),
        largest: Math.max(...pak.entries.map((e) => e.size)),
      };
    });
    if (!totals.length) return;
    const max = totals.reduce((a, b) => (b.total > a.total ? b : a));
    expect(max.name).toBe('Data_299299.pak');
    expect(max.total).toBe(3994395);
    expect(Math.max(...totals.map((t) => t.largest))).toBeLessThan(
      UNPACK_LIMITS_DEFAULTS.maxEntryBytes / 100,
    );
    expect(max.total).toBeLessThan(UNPACK_LIMITS_DEFAULTS.maxTotalBytes / 100);
  });

  it('refuses an entry above the per-entry limit before decoding it (UNPACKED_TOO_LARGE, file, offset, field)', () => {
    const bytes = zeroPak([
      ['Models/Small.mdl', 1000],
      ['Models/Bomb.mdl', 6 * MiB],
    ]);
    expect(bytes.length).toBeLessThan(64 * 1024);
    const pak = readPak(bytes, 'bomb.pak');
    const limits = { maxEntryBytes: 4 * MiB, maxTotalBytes: 64 * MiB };
    const e = thrown(() => extractPak(pak, 'bomb.pak', limits));
    expect(e).toBeInstanceOf(FormatError);
    expect(e.code).toBe('UNPACKED_TOO_LARGE');
    expect(e.file).toBe('bomb.pak');
    expect(e.field).toBe('entries[1].size');
    expect(e.offset).toBe(pak.entries[1].offset);
    expect(e.message).toMatch(/6291456 bytes.*4194304 per entry.*--max-unpacked/);
    expect(thrown(() => extractPakEntry(pak, 'Models/Bomb.mdl', 'bomb.pak', limits)).code).toBe(
      'UNPACKED_TOO_LARGE',
    );
    // the small entry alone is fine, and raising the limit unpacks the bomb
    expect(extractPakEntry(pak, 'Models/Small.mdl', 'bomb.pak', limits).length).toBe(1000);
    expect(
      extractPak(pak, 'bomb.pak', { ...limits, maxEntryBytes: 8 * MiB }).get('Models/Bomb.mdl')!.length,
    ).toBe(6 * MiB);
  });

  it('refuses a package whose entries sum above the per-package limit', () => {
    const pak = readPak(
      zeroPak([
        ['A/x.mdl', 3 * MiB],
        ['B/x.mdl', 3 * MiB],
      ]),
      'two.pak',
    );
    const e = thrown(() => extractPak(pak, 'two.pak', { maxEntryBytes: 4 * MiB, maxTotalBytes: 5 * MiB }));
    expect(e.code).toBe('UNPACKED_TOO_LARGE');
    expect(e.message).toMatch(/6291456 bytes.*5242880 per package/);
  });

  it('legacyFormat.unpack follows the limits set in core (what --max-unpacked sets)', () => {
    const bytes = zeroPak([['Models/Bomb.mdl', 3 * MiB]]);
    setUnpackLimits({ maxEntryBytes: 2 * MiB });
    expect(thrown(() => legacyFormat.unpack!(bytes, 'bomb.pak')).code).toBe('UNPACKED_TOO_LARGE');
    setUnpackLimits({ maxEntryBytes: 4 * MiB });
    expect(legacyFormat.unpack!(bytes, 'bomb.pak').get('Models/Bomb.mdl')!.length).toBe(3 * MiB);
  });

  it('stored (UPAK) entries are views into the package and are not bounded', () => {
    const pak = readPak(zeroPak([['Models/Big.mdl', 3 * MiB]], false), 'stored.pak');
    expect(
      extractPak(pak, 'stored.pak', { maxEntryBytes: MiB, maxTotalBytes: MiB }).get('Models/Big.mdl')!.length,
    ).toBe(3 * MiB);
  });

  it('a forged size of 4 GiB − 1 is refused by the limit; the check costs less than a thousandth of decoding', () => {
    const pak = readPak(zeroPak([['Models/Bomb.mdl', 6 * MiB]]), 'forged.pak');
    let t = performance.now();
    for (let i = 0; i < 1000; i++) checkPakLimits(pak, 'forged.pak');
    const check = (performance.now() - t) / 1000;
    t = performance.now();
    extractPak(pak, 'forged.pak');
    const decode = performance.now() - t;
    expect(check).toBeLessThan(decode / 1000);
    pak.entries[0].size = 0xffffffff;
    expect(thrown(() => extractPak(pak, 'forged.pak')).code).toBe('UNPACKED_TOO_LARGE');
  });
});
