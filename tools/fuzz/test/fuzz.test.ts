import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module without type declarations
import { FIXED_POINT, loadRegressions, runCampaign, signature, TEST_CAMPAIGN } from '../src/campaign.mjs';
// @ts-expect-error plain ES module without type declarations
import { WorkerPool } from '../src/pool.mjs';

interface Note {
  format: string;
  kind: string;
  stage: string;
  signature: string;
  status: 'open' | 'fixed';
  /** `gen`: a generated glTF input, rebuilt from `genSeed`. */
  replay?: string;
  genSeed?: number;
}
interface Regression {
  note: Note;
  job: unknown;
  path: string;
}
interface FindingOut {
  finding?: { kind: string; stage: string; error?: { message: string }; detail?: string };
}

const regressions: Regression[] = await loadRegressions();
// hangs and memory blow-ups cost a whole deadline each: open ones are replayed only with FUZZ_SLOW
const replayed = (r: Regression) =>
  !(['TIMEOUT', 'MEMORY'].includes(r.note.kind) && r.note.status === 'open' && !process.env.FUZZ_SLOW);

describe('regression files (test-assets/fuzz-regressions)', () => {
  let pool: { run(job: unknown): Promise<FindingOut>; close(): Promise<void> };
  beforeAll(() => {
    pool = new WorkerPool({ workers: 1, fixedPoint: FIXED_POINT });
  });
  afterAll(async () => {
    await pool?.close();
  });

  it('every note names its format, kind and signature', () => {
    for (const r of regressions) {
      expect(r.note.signature.startsWith(`${r.note.format} | ${r.note.kind} | `), r.path).toBe(true);
      expect(['open', 'fixed']).toContain(r.note.status);
    }
  });

  for (const r of regressions) {
    const label = `${r.note.format}/${r.path.split('/').pop()} (${r.note.kind} at ${r.note.stage})`;
    it(label, async (ctx) => {
      // `pnpm fuzz --replay` (or FUZZ_SLOW=1) replays open hangs and memory blow-ups; here they
      // are skipped with this reason, never silently
      if (!replayed(r)) {
        ctx.skip(`open ${r.note.kind} finding: replayed by \`pnpm fuzz --replay\` or FUZZ_SLOW=1 (slow)`);
      }
      const out = await pool.run(r.job);
      if (r.note.status === 'fixed') {
        // a fixed finding must stay fixed: the input now succeeds or fails with a LegacyError
        expect(out.finding, JSON.stringify(out.finding)).toBeUndefined();
        return;
      }
      if (out.finding) {
        const still = signature(r.note.format, out.finding) === r.note.signature;
        // open finding owned by the format's engineer: reported, not failed
        ctx.skip(
          `open finding ${still ? 'still reproduces' : `now fails as ${out.finding.kind} at ${out.finding.stage}`} — fix it in packages/${r.note.format}, then set "status": "fixed"`,
        );
      }
      // open but no longer reproducing: passes (flip the note to "fixed" to lock it in)
      expect(out.finding).toBeUndefined();
    });
  }
});

describe('short fixed-seed campaign', () => {
  it('finds nothing that is not already a recorded regression', async () => {
    // a finding with the symptom of a *fixed* note is a regression (or a new bug that looks alike)
    const known = new Set(regressions.filter((r) => r.note.status !== 'fixed').map((r) => r.note.signature));
    // a generated input some note replays above (the same seed, the same chain) is not run twice:
    // urho3d's 65 537-vertex one alone costs ~10 s of CPU here (a deadline, then its 4x retry)
    const skipGen = new Set(
      regressions
        .filter((r) => r.note.replay === 'gen' && replayed(r))
        .map((r) => `${r.note.format}:${r.note.genSeed}`),
    );
    const { stats, findings, notices } = await runCampaign({ ...TEST_CAMPAIGN, write: false, skipGen });
    for (const n of notices) console.log(`notice: ${n}`);
    // CI must not pass on test-assets alone: with the corpus configured, every format has corpus seeds
    if (process.env.CI || process.env.GLTF_LEGACY_CORPUS)
      expect(notices.filter((n: string) => n.includes('no corpus seed files'))).toEqual([]);
    const lines = Object.entries(stats).map(
      ([id, s]: [string, any]) =>
        `${id}: ${s.inputs} inputs, ${s.imported} imported, ${s.fixedPoint} fixed points, ${s.gltfInputs} glTF (+${s.replayedElsewhere} replayed above), ${s.findings} finding inputs`,
    );
    console.log(lines.join('\n'));
    // every format whose build loads got inputs through it
    for (const [id, s] of Object.entries(stats) as [string, { inputs: number }][])
      expect(s.inputs, id).toBeGreaterThan(0);
    const fresh = findings.filter((f: { signature: string }) => !known.has(f.signature));
    // a deadline is the worker's CPU time (wall time off Linux): a slower machine may need more,
    // so new TIMEOUTs are printed here and confirmed by long campaigns (pnpm fuzz), not failed on
    const slow = fresh.filter((f: { finding: { kind: string } }) => f.finding.kind === 'TIMEOUT');
    for (const f of slow) console.log(`slow input (not failed): ${f.signature}`);
    expect(
      fresh
        .filter((f: { finding: { kind: string } }) => f.finding.kind !== 'TIMEOUT')
        .map((f: { signature: string }) => f.signature),
      'new findings: run `pnpm fuzz --preset test` to record them as regression files',
    ).toEqual([]);
  });
});
