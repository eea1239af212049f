// Issue 18.4: preview never hangs. A "Chromium" that starts and never answers is given up after
// the launch time limit, retried once, and reported as PREVIEW_TIMEOUT with the seconds waited.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LegacyError } from '@gltf-legacy/core';
import { expect, test } from 'vitest';
import { withDeadline } from '../src/node/deadline.js';
import { previewFiles } from '../src/node/preview.js';

test('a Chromium that never answers: PREVIEW_TIMEOUT naming the seconds, after exactly one retry, in bounded time', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-hung-chromium-'));
  const exe = join(dir, 'chromium');
  const starts = join(dir, 'starts');
  // prints nothing on its DevTools pipe and sleeps: what a wedged browser looks like to Playwright
  writeFileSync(exe, `#!/bin/sh\necho start >> '${starts}'\nexec sleep 120\n`);
  chmodSync(exe, 0o755);
  const t = performance.now();
  const e = await previewFiles(['x.glb'], {
    outDir: join(dir, 'out'),
    executablePath: exe,
    launchTimeoutMs: 1500,
  }).catch((x) => x);
  const seconds = (performance.now() - t) / 1000;
  expect(e).toBeInstanceOf(LegacyError);
  expect(e.code).toBe('PREVIEW_TIMEOUT');
  expect(e.message).toMatch(/within 1\.5 s, twice/);
  expect(readFileSync(starts, 'utf8').trim().split('\n')).toHaveLength(2);
  expect(seconds).toBeLessThan(15);
}, 30_000);

test('withDeadline: a promise that never settles is a PREVIEW_TIMEOUT after the given time; a quick one resolves', async () => {
  const t = performance.now();
  const e = await withDeadline(new Promise(() => {}), 200, 'the page').catch((x) => x);
  expect(e.code).toBe('PREVIEW_TIMEOUT');
  expect(e.message).toBe('Chromium did not answer: waited 0.2 s for the page');
  expect(performance.now() - t).toBeGreaterThanOrEqual(190);
  expect(await withDeadline(Promise.resolve(7), 200, 'x')).toBe(7);
});
