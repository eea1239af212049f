import { Command, CommanderError, Option } from 'commander';
import type { LegacyFormat, Warning } from '@gltf-legacy/core';
import { type ConvertOptions, type ConvertRecord, convertFile } from './convert.js';
import { toErrorRecord } from './errors.js';
import { inspectFile } from './inspect.js';
import { FORMATS } from './registry.js';
import { formatBytes, renderTable } from './table.js';
import { validateFile } from './validate.js';

/** Exit codes: 0 all ok, 1 some input failed, 2 usage error. */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2 } as const;

interface Output {
  out: (s: string) => void;
  err: (s: string) => void;
}

const defaultOutput: Output = {
  out: (s) => process.stdout.write(`${s}\n`),
  err: (s) => process.stderr.write(`${s}\n`),
};

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
    out(`  warning ${code} ×${g.count}: ${shown[0].message}${!verbose && g.messages.length > 1 ? ` (+${g.messages.length - 1} more kinds, --verbose)` : ''}`);
    if (verbose) for (const m of shown.slice(1)) out(`    ${m.message} (×${m.count})`);
  }
}

function parseFormatOptions(opts: Record<string, unknown>): Record<string, unknown> {
  const fo: Record<string, unknown> = {};
  if (opts.fps !== undefined) {
    const fps = Number(opts.fps);
    if (!(fps > 0 && fps <= 1000)) throw new CommanderError(EXIT.USAGE, 'usage', `--fps must be a number in (0, 1000], got ${opts.fps}`);
    fo.fps = fps;
  }
  if (opts.variant) fo.variant = opts.variant;
  if (opts.static) fo.frames = 'first';
  for (const kv of (opts.option as string[] | undefined) ?? []) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new CommanderError(EXIT.USAGE, 'usage', `--option expects key=value, got "${kv}"`);
    const v = kv.slice(i + 1);
    fo[kv.slice(0, i)] = v === 'true' ? true : v === 'false' ? false : v !== '' && !Number.isNaN(Number(v)) ? Number(v) : v;
  }
  return fo;
}

function formatsTable(formats: readonly LegacyFormat[]): string {
  const yes = (b: boolean | undefined) => (b ? 'yes' : '-');
  return renderTable(
    ['id', 'format', 'extensions', 'import', 'export', 'skins', 'morphs', 'animations'],
    [
      ...formats.map((f) => [f.id, f.label, f.extensions.join(' '), yes(f.capabilities.import), yes(f.capabilities.export), yes(f.capabilities.skins), yes(f.capabilities.morphTargets), yes(f.capabilities.animations)]),
      ['glb', 'glTF 2.0 binary', '.glb', 'yes', 'yes', 'yes', 'yes', 'yes'],
      ['gltf', 'glTF 2.0 JSON', '.gltf', 'yes', 'yes', 'yes', 'yes', 'yes'],
    ],
  );
}

/** Prints one conversion record: outputs or the error, and warnings. */
export function printRecord(r: ConvertRecord, io: Output, opts: { quiet?: boolean; verbose?: boolean }): void {
  if (r.status === 'ok') {
    if (!opts.quiet) io.out(`${r.input} (${r.format}) → ${r.outputs.join(', ')}  [${r.ms} ms]`);
  } else {
    io.err(`error ${r.error!.code}: ${r.error!.message}`);
    if (opts.verbose && r.error!.stack) io.err(r.error!.stack);
  }
  if (!opts.quiet && r.warnings.length) printWarnings(r.warnings, io.err, opts.verbose);
}

