// Issues 19 and 30: Unreal vertex animation is written with float32 morph targets by default
// (portable, nothing in extensionsRequired) and with KHR_mesh_quantization ones with
// `compact: true`. The viewer (three.js in Chromium) must play both and show the same picture at
// each time.
import { basename } from 'node:path';
import { legacyFormat as unreal3d } from '@gltf-legacy/unreal3d';
import { readBytes } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ViewerApi, ViewerState } from '../src/api.js';
import { launchChromium } from '../src/node/chromium.js';
import { startServer, type ViewerServer } from '../src/node/server.js';
import { canvasPixels, changedFraction, corpusNamed, haveChromium, openViewer, scrubTo } from './helpers.js';

type Win = { __viewer: ViewerApi };

describe.skipIf(!haveChromium())(
  'Unreal vertex animation in the viewer (compact and portable morph targets)',
  () => {
    let browser: Browser;
    let server: ViewerServer;
    let page: Page;
    const files = corpusNamed('unreal3d', ['Sporifier_d.3d', 'Sporifier_a.3d', 'Sporifier.uc']);
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);

    const state = (): Promise<ViewerState> =>
      page.evaluate(() => (window as unknown as Win).__viewer.state());
    const shot = () => canvasPixels(page);
    const scrub = (t: number) => scrubTo(page, t);
    /** Converts in Node with `options`, drops the .glb into the page, returns the clip shown. */
    const showGlb = async (name: string, options: Record<string, unknown>) => {
      const set = new Map(files.map((f) => [basename(f), readBytes(f)]));
      const { document } = await unreal3d.import(set, { main: 'Sporifier_d.3d', ...options });
      const glb = await io.writeBinary(document);
      await page.setInputFiles('#file-input', {
        name,
        mimeType: 'model/gltf-binary',
        buffer: Buffer.from(glb),
      });
      await page.waitForFunction((n) => (window as unknown as Win).__viewer.state().model === n, name);
      const s = await state();
      expect(s.error, s.error ?? '').toBeNull();
      return { glb, s };
    };

    beforeAll(async () => {
      [browser, server] = await Promise.all([launchChromium(), startServer()]);
      page = await openViewer(browser, server.url, { viewport: { width: 640, height: 400 } });
    });

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const glbJson = (glb: Uint8Array) =>
      JSON.parse(
        new TextDecoder().decode(
          glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true)),
        ),
      ) as { extensionsRequired?: string[] };

    test('the compact .glb plays (two times, two pictures) and matches the portable (default) .glb frame for frame', async () => {
      const quantized = await showGlb('q.glb', { compact: true });
      // compact really is the quantized encoding, and it is smaller
      expect(glbJson(quantized.glb).extensionsRequired).toContain('KHR_mesh_quantization');
      expect(quantized.s.stats?.morphTargets).toBeGreaterThan(10);
      const clip = quantized.s.clips[0];
      expect(clip.duration).toBeGreaterThan(0);
      const times = [0, clip.duration * 0.37, clip.duration * 0.81];
      const q: Uint8Array[] = [];
      for (const t of times) {
        await scrub(t);
        q.push(await shot());
      }
      expect(changedFraction(q[0], q[1]) + changedFraction(q[0], q[2])).toBeGreaterThan(0.002);

      const float = await showGlb('f.glb', {});
      expect(glbJson(float.glb).extensionsRequired ?? []).toEqual([]);
      expect(float.glb.length).toBeGreaterThan(quantized.glb.length);
      // the portable one plays too: it moves between the same times
      const f0: Uint8Array[] = [];
      expect(float.s.stats).toEqual(quantized.s.stats);
      for (let i = 0; i < times.length; i++) {
        await scrub(times[i]);
        f0.push(await shot());
        // same positions bit for bit; normals differ by ≤ 1/127 per component (a shade or two)
        expect(changedFraction(q[i], f0[i])).toBeLessThan(0.002);
      }
      expect(changedFraction(f0[0], f0[1]) + changedFraction(f0[0], f0[2])).toBeGreaterThan(0.002);
    });
  },
);
