import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module without type declarations
import { threadCpuMs, WorkerPool } from '../src/pool.mjs';

const linux = process.platform === 'linux';
const pools: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});
function pool(options: Record<string, number>) {
  const p = new WorkerPool({ workers: 1, only: [], ...options });
  pools.push(p);
  return p;
}

describe('per-input deadline', () => {
  it('reads a thread’s CPU time from a /proc stat line whose name holds spaces and parentheses', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stat-'));
    try {
      const path = join(dir, 'stat');
      // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
      writeFileSync(path, '4242 (node (worker) x) R 1 1 1 0 -1 4194560 10 0 0 0 250 37 0 0 20 0 9 0\n');
      expect(threadCpuMs(path)).toBe(2870);
      expect(threadCpuMs(join(dir, 'missing'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a worker that spins past its deadline is a TIMEOUT, measured in CPU time', async () => {
    const t0 = Date.now();
    const out = await pool({ deadlineMs: 300 }).run({
      kind: 'selftest',
      format: 'x',
      op: 'spin',
      ms: 60_000,
    });
    expect(out.finding?.kind).toBe('TIMEOUT');
    if (linux) expect(out.finding.detail).toMatch(/of CPU time \(\d+ ms CPU/);
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it.runIf(linux)(
    'a worker that uses no CPU is not timed out at the deadline (starved ≠ stuck)…',
    async () => {
      const out = await pool({ deadlineMs: 200 }).run({
        kind: 'selftest',
        format: 'x',
        op: 'block',
        ms: 1000,
      });
      expect(out.finding).toBeUndefined();
      expect(out.result).toEqual({ selftest: 'block' });
    },
  );

  it('…but is after maxWallDeadlines deadlines of wall time', async () => {
    const t0 = Date.now();
    const out = await pool({ deadlineMs: 100, maxWallDeadlines: 5 }).run({
      kind: 'selftest',
      format: 'x',
      op: 'block',
      ms: 60_000,
    });
    expect(out.finding?.kind).toBe('TIMEOUT');
    const wall = Date.now() - t0;
    expect(wall).toBeGreaterThanOrEqual(linux ? 500 : 100);
    expect(wall).toBeLessThan(10_000);
  });
});
