import { corpusFiles, hasCorpus, readBytes } from '@gltf-legacy/test-utils';
import { Document } from '@gltf-transform/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCodecNodeIO, createNodeIO, encodeGlb } from '../src/index.js';

describe('encodeGlb (one allocation instead of writeBinary’s three)', () => {
  it('writes the same bytes as NodeIO.writeBinary for documents of any JSON and buffer length', async () => {
    const io = createNodeIO([]);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 9 }),
        fc.integer({ min: 0, max: 7 }),
        fc.boolean(),
        async (name, floats, withBuffer) => {
          const doc = new Document();
          doc.createScene(name);
          if (withBuffer) {
            const buffer = doc.createBuffer();
            // 1-byte components make every buffer length (and so every BIN padding) occur
            const acc = doc.createAccessor(name).setType('SCALAR').setArray(new Uint8Array(floats).fill(7));
            acc.setBuffer(buffer);
            doc.createMesh().addPrimitive(doc.createPrimitive().setAttribute('_X', acc));
          }
          const glb = await encodeGlb(io, doc);
          expect(glb).toEqual(await io.writeBinary(doc));
          expect(glb.length % 4).toBe(0);
          expect(new DataView(glb.buffer).getUint32(8, true)).toBe(glb.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it.skipIf(!hasCorpus('gltf'))(
    're-encodes every glTF corpus .glb byte for byte as writeBinary does',
    async () => {
      const io = await createCodecNodeIO(undefined, { draco: true });
      const files = corpusFiles('gltf', ['.glb']);
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) {
        const doc = await io.readBinary(readBytes(f));
        const mine = await encodeGlb(io, doc);
        expect(Buffer.compare(mine, await io.writeBinary(doc)), f).toBe(0);
      }
    },
  );
});
