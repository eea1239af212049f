import type { ConvertRecord } from './convert.js';
import { renderTable } from './table.js';

/** Totals of a batch (the `summary` of `--report`). */
export interface BatchSummary {
  /** Inputs converted or attempted in this run (after `--shard`). */
  total: number;
  ok: number;
  failed: number;
  /** Inputs that converted with at least one warning. */
  withWarnings: number;
  /** Failed inputs per error code. */
  errorsByCode: Record<string, number>;
  /** Warning counts per code, summed over all inputs. */
  warningsByCode: Record<string, number>;
  /** Files found in folders/globs that were not converted on their own (companions, unknown). */
  skipped: number;
  /** Wall time of the batch. */
  ms: number;
  jobs: number;
  /** `i/n` when `--shard` was given. */
  shard?: string;
}

/** The JSON written by `--report`. */
export interface BatchReport {
  tool: 'gltf-legacy';
  version: string;
  /** Report schema version; bumped on incompatible changes. */
  schema: 1;
  created: string;
  summary: BatchSummary;
  records: ConvertRecord[];
}

/** Sums up records. */
export function summarize(
  records: readonly ConvertRecord[],
  extra: Pick<BatchSummary, 'skipped' | 'ms' | 'jobs' | 'shard'>,
): BatchSummary {
  const errorsByCode: Record<string, number> = {};
  const warningsByCode: Record<string, number> = {};
  let ok = 0;
  let withWarnings = 0;
  for (const r of records) {
    if (r.status === 'ok') ok++;
    else errorsByCode[r.error?.code ?? 'UNKNOWN'] = (errorsByCode[r.error?.code ?? 'UNKNOWN'] ?? 0) + 1;
    if (r.warnings.length) withWarnings++;
    for (const w of r.warnings) warningsByCode[w.code] = (warningsByCode[w.code] ?? 0) + w.count;
  }
  const summary: BatchSummary = {
    total: records.length,
    ok,
    failed: records.length - ok,
    withWarnings,
    errorsByCode,
    warningsByCode,
    ...extra,
  };
  if (summary.shard === undefined) delete summary.shard;
  return summary;
}

/** The `--report` document. */
export function buildReport(
  records: readonly ConvertRecord[],
  summary: BatchSummary,
  version = '0.1.0',
): BatchReport {
  return {
    tool: 'gltf-legacy',
    version,
    schema: 1,
    created: new Date().toISOString(),
    summary,
    records: records.map((r) => {
      const { error, ...rest } = r;
      if (!error) return rest;
      const { stack, ...e } = error;
      return { ...rest, error: error.code === 'INTERNAL_ERROR' && stack ? { ...e, stack } : e };
    }),
  };
}

/** The summary table printed at the end of a batch: ok / failed, then errors and warnings by code. */
export function summaryTable(s: BatchSummary): string {
  const rows: (string | number)[][] = [
    ['ok', '', s.ok],
    ['failed', '', s.failed],
    ...Object.entries(s.errorsByCode)
      .sort((a, b) => b[1] - a[1])
      .map(([code, n]) => ['error', code, n]),
    ...Object.entries(s.warningsByCode)
      .sort((a, b) => b[1] - a[1])
      .map(([code, n]) => ['warning', code, n]),
  ];
  if (s.skipped) rows.push(['skipped', 'companion or not a model', s.skipped]);
  return `${renderTable(['', 'code', 'count'], rows)}\n${s.total} input(s), ${s.ok} ok, ${s.failed} failed in ${(s.ms / 1000).toFixed(1)} s (${s.jobs} job${s.jobs === 1 ? '' : 's'}${s.shard ? `, shard ${s.shard}` : ''})`;
}
