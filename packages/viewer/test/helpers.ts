import { basename } from 'node:path';
import { inflateSync } from 'node:zlib';
import { corpusFiles } from '@gltf-legacy/test-utils';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_MISSING_MESSAGE, findChromium } from '../src/node/chromium.js';

/**
 * True when Chromium is installed. Without it the browser tests are skipped locally, but FAIL in
 * CI (`CI` or `GLTF_LEGACY_CORPUS` set, as in .ci/run): CI must install it first (`apt-get install -y chromium` in .ci/run).
 */
export function haveChromium(): boolean {
  if (findChromium()) return true;
  if (process.env.CI || process.env.GLTF_LEGACY_CORPUS)
    throw new Error(
      `${CHROMIUM_MISSING_MESSAGE} — CI must run \`apt-get install -y chromium\` before the viewer tests`,
    );
  console.warn(`viewer browser tests skipped: ${CHROMIUM_MISSING_MESSAGE}`);
  return false;
}

/** Corpus files of `folder` with exactly these base names (throws when one is missing). */
export function corpusNamed(folder: string, names: string[]): string[] {
  const all = corpusFiles(
    folder,
    names.map((n) => n.slice(n.lastIndexOf('.'))),
  );
  return names.map((n) => {
    const p = all.find((f) => basename(f) === n);
    if (!p) throw new Error(`corpus ${folder}/${n} is missing`);
    return p;
  });
}

/** Decodes an 8-bit RGB/RGBA non-interlaced PNG (what Chromium writes) to RGBA pixels. */
export function decodePng(png: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let pos = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  while (pos < png.length) {
    const len = dv.getUint32(pos);
    const type = String.fromCharCode(...png.subarray(pos + 4, pos + 8));
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = dv.getUint32(pos + 8);
      height = dv.getUint32(pos + 12);
      if (data[8] !== 8 || data[12] !== 0) throw new Error('only 8-bit non-interlaced PNGs');
      channels = data[9] === 6 ? 4 : data[9] === 2 ? 3 : 0;
      if (!channels) throw new Error(`PNG colour type ${data[9]} not handled`);
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = out.subarray(y * stride, (y + 1) * stride);
    const up = y ? out.subarray((y - 1) * stride, y * stride) : new Uint8Array(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? row[x - channels] : 0;
      const b = up[x];
      const c = x >= channels ? up[x - channels] : 0;
      let p = src[x];
      if (f === 1) p += a;
      else if (f === 2) p += b;
      else if (f === 3) p += (a + b) >> 1;
      else if (f === 4) {
        const q = a + b - c;
        const pa = Math.abs(q - a);
        const pb = Math.abs(q - b);
        const pc = Math.abs(q - c);
        p += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      row[x] = p & 255;
    }
  }
  if (channels === 4) return { width, height, rgba: out };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < out.length; i += 3, j += 4) {
    rgba[j] = out[i];
    rgba[j + 1] = out[i + 1];
    rgba[j + 2] = out[i + 2];
    rgba[j + 3] = 255;
  }
  return { width, height, rgba };
}

/** Variance of the luminance of RGBA pixels (0 for a blank image). */
export function lumaVariance(rgba: Uint8Array): number {
  let s = 0;
  let q = 0;
  const n = rgba.length / 4;
  for (let i = 0; i < rgba.length; i += 4) {
    const y = 0.2126 * rgba[i] + 0.7152 * rgba[i + 1] + 0.0722 * rgba[i + 2];
    s += y;
    q += y * y;
  }
  const m = s / n;
  return q / n - m * m;
}

/** Fraction of pixels whose RGB differs by more than 8 in some channel. */
export function changedFraction(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return 1;
  let changed = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (Math.abs(a[i] - b[i]) > 8 || Math.abs(a[i + 1] - b[i + 1]) > 8 || Math.abs(a[i + 2] - b[i + 2]) > 8)
      changed++;
  }
  return changed / (a.length / 4);
}

/** The viewer canvas (`#view`) as RGBA pixels, through a PNG as a user's screenshot would be. */
export async function canvasPixels(page: Page): Promise<Uint8Array> {
  const url = await page.evaluate(() =>
    (document.getElementById('view') as HTMLCanvasElement).toDataURL('image/png'),
  );
  return decodePng(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).rgba;
}

/** Moves the scrub slider (`#scrub`) to `t` seconds as a user would (an input event). */
export function scrubTo(page: Page, t: number): Promise<void> {
  return page.locator('#scrub').evaluate((el, v) => {
    (el as HTMLInputElement).value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, t);
}

/** A new page on the viewer at `url`, returned once the page says it is ready; page errors are printed. */
export async function openViewer(
  browser: Browser,
  url: string,
  options: Parameters<Browser['newPage']>[0],
): Promise<Page> {
  const page = await browser.newPage(options);
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  return page;
}
