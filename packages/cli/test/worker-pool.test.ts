/** Issue 31: small inputs go to workers in chunks; a hang inside a chunk fails that input only. */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch } from '../src/batch.js';
import type { Runtime } from '../src/command.js';
import { fakeBytes } from './fake-format.js';
import { bundleWorker } from './worker-bundle.js';

let runtime: Runtime;
const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-pool-'));
beforeAll(async () => {
  runtime = await bundleWorker();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('worker chunks', () => {
  it('60 small inputs, chunks of up to 8, one hangs mid-chunk: it alone is TIMEOUT, the other 59 convert', async () => {
    const m = join(dir, 'models');
    mkdirSync(m, { recursive: true });
    const items = [];
    for (let i = 0; i < 60; i++) {
      const bytes =
        i === 21
          ? (() => {
              const hang = new Uint8Array(8 + 998 * 12);
              hang.set(fakeBytes([]), 0);
              new DataView(hang.buffer).setUint32(4, 998, true);
              return hang;
            })()
          : fakeBytes([i, 0, 0, 0, i, 0, 0, 0, i]);
      writeFileSync(join(m, `m${String(i).padStart(2, '0')}.fake`), bytes);
      items.push({ input: join(m, `m${String(i).padStart(2, '0')}.fake`), rel: '' });
    }
    const started: string[] = [];
    const out = join(dir, 'out');
    const t0 = performance.now();
    const records = await runBatch(items, {
      jobs: 2,
      timeout: 1,
      outDir: out,
      workerUrl: runtime.workerUrl,
      formatsModule: runtime.formatsModule,
      pool: { maxChunk: 8, smallInputBytes: 1 << 20 },
      onStart: (item) => started.push(item.input),
    });
    expect(performance.now() - t0).toBeLessThan(20_000);
    expect(records.filter((r) => r.status === 'ok')).toHaveLength(59);
    expect(records[21]).toMatchObject({ status: 'error', error: { code: 'TIMEOUT' } });
    expect(readdirSync(out).sort()).toEqual(
      items.flatMap((_, i) => (i === 21 ? [] : [`m${String(i).padStart(2, '0')}.glb`])),
    );
    // every input was started once, except those handed out again after the hang
    expect(new Set(started).size).toBe(60);
    // records come back in input order with their own outputs
    for (const [i, r] of records.entries())
      if (i !== 21) expect(r.outputs[0]).toMatch(new RegExp(`m${String(i).padStart(2, '0')}\\.glb$`));
  });
});
