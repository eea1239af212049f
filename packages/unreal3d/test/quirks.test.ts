/**
 * Quirks UCC and the game accepted (issue 18.1), on the hand-made files of
 * test-assets/unreal3d/quirks (see its README): read with a warning naming file, offset and
 * count; refused with the FormatError under `strict: true`; legacy → .glb → legacy byte-exact.
 */
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { FormatError, KeptBytesExtension } from '@gltf-legacy/core';
import { firstByteDiff, readBytes, TEST_ASSETS } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { anivFrame, exportUnreal, importUnrealFiles, readAniv } from '../src/index.js';

const dir = join(TEST_ASSETS, 'unreal3d', 'quirks');
const files = (base: string) =>
  new Map([
    [`${base}_d.3d`, readBytes(join(dir, `${base}_d.3d`))],
    [`${base}_a.3d`, readBytes(join(dir, `${base}_a.3d`))],
  ]);
const io = new NodeIO().registerExtensions([...ALL_EXTENSIONS, KeptBytesExtension]);

/** Imports, writes and reads a .glb, exports again: the _d.3d and _a.3d must be the same bytes. */
async function expectRoundTrip(base: string): Promise<void> {
  const input = files(base);
  const { document } = await importUnrealFiles(input, { main: `${base}_d.3d` });
  const back = await io.readBinary(await io.writeBinary(document));
  const { files: out } = await exportUnreal(back, { name: base });
  for (const name of [`${base}_d.3d`, `${base}_a.3d`])
    expect(firstByteDiff(out.get(name)!, input.get(name)!), name).toBe(-1);
}

async function strictError(base: string): Promise<FormatError> {
  const err = await importUnrealFiles(files(base), { main: `${base}_d.3d`, strict: true }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FormatError);
  return err as FormatError;
}

describe('an _a.3d whose last frame is 4 bytes short (ANIV_TRUNCATED)', () => {
  it('reads all 9 frames, the missing last vertex taken from frame 7', async () => {
    const { document, warnings } = await importUnrealFiles(files('short'), { main: 'short_d.3d' });
    const w = warnings.find((x) => x.code === 'ANIV_TRUNCATED');
    expect(w?.message).toContain('short_a.3d');
    expect(w?.message).toContain('4 byte(s) short at offset 288');
    expect(w?.message).toContain('frame 7');
    // 8 morph targets: frames 1..8 all present.
    expect(document.getRoot().listMeshes()[0].listPrimitives()[0].listTargets()).toHaveLength(8);
    const whole = readAniv(readBytes(join(TEST_ASSETS, 'unreal3d', 'cube_a.3d')));
    const padded = readAniv(files('short').get('short_a.3d')!);
    const f8 = anivFrame(padded, 8);
    const w8 = anivFrame(whole, 8);
    const w7 = anivFrame(whole, 7);
    expect(Array.from(f8.subarray(0, 21))).toEqual(Array.from(w8.subarray(0, 21))); // vertices 0..6
    expect(Array.from(f8.subarray(21))).toEqual(Array.from(w7.subarray(21))); // vertex 7 from frame 7
  });
  it('strict: the TRUNCATED FormatError naming file, offset and frame', async () => {
    const err = await strictError('short');
    expect(err.code).toBe('TRUNCATED');
    expect(err.file).toBe('short_a.3d');
    expect(err.offset).toBe(288);
    expect(err.field).toBe('frames[8]');
  });
  it('legacy → .glb → legacy gives the original bytes (the short length in extras)', async () => {
    await expectRoundTrip('short');
  });
});

describe('a _d.3d triangle naming vertex numVertices (INDEX_OUT_OF_RANGE)', () => {
  it('reads the other 11 triangles; the bad one is kept in extras, not drawn', async () => {
    const { document, warnings } = await importUnrealFiles(files('pastend'), { main: 'pastend_d.3d' });
    const w = warnings.find((x) => x.code === 'INDEX_OUT_OF_RANGE');
    expect(w?.count).toBe(1);
    expect(w?.message).toContain('pastend_d.3d');
    expect(w?.message).toContain('offset 132');
    const mesh = document.getRoot().listMeshes()[0];
    const triangles = mesh.listPrimitives().reduce((n, p) => n + p.getIndices()!.getCount() / 3, 0);
    expect(triangles).toBe(11);
    const extras = (mesh.getExtras() as { unreal3d: { outOfRange: { vertices: number[] }[] } }).unreal3d;
    expect(extras.outOfRange).toHaveLength(1);
    expect(extras.outOfRange[0].vertices).toContain(8);
  });
  it('strict: the BAD_INDEX FormatError naming file, offset and field', async () => {
    const err = await strictError('pastend');
    expect(err.code).toBe('BAD_INDEX');
    expect(err.file).toBe('pastend_d.3d');
    expect(err.offset).toBe(132);
    expect(err.field).toBe('polys[5].vertices[2]');
  });
  it('legacy → .glb → legacy gives the original bytes (the triangle back at its place)', async () => {
    await expectRoundTrip('pastend');
  });
});

describe('two bytes after the last frame of an _a.3d (FILE_TOO_LONG)', () => {
  it('reads the 9 frames and keeps the bytes', async () => {
    const { warnings } = await importUnrealFiles(files('padded'), { main: 'padded_d.3d' });
    expect(warnings.find((x) => x.code === 'FILE_TOO_LONG')?.message).toContain('2 byte(s)');
  });
  it('strict: the TRAILING_BYTES FormatError', async () => {
    const err = await strictError('padded');
    expect(err.code).toBe('TRAILING_BYTES');
    expect(err.file).toBe('padded_a.3d');
  });
  it('legacy → .glb → legacy gives the original bytes', async () => {
    await expectRoundTrip('padded');
  });
});
