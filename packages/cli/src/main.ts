// Owns the entry point: `main(argv)` and the commander-free fast path of a single conversion.
import type { LegacyFormat } from '@gltf-legacy/core';
import { defaultOutput, EXIT, type Output, type Runtime, UsageError } from './command.js';
import { toErrorRecord } from './errors.js';
import { runConvert } from './run-convert.js';

export { defaultOutput, EXIT, type Output, positiveNumber, type Runtime, UsageError } from './command.js';
export { printRecord, printWarnings, runConvert } from './run-convert.js';

const SIMPLE_FLAGS: Record<string, string> = {
  '-f': 'force',
  '--force': 'force',
  '--static': 'static',
  '-q': 'quiet',
  '--quiet': 'quiet',
  '-v': 'verbose',
  '--verbose': 'verbose',
  '--float': 'float',
  '--compact': 'compact',
};

/** `--no-*` flags of the fast path: the option commander defaults to true, set to false. */
const SIMPLE_NEGATED: Record<string, string> = {
  '--no-frame-normals': 'frameNormals',
};

/**
 * The common `convert <file> -o <out> [--force] [--static] [--compact|--float] [--no-frame-normals] [-q] [-v]`
 * parsed without commander
 * (loading commander costs ~40 ms of a ~0.5 s conversion). Returns undefined for anything else —
 * any other flag, a repeated flag, `--`, `--output=x`, several inputs — which goes through
 * commander as before. The options object is the one commander would build.
 */
export function simpleConvertArgs(
  argv: string[],
): { inputs: string[]; opts: Record<string, unknown> } | undefined {
  const args = argv.slice(2);
  if (args[0] !== 'convert') return undefined;
  const opts: Record<string, unknown> = {
    with: [],
    option: [],
    materials: [],
    companions: true,
    progress: true,
    frameNormals: true,
  };
  const inputs: string[] = [];
  const seen = new Set<string>();
  for (let i = 1; i < args.length; i++) {
    const a = args[i];
    const flag = SIMPLE_FLAGS[a] ?? SIMPLE_NEGATED[a];
    if (flag) {
      if (seen.has(flag)) return undefined;
      seen.add(flag);
      opts[flag] = !SIMPLE_NEGATED[a];
    } else if (a === '-o' || a === '--output') {
      const v = args[++i];
      if (opts.output !== undefined || v === undefined || v.startsWith('-')) return undefined;
      opts.output = v;
    } else if (a.startsWith('-') || inputs.length) return undefined;
    else inputs.push(a);
  }
  return inputs.length === 1 && opts.output !== undefined ? { inputs, opts } : undefined;
}

/** Runs the CLI with `argv` (as `process.argv`); resolves to the exit code. */
export async function main(
  argv: string[],
  io: Output = defaultOutput,
  formats?: readonly LegacyFormat[],
  runtime: Runtime = {},
): Promise<number> {
  let code: number = EXIT.OK;
  const setExit = (c: number) => {
    code = c;
  };
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  // commander (and every other command) is loaded only when the arguments need it
  const simple = simpleConvertArgs(argv);
  let commander: typeof import('commander') | undefined;
  try {
    if (simple) await runConvert(simple.inputs, simple.opts, { io, formats, setExit, runtime });
    else {
      commander = await import('commander');
      const { buildProgram } = await import('./program.js');
      await buildProgram(io, formats, setExit, runtime).parseAsync(argv);
    }
    return code;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`error: ${e.message}`);
      return EXIT.USAGE;
    }
    if (commander && e instanceof commander.CommanderError) {
      if (
        e.code === 'commander.helpDisplayed' ||
        e.code === 'commander.version' ||
        e.code === 'commander.help'
      )
        return EXIT.OK;
      return EXIT.USAGE;
    }
    const r = toErrorRecord(e);
    io.err(`error ${r.code}: ${r.message}`);
    if (verbose && r.stack) io.err(r.stack);
    return EXIT.FAILED;
  }
}
