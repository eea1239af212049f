import { basename } from 'node:path';
import { corpusFiles, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { readAni, writeAni } from '../src/ani.js';
import { readMdl, writeMdl } from '../src/mdl.js';
import { extractPakEntry, readPak, sdbmHash, writePak } from '../src/pak.js';

const mdls = corpusFiles('urho', ['.mdl']);
const anis = corpusFiles('urho', ['.ani']);
const paks = corpusFiles('urho', ['.pak']);

describe('corpus file model', () => {
  it('finds the 29 corpus files', () => {
    expect(mdls.length + anis.length + paks.length).toBe(29);
  });
  for (const f of mdls) {
    it(`mdl ${basename(f)} reads and writes byte-identically`, () => {
      const bytes = readBytes(f);
      const m = readMdl(bytes, basename(f));
      expect(m.trailing.length).toBe(0);
      expect(firstByteDiff(writeMdl(m), bytes)).toBe(-1);
    });
  }
  for (const f of anis) {
    it(`ani ${basename(f)} reads and writes byte-identically`, () => {
      const bytes = readBytes(f);
      const a = readAni(bytes, basename(f));
      expect(a.trailing).toBeUndefined();
      expect(firstByteDiff(writeAni(a), bytes)).toBe(-1);
    });
  }
  for (const f of paks) {
    it(`pak ${basename(f)} reads, extracts with valid checksums and writes byte-identically`, () => {
      const bytes = readBytes(f);
      const p = readPak(bytes, basename(f));
      expect(p.trailer).toBe(bytes.length);
      let running = 0;
      for (const e of p.entries) {
        const data = extractPakEntry(p, e);
        expect(data.length).toBe(e.size);
        expect(sdbmHash(data), e.name).toBe(e.checksum);
        running = sdbmHash(data, running);
      }
      expect(running).toBe(p.checksum);
      expect(firstByteDiff(writePak(p), bytes)).toBe(-1);
    });
  }
});
