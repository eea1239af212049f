// The fast tier's loop, in a worker thread (so the main thread can stop a hang or an
// out-of-memory input): mutated bytes straight into one format's file-model read/write pairs,
// in-process, with V8 block coverage sampled every N inputs steering the seed choice.
import { readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { BlockCoverage } from './coverage.mjs';
import { dictionaryTokens, dictMutate } from './dictionary.mjs';
import { FILE_MODELS, ROOT } from './formats.mjs';
import { mutate } from './mutate.mjs';
import { hashString, Rng } from './rng.mjs';

const w = workerData;

/** CPU time of this thread in ms (Linux /proc; wall-clock time elsewhere). */
function threadCpuMs() {
  try {
    const f = readFileSync('/proc/thread-self/stat', 'latin1');
    const v = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(v[11]) + Number(v[12])) * 10;
  } catch {
    return performance.now();
  }
}
const cpu0 = threadCpuMs();
// the watchdog counts this thread's CPU time: a nice-19 worker starved by other processes is
// not a hang
try {
  parentPort.postMessage({ type: 'ready', statPath: `/proc/${readlinkSync('/proc/thread-self')}/stat` });
} catch {
  parentPort.postMessage({ type: 'ready' });
}
const { format } = w;
// heartbeat (Int32, Atomics: a Float64 could be read torn): [inputs started, running (0/1),
// iteration, input length, pool entry, started at (ms since w.epoch), inputs counted], then
// the input's bytes
const beat = new Int32Array(w.sab, 0, 8);
const inputView = new Uint8Array(w.sab, 32);

const cov = w.coverage ? new BlockCoverage(new RegExp(`/packages/(${format}|core)/dist/`)) : undefined;
cov?.start();
// everything that loads @gltf-legacy/core is imported only now: code compiled before coverage
// started has no block counters
const { signature } = await import('./signature.mjs');
const { describeError, fileModel } = await import('./file-model.mjs');
const module = await import(pathToFileURL(w.dist ?? join(ROOT, 'packages', format, 'dist', 'index.js')).href);
const pairs = FILE_MODELS[format]
  .filter((p) => typeof module[p.read] === 'function' && typeof module[p.write] === 'function')
  .map((p) => ({ ...p, readFn: module[p.read], writeFn: module[p.write] }));
const fmt = { id: format, pairs };
const ctx = { progress: () => {} };
const tokens = dictionaryTokens(format);
const seen = new Set(w.seen);
/** Signatures of open notes this run hit (said once each). */
const known = new Set();

/** The pool: seeds (`roots: [i]`) then corpus entries (`roots`: the seeds their patch copies). */
const pool = w.pool;
const stats = {
  inputs: 0,
  parsed: 0,
  rejected: 0,
  roundTrips: 0,
  findings: 0,
  newFindings: 0,
  corpusAdded: 0,
  coverageTakes: 0,
  cpuMs: 0,
  rejectCodes: {},
};

/** One input through the file model: `{ result }` or `{ finding }`. */
async function runOne(job) {
  const result = {};
  try {
    await fileModel(ctx, fmt, job, result);
    return { result };
  } catch (e) {
    if (e?.kind) return { finding: { kind: e.kind, stage: e.stage, error: e.error, detail: e.detail } };
    return { finding: { kind: 'HARNESS', stage: 'unknown', error: describeError(e) } };
  }
}

function account(job, out, meta) {
  stats.inputs++;
  Atomics.store(beat, 6, stats.inputs);
  if (out.finding) {
    stats.findings++;
    const sig = signature(format, out.finding);
    if (seen.has(sig)) {
      if (!known.has(sig)) parentPort.postMessage({ type: 'known', signature: sig });
      known.add(sig);
      return;
    }
    seen.add(sig);
    stats.newFindings++;
    parentPort.postMessage({ type: 'finding', signature: sig, finding: out.finding, job, meta });
    return;
  }
  const r = out.result;
  if (r.parsed) stats.parsed++;
  if (r.rejected) {
    stats.rejected++;
    const k = `${r.rejected.stage}:${r.rejected.code}`;
    stats.rejectCodes[k] = (stats.rejectCodes[k] ?? 0) + 1;
  }
  stats.roundTrips += r.fileModel ?? 0;
}

/** A file of 64 KB or less is always taken; a larger one with probability 64 KB / size. */
function cheapEnough(e, rng) {
  return e.bytes.length <= 64 << 10 || rng.chance((64 << 10) / e.bytes.length);
}

function pickEntry(rng) {
  // half of the inputs start from an entry that reached new blocks (when there are any); large
  // files are re-picked most of the time (an input's cost grows with its size)
  const n = pool.length;
  const fromCorpus = w.guide !== false && n > w.seedCount && rng.chance(0.5);
  const lo = fromCorpus ? w.seedCount : 0;
  const span = fromCorpus ? n - w.seedCount : w.seedCount;
  let e;
  for (let k = 0; k < 8; k++) {
    e = pool[lo + rng.int(span)];
    if (!e.skip && cheapEnough(e, rng)) return e;
  }
  return e;
}

