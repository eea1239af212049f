// Owns the read-only commands of the program: `inspect`, `validate` (many files and folders) and
// `warnings` (every warning code with its meaning).
import type { LegacyFormat } from '@gltf-legacy/core';
import type { Command } from 'commander';
import { extname } from 'node:path';
import { EXIT, type Output } from './command.js';
import { toErrorRecord } from './errors.js';
import { expandInputs } from './inputs.js';
import { inspectFile } from './inspect.js';
import { formatBytes, renderTable } from './table.js';
import { type ValidationSummary, validateFile } from './validate.js';
import { warningCodeRows, warningCodesMarkdown } from './warning-table.js';

/** What the commands print to and how they end. */
export interface CommandsContext {
  io: Output;
  formats?: readonly LegacyFormat[];
  setExit: (code: number) => void;
  resourceDirHelp: string;
}

const collect = (v: string, acc: string[]) => [...acc, v];

/** Adds `inspect <file> [--json] [--with f] [--no-companions] [--resource-dir d]`. */
export function addInspectCommand(program: Command, { io, formats, resourceDirHelp }: CommandsContext): void {
  program
    .command('inspect')
    .description(
      'Summarize a file of any supported format (legacy or glTF): version, counts, names, bounds, and what it becomes in glTF. Companion files beside it are read as convert reads them.',
    )
    .argument('<file>', 'file to inspect')
    .option('--json', 'print JSON instead of tables')
    .option('--with <file>', 'add a companion file (repeatable)', collect, [] as string[])
    .option('--no-companions', 'do not look for companion files beside the input')
    .option('--strict', 'import with strict: true (a quirk the games tolerated shows as the error it is)')
    .option('--resource-dir <dir>', resourceDirHelp)
    .action(
      async (
        file: string,
        opts: { json?: boolean; resourceDir?: string; with: string[]; companions: boolean; strict?: boolean },
      ) => {
        const report = await inspectFile(file, formats, {
          resourceDir: opts.resourceDir,
          with: opts.with,
          companions: opts.companions,
          strict: opts.strict,
        });
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
      },
    );
}

/** One validated input: the summary or why it could not be read. */
type ValidateResult = ValidationSummary | { file: string; error: { code: string; message: string } };

/** Adds `validate <inputs...> [--json] [--max n]`: files, folders (walked) and globs of .glb/.gltf. */
export function addValidateCommand(program: Command, { io, formats, setExit }: CommandsContext): void {
  program
    .command('validate')
    .description(
      'Run the Khronos glTF-Validator on .glb/.gltf files (folders are walked, globs matched); exit code 1 when any reports errors or cannot be read.',
    )
    .argument('<inputs...>', '.glb or .gltf files, folders or globs')
    .option('--json', 'print the summaries as JSON (an array when several files)')
    .option('--max <n>', 'messages to list per file', '20')
    .action(async (inputs: string[], opts: { json?: boolean; max: string }) => {
      const max = Number(opts.max) || 20;
      const expanded = await expandInputs(inputs, formats);
      const files = expanded.items
        .map((i) => i.input)
        .filter((f) => ['.glb', '.gltf'].includes(extname(f).toLowerCase()) || inputs.includes(f)); // a file named is validated whatever it is
      const results: ValidateResult[] = [];
      for (const file of files) {
        try {
          results.push(await validateFile(file));
        } catch (e) {
          const r = toErrorRecord(e);
          results.push({ file, error: { code: r.code, message: r.message } });
        }
      }
      if (!files.length) io.err(`error: no .glb or .gltf file in ${inputs.join(', ')}`);
      if (opts.json) io.out(JSON.stringify(results.length === 1 ? results[0] : results, null, 2));
      else
        for (const s of results) {
          if ('error' in s) {
            io.err(`${s.file}: error ${s.error.code}: ${s.error.message}`);
            continue;
          }
          io.out(
            `${s.file}: ${s.errors} error(s), ${s.warnings} warning(s), ${s.infos} info(s), ${s.hints} hint(s) (glTF-Validator ${s.validatorVersion})`,
          );
          for (const m of s.messages.slice(0, max))
            io.out(`  ${m.severity} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
          if (s.messages.length > max) io.out(`  … ${s.messages.length - max} more (--max)`);
        }
      if (!opts.json && results.length > 1) {
        const bad = results.filter((s) => 'error' in s || s.errors > 0).length;
        io.out(`${results.length} file(s) validated, ${bad} with errors`);
      }
      const failed = !files.length || results.some((s) => 'error' in s || s.errors > 0);
      setExit(failed ? EXIT.FAILED : EXIT.OK);
    });
}

/** Adds `warnings [--json] [--markdown]`: every warning code and what it means. */
export function addWarningsCommand(program: Command, { io }: CommandsContext): void {
  program
    .command('warnings')
    .description(
      "List every warning code with its meaning: core's shared codes, each format's own, and the CLI's.",
    )
    .option('--json', 'print JSON')
    .option('--markdown', 'print a Markdown table (the one in the cli README)')
    .action(async (opts: { json?: boolean; markdown?: boolean }) => {
      const rows = await warningCodeRows();
      if (opts.json) io.out(JSON.stringify(rows, null, 2));
      else if (opts.markdown) io.out(warningCodesMarkdown(rows));
      else
        io.out(
          renderTable(
            ['code', 'from', 'meaning'],
            rows.map((r) => [r.code, r.source, r.meaning]),
          ),
        );
    });
}
