// The one packing of numbers kept as bytes (u16 / u32 / i32 / float32, little-endian) that every
// format uses for lists glTF has no place for.
import { Document, NodeIO } from '@gltf-transform/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bytesToNumbers,
  getKeptNumbers,
  KeptBytesExtension,
  legacyByteArray,
  numbersToBytes,
  setKeptNumbers,
} from '../src/index.js';

describe('kept numbers', () => {
  it('are little-endian bytes of their kind', () => {
    expect(Array.from(numbersToBytes('u16', [1, 0x1234]))).toEqual([1, 0, 0x34, 0x12]);
    expect(Array.from(numbersToBytes('u32', [0x01020304]))).toEqual([4, 3, 2, 1]);
    expect(Array.from(numbersToBytes('i32', [-2]))).toEqual([0xfe, 0xff, 0xff, 0xff]);
    expect(Array.from(numbersToBytes('f32', [1]))).toEqual([0, 0, 0x80, 0x3f]);
  });

  it('keep a float32 bit pattern (−0, NaN payload) when given a Float32Array', () => {
    const bits = Uint32Array.of(0x80000000, 0x7fc00001, 0xffa00000);
    const back = bytesToNumbers('f32', numbersToBytes('f32', new Float32Array(bits.buffer)))!;
    expect(Array.from(new Uint32Array(back.buffer))).toEqual(Array.from(bits));
  });

  it('read back only whole records', () => {
    expect(bytesToNumbers('u32', new Uint8Array(6))).toBeUndefined();
    expect(bytesToNumbers('u32', new Uint8Array(8), 2)).toEqual(new Uint32Array(2));
    expect(bytesToNumbers('u32', new Uint8Array(12), 2)).toBeUndefined();
    expect(bytesToNumbers('u16', new Uint8Array(3))).toBeUndefined();
  });

  it('round-trip every value of their kind (property)', () => {
    const kinds = [
      ['u16', fc.integer({ min: 0, max: 0xffff })],
      ['u32', fc.integer({ min: 0, max: 0xffffffff })],
      ['i32', fc.integer({ min: -0x80000000, max: 0x7fffffff })],
      ['f32', fc.float({ noNaN: true })],
    ] as const;
    for (const [kind, value] of kinds)
      fc.assert(
        fc.property(fc.array(value as fc.Arbitrary<number>, { maxLength: 64 }), (values) => {
          const back = bytesToNumbers(kind, numbersToBytes(kind, values))!;
          expect(Array.from(back)).toEqual(values.map((v) => (Object.is(v, -0) && kind !== 'f32' ? 0 : v)));
        }),
      );
  });

  it('travel through a .glb as bytes, not JSON; an empty list keeps nothing', async () => {
    const doc = new Document();
    const node = doc.createNode('top');
    doc.createScene().addChild(node);
    setKeptNumbers(node, 'boneMapping:0', 'u32', [0, 4, 70000]);
    setKeptNumbers(node, 'empty', 'u16', []);
    const io = new NodeIO().registerExtensions([KeptBytesExtension]);
    const glb = await io.writeBinary(doc);
    expect(new TextDecoder().decode(glb)).not.toContain('70000');
    const back = (await io.readBinary(glb)).getRoot().listNodes()[0]!;
    expect(Array.from(getKeptNumbers(back, 'boneMapping:0', 'u32')!)).toEqual([0, 4, 70000]);
    expect(getKeptNumbers(back, 'empty', 'u16')).toBeUndefined();
  });

  it('legacy JSON byte arrays: bytes kept, other values skipped, no array undefined', () => {
    expect(Array.from(legacyByteArray([0, 255, 256, -1, 1.5, 'x', 7])!)).toEqual([0, 255, 7]);
    expect(legacyByteArray('00ff')).toBeUndefined();
  });
});
