import { Command, CommanderError } from 'commander';
import type { LegacyFormat, Warning } from '@gltf-legacy/core';
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { extname, resolve } from 'node:path';
import { BATCH_DEFAULTS, type BatchOptions, runBatch } from './batch.js';
import { type ConvertOptions, type ConvertRecord, convertFile } from './convert.js';
import { toErrorRecord } from './errors.js';
import { writeFilesAtomic } from './files.js';
import { applyShard, expandInputs, parseShard, type Shard } from './inputs.js';
import {
  checkOptimize,
  hasOptimize,
  needsCompression,
  type OptimizeOptions,
  optimizeTransform,
} from './optimize.js';
import { createProgress } from './progress.js';
import { FORMAT_TABLE, loadAllFormats } from './format-table.js';
import { formatForOutput, type OutputFormatInfo } from './lookup.js';
import { buildReport, summarize, summaryTable } from './report.js';
import { inspectFile } from './inspect.js';
import { formatBytes, renderTable } from './table.js';
import { validateFile } from './validate.js';

/** Exit codes: 0 all ok, 1 some input failed, 2 usage error. */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2 } as const;

interface Output {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Raw stderr writes (progress bar); default: none. */
  progress?: (s: string) => void;
  /** Whether stderr is a terminal (progress bar instead of plain lines). */
  isTTY?: boolean;
}

/** How batch workers are started (tests inject a bundled worker and a formats module). */
export interface Runtime {
  workerUrl?: string | URL;
  formatsModule?: string;
}

const defaultOutput: Output = {
  out: (s) => process.stdout.write(`${s}\n`),
  err: (s) => process.stderr.write(`${s}\n`),
  progress: (s) => process.stderr.write(s),
  isTTY: !!process.stderr.isTTY,
};

function usage(message: string): CommanderError {
  return new CommanderError(EXIT.USAGE, 'usage', message);
}

function positiveNumber(flag: string, v: unknown, integer: boolean, min: number): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n)))
    throw usage(`${flag} expects ${integer ? 'an integer' : 'a number'} ≥ ${min}, got "${v}"`);
  return n;
}

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

function parseFormatOptions(opts: Record<string, unknown>): Record<string, unknown> {
  const fo: Record<string, unknown> = {};
  if (opts.fps !== undefined) {
    const fps = Number(opts.fps);
    if (!(fps > 0 && fps <= 1000))
      throw new CommanderError(EXIT.USAGE, 'usage', `--fps must be a number in (0, 1000], got ${opts.fps}`);
    fo.fps = fps;
  }
  if (opts.variant) fo.variant = opts.variant;
  if (opts.static) fo.frames = 'first';
  for (const kv of (opts.option as string[] | undefined) ?? []) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new CommanderError(EXIT.USAGE, 'usage', `--option expects key=value, got "${kv}"`);
    const v = kv.slice(i + 1);
    fo[kv.slice(0, i)] =
      v === 'true' ? true : v === 'false' ? false : v !== '' && !Number.isNaN(Number(v)) ? Number(v) : v;
  }
  return fo;
}

function formatsTable(formats: readonly LegacyFormat[]): string {
  const yes = (b: boolean | undefined) => (b ? 'yes' : '-');
  return renderTable(
    ['id', 'format', 'extensions', 'import', 'export', 'skins', 'morphs', 'animations'],
    [
      ...formats.map((f) => [
        f.id,
        f.label,
        f.extensions.join(' '),
        yes(f.capabilities.import),
        yes(f.capabilities.export),
        yes(f.capabilities.skins),
        yes(f.capabilities.morphTargets),
        yes(f.capabilities.animations),
      ]),
      ['glb', 'glTF 2.0 binary', '.glb', 'yes', 'yes', 'yes', 'yes', 'yes'],
      ['gltf', 'glTF 2.0 JSON', '.gltf', 'yes', 'yes', 'yes', 'yes', 'yes'],
    ],
  );
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
  const json = `${JSON.stringify(buildReport(records, summary), null, 2)}\n`;
  await writeFilesAtomic(new Map([[resolve(path), new TextEncoder().encode(json)]]), true);
}

/**
 * Builds the commander program (exported for tests). Without `formats`, every registered format is
 * available and each command loads only the format packages it needs.
 */
