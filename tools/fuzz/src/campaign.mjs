// A fuzz campaign: deterministic job generation per format, dedupe of findings by signature,
// cheap minimisation, and regression files under test-assets/fuzz-regressions/<format>/.
import { readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { buildDocument, sampleDocumentSpec } from './gltf-gen.mjs';
import { corpusRoot, formatSeeds, gltfCorpusPaths, loadFormats, ROOT } from './formats.mjs';
import { mutate, OPERATORS } from './mutate.mjs';
import { gltfSeedGlb, refOf } from './stored-input.mjs';
import { WorkerPool } from './pool.mjs';
import { signature } from './signature.mjs';
import { codecIO, loadRegressions, REGRESSION_DIR, writeRegression } from './regressions.mjs';

export { loadRegressions, REGRESSION_DIR, signature, writeRegression };
import { hashString, Rng } from './rng.mjs';

/**
 * The fixed-point property per format: 'first' = export(import(export(import(x)))) equals
 * export(import(x)) byte for byte; 'second' = only the third export equals the second (for
 * formats whose first trip normalises, e.g. resampling). Every format starts at 'first'.
 */
export const FIXED_POINT = {
  urho3d: 'first',
  grimrock: 'first',
  unigine: 'first',
  tso: 'first',
  unreal3d: 'first',
};

/** Defaults of {@link runCampaign}. */
export const CAMPAIGN_DEFAULTS = {
  /** Inputs per format in the legacy → glTF direction. */
  iterations: 1000,
  /** Extra glTF → legacy inputs per format, as a share of `iterations`. */
  gltfShare: 0.25,
  seed: 1,
  workers: 1,
  minimise: true,
  /** Write regression files for new findings. */
  write: true,
  /** Skip seed files larger than this (bytes) when picking inputs to mutate. */
  maxSeedBytes: 4 << 20,
  /** Send imported documents through writeBinary/readBinary before exporting (the CLI's path). */
  glbTrip: true,
  /**
   * Share of legacy inputs that take the .glb trip (when `glbTrip`): writeBinary → readBinary
   * before export, and writeBinary of the re-import. It costs ~30 % of an input; sampling it
   * keeps the GLB_WRITE/GLB_READ checks while long campaigns run more inputs.
   */
  glbShare: 0.25,
  /** glTF corpus files larger than this (bytes, as GLB) are not used as seeds. */
  maxGltfBytes: 16 << 20,
  /** Add the fast tier's corpus (tools/fuzz/corpus/<format>/) to the seeds (issue 20). */
  fastCorpus: true,
  /** At most this many fast-corpus entries per format (in file-name order). */
  fastCorpusMax: Number.POSITIVE_INFINITY,
  /**
   * Generated glTF inputs (`<format>:<genSeed>`) the caller replays itself (the Vitest test
   * replays every regression note): drawn as usual, so the rest of the campaign is unchanged, but
   * not run twice. Counted as `replayedElsewhere`.
   */
  skipGen: undefined,
};

/** Encodes a document to GLB in the main thread (for glTF-direction regression files). */
async function docToGlb(io, doc) {
  return io.writeBinary(doc);
}

/** Loads glTF corpus documents as GLB bytes (seeds of the glTF → legacy direction). */
export async function gltfSeeds(io, notices) {
  const out = [];
  for (const path of gltfCorpusPaths()) {
    try {
      out.push({ name: relative(join(corpusRoot(), 'gltf'), path), bytes: await gltfSeedGlb(io, path) });
    } catch (e) {
      notices.push(
        `gltf corpus ${relative(corpusRoot(), path)}: not loadable here (${String(e.message).split('\n')[0]}), not used as a seed`,
      );
    }
  }
  return out;
}

/** Mutates a GLB: mostly its BIN chunk (accessor data), sometimes a number in its JSON. */
export function mutateGlb(glb, rng) {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  if (glb.length < 20) return { bytes: glb, ops: [] };
  const jsonLen = view.getUint32(12, true);
  const jsonStart = 20;
  const binStart = jsonStart + jsonLen + 8;
  if (rng.chance(0.35) || binStart >= glb.length) {
    const json = JSON.parse(new TextDecoder().decode(glb.subarray(jsonStart, jsonStart + jsonLen)));
    const leaves = [];
    const walk = (o) => {
      for (const k of Object.keys(o)) {
        if (typeof o[k] === 'number') leaves.push([o, k]);
        else if (o[k] && typeof o[k] === 'object') walk(o[k]);
      }
    };
    walk(json);
    if (leaves.length === 0) return { bytes: glb, ops: [] };
    const [o, k] = rng.pick(leaves);
    o[k] = rng.pick([0, 1, -1, 2, 65535, 65536, 2 ** 31, 1e9, o[k] + 1, o[k] - 1, 1e-30, -1e30]);
    return { bytes: encodeGlb(json, glb.subarray(binStart)), ops: [`json:${k}`] };
  }
  const bin = glb.subarray(binStart);
  const names = ['bitflip', 'u16', 'u32', 'f32', 'byteset', 'overwrite'];
  const op = rng.pick(names);
  const out = glb.slice();
  out.set(OPERATORS[op](bin, rng).subarray(0, bin.length), binStart);
  return { bytes: out, ops: [`bin:${op}`] };
}

function encodeGlb(json, bin) {
  let text = new TextEncoder().encode(JSON.stringify(json));
  const pad = (4 - (text.length % 4)) % 4;
  if (pad) {
    const t = new Uint8Array(text.length + pad).fill(0x20);
    t.set(text);
    text = t;
  }
  const binLen = bin.length;
  const total = 12 + 8 + text.length + (binLen ? 8 + binLen : 0);
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x46546c67, true);
  v.setUint32(4, 2, true);
  v.setUint32(8, total, true);
  v.setUint32(12, text.length, true);
  v.setUint32(16, 0x4e4f534a, true);
  out.set(text, 20);
  if (binLen) {
    v.setUint32(20 + text.length, binLen, true);
    v.setUint32(24 + text.length, 0x004e4942, true);
    out.set(bin, 28 + text.length);
  }
  return out;
}

