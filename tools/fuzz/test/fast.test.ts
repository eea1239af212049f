import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module without type declarations
import { dictionaryTokens, dictMutate } from '../src/dictionary.mjs';
// @ts-expect-error plain ES module without type declarations
import { Rng } from '../src/rng.mjs';
// @ts-expect-error plain ES module without type declarations
import { sha256 } from '../src/patch.mjs';

interface FastStats {
  inputs: number;
  parsed: number;
  rejected: number;
  roundTrips: number;
  blocks: number;
  newBlocks: number;
  corpusAdded: number;
  restarts: number;
}
interface FastFinding {
  signature: string;
  finding: { kind: string; stage: string; error?: { name: string; message: string }; detail?: string };
}

const planted = join(import.meta.dirname, 'fixtures', 'planted-tso.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'fuzz-fast-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// notes of the planted findings go to a scratch folder (read when campaign.mjs loads)
process.env.GLTF_LEGACY_FUZZ_REGRESSIONS = join(tmp, 'notes');
// @ts-expect-error plain ES module without type declarations
const { fastPool, runFast } = await import('../src/fast.mjs');
// @ts-expect-error plain ES module without type declarations
const { loadRegressions } = await import('../src/campaign.mjs');

describe('dictionary', () => {
  it('writes the format tokens into mutants (magics, version words, counts)', () => {
    const tokens: Uint8Array[] = dictionaryTokens('urho3d');
    const magic = new TextEncoder().encode('UMDL');
    expect(tokens.some((t) => t.length === 4 && t.every((b, i) => b === magic[i]))).toBe(true);
    const rng = new Rng(11);
    const zero = new Uint8Array(64);
    let magics = 0;
    for (let i = 0; i < 2000; i++) {
      const out: Uint8Array = dictMutate(zero, rng, tokens);
      const text = Buffer.from(out).toString('latin1');
      if (/UMDL|UMD2|UMD3|UANI|UAN2|UPAK|ULZ4/.test(text)) magics++;
    }
    // 7 of the 55 tokens are magics: about an eighth of the mutants carry one
    expect(magics).toBeGreaterThan(150);
    // TSO counts are big-endian: 256 as u32 is 00 00 01 00
    const tso: Uint8Array[] = dictionaryTokens('tso');
    expect(tso.some((t) => t.length === 4 && t[2] === 1 && t[0] === 0 && t[1] === 0 && t[3] === 0)).toBe(
      true,
    );
  });
});

describe('fast tier on the built tso file model', () => {
  it('coverage grows and the inputs that grew it are kept as patches over their seeds', async () => {
    const corpusDir = join(tmp, 'corpus');
    const { stats } = await runFast({
      formats: ['tso'],
      iterations: 3000,
      seed: 4,
      write: false,
      corpusDir,
    });
    const st: FastStats = stats.tso;
    expect(st.inputs).toBeGreaterThanOrEqual(3000);
    expect(st.parsed).toBeGreaterThan(100);
    expect(st.rejected).toBeGreaterThan(100);
    expect(st.newBlocks).toBeGreaterThan(5);
    expect(st.corpusAdded).toBeGreaterThan(3);
    const files = readdirSync(join(corpusDir, 'tso'));
    expect(files.length).toBe(st.corpusAdded);
    for (const f of files) {
      const entry = JSON.parse(readFileSync(join(corpusDir, 'tso', f), 'utf8'));
      // no corpus bytes in the repository: every entry copies from seeds it names by sha256
      // (one shorter than two 8-byte index grams can be all literal: too short to copy from)
      if (entry.patch.length >= 16) expect(entry.patch.sources.length, f).toBeGreaterThan(0);
      else expect(entry.patch.length, f).toBeLessThan(16);
      expect(entry.patch.sources.every((s: { sha256: string }) => /^[0-9a-f]{64}$/.test(s.sha256))).toBe(
        true,
      );
    }
    // the next campaign starts from them: rebuilt byte for byte
    const { pool, seedCount } = await fastPool('tso', { maxSeedBytes: 1 << 20, corpusDir });
    expect(pool.length - seedCount).toBe(files.length);
    for (const e of pool.slice(seedCount))
      expect(`${sha256(e.bytes).slice(0, 16)}.json`).toBe(e.file.split('/').pop());
  });

  it('without coverage guidance nothing is kept', async () => {
    const { stats } = await runFast({
      formats: ['tso'],
      iterations: 1000,
      seed: 4,
      write: false,
      writeCorpus: false,
      coverage: false,
      corpusDir: join(tmp, 'none'),
    });
    expect(stats.tso.inputs).toBeGreaterThanOrEqual(1000);
    expect(stats.tso.corpusAdded).toBe(0);
  });
});

describe('fast tier findings (a file model with planted bugs)', () => {
  it('finds the TypeError and the write → read mismatch, once each, stored as replayable patches', async () => {
    const { stats, findings } = await runFast({
      formats: ['tso'],
      iterations: 3000,
      seed: 9,
      writeCorpus: false,
      corpusDir: join(tmp, 'planted'),
      dist: { tso: planted },
    });
    const kinds = (findings as FastFinding[]).map((f) => `${f.finding.kind} ${f.finding.error?.name ?? ''}`);
    expect(kinds).toContain('CRASH TypeError');
    expect(kinds.some((k) => k.startsWith('FIXED_POINT_MODEL') || k.startsWith('FIXED_POINT_FILE'))).toBe(
      true,
    );
    // deduplicated by symptom: many inputs, one record per signature
    expect(new Set(findings.map((f: FastFinding) => f.signature)).size).toBe(findings.length);
    expect(stats.tso.findings).toBeGreaterThan(findings.length);
    // notes: minimised, patches over the tso seeds, replayed through the file model only
    const notes = await loadRegressions(['tso']);
    expect(notes.length).toBe(findings.length);
    const { readMesh } = await import(planted);
    for (const { note, job } of notes) {
      expect(note.tier).toBe('fast');
      // a patch (copies from seeds it names + literal bytes), never a .bin of corpus bytes
      expect(note.input).toBeUndefined();
      expect(note.inputPatch.length).toBe(job.bytes.length);
      expect(job.fileModelOnly).toBe(true);
      if (note.kind === 'CRASH') {
        expect(note.minimised.to).toBeLessThan(note.minimised.from);
        expect(() => readMesh(job.bytes, job.name)).toThrow(TypeError);
      }
    }
  });

  it('stops a hang (CPU-time deadline), records it and goes on from the next input', async () => {
    process.env.PLANTED_HANG = '1';
    try {
      const { stats, findings } = await runFast({
        formats: ['tso'],
        iterations: 30,
        seed: 9,
        write: false,
        writeCorpus: false,
        coverage: false,
        deadlineMs: 400,
        corpusDir: join(tmp, 'planted'),
        dist: { tso: planted },
      });
      expect(findings.map((f: FastFinding) => f.finding.kind)).toContain('TIMEOUT');
      expect(stats.tso.restarts).toBeGreaterThan(0);
      expect(stats.tso.inputs).toBeGreaterThan(20);
    } finally {
      delete process.env.PLANTED_HANG;
    }
  });
});
