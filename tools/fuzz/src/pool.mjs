// Worker threads with a per-input deadline and a memory bound. A worker that overruns either is
// terminated (and replaced on the next job); the overrun is reported as a finding.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

const WORKER_URL = new URL('./worker.mjs', import.meta.url);

/** Defaults of {@link WorkerPool}. */
export const POOL_DEFAULTS = {
  /** Worker threads (the shared 2-core machine: 1 unless told otherwise). */
  workers: 1,
  /** Base per-input deadline in ms; inputs get `deadlineMs + deadlinePerMbMs * MB` more. */
  deadlineMs: 5000,
  deadlinePerMbMs: 4000,
  /** RSS growth (MB) over the value at the start of an input that counts as a finding. */
  memoryMb: 1024,
  /** V8 heap limit of each worker (MB). */
  heapMb: 1024,
  /**
   * The deadline counts the worker thread's CPU time where Linux tells it (/proc): a worker
   * starved by other processes (a nice-19 campaign beside a test run) is not a hang. A worker
   * that uses no CPU at all (blocked) still times out after this many deadlines of wall time.
   */
  maxWallDeadlines: 20,
};

/** Clock ticks per second of /proc/<pid>/task/<tid>/stat (USER_HZ: 100 on Linux). */
const TICKS_PER_S = 100;

/** CPU time (ms) of one thread from its /proc stat file, or undefined when unreadable. */
export function threadCpuMs(statPath) {
  if (!statPath) return undefined;
  try {
    const text = readFileSync(statPath, 'latin1');
    // fields after the command name (which may hold spaces) in parentheses; utime, stime = 14, 15
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_S;
  } catch {
    return undefined;
  }
}

class Slot {
  constructor(options) {
    this.options = options;
    this.worker = undefined;
    this.ready = undefined;
    this.jobs = 0;
    /** The worker's current stage: i32 length + UTF-8 bytes (written by the worker). */
    this.stage = new SharedArrayBuffer(4 + 252);
  }

  currentStage() {
    const n = Atomics.load(new Int32Array(this.stage, 0, 1), 0);
    return new TextDecoder().decode(new Uint8Array(this.stage, 4, Math.min(n, 252)).slice());
  }

  start() {
    const { heapMb, only, fixedPoint, glbTrip } = this.options;
    this.worker = new Worker(WORKER_URL, {
      workerData: { only, fixedPoint, glbTrip, stage: this.stage },
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64 },
      stdout: true,
      stderr: true,
    });
    // formats may print; keep the fuzzer's own output readable
    this.worker.stdout.resume();
    this.worker.stderr.resume();
    this.ready = new Promise((resolve, reject) => {
      const onMsg = (m) => {
        if (m?.ready) {
          this.statPath = m.statPath;
          this.worker.off('message', onMsg);
          this.worker.off('error', reject);
          resolve();
        }
      };
      this.worker.on('message', onMsg);
      this.worker.once('error', reject);
    });
    return this.ready;
  }

  async kill() {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }

  /** Runs one job; resolves to `{ result } | { finding }` (never rejects). */
  async run(job, size) {
    if (!this.worker) await this.start();
    const { deadlineMs, deadlinePerMbMs, memoryMb, maxWallDeadlines } = this.options;
    const deadline =
      (deadlineMs + Math.ceil((deadlinePerMbMs * size) / (1 << 20))) * (job.deadlineScale ?? 1);
    const w = this.worker;
    const id = ++this.jobs;
    const startRss = process.memoryUsage.rss();
    new Int32Array(this.stage, 0, 1)[0] = 0;
    const stageNow = () => this.currentStage() || 'start';
    let peak = startRss;
    const cpuStart = threadCpuMs(this.statPath);
    const wallStart = Date.now();
    return new Promise((resolve) => {
      let settled = false;
      const finish = async (out, kill) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(sampler);
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        if (kill) await this.kill();
        out.peakRssMb = Math.round((peak - startRss) / (1 << 20));
        resolve(out);
      };
      const onMessage = (m) => {
        if (m.id !== id) return;
        if (m.done) finish(m.finding ? { finding: m.finding } : { result: m.result }, false);
      };
      const onError = (e) => {
        const stage = stageNow();
        const oom = e?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        finish(
          {
            finding: {
              kind: oom ? 'MEMORY' : 'WORKER_ERROR',
              stage,
              error: {
                name: e?.name,
                code: e?.code,
                message: String(e?.message).slice(0, 500),
                legacy: false,
              },
            },
          },
          true,
        );
      };
      const onExit = (code) =>
        finish(
          {
            finding: {
              kind: 'WORKER_EXIT',
              stage: stageNow(),
              error: { name: 'exit', message: `worker exited with ${code}`, legacy: false },
            },
          },
          true,
        );
      let timer;
      const check = () => {
        const wall = Date.now() - wallStart;
        const cpuNow = threadCpuMs(this.statPath);
        const cpu = cpuStart === undefined || cpuNow === undefined ? undefined : cpuNow - cpuStart;
        if (cpu !== undefined && cpu < deadline && wall < deadline * (maxWallDeadlines ?? 20)) {
          // starved, not stuck: wait for the CPU time still owed (at least 50 ms)
          timer = setTimeout(check, Math.max(50, deadline - cpu));
          return;
        }
        const stage = stageNow();
        finish(
          {
            finding: {
              kind: 'TIMEOUT',
              stage,
              detail:
                cpu === undefined
                  ? `no result within ${deadline} ms (last stage: ${stage})`
                  : `no result within ${deadline} ms of CPU time (${Math.round(cpu)} ms CPU, ${wall} ms wall; last stage: ${stage})`,
            },
          },
          true,
        );
      };
      timer = setTimeout(check, deadline);
      const sampler = setInterval(() => {
        const rss = process.memoryUsage.rss();
        if (rss > peak) peak = rss;
        if (rss - startRss > memoryMb * (1 << 20)) {
          const stage = stageNow();
          finish(
            {
              finding: {
                kind: 'MEMORY',
                stage,
                detail: `RSS grew by ${Math.round((rss - startRss) / (1 << 20))} MB (bound ${memoryMb} MB) at stage ${stage}`,
              },
            },
            true,
          );
        }
      }, 20);
      w.on('message', onMessage);
      w.once('error', onError);
      w.once('exit', onExit);
      w.postMessage({ id, job });
    });
  }
}

/**
 * A fixed set of worker threads.
 *
 * ```js
 * const pool = new WorkerPool({ workers: 1, only: ['urho3d'] });
 * const out = await pool.run({ kind: 'legacy', format: 'urho3d', name: 'a.mdl', bytes });
 * await pool.close();
 * ```
 */
export class WorkerPool {
  constructor(options = {}) {
    this.options = { ...POOL_DEFAULTS, ...options };
    this.slots = Array.from({ length: Math.max(1, this.options.workers) }, () => new Slot(this.options));
    this.free = [...this.slots];
    this.waiting = [];
  }

  async run(job) {
    const slot = this.free.pop() ?? (await new Promise((r) => this.waiting.push(r)));
    try {
      const size = (job.bytes?.length ?? 0) + (job.companions ?? []).reduce((s, [, b]) => s + b.length, 0);
      return await slot.run(job, size);
    } finally {
      const next = this.waiting.shift();
      if (next) next(slot);
      else this.free.push(slot);
    }
  }

  async close() {
    await Promise.all(this.slots.map((s) => s.kill()));
  }
}
