import { closeSync, mkdtempSync, openSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { freemem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readInput, readLarge } from '../src/files.js';

const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readInput (inputs of 2 GiB and more)', () => {
  it('reads a file piece by piece into one array, the same bytes as a plain read', () => {
    const path = join(dir, 'small.bin');
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 37) & 0xff);
    writeFileSync(path, bytes);
    expect(readLarge(path, 7)).toEqual(bytes);
    expect(readInput(path)).toEqual(bytes);
  });

  it('refuses a file above 4 GiB − 1 with FILE_TOO_LARGE before allocating (a GLB length is 32-bit)', () => {
    const path = join(dir, 'huge.glb');
    writeFileSync(path, '');
    truncateSync(path, 2 ** 32); // sparse: no disk used
    let err: { code?: string; message?: string } = {};
    try {
      readInput(path);
    } catch (e) {
      err = e as typeof err;
    }
    expect(err.code).toBe('FILE_TOO_LARGE');
    expect(err.message).toContain('4294967296 bytes');
  });

  // a 1000-frame Unreal mesh converts to a 2.1 GB .glb, which readFileSync refuses
  it.skipIf(freemem() < 6 * 2 ** 30)(
    'reads a 2 GiB + 5 byte file (readFileSync’s limit is 2 GiB − 1)',
    () => {
      const path = join(dir, 'big.glb');
      writeFileSync(path, '');
      truncateSync(path, 2 ** 31 + 5); // sparse zeros
      const fd = openSync(path, 'r+');
      writeSync(fd, Buffer.from('tail!', 'latin1'), 0, 5, 2 ** 31);
      closeSync(fd);
      const bytes = readInput(path);
      expect(bytes.length).toBe(2 ** 31 + 5);
      expect(Buffer.from(bytes.subarray(2 ** 31)).toString('latin1')).toBe('tail!');
      expect(bytes[2 ** 30]).toBe(0);
    },
  );
});
