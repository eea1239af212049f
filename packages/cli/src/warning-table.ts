// Owns the table of every warning code with its meaning: core's shared codes, each format
// package's exported `WARNING_CODES`, and the CLI's own (`gltf-legacy warnings`, the README list).
import { SHARED_WARNING_CODES, type WarningCodeTable } from '@gltf-legacy/core';

/** Warnings the CLI itself emits. */
export const CLI_WARNING_CODES: WarningCodeTable = {
  CONTAINER_EMPTY: 'A package (.pak, an Unreal .u/.utx/.unr) held no model to convert.',
  CONTAINER_ENTRY_FAILED: 'One model inside a package failed; the other entries were converted.',
  CONTAINER_ENTRY_LOOSE:
    'A model inside a package (.pak, .dat) is also a loose file of the batch: converted once, from the loose file.',
  TEXTURE_MISSING: 'A glTF image file named by a URI does not exist; the texture was left out.',
  ROOT_EXTRAS_WRAPPED:
    'The glTF\'s root `extras` is not a JSON object (a string, number, array…); it is kept as `{ "value": … }`.',
  SIZE_CHANGED:
    'The written file is more than 10 % larger or smaller than the file the model was imported from, with the steps that explain it.',
  LIBRARY_LOG:
    'A line a library (glTF-Transform, meshoptimizer) logged during the conversion, kept as a warning.',
};

/** One row of the table. */
export interface WarningCodeRow {
  code: string;
  /** `core` (shared by every format), a format id, or `cli`. */
  source: string;
  meaning: string;
}

/** Format packages, by id (each may export `WARNING_CODES`). */
const PACKAGES: Record<string, () => Promise<Record<string, unknown>>> = {
  unreal3d: () => import('@gltf-legacy/unreal3d'),
  urho3d: () => import('@gltf-legacy/urho3d'),
  grimrock: () => import('@gltf-legacy/grimrock'),
  tso: () => import('@gltf-legacy/tso'),
  unigine: () => import('@gltf-legacy/unigine'),
};

/**
 * Every warning code with its meaning, sorted by source then code. A format package that does
 * not export `WARNING_CODES` gives one row saying so.
 *
 * ```ts
 * for (const r of await warningCodeRows()) console.log(r.source, r.code, r.meaning);
 * ```
 */
export async function warningCodeRows(): Promise<WarningCodeRow[]> {
  const rows: WarningCodeRow[] = [];
  const add = (source: string, table: WarningCodeTable) => {
    for (const code of Object.keys(table).sort()) rows.push({ code, source, meaning: table[code] });
  };
  add('core', SHARED_WARNING_CODES);
  for (const [id, load] of Object.entries(PACKAGES)) {
    const table = (await load()).WARNING_CODES as WarningCodeTable | undefined;
    if (table) add(id, table);
    else
      rows.push({
        code: '-',
        source: id,
        meaning: 'the package does not list its codes yet (no WARNING_CODES export)',
      });
  }
  add('cli', CLI_WARNING_CODES);
  return rows;
}

/** The table as Markdown (the cli README's list is this text). */
export function warningCodesMarkdown(rows: readonly WarningCodeRow[]): string {
  return [
    '| code | from | meaning |',
    '| --- | --- | --- |',
    ...rows.map((r) => `| \`${r.code}\` | ${r.source} | ${r.meaning.replace(/\|/g, '\\|')} |`),
  ].join('\n');
}