export function buildProgram(
  io: Output = defaultOutput,
  formats?: readonly LegacyFormat[],
  setExit: (c: number) => void = () => {},
  runtime: Runtime = {},
): Command {
  const ids = (formats ?? FORMAT_TABLE).map((f) => f.id);
  const program = new Command('gltf-legacy')
    .description(
      'Convert legacy game models (Unreal 1 vertex meshes, Urho3D, Legend of Grimrock, The Sims Online, Unigine) to glTF 2.0 and back.',
    )
    .version('0.1.0')
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('convert')
    .description(
      'Convert files. Legacy → glTF: the input format is detected from its bytes and companion files (animations, .uc, _a.3d) beside it are loaded automatically. glTF → legacy: the target comes from --to or the output extension; every file the format needs is written beside the output.',
    )
    .argument('<input...>', 'input files (legacy files, .glb or .gltf)')
    .option(
      '-o, --output <file>',
      'output file (one input only); .glb/.gltf, or a legacy name such as NAME_d.3d or NAME.mdl',
    )
    .option('--out-dir <dir>', 'output folder; names come from each input (NAME for NAME_d.3d)')
    .option('--to <format>', `target format: glb (default for legacy input), gltf, ${ids.join(', ')}`)
    .option(
      '--with <file>',
      'add a companion file (repeatable)',
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option('--no-companions', 'do not look for companion files beside the input')
    .option('--skeleton <file.skel>', 'The Sims Online: the skeleton the mesh binds to (same as --with)')
    .option('--static', 'Unreal: import frame 0 only (no morph-target animation)')
    .option('--fps <n>', 'frames per second for animation import/resampling (formats that use it)')
    .option('--variant <name>', 'export variant: deusex (unreal3d), log2 (grimrock)')
    .option(
      '--option <key=value>',
      'a format-specific option (repeatable)',
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option('-f, --force', 'overwrite existing outputs')
    .option(
      '-j, --jobs <n>',
      `parallel worker threads (default: the number of cores, ${availableParallelism()} here); 0 = no workers`,
    )
    .option(
      '--report <file.json>',
      'write a JSON report: one record per input plus a summary (schema in the README)',
    )
    .option(
      '--timeout <seconds>',
      'stop an input that takes longer (its worker is terminated; code TIMEOUT); default 600',
    )
    .option('--shard <i/n>', 'convert only the i-th of n deterministic slices of the inputs (1 ≤ i ≤ n)')
    .option('--no-progress', 'no progress bar even on a terminal')
    .option('--dedup', 'optimize: merge duplicate accessors, meshes, materials, textures')
    .option('--weld', 'optimize: merge identical vertices')
    .option('--prune', 'optimize: remove unused properties')
    .option('--resample', 'optimize: drop redundant animation keyframes')
    .option(
      '--simplify <ratio>',
      'optimize: simplify meshes to this ratio of vertices (meshoptimizer), e.g. 0.5',
    )
    .option('--quantize', 'optimize: quantize vertex attributes (KHR_mesh_quantization)')
    .option('--meshopt', 'compress with EXT_meshopt_compression (meshoptimizer; glTF output only)')
    .option('--draco', 'compress with KHR_draco_mesh_compression (draco3dgltf; glTF output only)')
    .option('--center', 'optimize: center the scene at the origin')
    .option('--optimize', 'preset: --dedup --weld --resample --prune')
    .option('-q, --quiet', 'print only errors')
    .option('-v, --verbose', 'print every warning message and stack traces of internal errors')
    .addHelpText(
      'after',
      `
Examples:
  gltf-legacy convert Skull_d.3d                       # → Skull.glb beside it (uses Skull_a.3d, Skull.uc)
  gltf-legacy convert Jack.mdl -o jack.glb             # with Jack_*.ani animations found beside it
  gltf-legacy convert models/*.mdl --out-dir out/      # several inputs; one failure does not stop the rest
  gltf-legacy convert Fox.glb --to unreal3d -o out/Fox_d.3d   # writes Fox_d.3d, Fox_a.3d, Fox.uc
  gltf-legacy convert hero.glb -o hero.mdl             # target from the extension
  gltf-legacy convert game/models --out-dir out --jobs 2 --report report.json
                                                       # a whole folder, tree mirrored under out/
  gltf-legacy convert 'game/**/*.mdl' --out-dir out --shard 1/4 --optimize --meshopt

Exit code: 0 when every input converted, 1 when any failed, 2 on a usage error.`,
    )
    .action(async (inputs: string[], opts: Record<string, any>) => {
      if (opts.output && inputs.length > 1)
        throw usage('-o/--output takes one input; use --out-dir for several');
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
        companions: opts.companions !== false,
        formatOptions: parseFormatOptions(opts),
        formats,
        optimize: hasOptimize(optimize) ? optimize : undefined,
      };
      if (opts.output) {
        const r = await convertFile(inputs[0], {
          ...options,
          transform: optimizeTransform(options.optimize),
        });
        printRecord(r, io, opts);
        if (opts.report)
          await writeReport(opts.report, [r], summarize([r], { skipped: 0, ms: r.ms, jobs: 0 }));
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
    });

  program
    .command('inspect')
    .description(
      'Summarize a file of any supported format (legacy or glTF): version, counts, names, bounds, and what it becomes in glTF.',
    )
    .argument('<file>', 'file to inspect')
    .option('--json', 'print JSON instead of tables')
    .action(async (file: string, opts: { json?: boolean }) => {
      const report = await inspectFile(file, formats);
      if (opts.json) {
        io.out(JSON.stringify(report, null, 2));
        return;
      }
      io.out(`${report.file}: ${report.format}, ${formatBytes(report.bytes)}`);
      for (const s of report.sections) {
        io.out(`\n${s.title}`);
        if (s.facts)
          io.out(
            renderTable(
              ['', ''],
              Object.entries(s.facts).map(([k, v]) => [k, String(v)]),
            )
              .split('\n')
              .slice(2)
              .join('\n'),
          );
        if (s.columns && s.rows) io.out(renderTable(s.columns, s.rows));
      }
    });

  program
    .command('validate')
    .description(
      'Run the Khronos glTF-Validator on a .glb or .gltf file; exit code 1 when it reports errors.',
    )
    .argument('<file>', '.glb or .gltf file')
    .option('--json', 'print the summary as JSON')
    .option('--max <n>', 'messages to list', '20')
    .action(async (file: string, opts: { json?: boolean; max: string }) => {
      const s = await validateFile(file);
      if (opts.json) io.out(JSON.stringify(s, null, 2));
      else {
        io.out(
          `${file}: ${s.errors} error(s), ${s.warnings} warning(s), ${s.infos} info(s), ${s.hints} hint(s) (glTF-Validator ${s.validatorVersion})`,
        );
        for (const m of s.messages.slice(0, Number(opts.max) || 20))
          io.out(`  ${m.severity} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
        if (s.messages.length > (Number(opts.max) || 20))
          io.out(`  … ${s.messages.length - (Number(opts.max) || 20)} more (--max)`);
      }
      setExit(s.errors > 0 ? EXIT.FAILED : EXIT.OK);
    });

  program
    .command('view')
    .description('Serve the browser viewer on localhost and open the given files in it (Ctrl-C stops).')
    .argument('<files...>', 'legacy models (companions beside them are loaded) or .glb/.gltf')
    .option('--port <n>', 'port on 127.0.0.1 (0: any free port)', '0')
    .option('--no-open', 'only print the URL')
    .action(async (files: string[], opts: { port: string; open: boolean }) => {
      const { serveViewer } = await import('@gltf-legacy/viewer');
      const v = await serveViewer(files, {
        port: positiveNumber('--port', opts.port, true, 0),
        open: opts.open,
      });
      io.out(`viewer: ${v.url} (${v.files.join(', ')}); Ctrl-C to stop`);
      await new Promise<void>((done) => process.once('SIGINT', () => void v.close().then(done)));
    });

  program
    .command('preview')
    .description(
      'Render a PNG thumbnail per model with headless Chromium (fixed camera framing the bounds, neutral light, first animation frame). Needs Debian chromium: apt-get install -y chromium.',
    )
    .argument('<inputs...>', 'files, folders or globs')
    .requiredOption('--out-dir <dir>', 'folder for the PNGs')
    .option('--size <px>', 'width and height in pixels', '512')
    .action(async (inputs: string[], opts: { outDir: string; size: string }) => {
      const { previewFiles } = await import('@gltf-legacy/viewer');
      const files = (await expandInputs(inputs, formats)).items.map((i) => i.input);
      const results = await previewFiles(files, {
        outDir: opts.outDir,
        size: positiveNumber('--size', opts.size, true, 16),
        onResult: (r) =>
          r.error
            ? io.err(`${r.input}: error ${r.error.code}: ${r.error.message}`)
            : io.out(`${r.input} → ${r.outputs.join(', ')}`),
      });
      setExit(results.some((r) => r.error) ? EXIT.FAILED : EXIT.OK);
    });

  program
    .command('formats')
    .description('List the registered formats, their extensions and capabilities.')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const all = formats ?? (await loadAllFormats());
      if (opts.json)
        io.out(
          JSON.stringify(
            all.map((f) => ({
              id: f.id,
              label: f.label,
              extensions: f.extensions,
              mainExtension: f.mainExtension,
              capabilities: f.capabilities,
            })),
            null,
            2,
          ),
        );
      else io.out(formatsTable(all));
    });

  return program;
}

/** Runs the CLI with `argv` (as `process.argv`); resolves to the exit code. */
export async function main(
  argv: string[],
  io: Output = defaultOutput,
  formats?: readonly LegacyFormat[],
  runtime: Runtime = {},
): Promise<number> {
  let code: number = EXIT.OK;
  const program = buildProgram(
    io,
    formats,
    (c) => {
      code = c;
    },
    runtime,
  );
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  try {
    await program.parseAsync(argv);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (
        e.code === 'commander.helpDisplayed' ||
        e.code === 'commander.version' ||
        e.code === 'commander.help'
      )
        return EXIT.OK;
      if (e.code === 'usage') io.err(`error: ${e.message}`);
      return EXIT.USAGE;
    }
    const r = toErrorRecord(e);
    io.err(`error ${r.code}: ${r.message}`);
    if (verbose && r.stack) io.err(r.stack);
    return EXIT.FAILED;
  }
}
