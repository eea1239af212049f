import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstByteDiff } from '@gltf-legacy/test-utils';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
// @ts-expect-error plain ES module without type declarations
import { loadRegressions } from '../src/campaign.mjs';
// @ts-expect-error plain ES module without type declarations
import { applyPatch, diff, literalBytes, sha256 } from '../src/patch.mjs';

describe('byte patches (regression inputs stored without seed bytes)', () => {
  it('rebuilds any input from any sources', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        fc.array(fc.uint8Array({ maxLength: 400 }), { maxLength: 3 }),
        (x, srcs) => {
          const back = applyPatch(diff(x, srcs), srcs);
          expect(back).toEqual(x);
          // its own buffer, as campaign inputs are (not a view into Node's shared pool)
          expect([back.byteOffset, back.buffer.byteLength]).toEqual([0, x.length]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stores only what a mutation wrote: one overwritten byte, an insertion, a splice', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 2000, maxLength: 5000 }),
        fc.uint8Array({ minLength: 2000, maxLength: 5000 }),
        fc.nat(),
        fc.uint8Array({ minLength: 1, maxLength: 16 }),
        (seed, other, at, inserted) => {
          const p = at % seed.length;
          const flipped = seed.slice();
          flipped[p] ^= 0x55;
          const a = diff(flipped, [seed]);
          // byte equality without toEqual's per-element walk (~3 × 100 arrays of up to 5 KB)
          expect(firstByteDiff(applyPatch(a, [seed]), flipped)).toBe(-1);
          // random bytes: a byte is stored with at most the k-gram (8) around it on each side
          expect(literalBytes(a)).toBeLessThanOrEqual(17);
          const ins = new Uint8Array([...seed.subarray(0, p), ...inserted, ...seed.subarray(p)]);
          expect(literalBytes(diff(ins, [seed]))).toBeLessThanOrEqual(inserted.length + 16);
          const spliced = new Uint8Array([...seed.subarray(0, p), ...other.subarray(p % other.length)]);
          const s = diff(spliced, [seed, other]);
          expect(firstByteDiff(applyPatch(s, [seed, other]), spliced)).toBe(-1);
          expect(literalBytes(s)).toBeLessThanOrEqual(16);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('every regression input derived from a seed file is a patch, rebuilt to its recorded sha256', async () => {
    const regs = await loadRegressions();
    let patched = 0;
    for (const r of regs) {
      const note = r.note;
      const label = r.path.split('/').slice(-2).join('/');
      // bytes stored as files only for documents our own generator made
      if (note.input) expect(note.replay, `${label} stores input bytes`).toBe('gen');
      for (const c of note.companions) {
        expect(c.file, `${label} companion ${c.name}`).toBeUndefined();
        if (c.patch) patched++;
      }
      if (note.inputPatch) {
        patched++;
        expect(sha256(r.job.bytes), label).toBe(note.inputPatch.sha256);
        expect(literalBytes(note.inputPatch.ops), label).toBeLessThan(
          Math.max(64, note.inputPatch.length / 20),
        );
      }
      if (!note.input && !note.inputPatch) expect(note.inputRef, label).toBeDefined();
    }
    // 18 main inputs + 1 companion when the corpus notes were converted (2026-11-22)
    expect(patched).toBeGreaterThanOrEqual(19);
    // the loader reads seeds from the corpus, never from copies in the repository
    const sample = regs.find((r: { note: { inputPatch?: unknown } }) => r.note.inputPatch);
    expect(readFileSync(sample.path, 'utf8')).toContain('"sha256"');
  });

  it('a new legacy finding is written as a patch over its seeds and loads back byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fuzz-reg-'));
    try {
      vi.stubEnv('GLTF_LEGACY_FUZZ_REGRESSIONS', dir);
      vi.resetModules();
      const campaign = await import('../src/campaign.mjs');
      const seed = new Uint8Array(
        readFileSync(new URL('../../../test-assets/tso/twobone.mesh', import.meta.url)),
      );
      const mutated = seed.slice(0, seed.length - 3);
      mutated[10] ^= 0xff;
      const note = campaign.writeRegression(
        'tso',
        { kind: 'legacy', format: 'tso', name: 'twobone.mesh', bytes: mutated, companions: [] },
        { kind: 'CRASH', stage: 'import', error: { name: 'TypeError', message: 'x', stack: [] } },
        {
          signature: 'tso | CRASH | import | TypeError | x | ',
          meta: { seedFile: 'test-assets/tso/twobone.mesh' },
          sources: [{ ref: { repo: 'test-assets/tso/twobone.mesh' }, bytes: seed }],
        },
      );
      expect(readdirSync(join(dir, 'tso'))).toEqual([`${note.hash}.json`]);
      expect(literalBytes(note.inputPatch.ops)).toBeLessThanOrEqual(17);
      const [back] = await campaign.loadRegressions(['tso']);
      expect(back.job.bytes).toEqual(mutated);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
