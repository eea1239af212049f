// Worker thread: loads the built formats once, then runs jobs posted by the pool.
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
parentPort.postMessage({ ready: true });
