/**
 * Issue 28's quirk: an `_a.3d` whose ONLY frame ends a few bytes short (UCC compiled such files;
 * the package holds the full vertex count). Read with `ANIV_TRUNCATED` (the missing vertices at
 * the mesh origin), refused under `strict`, and written back short, byte for byte.
 */
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { FormatError } from '@gltf-legacy/core';
import { firstByteDiff, readBytes, TEST_ASSETS } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { anivFrame, exportUnreal, importUnrealFiles, readAniv } from '../src/index.js';

function shortOnlyFrame(cut: number): Map<string, Uint8Array> {
  const data = readBytes(join(TEST_ASSETS, 'unreal3d', 'cube_d.3d'));
  const aniv = readBytes(join(TEST_ASSETS, 'unreal3d', 'cube_a.3d'));
  const frameSize = aniv[2] | (aniv[3] << 8);
  const one = aniv.slice(0, 4 + frameSize - cut);
  one[0] = 1;
  one[1] = 0;
  return new Map([
    ['only_d.3d', data],
    ['only_a.3d', one],
  ]);
}

describe('an _a.3d whose only frame is 4 bytes short', () => {
  it('reads with ANIV_TRUNCATED; the missing vertex is at the origin, the others as stored', async () => {
    const files = shortOnlyFrame(4);
    const { document, warnings } = await importUnrealFiles(files, { main: 'only_d.3d' });
    const w = warnings.find((x) => x.code === 'ANIV_TRUNCATED');
    expect(w?.message).toMatch(/only_a\.3d: frame 0 ends 4 byte\(s\) short .*the only frame/);
    const padded = readAniv(files.get('only_a.3d')!);
    const whole = readAniv(readBytes(join(TEST_ASSETS, 'unreal3d', 'cube_a.3d')));
    const f = anivFrame(padded, 0);
    const w0 = anivFrame(whole, 0);
    expect(Array.from(f.subarray(0, f.length - 3))).toEqual(Array.from(w0.subarray(0, f.length - 3)));
    expect(Array.from(f.subarray(f.length - 3))).toEqual([0, 0, 0]);
    expect(document.getRoot().listMeshes()).toHaveLength(1);
  });
  it('strict: the TRUNCATED FormatError naming file, offset and frame', async () => {
    const files = shortOnlyFrame(4);
    const err = await importUnrealFiles(files, { main: 'only_d.3d', strict: true }).catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect([err.code, err.file, err.field, err.offset]).toEqual([
      'TRUNCATED',
      'only_a.3d',
      'frames[0]',
      files.get('only_a.3d')!.length,
    ]);
  });
  it('legacy → .glb → legacy writes the short file again', async () => {
    const files = shortOnlyFrame(4);
    const { document } = await importUnrealFiles(files, { main: 'only_d.3d' });
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
    const { files: out } = await exportUnreal(await io.readBinary(await io.writeBinary(document)), {
      name: 'only',
    });
    for (const n of ['only_d.3d', 'only_a.3d']) expect(firstByteDiff(out.get(n)!, files.get(n)!), n).toBe(-1);
  });
  it('a whole frame missing is still an error', () => {
    const files = shortOnlyFrame(0);
    const a = files.get('only_a.3d')!.slice(0, 4);
    expect(() => readAniv(a, 'only_a.3d')).toThrow(FormatError);
  });
});
