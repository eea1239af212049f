// Owns the time bounds of talking to Chromium: a promise that does not settle in time becomes a
// LegacyError PREVIEW_TIMEOUT naming what was waited for and how many seconds.
import { LegacyError } from '@gltf-legacy/core';

/**
 * Resolves as `work` does, or rejects with `PREVIEW_TIMEOUT` after `ms` (the work is left to
 * settle on its own; the caller closes the browser it was waiting for).
 *
 * ```ts
 * const browser = await withDeadline(chromium.launch(opts), 30_000, 'Chromium to start');
 * ```
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new LegacyError(
            'PREVIEW_TIMEOUT',
            `Chromium did not answer: waited ${+(ms / 1000).toFixed(1)} s for ${what}`,
          ),
        ),
      ms,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** True for the error {@link withDeadline} (or Playwright's own timeout) gives. */
export function isTimeout(e: unknown): boolean {
  const x = e as { code?: string; name?: string } | undefined;
  return x?.code === 'PREVIEW_TIMEOUT' || x?.name === 'TimeoutError';
}