const companionCache = new WeakMap();

/** The seed's companions (read once per seed: a campaign asks for them on every input). */
function companionsOf(legacy, seed) {
  let c = companionCache.get(seed);
  if (!c) {
    c = readCompanions(legacy, seed);
    companionCache.set(seed, c);
  }
  return c;
}

function readCompanions(legacy, seed) {
  if (!legacy?.companions) return [];
  let names = [];
  try {
    names = legacy.companions(seed.name, seed.siblings) ?? [];
  } catch {
    names = [];
  }
  return names.slice(0, 8).map((n) => [n, new Uint8Array(readFileSync(join(seed.dir, n)))]);
}

/** Greedy chunk-deletion minimiser over the mutated file; keeps the same signature. */
async function minimise(pool, job, format, sig, budget = 150, timeMs = 20_000) {
  const t0 = Date.now();
  let runs = 0;
  const key = job.kind === 'gltf' ? 'bytes' : job.target === undefined ? 'bytes' : 'companion';
  const get = (j) => (key === 'bytes' ? j.bytes : j.companions[j.target][1]);
  const set = (j, b) => {
    const c = { ...j };
    if (key === 'bytes') c.bytes = b;
    else c.companions = j.companions.map((e, i) => (i === j.target ? [e[0], b] : e));
    return c;
  };
  const same = async (candidate) => {
    runs++;
    const out = await pool.run(candidate);
    return out.finding && signature(format, out.finding) === sig;
  };
  let best = job;
  // companions that are not needed are dropped first (keeps corpus files out of the repo)
  if (
    job.kind === 'legacy' &&
    job.companions?.length &&
    key === 'bytes' &&
    (await same({ ...best, companions: [] }))
  )
    best = { ...best, companions: [] };
  let bytes = get(best);
  for (let chunk = bytes.length >> 1; chunk >= 1 && runs < budget && Date.now() - t0 < timeMs; chunk >>= 1) {
    for (let at = bytes.length - chunk; at >= 0 && runs < budget && Date.now() - t0 < timeMs; at -= chunk) {
      const cand = new Uint8Array(bytes.length - chunk);
      cand.set(bytes.subarray(0, at), 0);
      cand.set(bytes.subarray(at + chunk), at);
      if (await same(set(best, cand))) {
        bytes = cand;
        best = set(best, cand);
      }
    }
  }
  return { job: best, runs };
}

