import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { baseName, isLegacyError, modelBaseName } from '@gltf-legacy/core';
import { FORMATS } from '../registry.js';
import type { ViewerApi, ViewerState } from '../api.js';
import { launchChromium } from './chromium.js';
import { gatherInput } from './files.js';
import { startServer } from './server.js';

/** Options of {@link previewFiles}. */
export interface PreviewOptions {
  /** Folder for the PNGs (created). */
  outDir: string;
  /** Width and height of each PNG in pixels. */
  size?: number;
  /** Chromium executable (default: $GLTF_LEGACY_CHROMIUM or /usr/bin/chromium). */
  executablePath?: string;
  /** Time limit per model, ms. */
  timeoutMs?: number;
  /** The folder textures and material files are read from (default: each format's own rule). */
  resourceDir?: string;
  /** Called after each input (for progress lines). */
  onResult?: (result: PreviewResult) => void;
}

export const PREVIEW_DEFAULTS = { size: 512, timeoutMs: 60_000 } as const;

/** What happened to one input. */
export interface PreviewResult {
  input: string;
  /** PNGs written (one per model: a `.pak` gives one per model inside). */
  outputs: string[];
  /** Counts of the (first) model rendered. */
  stats?: ViewerState['stats'];
  /** Conversion warnings. */
  warnings: ViewerState['warnings'];
  /** Set when the input could not be rendered (the others still are). */
  error?: { code: string; message: string };
}

type Win = { __viewer: ViewerApi };

function pngName(input: string, model: string, multi: boolean): string {
  // named like `gltf-legacy convert` names its outputs: Skull_d.3d → Skull.png
  const base = (n: string) => {
    const format = FORMATS.find((f) => baseName(n).toLowerCase().endsWith(f.mainExtension.toLowerCase()));
    return modelBaseName(n.replace(/\\/g, '/'), format);
  };
  return multi ? `${base(input)}__${base(model)}.png` : `${base(input)}.png`;
}

/**
 * Renders one PNG per model with headless Chromium: the viewer page converts the file in the
 * browser, frames its bounds from a fixed direction, lights it neutrally and poses it at the first
 * frame of its first animation. Companions beside each input (animations, `.uc`, …) are loaded as
 * the CLI does. An input that fails is reported in its result; Chromium missing throws a
 * LegacyError `CHROMIUM_MISSING` saying how to install it.
 *
 * ```ts
 * const results = await previewFiles(['Jack.mdl', 'Fox.glb'], { outDir: 'thumbs' });
 * // thumbs/Jack.png, thumbs/Fox.png
 * ```
 */
export async function previewFiles(inputs: string[], options: PreviewOptions): Promise<PreviewResult[]> {
  const size = options.size ?? PREVIEW_DEFAULTS.size;
  const timeout = options.timeoutMs ?? PREVIEW_DEFAULTS.timeoutMs;
  const browser = await launchChromium(options.executablePath);
  const server = await startServer();
  const results: PreviewResult[] = [];
  try {
    await mkdir(options.outDir, { recursive: true });
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    page.setDefaultTimeout(timeout);
    await page.goto(`${server.url}?preview`);
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    for (const input of inputs) {
      const result: PreviewResult = { input, outputs: [], warnings: [] };
      try {
        const files = await gatherInput(input, { resourceDir: options.resourceDir });
        server.files.clear();
        for (const [n, b] of files) server.files.set(n, b);
        await page.evaluate(() => (window as unknown as Win).__viewer.reset());
        const first = await page.evaluate(
          ([m]) => (window as unknown as Win).__viewer.loadServed(undefined, m),
          [basename(input)] as const,
        );
        // a container (.pak) is replaced by its entries: render each model inside
        const names = first.models.map((m) => m.name);
        const models = names.includes(basename(input)) || !names.length ? [basename(input)] : names;
        const multi = models[0] !== basename(input);
        for (const model of models) {
          const st =
            model === first.model || !first.models.length
              ? first
              : await page.evaluate((m) => (window as unknown as Win).__viewer.show(m), model);
          if (st.error || !st.model) {
            result.error ??= {
              code: 'PREVIEW_FAILED',
              message: multi ? `${model}: ${st.error}` : (st.error ?? 'nothing to render'),
            };
            continue;
          }
          result.stats ??= st.stats;
          result.warnings.push(...st.warnings);
          const dataUrl = await page.evaluate(() => {
            const c = document.getElementById('view') as HTMLCanvasElement;
            return c.toDataURL('image/png');
          });
          const out = join(options.outDir, pngName(input, model, multi));
          await writeFile(out, Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
          result.outputs.push(out);
        }
      } catch (e) {
        result.error = {
          code: isLegacyError(e) ? e.code : ((e as { code?: string }).code ?? 'PREVIEW_FAILED'),
          message: (e as Error).message,
        };
      }
      results.push(result);
      options.onResult?.(result);
    }
  } finally {
    await server.close();
    await browser.close();
  }
  return results;
}
