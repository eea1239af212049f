// Issue 18.4: preview never hangs. A "Chromium" that starts and never answers is given up after
// the launch time limit, retried once, and reported as PREVIEW_TIMEOUT with the seconds waited.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LegacyError } from '@gltf-legacy/core';
import { expect, test } from 'vitest';
import { withDeadline } from '../src/node/deadline.js';
import { previewFiles } from '../src/node/preview.js';
import { corpusNamed, haveChromium } from './helpers.js';

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

test.skipIf(!haveChromium())(
  'an input Chromium does not render in time: retried once in a new browser, then PREVIEW_TIMEOUT in its result',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-slow-input-'));
    const skull = corpusNamed('unreal3d', ['Skull_d.3d']);
    const t = performance.now();
    const results = await previewFiles(skull, { outDir: dir, size: 64, timeoutMs: 100 });
    expect(results).toHaveLength(1);
    expect(results[0].outputs).toEqual([]);
    expect(results[0].error?.code).toBe('PREVIEW_TIMEOUT');
    expect(results[0].error?.message).toMatch(/waited 0\.1 s for Skull_d\.3d to render \(after one retry\)/);
    expect((performance.now() - t) / 1000).toBeLessThan(25);
  },
  30_000,
);
