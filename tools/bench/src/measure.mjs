// Runs inside a child process: builds one format's synthetic input, times each step.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NodeIO } from '@gltf-transform/core';
// the file-model table (which read*/write* pair handles which file) is shared with the fuzzer
import { FILE_MODELS, pairFor, ROOT } from '../../fuzz/src/formats.mjs';
import { bigDocument, unrealModels } from './synth.mjs';

const MB = 1 << 20;

function gc() {
  globalThis.gc?.();
}

/** Median wall time (ms) of `runs` calls after one warm-up; returns `{ ms, value }`. */
async function time(runs, fn) {
  const t0 = process.hrtime.bigint();
  let value = await fn();
  const warm = Number(process.hrtime.bigint() - t0) / 1e6;
  // very slow steps get fewer runs (recorded in `samples`) so a full bench stays under ~15 min
  const n = warm > 20_000 ? 1 : warm > 5_000 ? Math.min(3, runs) : runs;
  const samples = [];
  for (let i = 0; i < n; i++) {
    value = undefined;
    gc();
    const t = process.hrtime.bigint();
    value = await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { ms: samples[samples.length >> 1], samples, value };
}

function op(t, bytes) {
  return {
    ms: t.ms,
    samples: t.samples.map((s) => Math.round(s * 10) / 10),
    bytes,
    mbps: bytes ? bytes / MB / (t.ms / 1000) : undefined,
  };
}

async function loadLegacy(id) {
  const module = await import(pathToFileURL(join(ROOT, 'packages', id, 'dist', 'index.js')).href);
  let legacy = module.legacyFormat;
  try {
    const cli = await import('@gltf-legacy/cli');
    legacy = cli.FORMATS.find((f) => f.id === id) ?? legacy;
  } catch {
    // CLI not built: the package's own object
  }
  return { module, legacy };
}

function scale(plan, quick) {
  if (!quick) return plan;
  const p = structuredClone(plan);
  if (p.doc) p.doc.vertices = Math.round(p.doc.vertices / 10);
  if (p.unreal) p.unreal.frames = Math.round(p.unreal.frames / 10);
  return p;
}

/**
 * Benchmarks one format. Returns the numbers (ms, MB/s, ratios, peak RSS) for `run.mjs`.
 */
export async function benchFormat(id, plan0, { quick = false, runs = 5, out } = {}) {
  const plan = scale(plan0, quick);
  const notices = [];
  const { module, legacy } = await loadLegacy(id);
  if (!legacy) throw new Error(`${id} exports no legacyFormat yet`);
  const pairs = FILE_MODELS[id]
    .filter((p) => typeof module[p.read] === 'function' && typeof module[p.write] === 'function')
    .map((p) => ({ ...p, readFn: module[p.read], writeFn: module[p.write] }));
  const io = new NodeIO();
  let files;
  const ops = {};
  let imported;

  if (plan.unreal) {
    const { data, aniv } = unrealModels(module, plan.unreal);
    const tw = await time(runs, () => [module.writeData(data), module.writeAniv(aniv)]);
    files = new Map([
      ['bench_d.3d', tw.value[0]],
      ['bench_a.3d', tw.value[1]],
    ]);
    ops.write = op(tw, tw.value[0].length + tw.value[1].length);
  } else {
    const doc = bigDocument(plan.doc);
    const te = await time(runs, () => legacy.export(doc, { name: 'bench' }));
    files = te.value.files;
    const size = [...files.values()].reduce((s, b) => s + b.length, 0);
    ops.export = op(te, size);
    if (te.value.warnings?.length)
      notices.push(`export warnings: ${te.value.warnings.map((w) => `${w.code}×${w.count}`).join(', ')}`);
  }
  const inBytes = [...files.values()].reduce((s, b) => s + b.length, 0);
  if (out) for (const [n, b] of files) writeFileSync(join(out, n), b);

  // file model: read (and write, for formats benchmarked from a Document)
  const modelled = [...files].filter(([n]) => pairFor(pairs, n));
  if (modelled.length) {
    const tr = await time(runs, () => modelled.map(([n, b]) => pairFor(pairs, n).readFn(b, n)));
    const modelBytes = modelled.reduce((s, [, b]) => s + b.length, 0);
    ops.parse = op(tr, modelBytes);
    if (!ops.write) {
      const models = tr.value;
      const tw = await time(runs, () => modelled.map(([n], i) => pairFor(pairs, n).writeFn(models[i])));
      ops.write = op(tw, modelBytes);
    }
  } else notices.push('no file-model read/write pair exported: parse/write not measured');

  const main =
    [...files.keys()].find((n) => n.toLowerCase().endsWith(legacy.mainExtension.toLowerCase())) ??
    files.keys().next().value;
  const ti = await time(runs, () => legacy.import(files, { main, ...plan.importOptions }));
  imported = ti.value.document;
  ops.import = op(ti, inBytes);
  if (!ops.export && legacy.export) {
    const te = await time(runs, () => legacy.export(imported, { name: 'bench' }));
    ops.export = op(
      te,
      [...te.value.files.values()].reduce((s, b) => s + b.length, 0),
    );
  }
  const tgw = await time(runs, () => io.writeBinary(imported));
  const glb = tgw.value;
  ops.nodeioWrite = op(tgw, glb.length);
  const tgr = await time(runs, () => io.readBinary(glb));
  ops.nodeioRead = op(tgr, glb.length);

  const outBytes = glb.length;
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  return {
    plan,
    main,
    files: Object.fromEntries([...files].map(([n, b]) => [n, b.length])),
    inputBytes: inBytes,
    glbBytes: glb.length,
    ops,
    ratios: {
      importVsWrite: ops.import.ms / ops.nodeioWrite.ms,
      exportVsRead: ops.export ? ops.export.ms / ops.nodeioRead.ms : undefined,
      roundTripVsWrite: ops.export ? (ops.import.ms + ops.export.ms) / ops.nodeioWrite.ms : undefined,
    },
    peakRssMb,
    rssVsData: (peakRssMb * MB) / (inBytes + outBytes),
    notices,
  };
}
