// A .glb goes to disk piece by piece (StreamedFile, issue 19: peak RSS): the same bytes as
// assembled, no piece of vertex data larger than its accessor or the 1 MiB slab, the morph deltas
// that need no padding written straight from their arrays.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateGlb } from '@gltf-legacy/test-utils';
import { Document, NodeIO } from '@gltf-transform/core';
import { KHRMeshQuantization } from '@gltf-transform/extensions';
import { afterAll, describe, expect, it } from 'vitest';
import { SYNC_WRITE_MAX_BYTES } from '../src/files.js';
import { type OutputData, outputBytes, StreamedFile, writeFilesAtomic, writeGltf } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-streamed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `n` vertices: float POSITION and UNSIGNED_BYTE-normalized COLOR_0 (interleaved, the colour padded to 4),
 * and two morph targets: a float POSITION delta (no padding: written from its array) and a BYTE
 * one (padded to 4 bytes: through the slab). Values from `seed`, every byte meaningful.
 */
function animated(n: number, seed: number): Document {
  const doc = new Document();
  doc.createExtension(KHRMeshQuantization).setRequired(true);
  const buffer = doc.createBuffer();
  let x = seed;
  const rnd = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8) / 2 ** 24;
  const pos = new Float32Array(3 * n).map(() => rnd() * 100 - 50);
  const col = new Uint8Array(3 * n).map(() => Math.round(rnd() * 255));
  const dFloat = new Float32Array(3 * n).map(() => rnd() - 0.5);
  const dByte = new Int8Array(3 * n).map(() => Math.round(rnd() * 254 - 127));
  const acc = (name: string, array: Float32Array | Int8Array | Uint8Array, normalized = false) =>
    doc.createAccessor(name).setType('VEC3').setArray(array).setNormalized(normalized).setBuffer(buffer);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', acc('pos', pos))
    .setAttribute('COLOR_0', acc('col', col, true))
    .addTarget(doc.createPrimitiveTarget('f1').setAttribute('POSITION', acc('dFloat', dFloat)))
    .addTarget(doc.createPrimitiveTarget('f2').setAttribute('POSITION', acc('dByte', dByte)));
  const mesh = doc.createMesh().addPrimitive(prim).setWeights([0, 0]);
  doc.createScene().addChild(doc.createNode().setMesh(mesh));
  return doc;
}

async function glbOf(doc: Document): Promise<OutputData> {
  const outputs = new Map<string, OutputData>();
  await writeGltf(doc, join(dir, 'x.glb'), true, {}, outputs);
  return outputs.get(join(dir, 'x.glb'))!;
}

/** Accessor name → its values' bytes as hex (compared whole: every bit, −0 and NaN too). */
function arraysOf(doc: Document): Map<string, string> {
  return new Map(
    doc
      .getRoot()
      .listAccessors()
      .map((a) => {
        const v = a.getArray()!;
        return [
          `${a.getName()} ${v.constructor.name}`,
          Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex'),
        ];
      }),
  );
}

