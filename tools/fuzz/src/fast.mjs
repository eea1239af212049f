// The fast tier (issue 20): mutated bytes straight into each format's file-model reader and
// writer (read → write → read → write, in-process, no glTF), guided by V8 block coverage. Inputs
// that reach new blocks are kept in tools/fuzz/corpus/<format>/ as patches over their seeds;
// the next campaign (and the whole-chain tier) starts from them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadRegressions, writeRegression } from './campaign.mjs';
import { FILE_MODELS, FORMAT_IDS, formatSeeds, pairFor, ROOT } from './formats.mjs';
import { fileModel } from './pipeline.mjs';
import { makePatch, rebuild, refOf } from './stored-input.mjs';

/** Where the fast tier keeps the inputs that reached new blocks (one folder per format). */
export const FAST_CORPUS_DIR = process.env.GLTF_LEGACY_FUZZ_CORPUS ?? join(ROOT, 'tools', 'fuzz', 'corpus');

/** Defaults of {@link runFast}. */
export const FAST_DEFAULTS = {
  /** Mutated inputs per format (after every seed and corpus entry ran once). */
  iterations: 100_000,
  seed: 1,
  /** Take V8 block coverage every this many inputs (0 or `coverage: false`: no guidance). */
  sampleEvery: 256,
  coverage: true,
  /**
   * Mutate the inputs that reached new blocks (false: coverage is measured, but inputs come from
   * the seeds only — the unguided baseline guidance is compared with).
   */
  guide: true,
  /** Share of mutations that write a dictionary token (src/dictionary.mjs). */
  dictShare: 0.3,
  /** Seeds larger than this are left out: the fast tier is for corpus-sized files. */
  maxSeedBytes: 1 << 20,
  /** CPU time one input may take before it is a TIMEOUT (the worker is stopped; 20× in wall time). */
  deadlineMs: 10_000,
  /** V8 heap of the worker; an input that exhausts it is a MEMORY finding. */
  heapMb: 1024,
  /** Write regression notes for new findings. */
  write: true,
  /** Keep inputs that reached new blocks in FAST_CORPUS_DIR. */
  writeCorpus: true,
  /** At most this many new corpus entries per format and campaign. */
  maxCorpusAdds: 400,
  minimise: true,
  corpusDir: FAST_CORPUS_DIR,
  /** Module per format to fuzz instead of packages/<format>/dist/index.js (tests plant bugs). */
  dist: undefined,
  /** Stop each format after this many minutes (0: run all iterations). */
  minutes: 0,
};

/** The fast tier's part of `pnpm fuzz --preset ci`: fixed seed, writes nothing. */
export const FAST_CI = {
  iterations: 20_000,
  seed: 20261125,
  write: false,
  writeCorpus: false,
  minimise: false,
};

const sha16 = (b) => createHash('sha256').update(b).digest('hex').slice(0, 16);
const refKey = (r) => JSON.stringify([r.corpus, r.repo, r.gltf]);

/**
 * The fast tier's starting pool for a format: every seed with a file-model pair (≤
 * maxSeedBytes), then every corpus entry of `corpusDir/<format>/` rebuilt from its patch.
 */
export async function fastPool(format, o = FAST_DEFAULTS) {
  const pool = [];
  for (const s of formatSeeds(format)) {
    if (s.bytes.length > o.maxSeedBytes || !pairFor(FILE_MODELS[format], s.name)) continue;
    pool.push({ id: pool.length, name: s.name, bytes: s.bytes, ref: refOf(s.path), roots: [pool.length] });
  }
  const seedCount = pool.length;
  const dir = join(o.corpusDir ?? FAST_CORPUS_DIR, format);
  const cache = new Map(pool.map((e) => [refKey(e.ref), Promise.resolve(e.bytes)]));
  const byRef = new Map(pool.map((e) => [refKey(e.ref), e.id]));
  if (existsSync(dir))
    for (const f of readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const entry = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      let bytes;
      try {
        bytes = await rebuild(entry.patch, `fuzz corpus ${format}/${f}`, cache, () => {
          throw new Error('glTF sources are not used by the fast tier');
        });
      } catch {
        continue; // a seed changed or is missing here: the entry cannot be rebuilt
      }
      const roots = entry.patch.sources.map((r) => byRef.get(refKey(r))).filter((i) => i !== undefined);
      pool.push({ id: pool.length, name: entry.name, bytes, roots, file: `${format}/${f}` });
    }
  return { pool, seedCount };
}

