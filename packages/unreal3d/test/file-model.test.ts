import { basename } from 'node:path';
import { FormatError, WarningCollector } from '@gltf-legacy/core';
import { corpusFiles, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { anivFrame, readAniv, writeAniv } from '../src/aniv.js';
import { readData, writeData } from '../src/data.js';

const dataFiles = corpusFiles('unreal3d', ['_d.3d']);
const anivFiles = corpusFiles('unreal3d', ['_a.3d']);

describe('corpus _d.3d', () => {
  it('has the 13 data files', () => expect(dataFiles.length).toBe(13));
  for (const path of dataFiles) {
    it(`${basename(path)} parses and writes back byte-identical`, () => {
      const bytes = readBytes(path);
      const w = new WarningCollector();
      const data = readData(bytes, basename(path), { warnings: w });
      expect(w.list()).toEqual([]);
      expect(data.polys.types.length).toBe(data.header.numPolys);
      expect(bytes.length).toBe(48 + 16 * data.header.numPolys);
      const out = writeData(data);
      expect(firstByteDiff(out, bytes)).toBe(-1);
    });
  }
});

describe('corpus _a.3d', () => {
  it('has the 13 aniv files', () => expect(anivFiles.length).toBe(13));
  for (const path of anivFiles) {
    it(`${basename(path)} parses (with its _d.3d) and writes back byte-identical`, () => {
      const bytes = readBytes(path);
      const data = readData(readBytes(path.replace(/_a\.3d$/, '_d.3d')));
      const aniv = readAniv(bytes, basename(path), { numVertices: data.header.numVertices });
      expect(aniv.layout).toBe('packed');
      expect(aniv.frameCount).toBe(aniv.numFrames);
      expect(aniv.frameSize).toBe(4 * data.header.numVertices);
      expect(firstByteDiff(writeAniv(aniv), bytes)).toBe(-1);
      // Alone (no vertex count): same result.
      expect(firstByteDiff(writeAniv(readAniv(bytes)), bytes)).toBe(-1);
    });
  }
});

describe('box_d.3d / box_a.3d values', () => {
  it('reads the values assimp reads', () => {
    const [d] = dataFiles.filter((f) => basename(f) === 'box_d.3d');
    const data = readData(readBytes(d));
    expect(data.header.numPolys).toBe(12);
    expect(data.header.numVertices).toBe(8);
    expect(Array.from(data.polys.textures)).toEqual(new Array(12).fill(1));
    const aniv = readAniv(readBytes(d.replace('_d.3d', '_a.3d')), 'box_a.3d', { numVertices: 8 });
    expect(aniv.numFrames).toBe(30);
    const f0 = anivFrame(aniv, 0);
    for (const v of f0) expect(Number.isInteger(v)).toBe(true);
  });
});

describe('sizes that disagree with the header', () => {
  const path = dataFiles.find((f) => basename(f) === 'Keycard_d.3d') as string;
  const bytes = readBytes(path);
  it('a longer _d.3d keeps the extra bytes and warns', () => {
    const longer = new Uint8Array(bytes.length + 5);
    longer.set(bytes);
    longer.fill(7, bytes.length);
    const w = new WarningCollector();
    const data = readData(longer, 'x_d.3d', { warnings: w });
    expect(w.has('FILE_TOO_LONG')).toBe(true);
    expect(data.trailing.length).toBe(5);
    expect(firstByteDiff(writeData(data), longer)).toBe(-1);
  });
  it('a shorter _d.3d reads the whole triangles and warns', () => {
    const shorter = bytes.subarray(0, bytes.length - 20);
    const w = new WarningCollector();
    const data = readData(shorter, 'x_d.3d', { warnings: w });
    expect(w.has('FILE_TRUNCATED')).toBe(true);
    expect(data.polys.types.length).toBe(data.header.numPolys - 2);
    expect(data.trailing.length).toBe(12);
    expect(firstByteDiff(writeData(data), shorter)).toBe(-1);
  });
  it('a header-only-truncated _d.3d is a FormatError', () => {
    expect(() => readData(bytes.subarray(0, 30))).toThrow(FormatError);
  });
  it('frames with padding are kept', () => {
    // 2 vertices, frameSize 12 (4 bytes extra), 2 frames.
    const b = new Uint8Array([
      2, 0, 12, 0, 1, 0, 0, 0, 2, 0, 0, 0, 9, 9, 9, 9, 3, 0, 0, 0, 4, 0, 0, 0, 8, 8, 8, 8,
    ]);
    const w = new WarningCollector();
    const a = readAniv(b, 'p_a.3d', { numVertices: 2, warnings: w });
    expect(a.layout).toBe('packed');
    expect(Array.from(a.frameExtra)).toEqual([9, 9, 9, 9, 8, 8, 8, 8]);
    expect(Array.from(anivFrame(a, 1))).toEqual([3, 0, 0, 4, 0, 0]);
    expect(w.has('FRAME_PADDING')).toBe(true);
    expect(firstByteDiff(writeAniv(a), b)).toBe(-1);
  });
  it('Deus Ex frames are detected by frameSize == 8·numVertices', () => {
    const b = new Uint8Array(4 + 16);
    const dv = new DataView(b.buffer);
    dv.setUint16(0, 1, true);
    dv.setUint16(2, 16, true);
    for (const [i, v] of [100, -200, 300, 0, -32768, 32767, 5, 1].entries()) dv.setInt16(4 + i * 2, v, true);
    const a = readAniv(b, 'dx_a.3d', { numVertices: 2 });
    expect(a.layout).toBe('deusex');
    expect(Array.from(anivFrame(a, 0))).toEqual([100, -200, 300, -32768, 32767, 5]);
    expect(firstByteDiff(writeAniv(a), b)).toBe(-1);
  });
});
