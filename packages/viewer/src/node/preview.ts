import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { baseName, isLegacyError, LegacyError, modelBaseName } from '@gltf-legacy/core';
import { FORMATS } from '../registry.js';
import type { ViewerApi, ViewerState } from '../api.js';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { isTimeout, withDeadline } from './deadline.js';
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
  /** Time limit per input (loading, converting and rendering it), ms; one retry in a new browser. */
  timeoutMs?: number;
  /** Time limit for Chromium to start and show the page, ms; one retry. */
  launchTimeoutMs?: number;
  /** The folder textures and material files are read from (default: each format's own rule). */
  resourceDir?: string;
  /** Called after each input (for progress lines). */
  onResult?: (result: PreviewResult) => void;
}

export const PREVIEW_DEFAULTS = { size: 512, timeoutMs: 60_000, launchTimeoutMs: 30_000 } as const;

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

/** A browser with the viewer page open and ready. */
interface Session {
  browser: Browser;
  page: Page;
}

async function closeQuietly(browser: Browser | undefined): Promise<void> {
  if (!browser) return;
  await withDeadline(browser.close(), 5_000, 'Chromium to close').catch(() => {});
}

/** Starts Chromium and opens the page, within `ms`; a second try when the first does not answer. */
async function openSession(
  url: string,
  size: number,
  timeout: number,
  ms: number,
  exe?: string,
): Promise<Session> {
  for (let attempt = 1; ; attempt++) {
    let browser: Browser | undefined;
    try {
      const launching = launchChromium(exe, ms);
      browser = await withDeadline(launching, ms + 2_000, 'Chromium to start');
      const b = browser;
      const page = await withDeadline(
        (async () => {
          const p = await b.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
          p.setDefaultTimeout(timeout);
          await p.goto(`${url}?preview`, { timeout: ms });
          await p.waitForFunction(() => document.body.dataset.ready === 'true', undefined, { timeout: ms });
          return p;
        })(),
        ms,
        'the viewer page to load',
      );
      return { browser: b, page };
    } catch (e) {
      await closeQuietly(browser);
      if (!isTimeout(e)) throw e;
      if (attempt >= 2)
        throw new LegacyError(
          'PREVIEW_TIMEOUT',
          `Chromium did not answer within ${+(ms / 1000).toFixed(1)} s, twice (${(e as Error).message.split('\n')[0]})`,
        );
    }
  }
}

/** Renders one input in the open page: one PNG per model (a `.pak` gives several). */
async function renderInput(
  page: Page,
  server: Awaited<ReturnType<typeof startServer>>,
  input: string,
  options: PreviewOptions,
  result: PreviewResult,
): Promise<void> {
  const files = await gatherInput(input, { resourceDir: options.resourceDir });
  server.files.clear();
  for (const [n, b] of files) server.files.set(n, b);
  await page.evaluate(() => (window as unknown as Win).__viewer.reset());
  const first = await page.evaluate(([m]) => (window as unknown as Win).__viewer.loadServed(undefined, m), [
    basename(input),
  ] as const);
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
}

/**
 * Renders one PNG per model with headless Chromium: the viewer page converts the file in the
 * browser, frames its bounds from a fixed direction, lights it neutrally and poses it at the first
 * frame of its first animation. Companions beside each input (animations, `.uc`, …) are loaded as
 * the CLI does. An input that fails is reported in its result; Chromium missing throws a
 * LegacyError `CHROMIUM_MISSING` saying how to install it. Nothing waits on Chromium unbounded:
 * a start that does not answer within `launchTimeoutMs`, or an input not rendered within
 * `timeoutMs`, is retried once in a new browser, then is a `PREVIEW_TIMEOUT` naming the seconds
 * waited (thrown for the start, in the input's result for an input).
 *
 * ```ts
 * const results = await previewFiles(['Jack.mdl', 'Fox.glb'], { outDir: 'thumbs' });
 * // thumbs/Jack.png, thumbs/Fox.png
 * ```
 */
export async function previewFiles(inputs: string[], options: PreviewOptions): Promise<PreviewResult[]> {
  const size = options.size ?? PREVIEW_DEFAULTS.size;
  const timeout = options.timeoutMs ?? PREVIEW_DEFAULTS.timeoutMs;
  const launchTimeout = options.launchTimeoutMs ?? PREVIEW_DEFAULTS.launchTimeoutMs;
  const server = await startServer();
  const results: PreviewResult[] = [];
  let session: Session | undefined;
  const open = () => openSession(server.url, size, timeout, launchTimeout, options.executablePath);
  try {
    session = await open();
    await mkdir(options.outDir, { recursive: true });
    for (const input of inputs) {
      let result: PreviewResult = { input, outputs: [], warnings: [] };
      for (let attempt = 1; attempt <= 2; attempt++) {
        result = { input, outputs: [], warnings: [] };
        try {
          const s = session ?? (session = await open());
          await withDeadline(
            renderInput(s.page, server, input, options, result),
            timeout,
            `${basename(input)} to render`,
          );
          break;
        } catch (e) {
          result.error = {
            code: isLegacyError(e) ? e.code : ((e as { code?: string }).code ?? 'PREVIEW_FAILED'),
            message: (e as Error).message,
          };
          if (!isTimeout(e)) break;
          // Chromium stopped answering: a new browser for the retry (and for the next inputs)
          result.error = {
            code: 'PREVIEW_TIMEOUT',
            message: `${(e as Error).message}${attempt === 2 ? ' (after one retry)' : ''}`,
          };
          await closeQuietly(session?.browser);
          session = undefined;
        }
      }
      results.push(result);
      options.onResult?.(result);
    }
  } finally {
    await server.close();
    await closeQuietly(session?.browser);
  }
  return results;
}