/** Fresh per-format counters. */
function newStats() {
  return {
    inputs: 0,
    parsed: 0,
    rejected: 0,
    imported: 0,
    exported: 0,
    exportRejected: 0,
    fixedPoint: 0,
    fileModelRoundTrips: 0,
    gltfInputs: 0,
    gltfInvalid: 0,
    gltfExported: 0,
    gltfRejected: 0,
    findings: 0,
    skipped: 0,
    replayedElsewhere: 0,
    unpacked: 0,
    rejectCodes: {},
    ms: 0,
  };
}

/**
 * Runs a campaign over the built formats. Returns `{ stats, findings, notices }`.
 *
 * ```js
 * const { stats, findings } = await runCampaign({ iterations: 200, seed: 7, formats: ['urho3d'] });
 * ```
 */
export async function runCampaign(options = {}) {
  const o = { ...CAMPAIGN_DEFAULTS, ...options };
  const log = o.log ?? (() => {});
  const { formats, notices } = await loadFormats(o.formats);
  for (const n of notices) log(`notice: ${n}`);
  const { makeIO } = await import('./pipeline.mjs');
  const io = await makeIO();
  const gltfNotices = [];
  const gltf =
    o.gltfShare > 0
      ? (await gltfSeeds(await codecIO(io), gltfNotices)).filter((g) => g.bytes.length <= o.maxGltfBytes)
      : [];
  for (const n of gltfNotices) log(`notice: ${n}`);
  notices.push(...gltfNotices);
  const pool = new WorkerPool({
    workers: o.workers,
    only: [...formats.keys()],
    fixedPoint: FIXED_POINT,
    glbTrip: o.glbTrip,
    ...o.pool,
  });
  const stats = {};
  const findings = [];
  // Findings are deduplicated against open notes only. A finding whose symptom matches a note
  // already marked fixed is a regression or a new bug with a generic message ("fuzz.mesh differs
  // at byte N"), so it is recorded as a new note that names the fixed one.
  const regressions = await loadRegressions();
  const seen = new Set(regressions.filter((r) => r.note.status !== 'fixed').map((r) => r.note.signature));
  const fixedNotes = new Map(
    regressions
      .filter((r) => r.note.status === 'fixed')
      .map((r) => [r.note.signature, basename(r.path, '.json')]),
  );
  try {
    const endAt = o.minutes ? Date.now() + o.minutes * 60_000 : Number.POSITIVE_INFINITY;
    let remaining = formats.size;
    for (const [id, fmt] of formats) {
      const st = (stats[id] = newStats());
      const t0 = Date.now();
      // time-boxed campaigns share what is left equally among the formats still to run
      const stopAt = o.minutes ? t0 + (endAt - t0) / remaining-- : Number.POSITIVE_INFINITY;
      const seeds = formatSeeds(id);
      // the fast tier's inputs that reached new blocks (tools/fuzz/corpus/<format>): each runs
      // once unmutated through the whole chain, then is mutated like any seed
      if (o.fastCorpus) {
        const { fastCorpusSeeds } = await import('./fast.mjs');
        const extra = (await fastCorpusSeeds(id, seeds)).slice(0, o.fastCorpusMax);
        seeds.push(...extra);
        st.fastCorpusSeeds = extra.length;
      }
      if (!seeds.some((s) => 'corpus' in refOf(s.path))) {
        const n = `${id}: no corpus seed files under ${corpusRoot()} (${seeds.length} from test-assets only)`;
        notices.push(n);
        log(`notice: ${n}`);
      }
      const small = seeds.filter((s) => s.bytes.length <= o.maxSeedBytes);
      const rng = new Rng((o.seed ^ hashString(id)) >>> 0);
      const inFlight = new Set();
      const handle = async (job, meta) => {
        let out = await pool.run(job);
        if (out.finding?.kind === 'TIMEOUT') {
          // a loaded machine is not a hang: confirm with four times the deadline
          out = await pool.run({ ...job, deadlineScale: 4 });
        } else if (out.finding?.kind === 'MEMORY' && o.workers > 1) {
          // RSS is per process: with several workers, confirm the blow-up is this input's
          out = await pool.run(job);
        }
        if (out.finding) {
          const sig = signature(id, out.finding);
          st.findings++;
          if (seen.has(sig)) return;
          seen.add(sig);
          let final = job;
          let runs = 0;
          const cheap =
            job.kind === 'legacy' && !['TIMEOUT', 'MEMORY', 'WORKER_EXIT'].includes(out.finding.kind);
          if (o.minimise && cheap && (job.bytes?.length ?? 0) > 0)
            ({ job: final, runs } = await minimise(pool, job, id, sig));
          const record = {
            format: id,
            signature: sig,
            finding: out.finding,
            meta: {
              ...meta,
              sameSymptomAsFixed: fixedNotes.get(sig),
              minimised: runs ? { from: job.bytes.length, to: final.bytes.length, runs } : undefined,
            },
          };
          if (o.write) {
            const companionPaths = Object.fromEntries(
              (meta.companionNames ?? []).map((n) => [n, relative(corpusRoot(), join(meta.seedDir, n))]),
            );
            const jobForFile =
              final.kind === 'gltf' && final.source === 'gen'
                ? { ...final, bytes: await docToGlb(io, buildDocument(sampleDocumentSpec(final.seed))) }
                : final;
            const { seedDir, companionNames, seedRef, sources, ...metaOut } = record.meta;
            // an unmutated main file is referenced, never copied (corpus files stay out of the repo)
            const mainRef = final.kind === 'legacy' && final.bytes === meta.seedBytes ? seedRef : undefined;
            delete metaOut.seedBytes;
            record.note = writeRegression(id, jobForFile, out.finding, {
              signature: sig,
              meta: metaOut,
              companionPaths,
              mainRef,
              sources,
            });
          }
          findings.push(record);
          delete record.meta.seedBytes;
          delete record.meta.sources;
          const again = fixedNotes.has(sig)
            ? ` (same symptom as fixed note ${fixedNotes.get(sig)}: regression or new bug)`
            : '';
          log(`FINDING ${sig}${record.note ? `  → ${id}/${record.note.hash}.json` : ''}${again}`);
          return;
        }
        const r = out.result ?? {};
        if (r.skipped) {
          st.skipped++;
          if (st.skipped === 1)
            log(`notice: ${id}: worker could not load the format (${r.skipped}); inputs skipped`);
          return;
        }
        if (job.kind === 'gltf') {
          st.gltfInputs++;
          if (r.invalidInput) st.gltfInvalid++;
          if (r.exported) st.gltfExported++;
          if (r.exportRejected) st.gltfRejected++;
          if (r.fixedPoint) st.fixedPoint += r.fixedPoint;
          return;
        }
        st.inputs++;
        if (r.parsed) st.parsed++;
        if (r.rejected) {
          st.rejected++;
          const k = `${r.rejected.stage}:${r.rejected.code}`;
          st.rejectCodes[k] = (st.rejectCodes[k] ?? 0) + 1;
        }
        st.imported += r.imported ?? 0;
        if (r.unpacked !== undefined) st.unpacked++;
        st.exported += r.exported ?? 0;
        if (r.exportRejected) st.exportRejected++;
        st.fixedPoint += r.fixedPoint ?? 0;
        st.fileModelRoundTrips += r.fileModel ?? 0;
      };
      const submit = async (job, meta) => {
        const p = handle(job, meta).finally(() => inFlight.delete(p));
        inFlight.add(p);
        // two jobs per worker in flight: the next one is queued while a worker runs
        if (inFlight.size >= 2 * o.workers) await Promise.race(inFlight);
      };
      const total = o.iterations;
      const gltfTotal = fmt.legacy?.export ? Math.round(total * o.gltfShare) : 0;
      let lastLog = Date.now();
      // 1) every seed once, unmutated; 2) mutated seeds; interleaved glTF-direction inputs
      for (let i = 0; i < seeds.length + total && Date.now() < stopAt; i++) {
        const plain = i < seeds.length;
        if (plain && seeds[i].bytes.length > o.maxSeedBytes) continue;
        const seed = plain ? seeds[i] : pickSeed(rng, small.length ? small : seeds);
        if (!seed) break;
        const companions = companionsOf(fmt.legacy, seed);
        let job = { kind: 'legacy', format: id, name: seed.name, bytes: seed.bytes, companions };
        const inRepo = !relative(ROOT, seed.path).startsWith('..');
        // a fast-corpus seed is itself a patch over seeds: notes name those seeds (`roots`)
        const seedRef = seed.roots
          ? undefined
          : inRepo
            ? { repo: relative(ROOT, seed.path) }
            : { corpus: relative(corpusRoot(), seed.path) };
        const meta = {
          seedFile: seed.corpusFile
            ? `fast corpus ${seed.corpusFile}`
            : inRepo
              ? relative(ROOT, seed.path)
              : relative(corpusRoot(), seed.path),
          seedRef,
          seedBytes: seed.bytes,
          campaignSeed: o.seed,
          iteration: i,
          seedDir: seed.dir,
          companionNames: companions.map(([n]) => n),
        };
        const sourcesOf = (s) => s.roots ?? [{ ref: refOf(s.path), bytes: s.bytes }];
        if (seed.roots) meta.sources = sourcesOf(seed);
        if (!plain) {
          const otherSeed = seeds[rng.int(seeds.length)];
          const other = otherSeed.bytes;
          // what a regression note may copy from instead of storing bytes (splices included)
          meta.sources = [...sourcesOf(seed), ...sourcesOf(otherSeed)];
          if (companions.length && rng.chance(0.2)) {
            const t = rng.int(companions.length);
            meta.sources.push({ ref: refOf(join(seed.dir, companions[t][0])), bytes: companions[t][1] });
            const m = mutate(companions[t][1], rng, other);
            job = {
              ...job,
              companions: companions.map((c, k) => (k === t ? [c[0], m.bytes] : c)),
              target: t,
            };
            meta.ops = m.ops;
            meta.mutated = companions[t][0];
          } else {
            const m = mutate(seed.bytes, rng, other);
            job = { ...job, bytes: m.bytes };
            meta.ops = m.ops;
          }
          job.allPairs = rng.chance(0.1);
        }
        if (o.glbTrip && o.glbShare < 1) job.glbTrip = plain || rng.chance(o.glbShare);
        await submit(job, meta);
        if (gltfTotal && !plain && rng.chance(gltfTotal / total)) {
          if (gltf.length && rng.chance(0.5)) {
            const g = rng.pick(gltf);
            const m = rng.chance(0.15) ? { bytes: g.bytes, ops: [] } : mutateGlb(g.bytes, rng);
            await submit(
              { kind: 'gltf', format: id, source: 'glb', bytes: m.bytes },
              {
                seedFile: `gltf/${g.name}`,
                ops: m.ops,
                campaignSeed: o.seed,
                iteration: i,
                sources: [{ ref: { gltf: g.name }, bytes: g.bytes }],
              },
            );
          } else {
            const genSeed = rng.next() & 0x7fffffff;
            if (o.skipGen?.has(`${id}:${genSeed}`)) st.replayedElsewhere++;
            else
              await submit(
                { kind: 'gltf', format: id, source: 'gen', seed: genSeed },
                { replay: 'gen', genSeed, campaignSeed: o.seed, iteration: i },
              );
          }
        }
        if (Date.now() - lastLog > 30_000) {
          lastLog = Date.now();
          st.ms = Date.now() - t0;
          o.checkpoint?.(stats, findings, notices);
          log(
            `${id}: ${st.inputs + st.findings}${total < Number.MAX_SAFE_INTEGER ? `/${seeds.length + total}` : ''} inputs, ${st.gltfInputs} glTF, ${st.findings} findings`,
          );
        }
      }
      await Promise.all(inFlight);
      st.ms = Date.now() - t0;
      log(`${id}: done ${summaryLine(st)}`);
    }
  } finally {
    await pool.close();
  }
  return { stats, findings, notices };
}