function makeInput(i) {
  const rng = new Rng((hashString(`${w.seed}:${format}`) ^ Math.imul(i, 0x9e3779b1)) >>> 0);
  const entry = pickEntry(rng);
  const other = pool[rng.int(pool.length)];
  let bytes = entry.bytes;
  const ops = [];
  const n = rng.chance(0.5) ? 1 : rng.range(2, 3);
  for (let k = 0; k < n; k++) {
    if (rng.chance(w.dictShare)) {
      bytes = dictMutate(bytes, rng, tokens);
      ops.push('dict');
    } else {
      const m = mutate(bytes, rng, other.bytes);
      bytes = m.bytes;
      ops.push(...m.ops);
    }
  }
  const job = { kind: 'legacy', format, name: entry.name, bytes, allPairs: rng.chance(0.1), entry: entry.id };
  return { job, meta: { entry: entry.id, other: other.id, ops, iteration: i } };
}

async function timed(job) {
  Atomics.store(beat, 2, job.iteration ?? -1);
  Atomics.store(beat, 4, job.entry ?? 0);
  if (job.bytes.length <= inputView.length) {
    inputView.set(job.bytes);
    Atomics.store(beat, 3, job.bytes.length);
  } else Atomics.store(beat, 3, -1);
  Atomics.store(beat, 5, Date.now() - w.epoch);
  Atomics.add(beat, 0, 1);
  Atomics.store(beat, 1, 1);
  const out = await runOne(job);
  Atomics.store(beat, 1, 0);
  return out;
}

// 1) every seed and corpus entry once, unmutated: the baseline coverage (counted only on the
// first start, not after a restart past a hang). One take per entry: V8 reports a block only
// when its count differs from its parent's, so a block is known once some input misses it.
for (const e of pool) {
  if (e.skip) continue; // it hung before this restart
  const job = { kind: 'legacy', format, name: e.name, bytes: e.bytes, allPairs: true, entry: e.id };
  const out = await timed(job);
  if (w.start === 0) account(job, out, { entry: e.id, ops: [], iteration: -1 });
  if (cov) {
    cov.take();
    stats.coverageTakes++;
  }
}
parentPort.postMessage({ type: 'progress', stats, next: w.start, blocks: cov?.blocks });
let batch = [];
let lastPost = Date.now();
const end = w.start + w.iterations;
let i = w.start;
for (; i < end; i++) {
  // a time-boxed campaign stops between batches
  if (w.stopAt && (i & 255) === 0 && Date.now() > w.stopAt) break;
  const { job, meta } = makeInput(i);
  job.iteration = i;
  account(job, await timed(job), meta);
  if (cov) {
    batch.push({ job, meta });
    if (batch.length >= w.sampleEvery || i === end - 1) {
      stats.coverageTakes++;
      if (cov.take({ commit: false }).newBlocks) await bisect(batch);
      batch = [];
    }
  }
  if (Date.now() - lastPost > 2000) {
    lastPost = Date.now();
    stats.cpuMs = threadCpuMs() - cpu0;
    parentPort.postMessage({ type: 'progress', stats, next: i + 1, blocks: cov?.blocks });
  }
}
stats.cpuMs = threadCpuMs() - cpu0;
parentPort.postMessage({ type: 'done', stats, next: i, blocks: cov?.blocks });

/**
 * Finds the inputs of a batch that reached new blocks: halves that grow are split again, a
 * single input that grows is kept (its blocks committed, so a later one reaching the same
 * blocks is not kept too).
 */
async function bisect(list) {
  if (list.length > 1) {
    const half = list.length >> 1;
    for (const part of [list.slice(0, half), list.slice(half)]) {
      for (const b of part) await timed(b.job);
      stats.coverageTakes++;
      if (cov.take({ commit: part.length === 1 }).newBlocks) {
        if (part.length === 1) keep(part[0]);
        else await bisect(part);
      }
    }
    return;
  }
  await timed(list[0].job);
  stats.coverageTakes++;
  if (cov.take().newBlocks) keep(list[0]);
}

function keep(b) {
  const id = pool.length;
  const roots = rootsOf(b.meta);
  pool.push({ id, name: b.job.name, bytes: b.job.bytes, roots });
  stats.corpusAdded++;
  parentPort.postMessage({ type: 'corpus', name: b.job.name, bytes: b.job.bytes, roots, meta: b.meta });
}

function rootsOf(meta) {
  return [...new Set([...(pool[meta.entry]?.roots ?? []), ...(pool[meta.other]?.roots ?? [])])];
}
