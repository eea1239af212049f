// Owns the `convert` command: flags → ConvertOptions, one file in the main thread or a batch,
// records printed, the report written.
import type { LegacyFormat, Warning } from '@gltf-legacy/core';
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { extname, resolve } from 'node:path';
import { BATCH_DEFAULTS, type BatchOptions, runBatch } from './batch.js';
import { type CommandContext, EXIT, type Output, parseByteSize, positiveNumber, usage } from './command.js';
import { type ConvertOptions, type ConvertRecord, convertFile } from './convert.js';
import { writeFilesAtomic } from './files.js';
import { FORMAT_TABLE, loadAllFormats } from './format-table.js';
import { applyShard, expandInputs, parseShard, type Shard } from './inputs.js';
import { formatForOutput, type OutputFormatInfo } from './lookup.js';
import {
  checkOptimize,
  hasOptimize,
  needsCompression,
  type OptimizeOptions,
  optimizeTransform,
} from './optimize.js';
import { createProgress } from './progress.js';
import { reportFile, summarize, summaryTable } from './report.js';

function parseOptimize(opts: Record<string, unknown>): OptimizeOptions {
  const o: OptimizeOptions = {};
  for (const k of [
    'dedup',
    'weld',
    'prune',
    'resample',
    'quantize',
    'meshopt',
    'draco',
    'center',
    'optimize',
  ] as const)
    if (opts[k]) o[k] = true;
  if (opts.simplify !== undefined) o.simplify = Number(opts.simplify);
  try {
    checkOptimize(o);
  } catch (e) {
    throw usage((e as Error).message);
  }
  return o;
}

/** True when `formats` are none or exactly the registered ones (`FORMATS`). */
async function isRegistered(formats: readonly LegacyFormat[] | undefined): Promise<boolean> {
  if (!formats) return true;
  const all = await loadAllFormats();
  return formats.length === all.length && formats.every((f, i) => f === all[i]);
}

/** Prints warnings grouped by code with counts. */
export function printWarnings(warnings: Warning[], out: (s: string) => void, verbose = false): void {
  const groups = new Map<string, { count: number; messages: Warning[] }>();
  for (const w of warnings) {
    const g = groups.get(w.code) ?? { count: 0, messages: [] };
    g.count += w.count;
    g.messages.push(w);
    groups.set(w.code, g);
  }
  for (const [code, g] of groups) {
    const shown = verbose ? g.messages : g.messages.slice(0, 1);
    out(
      `  warning ${code} ×${g.count}: ${shown[0].message}${!verbose && g.messages.length > 1 ? ` (+${g.messages.length - 1} more kinds, --verbose)` : ''}`,
    );
    if (verbose) for (const m of shown.slice(1)) out(`    ${m.message} (×${m.count})`);
  }
}

export function parseFormatOptions(opts: Record<string, unknown>): Record<string, unknown> {
  const fo: Record<string, unknown> = {};
  if (opts.fps !== undefined) {
    const fps = Number(opts.fps);
    if (!(fps > 0 && fps <= 1000)) throw usage(`--fps must be a number in (0, 1000], got ${opts.fps}`);
    fo.fps = fps;
  }
  if (opts.variant) fo.variant = opts.variant;
  if (opts.static) fo.frames = 'first';
  if (opts.strict) fo.strict = true;
  if (opts.compact && opts.float)
    throw usage('--compact and --float ask for opposite encodings: pass one (--float is the default)');
  if (opts.compact) fo.compact = true;
  if (opts.float) fo.float = true;
  if (opts.frameNormals === false) fo.frameNormals = false;
  if (opts.scale !== undefined) {
    const scale = Number(opts.scale);
    if (!(Number.isFinite(scale) && scale > 0))
      throw usage(`--scale expects a number > 0, got "${opts.scale}"`);
    fo.scale = scale;
  }
  if (Array.isArray(opts.materials) && opts.materials.length) fo.materials = opts.materials;
  if (typeof opts.material === 'string') fo.material = opts.material;
  if (opts.pak !== undefined) {
    if (opts.pak !== true && opts.pak !== 'lz4') throw usage(`--pak takes no value or lz4, got ${opts.pak}`);
    fo.pak = opts.pak;
  }
  if (opts.far !== undefined) {
    if (opts.far !== true && opts.far !== 'refpack')
      throw usage(`--far takes no value or refpack, got ${opts.far}`);
    fo.far = opts.far;
  }
  if (opts.textureFormat !== undefined) {
    if (opts.textureFormat !== 'png' && opts.textureFormat !== 'dds')
      throw usage(`--texture-format must be png or dds, got ${opts.textureFormat}`);
    fo.textureFormat = opts.textureFormat;
  }
  for (const kv of (opts.option as string[] | undefined) ?? []) {
    const i = kv.indexOf('=');
    if (i <= 0) throw usage(`--option expects key=value, got "${kv}"`);
    const v = kv.slice(i + 1);
    fo[kv.slice(0, i)] =
      v === 'true' ? true : v === 'false' ? false : v !== '' && !Number.isNaN(Number(v)) ? Number(v) : v;
  }
  return fo;
}

/** Prints one conversion record: outputs or the error, and warnings. */
export function printRecord(
  r: ConvertRecord,
  io: Output,
  opts: { quiet?: boolean; verbose?: boolean },
  counter = '',
): void {
  if (r.status === 'ok') {
    if (!opts.quiet) io.out(`${counter}${r.input} (${r.format}) → ${r.outputs.join(', ')}  [${r.ms} ms]`);
  } else {
    io.err(`error ${r.error!.code}: ${r.error!.message}`);
    if (opts.verbose && r.error!.stack) io.err(r.error!.stack);
  }
  if (!opts.quiet && r.warnings.length) printWarnings(r.warnings, io.err, opts.verbose);
}

