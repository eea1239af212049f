// Owns the SIZE_CHANGED warning: import records the size of each game file in the document's root
// extras; a re-export to the same format compares its files with them and, when one grew or shrank
// by more than SIZE_CHECK_DEFAULTS.ratio, says so in one warning with the steps that explain it.
import type { Document } from '@gltf-transform/core';
import type { Warning, WarningCollector } from '@gltf-legacy/core';

/** The key under the root `extras` that holds the imported files' sizes. */
export const SOURCE_SIZES_KEY = 'gltfLegacySourceSizes';

export const SIZE_CHECK_DEFAULTS = {
  /** Relative change above which the warning is given (0.1 = 10 %). */
  ratio: 0.1,
};

interface SourceSizes {
  format: string;
  main: string;
  files: Record<string, number>;
  /** Optimize flags run on the document after import (`--optimize`, `--meshopt`, …). */
  steps?: string[];
}

/**
 * Notes optimize flags run on an imported document, so a later re-export can name them.
 *
 * ```ts
 * noteSteps(document, ['--resample']);
 * ```
 */
export function noteSteps(doc: Document, steps: readonly string[]): void {
  const root = doc.getRoot();
  const sizes = (root.getExtras() as Record<string, unknown>)[SOURCE_SIZES_KEY] as SourceSizes | undefined;
  if (!sizes || !steps.length) return;
  root.setExtras({
    ...root.getExtras(),
    [SOURCE_SIZES_KEY]: { ...sizes, steps: [...new Set([...(sizes.steps ?? []), ...steps])] },
  });
}

/**
 * Records the size of every imported file (main file and companions) in the root extras.
 *
 * ```ts
 * recordSourceSizes(document, 'urho3d', 'Jack.mdl', files); // extras.gltfLegacySourceSizes
 * ```
 */
export function recordSourceSizes(
  doc: Document,
  format: string,
  main: string,
  files: ReadonlyMap<string, Uint8Array>,
): void {
  const sizes: SourceSizes = {
    format,
    main,
    files: Object.fromEntries([...files].map(([name, bytes]) => [name.split('/').pop()!, bytes.length])),
  };
  const root = doc.getRoot();
  root.setExtras({ ...root.getExtras(), [SOURCE_SIZES_KEY]: sizes });
}

/**
 * After an export to `format`: compares each written file with the imported one of the same role
 * (the main file, whatever its new name; companions by name) and warns once when any changed by
 * more than the ratio, naming the sizes and the lossy steps of this conversion (their codes).
 *
 * ```ts
 * checkSizes(document, 'urho3d', 'Jack.mdl', result.files, warnings, ['--meshopt']);
 * ```
 */
export function checkSizes(
  doc: Document,
  format: string,
  mainOut: string | undefined,
  written: ReadonlyMap<string, Uint8Array>,
  warnings: WarningCollector,
  steps: readonly string[] = [],
  ratio = SIZE_CHECK_DEFAULTS.ratio,
): void {
  const sizes = (doc.getRoot().getExtras() as Record<string, unknown>)[SOURCE_SIZES_KEY] as
    | SourceSizes
    | undefined;
  if (!sizes || sizes.format !== format || typeof sizes.files !== 'object') return;
  const changes: string[] = [];
  for (const [path, bytes] of written) {
    const name = path.split('/').pop()!;
    const before = name === mainOut ? sizes.files[sizes.main] : sizes.files[name];
    if (!before || Math.abs(bytes.length - before) <= before * ratio) continue;
    const pct = Math.round(((bytes.length - before) / before) * 100);
    changes.push(`${name} ${before} → ${bytes.length} bytes (${pct > 0 ? '+' : ''}${pct} %)`);
  }
  if (!changes.length) return;
  const reasons = [
    ...(Array.isArray(sizes.steps) ? sizes.steps : []),
    ...steps,
    ...warnings
      .list()
      .filter((w: Warning) => w.code !== 'SIZE_CHANGED' && w.code !== 'LIBRARY_LOG')
      .map((w) => w.code),
  ];
  warnings.warn(
    'SIZE_CHANGED',
    `${changes.join(', ')} compared with the imported file; ${
      reasons.length
        ? `steps of this conversion that explain it: ${[...new Set(reasons)].join(', ')}`
        : 'no lossy step was reported (the exporter writes a different layout)'
    }`,
  );
}