describe('streamed .glb output', () => {
  // 300 000 vertices: the interleaved group (16 bytes a vertex, 4.8 MB) and the BYTE delta (4 bytes
  // a vertex, 1.2 MB) both take several 1 MiB slabs; the float delta is one 3.6 MB piece
  const n = 300_000;

  it('is a StreamedFile whose pieces add up to a .glb that decodes to the same values', async () => {
    const doc = animated(n, 7);
    const glb = await glbOf(doc);
    expect(glb).toBeInstanceOf(StreamedFile);
    const bytes = outputBytes(glb);
    expect(bytes.byteLength).toBe((glb as StreamedFile).byteLength);
    expect(new DataView(bytes.buffer).getUint32(8, true)).toBe(bytes.byteLength);
    const back = await new NodeIO().registerExtensions([KHRMeshQuantization]).readBinary(bytes);
    expect(arraysOf(back)).toEqual(arraysOf(doc));
    expect((await validateGlb(bytes)).issues.numErrors).toBe(0);
  });

  it('makes no piece of vertex data bigger than an accessor or the 1 MiB slab, and copies no unpadded delta', async () => {
    const doc = animated(n, 8);
    const glb = (await glbOf(doc)) as StreamedFile;
    const dFloat = doc
      .getRoot()
      .listAccessors()
      .find((a) => a.getName() === 'dFloat')!
      .getArray()!;
    const sizes: number[] = [];
    let fromArray = 0;
    let first = true;
    for (const piece of glb.pieces()) {
      if (first)
        first = false; // the header and JSON chunk
      else sizes.push(piece.byteLength);
      if (piece.buffer === dFloat.buffer) fromArray++;
    }
    expect(fromArray).toBe(1);
    expect(Math.max(...sizes)).toBe(dFloat.byteLength);
    const others = sizes.filter((s) => s !== dFloat.byteLength);
    expect(Math.max(...others)).toBeLessThanOrEqual(1 << 20);
    // several slabs each for the interleaved attributes and the BYTE delta
    expect(others.filter((s) => s > 1 << 19).length).toBeGreaterThanOrEqual(5);
  });

  it('reuses its slab without leaking one group’s bytes into another’s padding', async () => {
    // the same document written twice gives the same bytes, and the BYTE delta's padding is 0
    const doc = animated(n, 9);
    const a = outputBytes(await glbOf(doc));
    const b = outputBytes(await glbOf(doc));
    expect(Buffer.compare(a, b)).toBe(0);
    const json = JSON.parse(
      new TextDecoder().decode(a.subarray(20, 20 + new DataView(a.buffer).getUint32(12, true))),
    );
    const dByte = json.accessors.findIndex((x: { name: string }) => x.name === 'dByte');
    const view = json.bufferViews[json.accessors[dByte].bufferView];
    expect(view.byteStride).toBe(4);
    const bin = 20 + new DataView(a.buffer).getUint32(12, true) + 8;
    let padding = 0;
    for (let i = 0; i < n; i++) padding |= a[bin + view.byteOffset + i * 4 + 3];
    expect(padding).toBe(0);
  });

  it('writeFilesAtomic writes a StreamedFile byte for byte, small (one call) and large (piece by piece)', async () => {
    for (const [vertices, name] of [
      [5000, 'small.glb'],
      [n, 'large.glb'],
    ] as const) {
      const glb = await glbOf(animated(vertices, 10));
      expect(glb.byteLength > SYNC_WRITE_MAX_BYTES, name).toBe(vertices === n);
      const path = join(dir, name);
      let pieces = 0;
      const counted = new StreamedFile(glb.byteLength, function* () {
        for (const piece of (glb as StreamedFile).pieces()) {
          pieces++;
          yield piece;
        }
      });
      await writeFilesAtomic(new Map([[path, counted]]), true);
      expect(Buffer.compare(readFileSync(path), outputBytes(glb)), name).toBe(0);
      expect(pieces, name).toBeGreaterThan(vertices === n ? 5 : 1);
    }
  });

  it('a producer whose pieces do not add up to its length is an internal error, not a short file', async () => {
    const short = new StreamedFile(8, function* () {
      yield new Uint8Array(4);
    });
    expect(() => short.toBytes()).toThrow(/internal: a streamed file of 8 bytes produced 4/);
    const long = new StreamedFile(4, function* () {
      yield new Uint8Array(4);
      yield new Uint8Array(4);
    });
    expect(() => long.toBytes()).toThrow(/internal: a streamed file of 4 bytes produced 8/);
    const path = join(dir, 'short.bin');
    await expect(writeFilesAtomic(new Map([[path, short]]), true)).rejects.toThrow(/internal/);
    expect(() => readFileSync(path)).toThrow(/ENOENT/);
    // the same through the piece-by-piece path: pieces written before the failure are removed
    const bigShort = new StreamedFile(SYNC_WRITE_MAX_BYTES + 8, function* () {
      yield new Uint8Array(SYNC_WRITE_MAX_BYTES);
    });
    const bigPath = join(dir, 'big-short.bin');
    await expect(writeFilesAtomic(new Map([[bigPath, bigShort]]), true)).rejects.toThrow(/internal/);
    expect(() => readFileSync(bigPath)).toThrow(/ENOENT/);
    expect(readdirSync(dir).filter((f) => f.startsWith('.gltf-legacy-tmp'))).toEqual([]);
  });
});
