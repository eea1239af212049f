import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { availableParallelism } from 'node:os';
import {
  type ConvertOptions,
  type ConvertRecord,
  type PreparedConversion,
  prepareConversion,
} from './convert.js';
import { looseInputsFor } from './archive-loose.js';
import { toErrorRecord } from './errors.js';
import { WriteSession, writeFilesAtomic } from './files.js';
import { FolderIndex } from './folder-index.js';
import { type BatchItem, outputCollisions } from './inputs.js';
import { failureRecord, type PoolOptions, runPool } from './worker-pool.js';

/** Options of {@link runBatch}: those of a conversion plus parallelism and time limits. */
export interface BatchOptions extends Omit<ConvertOptions, 'output' | 'transform'> {
  /** Worker threads (default: the number of cores). 0 converts in this thread. */
  jobs?: number;
  /** Seconds one input may take before its worker is stopped (code TIMEOUT). Default 600. */
  timeout?: number;
  /** The worker script (default: `worker.js` beside this module in `dist/`). */
  workerUrl?: string | URL;
  /** A module exporting `formats` for the workers (when `formats` are injected). */
  formatsModule?: string;
  /** Called when an input starts (for progress display). */
  onStart?: (item: BatchItem) => void;
  /** Called when an input is done. */
  onDone?: (record: ConvertRecord, done: number, total: number) => void;
  /** How inputs are handed to workers (default `POOL_DEFAULTS`: small ones in chunks). */
  pool?: PoolOptions;
  /**
   * The staging folders of multi-file outputs (default: one session for this batch, closed at
   * its end: one staging folder per output folder).
   */
  writeSession?: WriteSession;
}

export const BATCH_DEFAULTS = { jobs: availableParallelism(), timeout: 600 } as const;

/** The default worker script, when it exists (it does in `dist/`; not when running sources). */
export function defaultWorkerUrl(): URL | undefined {
  const url = new URL('./worker.js', import.meta.url);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : undefined;
}

/**
 * Converts many inputs, in parallel worker threads when a worker script is available and the
 * formats can be loaded there (the registered ones, or `formatsModule`), else one by one in this
 * thread. Conversions run in memory; this thread writes every output atomically, refuses to
 * overwrite without `force`, and refuses two inputs writing the same file (OUTPUT_CONFLICT).
 * Workers take the largest inputs first; records come back in input order. Never throws for a
 * failing input.
 *
 * ```ts
 * const { items } = await expandInputs(['models/'], FORMATS);
 * const records = await runBatch(items, { outDir: 'out', jobs: 2, timeout: 60 });
 * ```
 */
export async function runBatch(
  items: readonly BatchItem[],
  options: BatchOptions = {},
): Promise<ConvertRecord[]> {
  const session = options.writeSession ?? new WriteSession();
  try {
    return await batchIn(items, { ...options, writeSession: session });
  } finally {
    if (!options.writeSession) session.close();
  }
}

async function batchIn(items: readonly BatchItem[], options: BatchOptions): Promise<ConvertRecord[]> {
  const jobs = Math.max(0, Math.floor(options.jobs ?? BATCH_DEFAULTS.jobs));
  const timeoutMs = (options.timeout ?? BATCH_DEFAULTS.timeout) * 1000;
  const workerUrl = options.workerUrl ?? defaultWorkerUrl();
  const useWorkers =
    jobs > 0 && !!workerUrl && (!options.formats || !!options.formatsModule) && items.length > 0;
  const {
    jobs: _j,
    timeout: _t,
    workerUrl: _w,
    formatsModule,
    onStart,
    onDone,
    formats,
    folders: injectedFolders,
    writeSession,
    pool: _p,
    ...rest
  } = options;
  // one listing per folder for the whole batch (workers keep one index each: see worker.ts)
  const folders = injectedFolders ?? new FolderIndex();
  const session = writeSession!;
  const inputList = items.map((i) => i.input);
  const convertOptions = (item: BatchItem): Omit<ConvertOptions, 'formats' | 'transform'> => ({
    ...rest,
    outDir: options.outDir ? join(options.outDir, item.rel) : undefined,
    looseInputs: looseInputsFor(item.input, inputList), // a model both loose and archived: once (issue 27)
  });

  const records: ConvertRecord[] = new Array(items.length);
  const claimed = new Map<string, string>();
  let done = 0;

  const finish = async (k: number, prepared: PreparedConversion, started: number) => {
    const { record, outputs } = prepared;
    if (record.status === 'ok') {
      try {
        const clash = [...outputs.keys()].find((p) => claimed.has(p));
        if (clash) {
          record.status = 'error';
          record.error = {
            code: 'OUTPUT_CONFLICT',
            message: `${relative(process.cwd(), clash)} is also written by ${claimed.get(clash)} in this batch`,
          };
        } else {
          for (const p of outputs.keys()) claimed.set(p, record.input);
          record.outputs = (await writeFilesAtomic(outputs, options.force ?? false, session)).map(
            (p) => relative(process.cwd(), p) || p,
          );
        }
      } catch (e) {
        record.status = 'error';
        record.error = toErrorRecord(e);
      }
    }
    record.ms = Math.round(performance.now() - started);
    records[k] = record;
    onDone?.(record, ++done, items.length);
  };

  // Inputs that would write another input's outputs are refused before anything is converted.
  const conflicts = outputCollisions(items, options.outDir);
  for (const [k, message] of conflicts) {
    records[k] = {
      input: items[k].input,
      format: 'unknown',
      outputs: [],
      status: 'error',
      error: { code: 'OUTPUT_CONFLICT', message },
      warnings: [],
      ms: 0,
    };
    onDone?.(records[k], ++done, items.length);
  }

  // Largest inputs first (by file size): a big model started last would leave the other workers
  // idle at the end. Records still come back in input order.
  const order = items.map((_, k) => k).filter((k) => !conflicts.has(k));
  const size = useWorkers
    ? items.map((it) => {
        try {
          return statSync(it.input).size;
        } catch {
          return 0;
        }
      })
    : [];
  if (useWorkers) order.sort((a, b) => size[b] - size[a] || a - b);

  let next = 0;
  if (!useWorkers) {
    for (; next < items.length; next++) {
      if (conflicts.has(next)) continue;
      const item = items[next];
      onStart?.(item);
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((res) => {
        timer = setTimeout(() => res('timeout'), timeoutMs);
      });
      const result = await Promise.race([
        prepareConversion(item.input, { ...convertOptions(item), formats, folders }),
        timedOut,
      ]);
      clearTimeout(timer);
      if (result === 'timeout') {
        records[next] = failureRecord(
          item.input,
          'timeout',
          Math.round(performance.now() - started),
          timeoutMs / 1000,
        );
        onDone?.(records[next], ++done, items.length);
      } else await finish(next, result, started);
    }
    return records;
  }

  const spec = formatsModule
    ? formatsModule.startsWith('file:')
      ? formatsModule
      : pathToFileURL(resolve(formatsModule)).href
    : undefined;
  await runPool(
    order,
    size,
    { jobs, timeoutMs, workerUrl: workerUrl!, formatsModule: spec, ...options.pool },
    {
      job: (k) => ({ id: k, input: items[k].input, options: convertOptions(items[k]) }),
      start: (k) => onStart?.(items[k]),
      result: (k, prepared, started) => finish(k, prepared, started),
      failure: (k, failure, ms) => {
        records[k] = failureRecord(items[k].input, failure, ms, timeoutMs / 1000);
        onDone?.(records[k], ++done, items.length);
      },
    },
  );
  return records;
}
