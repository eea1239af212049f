import type { ConvertRecord } from './convert.js';
import { StreamedFile } from './streamed-file.js';
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

/** A record as the report holds it: the error's stack only for INTERNAL_ERROR. */
function reportRecord(r: ConvertRecord): Omit<ConvertRecord, 'error'> | ConvertRecord {
  const { error, ...rest } = r;
  if (!error) return rest;
  const { stack, ...e } = error;
  return { ...rest, error: error.code === 'INTERNAL_ERROR' && stack ? { ...e, stack } : e };
}

/** The `--report` document. */
export function buildReport(
  records: readonly ConvertRecord[],
  summary: BatchSummary,
  version = '0.1.0',
  created = new Date().toISOString(),
): BatchReport {
  return {
    tool: 'gltf-legacy',
    version,
    schema: 1,
    created,
    summary,
    records: records.map(reportRecord) as ConvertRecord[],
  };
}

/** Pieces of a streamed report are gathered up to this many characters before they are encoded. */
export const REPORT_PIECE_CHARS = 64 * 1024;

/**
 * The `--report` file, produced record by record (issue 31): the same text as
 * `JSON.stringify(buildReport(…), null, 2)` plus a newline, but never held whole — a batch of
 * 10 000 inputs keeps its records, not their text once as a string and again as bytes. Its
 * length is found by a first pass over the records (stringified one at a time, then dropped).
 *
 * ```ts
 * await writeFilesAtomic(new Map([['report.json', reportFile(records, summary)]]), true);
 * ```
 */
export function reportFile(
  records: readonly ConvertRecord[],
  summary: BatchSummary,
  version = '0.1.0',
  created = new Date().toISOString(),
): StreamedFile {
  const head = JSON.stringify({ tool: 'gltf-legacy', version, schema: 1, created, summary }, null, 2);
  const open = `${head.slice(0, -2)},\n  "records": [`;
  const close = records.length ? '\n  ]\n}\n' : ']\n}\n';
  const piece = (k: number) =>
    `${k ? ',' : ''}\n    ${JSON.stringify(reportRecord(records[k]), null, 2).replace(/\n/g, '\n    ')}`;
  let length = Buffer.byteLength(open) + Buffer.byteLength(close);
  for (let k = 0; k < records.length; k++) length += Buffer.byteLength(piece(k));
  const encoder = new TextEncoder();
  return new StreamedFile(length, function* () {
    let text = open;
    for (let k = 0; k < records.length; k++) {
      text += piece(k);
      if (text.length >= REPORT_PIECE_CHARS) {
        yield encoder.encode(text);
        text = '';
      }
    }
    yield encoder.encode(text + close);
  });
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