/** Builds the commander program (exported for tests). */
export function buildProgram(io: Output = defaultOutput, formats: readonly LegacyFormat[] = FORMATS, setExit: (c: number) => void = () => {}): Command {
  const program = new Command('gltf-legacy')
    .description('Convert legacy game models (Unreal 1 vertex meshes, Urho3D, Legend of Grimrock, The Sims Online, Unigine) to glTF 2.0 and back.')
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
    .option('-o, --output <file>', 'output file (one input only); .glb/.gltf, or a legacy name such as NAME_d.3d or NAME.mdl')
    .option('--out-dir <dir>', 'output folder; names come from each input (NAME for NAME_d.3d)')
    .option('--to <format>', `target format: glb (default for legacy input), gltf, ${formats.map((f) => f.id).join(', ')}`)
    .option('--with <file>', 'add a companion file (repeatable)', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--no-companions', 'do not look for companion files beside the input')
    .option('--skeleton <file.skel>', 'The Sims Online: the skeleton the mesh binds to (same as --with)')
    .option('--static', 'Unreal: import frame 0 only (no morph-target animation)')
    .option('--fps <n>', 'frames per second for animation import/resampling (formats that use it)')
    .option('--variant <name>', 'export variant: deusex (unreal3d), log2 (grimrock)')
    .option('--option <key=value>', 'a format-specific option (repeatable)', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('-f, --force', 'overwrite existing outputs')
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

Exit code: 0 when every input converted, 1 when any failed, 2 on a usage error.`,
    )
    .action(async (inputs: string[], opts: Record<string, any>) => {
      if (opts.output && inputs.length > 1) throw new CommanderError(EXIT.USAGE, 'usage', '-o/--output takes one input; use --out-dir for several');
      const options: ConvertOptions = {
        output: opts.output,
        outDir: opts.outDir,
        to: opts.to,
        force: !!opts.force,
        with: [...(opts.with ?? []), ...(opts.skeleton ? [opts.skeleton] : [])],
        companions: opts.companions !== false,
        formatOptions: parseFormatOptions(opts),
        formats,
      };
      let failed = 0;
      for (const input of inputs) {
        const r = await convertFile(input, options);
        if (r.status === 'error') failed++;
        printRecord(r, io, opts);
      }
      if (inputs.length > 1 && !opts.quiet) io.out(`${inputs.length - failed} converted, ${failed} failed`);
      setExit(failed ? EXIT.FAILED : EXIT.OK);
    });

  program
    .command('inspect')
    .description('Summarize a file of any supported format (legacy or glTF): version, counts, names, bounds, and what it becomes in glTF.')
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
        if (s.facts) io.out(renderTable(['', ''], Object.entries(s.facts).map(([k, v]) => [k, String(v)])).split('\n').slice(2).join('\n'));
        if (s.columns && s.rows) io.out(renderTable(s.columns, s.rows));
      }
    });

  program
    .command('validate')
    .description('Run the Khronos glTF-Validator on a .glb or .gltf file; exit code 1 when it reports errors.')
    .argument('<file>', '.glb or .gltf file')
    .option('--json', 'print the summary as JSON')
    .option('--max <n>', 'messages to list', '20')
    .action(async (file: string, opts: { json?: boolean; max: string }) => {
      const s = await validateFile(file);
      if (opts.json) io.out(JSON.stringify(s, null, 2));
      else {
        io.out(`${file}: ${s.errors} error(s), ${s.warnings} warning(s), ${s.infos} info(s), ${s.hints} hint(s) (glTF-Validator ${s.validatorVersion})`);
        for (const m of s.messages.slice(0, Number(opts.max) || 20)) io.out(`  ${m.severity} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
        if (s.messages.length > (Number(opts.max) || 20)) io.out(`  … ${s.messages.length - (Number(opts.max) || 20)} more (--max)`);
      }
      setExit(s.errors > 0 ? EXIT.FAILED : EXIT.OK);
    });

  program
    .command('formats')
    .description('List the registered formats, their extensions and capabilities.')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) => {
      if (opts.json) io.out(JSON.stringify(formats.map((f) => ({ id: f.id, label: f.label, extensions: f.extensions, mainExtension: f.mainExtension, capabilities: f.capabilities })), null, 2));
      else io.out(formatsTable(formats));
    });

  return program;
}

/** Runs the CLI with `argv` (as `process.argv`); resolves to the exit code. */
export async function main(argv: string[], io: Output = defaultOutput, formats: readonly LegacyFormat[] = FORMATS): Promise<number> {
  let code: number = EXIT.OK;
  const program = buildProgram(io, formats, (c) => {
    code = c;
  });
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  try {
    await program.parseAsync(argv);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.OK;
      if (e.code === 'usage') io.err(`error: ${e.message}`);
      return EXIT.USAGE;
    }
    const r = toErrorRecord(e);
    io.err(`error ${r.code}: ${r.message}`);
    if (verbose && r.stack) io.err(r.stack);
    return EXIT.FAILED;
  }
}
