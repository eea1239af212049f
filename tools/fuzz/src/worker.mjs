// Worker thread: loads the built formats once, then runs jobs posted by the pool.
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { loadFormats } from './formats.mjs';
import { makeIO, runJob } from './pipeline.mjs';

const { formats } = await loadFormats(workerData?.only);
const io = await makeIO();
const fixedPoint = workerData?.fixedPoint ?? {};
// the current stage goes to shared memory (a message per stage cost ~8 % of a small input)
const stageLen = new Int32Array(workerData.stage, 0, 1);
const stageBytes = new Uint8Array(workerData.stage, 4);
const encoder = new TextEncoder();
const progress = (stage) => {
  const { written } = encoder.encodeInto(stage, stageBytes);
  Atomics.store(stageLen, 0, written);
};

parentPort.on('message', async ({ id, job }) => {
  if (job.kind === 'selftest') {
    parentPort.postMessage({ id, done: true, ...selftest(job) });
    return;
  }
  if (!formats.has(job.format)) {
    // the package may have been mid-rebuild when this worker started: try once more
    const again = await loadFormats([job.format]);
    for (const [k, v] of again.formats) formats.set(k, v);
    if (!formats.has(job.format)) {
      parentPort.postMessage({
        id,
        done: true,
        result: { skipped: again.notices.join('; ') || 'format not loaded' },
      });
      return;
    }
  }
  const ctx = {
    formats,
    io,
    fixedPoint: (fmt) => fixedPoint[fmt] ?? 'first',
    glbTrip: job.glbTrip ?? workerData?.glbTrip !== false,
    progress,
  };
  progress('start');
  const out = await runJob(ctx, job);
  parentPort.postMessage({ id, done: true, ...out });
});
// this thread's /proc stat file: the pool's deadline counts its CPU time, not the wall clock
let statPath;
try {
  statPath = `/proc/${readlinkSync('/proc/thread-self')}/stat`;
} catch {
  statPath = undefined; // not Linux: wall-clock deadlines
}
parentPort.postMessage({ ready: true, statPath });

/** The pool's own tests: `spin` burns CPU for `ms`, `block` sleeps `ms` without using any. */
function selftest({ op, ms }) {
  if (op === 'spin') {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      // busy
    }
  } else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  return { result: { selftest: op } };
}