function pickSeed(rng, seeds) {
  // small files are cheaper: re-pick big ones most of the time
  for (let k = 0; k < 4; k++) {
    const s = seeds[rng.int(seeds.length)];
    if (s.bytes.length < 256 << 10 || rng.chance(0.2)) return s;
  }
  return seeds[rng.int(seeds.length)];
}

/** One line of counts for a format. */
export function summaryLine(st) {
  return `${st.inputs} inputs (${st.parsed} parsed, ${st.rejected} rejected, ${st.imported} imported${st.unpacked ? `, ${st.unpacked} unpacked` : ''}, ${st.exported} exported, ${st.fixedPoint} fixed points), ${st.gltfInputs} glTF inputs (${st.gltfExported} exported, ${st.gltfRejected} typed errors, ${st.gltfInvalid} unreadable${st.replayedElsewhere ? `, ${st.replayedElsewhere} replayed by the caller` : ''}), ${st.findings} finding inputs${st.skipped ? `, ${st.skipped} SKIPPED (format did not load)` : ''}, ${(st.ms / 1000).toFixed(1)} s`;
}

/** Replays every regression file; returns `[{ note, out, path }]`. */
export async function replayRegressions(options = {}) {
  const regs = await loadRegressions(options.formats);
  if (regs.length === 0) return [];
  const pool = new WorkerPool({ workers: 1, fixedPoint: FIXED_POINT, ...options.pool });
  try {
    const results = [];
    for (const r of regs) {
      const out = await pool.run(r.job);
      results.push({
        ...r,
        out,
        reproduces: !!out.finding && signature(r.note.format, out.finding) === r.note.signature,
      });
    }
    return results;
  } finally {
    await pool.close();
  }
}