/**
 * The fast corpus as whole-chain seeds (`formatSeeds` shape plus `roots`: the seeds the entry's
 * patch copies from, so a note written from it is a patch over them; companions come from the
 * first root's folder).
 */
export async function fastCorpusSeeds(format, seeds, corpusDir = FAST_CORPUS_DIR) {
  const { pool, seedCount } = await fastPool(format, { maxSeedBytes: Number.POSITIVE_INFINITY, corpusDir });
  const byRef = new Map(seeds.map((s) => [refKey(refOf(s.path)), s]));
  const out = [];
  for (const e of pool.slice(seedCount)) {
    const roots = e.roots.map((i) => ({ ref: pool[i].ref, bytes: pool[i].bytes }));
    const home = byRef.get(refKey(roots[0]?.ref ?? {}));
    if (!home) continue;
    out.push({ ...home, name: e.name, bytes: e.bytes, roots, corpusFile: e.file });
  }
  return out;
}

/** Loads a format's built file-model pairs in this thread (for minimising). */
async function loadPairs(format, dist) {
  const module = await import(pathToFileURL(dist ?? join(ROOT, 'packages', format, 'dist', 'index.js')).href);
  const pairs = FILE_MODELS[format]
    .filter((p) => typeof module[p.read] === 'function' && typeof module[p.write] === 'function')
    .map((p) => ({ ...p, readFn: module[p.read], writeFn: module[p.write] }));
  return { id: format, pairs };
}

async function fileModelFinding(fmt, job) {
  try {
    await fileModel({ progress: () => {} }, fmt, job, {});
    return undefined;
  } catch (e) {
    return e?.kind ? { kind: e.kind, stage: e.stage, error: e.error, detail: e.detail } : undefined;
  }
}

/** Greedy chunk deletion in-process, keeping the signature (crashes only). */
async function minimiseFast(fmt, job, sig, signatureOf, budget = 400) {
  let bytes = job.bytes;
  let runs = 0;
  for (let chunk = bytes.length >> 1; chunk >= 1 && runs < budget; chunk >>= 1)
    for (let at = bytes.length - chunk; at >= 0 && runs < budget; at -= chunk) {
      const cand = new Uint8Array(bytes.length - chunk);
      cand.set(bytes.subarray(0, at), 0);
      cand.set(bytes.subarray(at + chunk), at);
      runs++;
      const f = await fileModelFinding(fmt, { ...job, bytes: cand });
      if (f && signatureOf(f) === sig) bytes = cand;
    }
  return { job: { ...job, bytes }, runs };
}

/** CPU time (ms) of a thread from its /proc stat file; 0 when unreadable. */
function threadCpu(statPath) {
  if (!statPath) return 0;
  try {
    const f = readFileSync(statPath, 'latin1');
    const v = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(v[11]) + Number(v[12])) * 10;
  } catch {
    return 0;
  }
}

function addStats(into, s) {
  for (const [k, v] of Object.entries(s)) {
    if (typeof v === 'number') into[k] = (into[k] ?? 0) + v;
    else if (k === 'rejectCodes')
      for (const [c, n] of Object.entries(v)) into.rejectCodes[c] = (into.rejectCodes[c] ?? 0) + n;
  }
}

/**
 * Runs the fast tier over `formats` (default: all five), one format after the other. Returns
 * `{ stats, findings }` (stats per format: inputs, parsed, rejected, roundTrips, findings,
 * corpusAdded, blocks, newBlocks, ms, rate).
 *
 * ```js
 * const { stats } = await runFast({ formats: ['tso'], iterations: 5000, seed: 3, write: false });
 * ```
 */
