import { existsSync } from 'node:fs';
import { LegacyError } from '@gltf-legacy/core';
import type { Browser } from 'playwright-core';

/** Where Chromium is looked for: `GLTF_LEGACY_CHROMIUM`, then Debian's and other usual paths. */
export const CHROMIUM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** Flags for headless Chromium on a machine with a closed network and no GPU. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * The Chromium executable to use, or undefined: `explicit` when given (no fallback), else
 * `GLTF_LEGACY_CHROMIUM` when set (no fallback), else the first of {@link CHROMIUM_PATHS} that exists.
 */
export function findChromium(explicit?: string): string | undefined {
  const chosen = explicit ?? process.env.GLTF_LEGACY_CHROMIUM;
  if (chosen) return existsSync(chosen) ? chosen : undefined;
  return CHROMIUM_PATHS.find((p) => existsSync(p));
}

/** The message shown when Chromium is missing. */
export const CHROMIUM_MISSING_MESSAGE =
  'headless Chromium is needed to render thumbnails but was not found (looked at $GLTF_LEGACY_CHROMIUM and /usr/bin/chromium). ' +
  'Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), or set GLTF_LEGACY_CHROMIUM=/path/to/chrome. ' +
  '(`npx playwright install` is not needed.)';

/**
 * Launches headless Chromium with playwright-core; LegacyError CHROMIUM_MISSING when there is none.
 * `timeoutMs` bounds the start (Playwright stops the process when it does not answer in time).
 */
export async function launchChromium(executablePath?: string, timeoutMs = 30_000): Promise<Browser> {
  const exe = findChromium(executablePath);
  const chosen = executablePath ?? process.env.GLTF_LEGACY_CHROMIUM;
  if (!exe)
    throw new LegacyError(
      'CHROMIUM_MISSING',
      chosen ? `${CHROMIUM_MISSING_MESSAGE} (${chosen} does not exist)` : CHROMIUM_MISSING_MESSAGE,
    );
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: exe, headless: true, args: CHROMIUM_ARGS, timeout: timeoutMs });
}
