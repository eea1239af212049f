// Worker thread: loads the built formats once, then runs jobs posted by the pool.
import { parentPort, workerData } from 'node:worker_threads';
import { loadFormats } from './formats.mjs';
import { makeIO, runJob } from './pipeline.mjs';

const { formats } = await loadFormats(workerData?.only);
const io = await makeIO();
const fixedPoint = workerData?.fixedPoint ?? {};

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
    glbTrip: workerData?.glbTrip !== false,
    progress: (stage) => parentPort.postMessage({ id, stage }),
  };
  const out = await runJob(ctx, job);
  parentPort.postMessage({ id, done: true, ...out });
});
parentPort.postMessage({ ready: true });
