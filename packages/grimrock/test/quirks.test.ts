/**
 * Issue 18.1: quirks the game's tools accepted (test-assets/grimrock/quirks, made by its make.mjs)
 * read with a stable warning naming file, offset/field and count; `strict: true` refuses each with
 * the FormatError code; and model + animation → .glb → model + animation gives the original bytes.
 */
import { join } from 'node:path';
import { FormatError, KeptBytesExtension } from '@gltf-legacy/core';
import { NodeIO } from '@gltf-transform/core';
import { firstByteDiff, readBytes, TEST_ASSETS } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  exportGrimrock,
  importGrimrock,
  inspectGrimrock,
  readAnimation,
  readModel,
  writeAnimation,
  writeModel,
} from '../src/index.js';

const dir = join(TEST_ASSETS, 'grimrock');
const quirk = (name: string) => readBytes(join(dir, 'quirks', name));
const clean = (name: string) => readBytes(join(dir, name));

async function roundTrip(files: Map<string, Uint8Array>, main: string, name: string) {
  const { document, warnings } = importGrimrock(files, { main });
  const io = new NodeIO().registerExtensions([KeptBytesExtension]);
  const back = await io.readBinary(await io.writeBinary(document));
  return { warnings, out: (await exportGrimrock(back, { name })).files, document };
}

function strictError(files: Map<string, Uint8Array>, main: string): FormatError {
  try {
    importGrimrock(files, { main, strict: true });
  } catch (e) {
    if (e instanceof FormatError) return e;
    throw e;
  }
  throw new Error('strict import did not throw');
}

describe('quirks (tolerant read, strict refusal, byte-exact round trip)', () => {
  it('bytes after the last node and item: TRAILING_BYTES with file, offset, count; kept', async () => {
    const model = quirk('lever_pad.model');
    const anim = quirk('lever_pad_pull.animation');
    const files = new Map([
      ['lever_pad.model', model],
      ['lever_pad_pull.animation', anim],
    ]);
    const { warnings, out, document } = await roundTrip(files, 'lever_pad.model', 'lever_pad');
    const trailing = warnings.filter((w) => w.code === 'TRAILING_BYTES');
    expect(trailing.map((w) => w.count)).toEqual([4, 2]);
    const modelEnd = clean('lever.model').length;
    expect(trailing[0].message).toContain('lever_pad.model');
    expect(trailing[0].message).toContain(`offset ${modelEnd}`);
    expect(trailing[1].message).toContain(`offset ${clean('lever_pull.animation').length}`);
    // the values are those of the file without the pad
    const plain = importGrimrock(new Map([['lever.model', clean('lever.model')]])).document;
    const pos = (d: typeof plain) =>
      Array.from(d.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!.getArray()!);
    expect(pos(document)).toEqual(pos(plain));
    expect(firstByteDiff(out.get('lever_pad.model')!, model)).toBe(-1);
    expect(firstByteDiff(out.get('lever_pad_pull.animation')!, anim)).toBe(-1);
    // the file model alone: read → write is exact too
    expect(firstByteDiff(writeModel(readModel(model)), model)).toBe(-1);
    expect(firstByteDiff(writeAnimation(readAnimation(anim)), anim)).toBe(-1);
    // inspect shows them
    expect(inspectGrimrock(new Map([['lever_pad.model', model]]))[0].facts?.trailingBytes).toBe(4);
  });

  it('strict refuses trailing bytes with FormatError TRAILING_BYTES at the first extra byte', () => {
    const e = strictError(new Map([['lever_pad.model', quirk('lever_pad.model')]]), 'lever_pad.model');
    expect(e.code).toBe('TRAILING_BYTES');
    expect(e.offset).toBe(clean('lever.model').length);
    const a = strictError(
      new Map([['lever_pad_pull.animation', quirk('lever_pad_pull.animation')]]),
      'lever_pad_pull.animation',
    );
    expect(a.code).toBe('TRAILING_BYTES');
  });

  it('a segment count one too high: SEGMENT_CLAMPED naming the field; 12 triangles read; count 13 written back', async () => {
    const bytes = quirk('crate_count_plus_one.model');
    const files = new Map([['crate_count_plus_one.model', bytes]]);
    const { warnings, out, document } = await roundTrip(
      files,
      'crate_count_plus_one.model',
      'crate_count_plus_one',
    );
    const w = warnings.find((x) => x.code === 'SEGMENT_CLAMPED')!;
    expect(w.message).toContain('crate_count_plus_one.model');
    expect(w.message).toContain('segments[0].count');
    expect(w.message).toContain('13 triangles');
    expect(document.getRoot().listMeshes()[0].listPrimitives()[0].getIndices()!.getCount()).toBe(36);
    expect(firstByteDiff(out.get('crate_count_plus_one.model')!, bytes)).toBe(-1);
    const e = strictError(files, 'crate_count_plus_one.model');
    expect(e.code).toBe('SEGMENT_CLAMPED');
    expect(e.field).toBe('nodes[1].meshEntity.mesh.segments[0].count');
  });

  it('a name whose length counts a NUL terminator keeps it, and weights not summing to 1 come back (WEIGHTS_NORMALIZED)', async () => {
    const model = readModel(clean('lever.model'));
    model.nodes[1].name += '\u0000';
    const mesh = model.nodes.find((n) => n.meshEntity)!.meshEntity!.mesh;
    const w = new DataView(mesh.arrays[14].data.buffer, mesh.arrays[14].data.byteOffset);
    w.setFloat32(0, w.getFloat32(0, true) * 0.5, true); // vertex 0: weights sum below 1
    const bytes = writeModel(model);
    const { warnings, out, document } = await roundTrip(
      new Map([['lever_nul.model', bytes]]),
      'lever_nul.model',
      'lever_nul',
    );
    expect(warnings.map((x) => x.code)).toContain('WEIGHTS_NORMALIZED');
    expect(document.getRoot().listNodes()[1].getName().endsWith('\u0000')).toBe(true);
    expect(firstByteDiff(out.get('lever_nul.model')!, bytes)).toBe(-1);
  });
});
