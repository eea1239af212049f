/** Issue 31: a batch of 10 000 inputs — progress with a rate and an estimate, a streamed report. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConvertRecord } from '../src/convert.js';
import { writeFilesAtomic } from '../src/files.js';
import { createProgress, PROGRESS_REDRAW_MS } from '../src/progress.js';
import { buildReport, REPORT_PIECE_CHARS, reportFile, summarize } from '../src/report.js';

const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-scale-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 10 000 records: most ok with a warning, every 97th failed (an internal one with its stack). */
function records(n: number): ConvertRecord[] {
  return Array.from({ length: n }, (_, k) =>
    k % 97
      ? {
          input: `game/Models/mesh${k}_d.3d`,
          format: 'unreal3d',
          outputs: [`out/mesh${k}.glb`],
          status: 'ok',
          warnings: [{ code: 'UC_MISSING', message: `mesh${k}: no .uc — «défaut»`, count: 1 }],
          stats: { vertices: k, triangles: 2 * k, joints: 0, morphTargets: 3, animations: 1 },
          ms: k % 13,
        }
      : {
          input: `game/Models/bad${k}_d.3d`,
          format: 'unknown',
          outputs: [],
          status: 'error',
          error:
            k % 2
              ? { code: 'BAD_MAGIC', message: 'not a mesh', stack: 'hidden' }
              : { code: 'INTERNAL_ERROR', message: 'bug', stack: 'Error: bug\n    at x' },
          warnings: [],
          ms: 1,
        },
  );
}

describe('a batch of 10 000 inputs', () => {
  it('its report is the same JSON as before, produced in pieces of ≤ 64 K characters, never whole', async () => {
    const recs = records(10_000);
    const summary = summarize(recs, { skipped: 3, ms: 12_345, jobs: 2 });
    const created = '2026-11-28T09:00:00.000Z';
    const file = reportFile(recs, summary, '0.1.0', created);
    const expected = `${JSON.stringify(buildReport(recs, summary, '0.1.0', created), null, 2)}\n`;
    let pieces = 0;
    let largest = 0;
    for (const p of file.pieces()) {
      pieces++;
      largest = Math.max(largest, p.byteLength);
    }
    const bytes = new TextEncoder().encode(expected);
    expect(file.byteLength).toBe(bytes.byteLength);
    expect(bytes.byteLength).toBeGreaterThan(4 << 20); // large enough to be written piece by piece
    expect(pieces).toBeGreaterThan(50);
    expect(largest).toBeLessThan(REPORT_PIECE_CHARS * 3 + 4096); // UTF-8: ≤ 3 bytes a character
    const path = join(dir, 'report.json');
    await writeFilesAtomic(new Map([[path, file]]), true);
    expect(readFileSync(path, 'utf8')).toBe(expected);
    const parsed = JSON.parse(readFileSync(path, 'utf8'));
    expect(parsed.records).toHaveLength(10_000);
    expect(parsed.records[97].error).toEqual({ code: 'BAD_MAGIC', message: 'not a mesh' });
    expect(parsed.records[194].error.stack).toContain('at x');
    expect(parsed.summary.failed).toBe(Math.ceil(10_000 / 97));
  });

  it('an empty batch writes the same document too', () => {
    const summary = summarize([], { skipped: 0, ms: 0, jobs: 0 });
    const file = reportFile([], summary, '0.1.0', 'now');
    expect(new TextDecoder().decode(file.toBytes())).toBe(
      `${JSON.stringify(buildReport([], summary, '0.1.0', 'now'), null, 2)}\n`,
    );
  });

  it('the progress bar shows done/total, an estimate and the rate, redrawn at most every 100 ms', () => {
    const writes: string[] = [];
    let now = 0;
    const total = 10_000;
    const p = createProgress(
      total,
      (s) => writes.push(s),
      true,
      100,
      true,
      () => now,
    );
    for (let k = 1; k <= total; k++) {
      now = k; // one input per ms: 1000 inputs a second, 10 s in all
      p.start({ input: `game/mesh${k}_d.3d`, rel: '' });
      p.done({ input: '', format: '', outputs: [], status: 'ok', warnings: [], ms: 1 }, k, total);
    }
    // 10 s of redraws at most every 100 ms, plus the last one
    expect(writes.length).toBeLessThanOrEqual(10_000 / PROGRESS_REDRAW_MS + 2);
    expect(writes.at(-1)).toMatch(/\[#{24}\] 10000\/10000 {2}ETA 0s {2}1000\/s {2}game\/mesh10000_d\.3d$/);
    const half = writes.find((w) => w.includes(' 5000/10000'))!;
    expect(half).toMatch(/\[#{12}-{12}\] 5000\/10000 {2}ETA 5s {2}1000\/s/);
  });
});
