import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import {
  type ConvertOptions,
  type ConvertRecord,
  type PreparedConversion,
  prepareConversion,
} from './convert.js';
import { toErrorRecord } from './errors.js';
import { WriteSession, writeFilesAtomic } from './files.js';
import { FolderIndex } from './folder-index.js';
import { type BatchItem, outputCollisions } from './inputs.js';
import type { WorkerJob } from './worker.js';

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

function timeoutRecord(item: BatchItem, seconds: number, ms: number): ConvertRecord {
  return {
    input: item.input,
    format: 'unknown',
    outputs: [],
    status: 'error',
    error: { code: 'TIMEOUT', message: `${item.input}: stopped after ${seconds} s (--timeout)` },
    warnings: [],
    ms,
  };
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
    ...rest
  } = options;
  // one listing per folder for the whole batch (workers keep one index each: see worker.ts)
  const folders = injectedFolders ?? new FolderIndex();
  const session = writeSession!;
  const convertOptions = (item: BatchItem): Omit<ConvertOptions, 'formats' | 'transform'> => ({
    ...rest,
    outDir: options.outDir ? join(options.outDir, item.rel) : undefined,
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
  if (useWorkers) {
    const size = items.map((it) => {
      try {
        return statSync(it.input).size;
      } catch {
        return 0;
      }
    });
    order.sort((a, b) => size[b] - size[a] || a - b);
  }

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
        records[next] = timeoutRecord(item, timeoutMs / 1000, Math.round(performance.now() - started));
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
  // loaded here: a single conversion in this thread never needs it
  const { Worker } = await import('node:worker_threads');
  const startWorker = (): Promise<Worker> =>
    new Promise((res, rej) => {
      const w = new Worker(workerUrl!, { workerData: { formatsModule: spec } });
      const onError = (e: Error) => rej(e);
      w.once('error', onError);
      w.once('message', (m: { ready?: boolean }) => {
        w.off('error', onError);
        if (m.ready) res(w);
        else rej(new Error('worker did not start'));
      });
    });

  const slot = async () => {
    let worker: Worker | undefined;
    try {
      while (next < order.length) {
        const k = order[next++];
        const item = items[k];
        worker ??= await startWorker();
        onStart?.(item);
        const started = performance.now();
        const w = worker;
        const outcome = await new Promise<{ prepared?: PreparedConversion; failure?: 'timeout' | Error }>(
          (res) => {
            const timer = setTimeout(() => res({ failure: 'timeout' }), timeoutMs);
            const cleanup = () => {
              clearTimeout(timer);
              w.off('message', onMessage);
              w.off('error', onError);
              w.off('exit', onExit);
            };
            const onMessage = (m: {
              id: number;
              record: ConvertRecord;
              outputs: Map<string, Uint8Array>;
            }) => {
              if (m.id !== k) return;
              cleanup();
              res({ prepared: { record: m.record, outputs: m.outputs } });
            };
            const onError = (e: Error) => {
              cleanup();
              res({ failure: e });
            };
            const onExit = (code: number) => {
              cleanup();
              res({ failure: new Error(`worker exited with code ${code}`) });
            };
            w.on('message', onMessage);
            w.once('error', onError);
            w.once('exit', onExit);
            const job: WorkerJob = { id: k, input: item.input, options: convertOptions(item) };
            w.postMessage(job);
          },
        );
        if (outcome.prepared) {
          await finish(k, outcome.prepared, started);
          continue;
        }
        // the worker is stopped (timeout) or dead (crash): record it and start a fresh one
        await w.terminate();
        worker = undefined;
        const ms = Math.round(performance.now() - started);
        records[k] =
          outcome.failure === 'timeout'
            ? timeoutRecord(item, timeoutMs / 1000, ms)
            : {
                input: item.input,
                format: 'unknown',
                outputs: [],
                status: 'error',
                error: {
                  code: 'WORKER_CRASHED',
                  message: `${item.input}: the conversion worker died (${(outcome.failure as Error).message})`,
                },
                warnings: [],
                ms,
              };
        onDone?.(records[k], ++done, items.length);
      }
    } finally {
      await worker?.terminate();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, order.length) }, slot));
  return records;
}
