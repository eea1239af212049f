// Owns the listing of every format's own options (`LegacyFormat.options`): the end of
// `convert --help` and `formats --options`. A format that declares a new option shows up here.
import type { Command } from 'commander';
import type { FormatOptionInfo, LegacyFormat } from '@gltf-legacy/core';
import { loadAllFormats } from './format-table.js';

const WIDTH = 100;

/** `text` broken into lines of at most `width` characters (words never split), each indented. */
function wrap(text: string, indent: string, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

/** One option as two or more lines: `key=values  (use, default …, flag …)` and its description. */
function optionLines(o: FormatOptionInfo): string[] {
  const head = `${o.name}=${o.values}`;
  const facts = [o.use === 'both' ? 'import and export' : o.use, `default: ${o.default}`];
  if (o.flag) facts.push(`also ${o.flag}`);
  return [`    ${head}  (${facts.join('; ')})`, ...wrap(o.description, '        ')];
}

/**
 * The options every format declares, grouped by format, as plain text.
 *
 * ```ts
 * io.out(formatOptionsText(await loadAllFormats()));
 * // urho3d
 * //     materials=auto|true|false  (export; default: auto)
 * //         write Materials/*.xml, Textures/* and a prefab …
 * ```
 */
export function formatOptionsText(formats: readonly LegacyFormat[]): string {
  const out: string[] = [];
  for (const f of formats) {
    if (!f.options?.length) continue;
    out.push(`  ${f.id}`);
    for (const o of f.options) out.push(...optionLines(o));
  }
  return out.join('\n');
}

/** The rows of `formats --options --json`: one per option, with its format id. */
export function formatOptionRows(
  formats: readonly LegacyFormat[],
): (FormatOptionInfo & { format: string })[] {
  return formats.flatMap((f) => (f.options ?? []).map((o) => ({ format: f.id, ...o })));
}

const HEADING =
  'Format options: --option key=value (repeatable; true/false and numbers are read as such), passed to the import and export of that format. Each format README says more.';

/**
 * Ends the help of `convert` with every format's options. Without `formats` the format packages
 * are loaded only when help is asked for (a `preSubcommand` hook of `program`, awaited by
 * `parseAsync`); `gltf-legacy help convert`, which skips that hook, points to `formats --options`.
 *
 * ```ts
 * addFormatOptionsHelp(program, program.commands.find((c) => c.name() === 'convert')!);
 * ```
 */
export function addFormatOptionsHelp(
  program: Command,
  convert: Command,
  formats?: readonly LegacyFormat[],
): void {
  let loaded = formats;
  program.hook('preSubcommand', async (cmd, sub) => {
    if (!loaded && sub === convert && cmd.args.some((a) => a === '-h' || a === '--help'))
      loaded = await loadAllFormats();
  });
  convert.addHelpText('after', () =>
    loaded
      ? `\n${wrap(HEADING, '').join('\n')}\n${formatOptionsText(loaded)}`
      : '\nFormat options (--option key=value): run `gltf-legacy formats --options` for every format\u2019s options, values and defaults.',
  );
}