/**
 * The short fixed-seed campaign the Vitest test runs (and `pnpm fuzz --preset test` repeats with
 * regression writing on, so every finding it can hit is a known, recorded one).
 */
export const TEST_CAMPAIGN = {
  // 30 per format keeps the test near 40 s of CPU; CI's preset runs 300 per format after the tests
  iterations: 30,
  seed: 20261122,
  gltfShare: 0.2,
  maxSeedBytes: 32 << 10,
  maxGltfBytes: 256 << 10,
  glbTrip: false,
  workers: 1,
  minimise: false,
  // the test's campaign stays the same whatever the fast tier's corpus holds
  fastCorpus: false,
};

/**
 * The whole-chain part of `pnpm fuzz --preset ci` (after the fast tier's FAST_CI): a fixed
 * seed, every seed and 40 fast-corpus entries unmutated, 300 mutated inputs per format plus ~75
 * glTF → legacy ones, both workers, nothing written; any new finding other than a TIMEOUT fails
 * CI. Both tiers together stay under 3 minutes (issue 20).
 */
export const CI_CAMPAIGN = {
  iterations: 300,
  fastCorpusMax: 40,
  seed: 20261123,
  gltfShare: 0.25,
  glbShare: 0.25,
  workers: 2,
  minimise: false,
  write: false,
};
