import { readFile } from 'node:fs/promises';
import { FormatError } from '@gltf-legacy/core';
import { legacyFormat as urho3d } from '@gltf-legacy/urho3d';
import { loadWithThree, readBytes, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ViewerApi, ViewerState } from '../src/api.js';
import { launchChromium } from '../src/node/chromium.js';
import { serveViewer } from '../src/node/serve.js';
import { startServer, type ViewerServer } from '../src/node/server.js';
import {
  canvasPixels,
  changedFraction,
  corpusNamed,
  scrubTo,
  haveChromium,
  openViewer,
  lumaVariance,
} from './helpers.js';

type Win = { __viewer: ViewerApi };

describe.skipIf(!haveChromium())('viewer page in headless Chromium', () => {
  let browser: Browser;
  let server: ViewerServer;
  let page: Page;
  const [jackMdl, jackAni] = corpusNamed('urho', ['Jack.mdl', 'Jack_Walk.ani']);
  const [fox] = corpusNamed('gltf', ['Fox.glb']);

  const state = () => page.evaluate(() => (window as unknown as Win).__viewer.state());
  const shot = () => canvasPixels(page);
  const scrub = (t: number) => scrubTo(page, t);
  const downloads: Download[] = [];

  beforeAll(async () => {
    [browser, server] = await Promise.all([launchChromium(), startServer()]);
    page = await openViewer(browser, server.url, {
      viewport: { width: 820, height: 480 },
      acceptDownloads: true,
    });
    page.on('download', (d) => downloads.push(d));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('blank before a model; Jack.mdl + Jack_Walk.ani dropped via the file input load with counts and the clip', async () => {
    const blank = await page.evaluate(() => (window as unknown as Win).__viewer.pixelStats());
    expect(blank.variance).toBeLessThan(1);
    await page.setInputFiles('#file-input', [jackMdl, jackAni]);
    await page.waitForFunction(() =>
      /^(Loaded|Could not)/.test(document.getElementById('status')?.textContent ?? ''),
    );
    const s: ViewerState = await state();
    expect(s.error, s.error ?? '').toBeNull();
    expect(s.model).toBe('Jack.mdl');
    expect(s.format).toBe('urho3d');
    expect(s.models.map((m) => m.name)).toEqual(['Jack.mdl']); // the .ani is a companion, not a model
    expect(s.stats?.vertices).toBeGreaterThan(1000);
    expect(s.stats?.triangles).toBeGreaterThan(1000);
    expect(s.stats?.joints).toBeGreaterThan(10);
    expect(s.clips).toHaveLength(1);
    expect(s.clips[0].duration).toBeGreaterThan(0.5);
    // the counts the user reads in the panel are the document's
    const table = (await page.locator('#stats').textContent()) ?? '';
    expect(table).toContain(String(s.stats?.vertices));
    expect(table).toContain(String(s.stats?.joints));
    expect(await page.locator('#status').textContent()).toContain('1 companion');
    expect(await page.locator('#clips button').count()).toBe(1);
    // canvas is not blank
    const px = await page.evaluate(() => (window as unknown as Win).__viewer.pixelStats());
    expect(px.variance).toBeGreaterThan(50);
    expect(lumaVariance(await shot())).toBeGreaterThan(50);
    if (process.env.VIEWER_SCREENSHOT) await page.screenshot({ path: process.env.VIEWER_SCREENSHOT });
  });

  test('scrubbing to two animation times gives different pictures; play advances time, pause stops it', async () => {
    const { clips } = await state();
    await scrub(0);
    const a = await shot();
    await scrub(clips[0].duration / 2);
    expect((await state()).time).toBeCloseTo(clips[0].duration / 2, 3);
    const b = await shot();
    expect(changedFraction(a, b)).toBeGreaterThan(0.005);
    await scrub(0);
    expect(changedFraction(a, await shot())).toBeLessThan(0.001); // same time, same picture
    await page.click('#play');
    await page.waitForFunction(() => (window as unknown as Win).__viewer.state().time > 0.05);
    await page.click('#play');
    const t1 = (await state()).time;
    await page.waitForTimeout(200);
    expect((await state()).playing).toBe(false);
    expect((await state()).time).toBe(t1);
  });

  test('wireframe and skeleton toggles change the picture', async () => {
    await scrub(0);
    const base = await shot();
    await page.check('#wireframe');
    const wire = await shot();
    expect(changedFraction(base, wire)).toBeGreaterThan(0.01);
    await page.uncheck('#wireframe');
    await page.check('#skeleton');
    expect(changedFraction(base, await shot())).toBeGreaterThan(0.0005);
    await page.uncheck('#skeleton');
    expect(changedFraction(base, await shot())).toBeLessThan(0.001);
  });

  test('Download .glb saves a file that passes glTF-Validator and keeps the animation', async () => {
    downloads.length = 0;
    const wait = page.waitForEvent('download');
    await page.click('#download-glb');
    const d = await wait;
    expect(d.suggestedFilename()).toBe('Jack.glb');
    const bytes = new Uint8Array(await readFile((await d.path()) as string));
    const report = await validateGlb(bytes);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    const gltf = await loadWithThree(bytes);
    expect(gltf.animations).toHaveLength(1);
    expect(gltf.animations[0].duration).toBeCloseTo((await state()).clips[0].duration, 3);
  });

  test('Export to urho3d downloads .mdl + .ani that import again with the same counts', async () => {
    downloads.length = 0;
    await page.selectOption('#export-format', 'urho3d');
    await page.click('#export');
    await page.waitForFunction(() =>
      /^(Exported|Export to)/.test(document.getElementById('status')?.textContent ?? ''),
    );
    const status = (await page.locator('#status').textContent()) ?? '';
    expect(status).toMatch(/^Exported /);
    const names = status
      .replace(/^Exported /, '')
      .replace(/\.$/, '')
      .split(', ');
    await expect.poll(() => downloads.length).toBe(names.length);
    const files = new Map<string, Uint8Array>();
    for (const d of downloads)
      files.set(d.suggestedFilename(), new Uint8Array(await readFile((await d.path()) as string)));
    expect([...files.keys()].sort()).toEqual([...names].sort());
    const main = [...files.keys()].find((n) => n.endsWith('.mdl'));
    expect(main).toBe('Jack.mdl');
    expect([...files.keys()].some((n) => n.endsWith('.ani'))).toBe(true);
    const back = await urho3d.import(files, { main });
    const s = await state();
    let vertices = 0;
    for (const m of back.document.getRoot().listMeshes())
      for (const p of m.listPrimitives()) vertices += p.getAttribute('POSITION')?.getCount() ?? 0;
    expect(vertices).toBe(s.stats?.vertices);
    expect(back.document.getRoot().listAnimations()).toHaveLength(1);
  });

  test('a dropped .glb shows its clips and joins the model list; a broken file shows the importer error', async () => {
    await page.setInputFiles('#file-input', [fox]);
    await page.waitForFunction(() => (window as unknown as Win).__viewer.state().model === 'Fox.glb');
    const s = await state();
    expect(s.format).toBe('glb');
    expect(s.clips.map((c) => c.name)).toEqual(['Survey', 'Walk', 'Run']);
    expect(s.stats).toMatchObject({ vertices: 1728, triangles: 576, joints: 24 });
    // the pool now holds two models; the select switches back
    expect(s.models.map((m) => m.name).sort()).toEqual(['Fox.glb', 'Jack.mdl']);
    await page.selectOption('#models', 'Jack.mdl');
    await page.waitForFunction(() => (window as unknown as Win).__viewer.state().model === 'Jack.mdl');
    // garbage named like a model: an error message, the page keeps working
    await page.evaluate(() => (window as unknown as Win).__viewer.reset());
    await page.setInputFiles('#file-input', {
      name: 'bad.mdl',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('UMDLxxxx'),
    });
    await page.waitForFunction(() =>
      /Could not|not a model/.test(document.getElementById('status')?.textContent ?? ''),
    );
    expect((await state()).error).toBeTruthy();
    // sanity: the same bytes fail in Node with a FormatError (the page showed that error's code)
    await expect(
      urho3d.import(new Map([['bad.mdl', readBytes(jackMdl).subarray(0, 8)]]), { main: 'bad.mdl' }),
    ).rejects.toBeInstanceOf(FormatError);
  });

  test('an Unreal package (.u) dropped opens as its meshes: the model list names them, the first shows with its skin', async () => {
    await page.evaluate(() => (window as unknown as Win).__viewer.reset());
    await page.setInputFiles('#file-input', corpusNamed('archives', ['HeadHunter.u', 'KillConfirmed.u']));
    await page.waitForFunction(() =>
      /^(Loaded|Could not)/.test(document.getElementById('status')?.textContent ?? ''),
    );
    const s = await state();
    expect(s.error, s.error ?? '').toBeNull();
    expect(s.models.map((m) => m.name)).toEqual(['Skull_d.3d', 'dogTag_d.3d']);
    expect(s.format).toBe('unreal3d');
    expect(s.stats?.triangles).toBe(236);
    expect(s.warnings.map((w) => w.code)).not.toContain('TEXTURE_MISSING');
    expect(await page.locator('#models option').allTextContents()).toEqual([
      'Skull_d.3d (unreal3d)',
      'dogTag_d.3d (unreal3d)',
    ]);
    await page.selectOption('#models', 'dogTag_d.3d');
    await page.waitForFunction(() => (window as unknown as Win).__viewer.state().model === 'dogTag_d.3d');
    expect(
      (await page.evaluate(() => (window as unknown as Win).__viewer.pixelStats())).variance,
    ).toBeGreaterThan(50);
  });

  test('serveViewer (gltf-legacy view): the served page opens the given file with its companions', async () => {
    const v = await serveViewer([jackMdl]);
    try {
      expect(v.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?served$/);
      expect(v.files).toContain('Jack_Walk.ani');
      const p = await browser.newPage({ viewport: { width: 640, height: 400 } });
      await p.goto(v.url);
      await p.waitForFunction(() => (window as unknown as Win).__viewer?.state().model === 'Jack.mdl');
      const s = await p.evaluate(() => (window as unknown as Win).__viewer.state());
      expect(s.clips).toHaveLength(1);
      expect(s.error).toBeNull();
      await p.close();
    } finally {
      await v.close();
    }
  });
});
