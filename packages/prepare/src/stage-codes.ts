/**
 * The warning codes the shared export stage reports, one per kind of step: what an exporter's
 * warnings must contain for the steps `prepare` ran, and nothing it reports on its own.
 */

/** Every code a step of `prepare` may report (their meanings: core `SHARED_WARNING_CODES`). */
export const STAGE_WARNING_CODES = [
  'ATTRIBUTE_DEQUANTIZED',
  'PRIMITIVE_TRIANGULATED',
  'PRIMITIVE_DROPPED',
  'TRANSFORMS_BAKED',
  'WEIGHTS_TRUNCATED',
  'PRIMITIVE_SPLIT',
  'ANIMATION_RESAMPLED',
] as const;

/**
 * The distinct stage codes among `warnings`, sorted: compare an export's with
 * `prepare(document, limits)`'s.
 *
 * ```ts
 * stageWarningCodes([{ code: 'ANIMATION_RESAMPLED' }, { code: 'TEXTURE_MISSING' }]); // ['ANIMATION_RESAMPLED']
 * ```
 */
export function stageWarningCodes(warnings: readonly { code: string }[]): string[] {
  const stage: readonly string[] = STAGE_WARNING_CODES;
  return [...new Set(warnings.map((w) => w.code).filter((c) => stage.includes(c)))].sort();
}