async function writeReport(
  path: string,
  records: ConvertRecord[],
  summary: ReturnType<typeof summarize>,
): Promise<void> {
  // written record by record (a batch of 10 000 inputs never holds the whole text: issue 31)
  await writeFilesAtomic(new Map([[resolve(path), reportFile(records, summary)]]), true);
}

/** The `convert` command: `inputs` and commander-style `opts` (shared by the fast path). */
export async function runConvert(
  inputs: string[],
  opts: Record<string, any>,
  { io, formats, setExit, runtime }: CommandContext,
): Promise<void> {
  if (opts.output && inputs.length > 1) throw usage('-o/--output takes one input; use --out-dir for several');
  if (opts.output && opts.outDir) throw usage('-o/--output and --out-dir exclude each other');
  if (opts.output && (!existsSync(inputs[0]) || statSync(inputs[0]).isDirectory())) {
    if (!existsSync(inputs[0]) && !(await import('./glob-base.js')).isDynamicPattern(inputs[0])) {
      // a missing file: convertFile reports FILE_NOT_FOUND
    } else throw usage('-o/--output takes one file; use --out-dir for a folder or a glob');
  }
  const optimize = parseOptimize(opts);
  const timeout =
    opts.timeout === undefined
      ? BATCH_DEFAULTS.timeout
      : positiveNumber('--timeout', opts.timeout, false, 0.001);
  const jobs =
    opts.jobs === undefined ? availableParallelism() : positiveNumber('--jobs', opts.jobs, true, 0);
  let shard: Shard | undefined;
  try {
    shard = opts.shard ? parseShard(opts.shard) : undefined;
  } catch (e) {
    throw usage((e as Error).message);
  }
  const to = String(opts.to ?? '').toLowerCase();
  const legacyTarget =
    (to && to !== 'glb' && to !== 'gltf') ||
    (opts.output &&
      !['.glb', '.gltf'].includes(extname(opts.output).toLowerCase()) &&
      formatForOutput<OutputFormatInfo>(opts.output, formats ?? FORMAT_TABLE));
  if (legacyTarget && needsCompression(optimize))
    throw usage('--meshopt and --draco compress glTF output; they do not apply to a legacy target');
  const options: ConvertOptions = {
    output: opts.output,
    outDir: opts.outDir,
    to: opts.to,
    force: !!opts.force,
    with: [...(opts.with ?? []), ...(opts.skeleton ? [opts.skeleton] : [])],
    entry: typeof opts.mesh === 'string' ? opts.mesh : undefined,
    companions: opts.companions !== false,
    formatOptions: parseFormatOptions(opts),
    formats,
    optimize: hasOptimize(optimize) ? optimize : undefined,
    resourceDir: opts.resourceDir,
    maxUnpacked:
      opts.maxUnpacked === undefined ? undefined : parseByteSize('--max-unpacked', opts.maxUnpacked),
  };
  if (opts.resourceDir && (!existsSync(opts.resourceDir) || !statSync(opts.resourceDir).isDirectory()))
    throw usage(`--resource-dir ${opts.resourceDir} is not a folder`);
  if (opts.output) {
    const r = await convertFile(inputs[0], {
      ...options,
      transform: optimizeTransform(options.optimize),
    });
    printRecord(r, io, opts);
    if (opts.report) await writeReport(opts.report, [r], summarize([r], { skipped: 0, ms: r.ms, jobs: 0 }));
    setExit(r.status === 'error' ? EXIT.FAILED : EXIT.OK);
    return;
  }

  const started = performance.now();
  const expanded = await expandInputs(inputs, formats);
  if (!expanded.items.length)
    throw usage(
      `nothing to convert in ${inputs.join(', ')} (no glTF or main file of a known format; ${expanded.skipped.length} other file(s) skipped)`,
    );
  const items = applyShard(expanded.items, shard);
  // one input and no --jobs/--timeout: convert here, starting a worker would only cost time
  const effectiveJobs =
    items.length === 1 && opts.jobs === undefined && opts.timeout === undefined ? 0 : jobs;
  const tty = !!io.isTTY && opts.progress !== false && !opts.quiet && !!io.progress;
  const progress = createProgress(
    items.length,
    (s) => io.progress?.(s),
    tty,
    process.stderr.columns || 80,
    true,
  );
  const batch: BatchOptions = {
    ...options,
    // the registered formats: workers load their own (only what each input needs)
    formats: (await isRegistered(formats)) ? undefined : formats,
    jobs: effectiveJobs,
    timeout,
    workerUrl: runtime.workerUrl,
    formatsModule: runtime.formatsModule,
    onStart: (item) => progress.start(item),
    onDone: (r, done, total) => {
      if (tty) progress.end();
      printRecord(r, io, opts, total > 1 ? `[${done}/${total}] ` : '');
      progress.done(r, done, total);
    },
  };
  const records = await runBatch(items, batch);
  progress.end();
  const summary = summarize(records, {
    skipped: expanded.skipped.length,
    ms: Math.round(performance.now() - started),
    jobs: effectiveJobs,
    shard: shard ? `${shard.index}/${shard.count}` : undefined,
  });
  if (opts.verbose)
    for (const s of expanded.skipped) io.err(`  skipped ${s.path} (companion or not a model)`);
  if (opts.report) await writeReport(opts.report, records, summary);
  if (!opts.quiet && (records.length > 1 || expanded.skipped.length)) {
    io.out(summaryTable(summary));
    io.out(`${summary.ok} converted, ${summary.failed} failed`);
  }
  setExit(summary.failed ? EXIT.FAILED : EXIT.OK);
}