export async function runFast(options = {}) {
  const o = { ...FAST_DEFAULTS, ...options };
  const log = o.log ?? (() => {});
  const { signature } = await import('./campaign.mjs');
  const regressions = await loadRegressions();
  const openSigs = regressions.filter((r) => r.note.status !== 'fixed').map((r) => r.note.signature);
  const fixedNotes = new Map(
    regressions.filter((r) => r.note.status === 'fixed').map((r) => [r.note.signature, r.path]),
  );
  const stats = {};
  const findings = [];
  for (const format of o.formats ?? FORMAT_IDS) {
    if (!existsSync(join(ROOT, 'packages', format, 'dist', 'index.js'))) {
      log(`notice: ${format}: packages/${format}/dist is missing: skipped`);
      continue;
    }
    const { pool, seedCount } = await fastPool(format, o);
    const st = (stats[format] = {
      inputs: 0,
      parsed: 0,
      rejected: 0,
      roundTrips: 0,
      findings: 0,
      newFindings: 0,
      corpusAdded: 0,
      coverageTakes: 0,
      rejectCodes: {},
      seeds: seedCount,
      corpusAtStart: pool.length - seedCount,
      blocksBaseline: undefined,
      blocks: 0,
      restarts: 0,
      ms: 0,
    });
    const fmt = await loadPairs(format, o.dist?.[format]);
    const seen = new Set(openSigs);
    const t0 = Date.now();
    const record = async (sig, finding, job, meta) => {
      seen.add(sig);
      let final = job;
      let runs = 0;
      if (o.minimise && !['TIMEOUT', 'MEMORY', 'WORKER_ERROR'].includes(finding.kind))
        ({ job: final, runs } = await minimiseFast(fmt, job, sig, (f) => signature(format, f)));
      const roots = [...new Set([...(pool[meta.entry]?.roots ?? []), ...(pool[meta.other]?.roots ?? [])])];
      const rec = { format, signature: sig, finding, tier: 'fast' };
      if (o.write) {
        const { iteration, ops } = meta;
        rec.note = writeRegression(format, { ...final, companions: [] }, finding, {
          signature: sig,
          sources: roots.map((i) => ({ ref: pool[i].ref, bytes: pool[i].bytes })),
          meta: {
            tier: 'fast',
            seedFile: pool[meta.entry]?.file ?? pool[roots[0]]?.ref.corpus ?? pool[roots[0]]?.ref.repo,
            ops,
            campaignSeed: o.seed,
            iteration,
            sameSymptomAsFixed: fixedNotes.has(sig) ? fixedNotes.get(sig).split('/').pop() : undefined,
            minimised: runs ? { from: job.bytes.length, to: final.bytes.length, runs } : undefined,
          },
        });
      }
      findings.push(rec);
      log(`FINDING ${sig}${rec.note ? `  → ${format}/${rec.note.hash}.json` : ''}`);
    };
    const addCorpus = (msg) => {
      pool.push({ id: pool.length, name: msg.name, bytes: msg.bytes, roots: msg.roots });
      if (!o.writeCorpus || st.corpusWritten >= o.maxCorpusAdds) return;
      st.corpusWritten = (st.corpusWritten ?? 0) + 1;
      const dir = join(o.corpusDir, format);
      mkdirSync(dir, { recursive: true });
      const patch = makePatch(
        msg.bytes,
        msg.roots.map((i) => ({ ref: pool[i].ref, bytes: pool[i].bytes })),
      );
      const entry = {
        format,
        name: msg.name,
        tier: 'fast',
        campaignSeed: o.seed,
        iteration: msg.meta.iteration,
        ops: msg.meta.ops,
        patch,
      };
      writeFileSync(join(dir, `${sha16(msg.bytes)}.json`), `${JSON.stringify(entry)}\n`);
    };
    let next = 0;
    const prior = { ...st, rejectCodes: {} };
    for (const k of Object.keys(prior)) if (typeof prior[k] === 'number') prior[k] = 0;
    while (next < o.iterations) {
      const sab = new SharedArrayBuffer(32 + o.maxSeedBytes * 2 + 4096);
      const beat = new Int32Array(sab, 0, 8);
      const epoch = Date.now();
      const worker = new Worker(new URL('./fast-worker.mjs', import.meta.url), {
        workerData: {
          format,
          seed: o.seed,
          start: next,
          iterations: o.iterations - next,
          sampleEvery: o.coverage ? o.sampleEvery : 0,
          coverage: o.coverage && o.sampleEvery > 0,
          dictShare: o.dictShare,
          seen: [...seen],
          pool: pool.map(({ id, name, bytes, roots, skip }) => ({ id, name, bytes, roots, skip })),
          seedCount,
          sab,
          epoch,
          dist: o.dist?.[format],
          guide: o.guide,
          stopAt: o.minutes ? t0 + o.minutes * 60_000 : 0,
        },
        resourceLimits: { maxOldGenerationSizeMb: o.heapMb },
      });
      let last;
      let lastLog = Date.now();
      const pending = [];
      const outcome = await new Promise((resolve) => {
        // deadline in CPU time of the worker thread (Linux), or 20 deadlines of wall clock
        let statPath;
        let seq = -1;
        let cpuAtStart = 0;
        const timer = setInterval(() => {
          if (!Atomics.load(beat, 1)) return;
          const now = Atomics.load(beat, 0);
          if (now !== seq) {
            seq = now;
            cpuAtStart = threadCpu(statPath);
            return;
          }
          const cpu = statPath ? threadCpu(statPath) - cpuAtStart : 0;
          const wall = Date.now() - epoch - Atomics.load(beat, 5);
          if (cpu > o.deadlineMs || wall > 20 * o.deadlineMs) {
            clearInterval(timer);
            worker.terminate();
            resolve({ kind: 'TIMEOUT', detail: `no result within ${o.deadlineMs} ms of CPU time` });
          }
        }, 250);
        worker.on('message', (msg) => {
          if (msg.type === 'finding') pending.push(record(msg.signature, msg.finding, msg.job, msg.meta));
          else if (msg.type === 'corpus') addCorpus(msg);
          else if (msg.type === 'ready') statPath = msg.statPath;
          else if (msg.type === 'known') log(`known finding (an open note): ${msg.signature}`);
          else {
            last = msg;
            st.blocks = msg.blocks ?? 0;
            st.blocksBaseline ??= msg.blocks;
            if (Date.now() - lastLog > 30_000) {
              lastLog = Date.now();
              log(`${format}: ${prior.inputs + msg.stats.inputs} inputs, ${msg.blocks ?? '-'} blocks`);
            }
            if (msg.type === 'done') {
              clearInterval(timer);
              resolve({ done: true });
            }
          }
        });
        worker.on('error', (e) => {
          clearInterval(timer);
          resolve({
            kind: e?.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'MEMORY' : 'WORKER_ERROR',
            detail: String(e?.message ?? e).slice(0, 300),
          });
        });
        worker.on('exit', () => {
          clearInterval(timer);
          resolve({ kind: 'WORKER_EXIT', detail: 'the fast-tier worker exited' });
        });
      });
      await Promise.all(pending);
      if (last) addStats(prior, last.stats);
      if (outcome.done) break;
      // a hang, an exhausted heap or a dead worker: the input in the heartbeat is the finding
      st.restarts++;
      const it = Atomics.load(beat, 2);
      const len = Atomics.load(beat, 3);
      // inputs counted after the last progress message
      prior.inputs += Atomics.load(beat, 6) - (last?.stats.inputs ?? 0);
      // an unmutated entry that hangs is left out of the next baseline
      if (it < 0 && pool[Atomics.load(beat, 4)]) pool[Atomics.load(beat, 4)].skip = true;
      const finding = { kind: outcome.kind, stage: 'fileModel', detail: outcome.detail };
      const sig = signature(format, finding);
      prior.inputs++;
      prior.findings++;
      if (len >= 0 && !seen.has(sig)) {
        const bytes = new Uint8Array(sab, 32, len).slice();
        const entry = pool[Atomics.load(beat, 4)] ?? pool[0];
        await record(
          sig,
          finding,
          { kind: 'legacy', format, name: entry.name, bytes, allPairs: true },
          { iteration: it, ops: [], entry: entry.id },
        );
      }
      next = it < 0 ? next : it + 1;
    }
    addStats(st, { ...prior, seeds: 0, corpusAtStart: 0, blocks: 0, blocksBaseline: 0, restarts: 0, ms: 0 });
    st.ms = Date.now() - t0;
    st.rate = Math.round(st.inputs / (st.ms / 1000));
    // inputs per second of the worker thread's own CPU time: the per-core rate on a shared machine
    st.cpuRate = Math.round(st.inputs / (st.cpuMs / 1000));
    st.newBlocks = st.blocks - (st.blocksBaseline ?? 0);
    log(`${format}: done ${fastSummary(st)}`);
  }
  return { stats, findings };
}

/** One line of fast-tier counts for a format. */
export function fastSummary(st) {
  return `${st.inputs} inputs (${st.parsed} parsed, ${st.rejected} rejected, ${st.roundTrips} round trips), ${st.blocks} blocks (${st.newBlocks ?? 0} new), ${st.corpusAdded} corpus adds, ${st.findings} finding inputs (${st.newFindings} new), ${(st.ms / 1000).toFixed(1)} s (${((st.cpuMs ?? 0) / 1000).toFixed(1)} s CPU), ${st.rate ?? 0}/s (${st.cpuRate ?? 0}/s per CPU-second)`;
}
