// Owns the worker threads of a batch: starting them, handing them inputs in chunks, timeouts and
// crashes. The batch (batch.ts) decides what the inputs are and writes what comes back.
import type { Worker } from 'node:worker_threads';
import type { ConvertRecord, PreparedConversion } from './convert.js';
import type { WorkerJob, WorkerResult } from './worker.js';

/** How inputs are handed to workers (issue 31; measured in packages/cli/README.md). */
export interface PoolOptions {
  /** Inputs up to this size (bytes) may share a message with others. */
  smallInputBytes?: number;
  /** Most inputs in one message. */
  maxChunk?: number;
  /**
   * Let V8 optimize the workers' hot functions on background threads (its default). Off by default
   * for the pool: the workers already keep every core busy, so background compiles only compete
   * with them, and V8 then compiles more (an OSR and a regular compile of one function at once,
   * compiles thrown away): corpus/textured as one batch with 2 workers on 2 cores took ~1.5–2 s
   * less CPU and less wall time without them (tools/bench/README.md, issue 29). Applies to the
   * workers started after it is set (a V8 flag of the process: the main thread keeps its own).
   */
  concurrentRecompilation?: boolean;
}

/**
 * Small inputs go several to a message, so a worker starts its next input while this thread
 * writes the previous one's outputs (one message per file left each worker waiting for every
 * write and every round trip); a chunk never takes more than a quarter of a worker's share of
 * what is left, so the last inputs still spread over every worker.
 */
export const POOL_DEFAULTS: Required<PoolOptions> = {
  smallInputBytes: 256 * 1024,
  maxChunk: 8,
  concurrentRecompilation: false,
};

/** What the pool reports for each input. */
export interface PoolCallbacks {
  /** The job sent for input `k`. */
  job(k: number): WorkerJob;
  /** Input `k` is handed to a worker. */
  start(k: number): void;
  /** Input `k` converted (or failed inside the converter): write it. `started` is when its worker began it. */
  result(k: number, prepared: PreparedConversion, started: number): Promise<void>;
  /** Input `k` stopped by the timeout or lost with its worker. */
  failure(k: number, failure: 'timeout' | Error, ms: number): void;
}

/** Starts a worker and waits for its `ready`. */
async function startWorker(
  url: string | URL,
  formatsModule: string | undefined,
  concurrentRecompilation: boolean,
): Promise<Worker> {
  const { Worker } = await import('node:worker_threads');
  // read by V8 when it creates the worker's isolate
  (await import('node:v8')).setFlagsFromString(
    concurrentRecompilation ? '--concurrent-recompilation' : '--no-concurrent-recompilation',
  );
  return new Promise((res, rej) => {
    const w = new Worker(url, { workerData: { formatsModule } });
    const onError = (e: Error) => rej(e);
    w.once('error', onError);
    w.once('message', (m: { ready?: boolean }) => {
      w.off('error', onError);
      if (m.ready) res(w);
      else rej(new Error('worker did not start'));
    });
  });
}

/**
 * Runs `order` (input indices, in the order to start them) on `jobs` workers. Each worker gets a
 * chunk of inputs (see {@link POOL_DEFAULTS}) and answers one message per input, in order; the
 * timeout restarts with each answer, so it bounds each input. On a timeout or a crash the input
 * being converted fails, the worker is replaced and the rest of its chunk is handed out again.
 */
export async function runPool(
  order: readonly number[],
  size: readonly number[],
  setup: { jobs: number; timeoutMs: number; workerUrl: string | URL; formatsModule?: string } & PoolOptions,
  on: PoolCallbacks,
): Promise<void> {
  const { smallInputBytes, maxChunk, concurrentRecompilation } = { ...POOL_DEFAULTS, ...setup };
  const queue = [...order];
  let head = 0;
  const retry: number[] = [];
  const workers = Math.min(setup.jobs, order.length);

  const take = (): number[] => {
    if (retry.length) return retry.splice(0, retry.length);
    const first = queue[head++];
    const chunk = [first];
    const share = Math.max(1, Math.floor((queue.length - head) / (workers * 4)));
    const most = Math.min(maxChunk, share);
    if (size[first] > smallInputBytes) return chunk;
    while (chunk.length < most && head < queue.length && size[queue[head]] <= smallInputBytes)
      chunk.push(queue[head++]);
    return chunk;
  };

  const slot = async () => {
    let worker: Worker | undefined;
    try {
      while (retry.length || head < queue.length) {
        const chunk = take();
        worker ??= await startWorker(setup.workerUrl, setup.formatsModule, concurrentRecompilation);
        const w = worker;
        on.start(chunk[0]);
        const pending = [...chunk];
        let started = performance.now();
        const writes: Promise<void>[] = [];
        const failure = await new Promise<'timeout' | Error | undefined>((res) => {
          let timer = setTimeout(() => res('timeout'), setup.timeoutMs);
          const cleanup = () => {
            clearTimeout(timer);
            w.off('message', onMessage);
            w.off('error', onError);
            w.off('exit', onExit);
          };
          const onMessage = (m: WorkerResult) => {
            if (m.id !== pending[0]) return;
            pending.shift();
            const began = started;
            started = performance.now();
            clearTimeout(timer);
            writes.push(on.result(m.id, { record: m.record, outputs: m.outputs }, began));
            if (!pending.length) {
              cleanup();
              res(undefined);
            } else {
              on.start(pending[0]);
              timer = setTimeout(() => res('timeout'), setup.timeoutMs);
            }
          };
          const onError = (e: Error) => {
            cleanup();
            res(e);
          };
          const onExit = (code: number) => {
            cleanup();
            res(new Error(`worker exited with code ${code}`));
          };
          w.on('message', onMessage);
          w.once('error', onError);
          w.once('exit', onExit);
          w.postMessage(chunk.map((k) => on.job(k)));
        });
        await Promise.all(writes);
        if (!failure) continue;
        // the worker is stopped (timeout) or dead (crash): the input it was on fails, the rest of
        // its chunk goes to the next free worker, and this slot starts a fresh one
        cleanupListeners(w);
        await w.terminate();
        worker = undefined;
        const k = pending.shift()!;
        on.failure(k, failure, Math.round(performance.now() - started));
        retry.push(...pending);
      }
    } finally {
      await worker?.terminate();
    }
  };
  await Promise.all(Array.from({ length: workers }, slot));
}

function cleanupListeners(w: Worker): void {
  w.removeAllListeners('message');
}

/** A conversion record for an input its worker never answered for. */
export function failureRecord(
  input: string,
  failure: 'timeout' | Error,
  ms: number,
  timeoutSeconds: number,
): ConvertRecord {
  return {
    input,
    format: 'unknown',
    outputs: [],
    status: 'error',
    error:
      failure === 'timeout'
        ? { code: 'TIMEOUT', message: `${input}: stopped after ${timeoutSeconds} s (--timeout)` }
        : {
            code: 'WORKER_CRASHED',
            message: `${input}: the conversion worker died (${failure.message})`,
          },
    warnings: [],
    ms,
  };
}
