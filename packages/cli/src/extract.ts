// Owns `gltf-legacy extract ARCHIVE --out-dir DIR`: every entry of a container (`.pak`, FAR, …)
// written under its path, decompressed, through core's `LegacyFormat.entries`.
import {
  type ContainerEntry,
  distinctPaths,
  LegacyError,
  type LegacyFormat,
  resolveReference,
  type UnpackLimits,
  UNPACK_LIMITS_DEFAULTS,
} from '@gltf-legacy/core';
import type { Command } from 'commander';
import { basename, relative } from 'node:path';
import { EXIT, type Output, parseByteSize, usage } from './command.js';
import { type ErrorRecord, toErrorRecord } from './errors.js';
import { outputPath, readInput, writeFilesAtomic } from './files.js';
import { loadAllFormats } from './format-table.js';
import { formatBytes, renderTable } from './table.js';

/** Options of {@link extractArchive}. */
export interface ExtractOptions {
  /** Folder the entries are written under (required unless `list`). */
  outDir?: string;
  /** Only list the entries; write nothing. */
  list?: boolean;
  /** Overwrite existing files. */
  force?: boolean;
  /** Largest unpacked entry and archive (`--max-unpacked`); default core's UNPACK_LIMITS_DEFAULTS. */
  limits?: Readonly<UnpackLimits>;
  /** The formats to try (default: every registered one). */
  formats?: readonly LegacyFormat[];
}

export const EXTRACT_DEFAULTS: Readonly<Required<Omit<ExtractOptions, 'outDir' | 'formats'>>> = Object.freeze(
  {
    list: false,
    force: false,
    limits: UNPACK_LIMITS_DEFAULTS,
  },
);

/** One entry of the archive and what became of it. */
export interface ExtractedEntry {
  /** The path as stored in the archive. */
  path: string;
  /** Where it was written, relative to the output folder (undefined when refused or failed). */
  written?: string;
  /** Set when another entry had the same path and this one was written under a new name. */
  renamedFrom?: string;
  size: number;
  packedSize: number;
  compression: string;
  kind?: string;
  ids?: Readonly<Record<string, number>>;
  /** Why the entry was not written (PATH_ESCAPE, a damaged entry, …). */
  error?: ErrorRecord;
}

export interface ExtractReport {
  archive: string;
  format: string;
  entries: ExtractedEntry[];
  /** Files written (absolute paths). */
  written: string[];
}

/** The entries of `bytes` by the first format that reads them as a container. */
function listEntries(
  bytes: Uint8Array,
  name: string,
  formats: readonly LegacyFormat[],
  limits: Readonly<UnpackLimits>,
): { format: LegacyFormat; entries: ContainerEntry[] } {
  const ext = name.toLowerCase();
  // formats that claim the bytes first (a damaged archive then gets its format's error instead
  // of "not a container"),
  const claims = (f: LegacyFormat) => {
    try {
      return f.sniff(bytes, name);
    } catch {
      return false;
    }
  };
  const withEntries = formats.filter((f) => f.entries);
  // then those that claim the extension, then the rest (`entries` answers undefined for bytes
  // that are not its container)
  const byExt = (f: LegacyFormat) => f.extensions.some((e) => ext.endsWith(e));
  const sniffed = withEntries.filter(claims);
  const ordered = [
    ...sniffed,
    ...withEntries.filter((f) => !sniffed.includes(f) && byExt(f)),
    ...withEntries.filter((f) => !sniffed.includes(f) && !byExt(f)),
  ];
  for (const format of ordered) {
    const entries = format.entries!(bytes, name, { limits });
    if (entries) return { format, entries };
  }
  throw new LegacyError(
    'NOT_A_CONTAINER',
    `${name}: not an archive gltf-legacy reads (.pak, FAR${withEntries.length ? '' : '; no container format is loaded'}); nothing was written`,
  );
}

/** Checks the sizes the table claims against the limits before anything is decompressed. */
function checkLimits(name: string, entries: ContainerEntry[], limits: Readonly<UnpackLimits>): void {
  let total = 0;
  for (const e of entries) {
    if (e.size > limits.maxEntryBytes)
      throw new LegacyError(
        'UNPACKED_TOO_LARGE',
        `${name}: entry "${e.path}" unpacks to ${e.size} bytes, more than the limit of ${limits.maxEntryBytes} per entry (raise it with --max-unpacked); nothing was written`,
      );
    total += e.size;
  }
  if (total > limits.maxTotalBytes)
    throw new LegacyError(
      'UNPACKED_TOO_LARGE',
      `${name}: the archive unpacks to ${total} bytes, more than the limit of ${limits.maxTotalBytes} per archive (raise it with --max-unpacked); nothing was written`,
    );
}

/**
 * Writes every entry of a container under `outDir`, decompressed. Entry paths are untrusted: one
 * that is absolute, climbs out (`..`) or holds a NUL is refused (`PATH_ESCAPE`, in the entry's
 * record); two entries with one path (case-insensitively) are both kept, the later ones as
 * `name~2.ext`, … (`renamedFrom`); the sizes the table claims are checked against `limits`
 * first (`UNPACKED_TOO_LARGE`); files are written all or none, never over an existing file
 * without `force`.
 *
 * ```ts
 * const report = await extractArchive('Data.pak', { outDir: 'out' });
 * report.entries.filter((e) => e.error); // refused or damaged entries
 * ```
 */
export async function extractArchive(archive: string, options: ExtractOptions = {}): Promise<ExtractReport> {
  const limits = options.limits ?? EXTRACT_DEFAULTS.limits;
  const name = basename(archive);
  const bytes = readInput(archive);
  const { format, entries } = listEntries(bytes, name, options.formats ?? (await loadAllFormats()), limits);
  checkLimits(name, entries, limits);
  const records: ExtractedEntry[] = entries.map((e) => ({
    path: e.path,
    size: e.size,
    packedSize: e.packedSize,
    compression: e.compression,
    kind: e.kind,
    ids: e.ids,
  }));
  const report: ExtractReport = { archive, format: format.id, entries: records, written: [] };
  // safe relative paths (or the refusal) per entry
  const safe: (string | undefined)[] = entries.map((e, i) => {
    try {
      return resolveReference(e.path, '', { file: name });
    } catch (err) {
      records[i].error = toErrorRecord(err);
      return undefined;
    }
  });
  const accepted = safe.flatMap((p, i) => (p === undefined ? [] : [i]));
  const unique = distinctPaths(accepted.map((i) => safe[i]!));
  if (options.list) return report;
  if (!options.outDir) throw new LegacyError('USAGE', 'extract needs --out-dir (or --list)');
  const outputs = new Map<string, Uint8Array>();
  accepted.forEach((i, k) => {
    const rec = records[i];
    try {
      const data = entries[i].read();
      const path = outputPath(options.outDir!, unique[k], name);
      outputs.set(path, data);
      rec.written = unique[k];
      if (unique[k] !== safe[i]) rec.renamedFrom = safe[i];
    } catch (err) {
      rec.error = toErrorRecord(err);
    }
  });
  report.written = await writeFilesAtomic(outputs, options.force ?? EXTRACT_DEFAULTS.force);
  return report;
}

function idsText(ids?: Readonly<Record<string, number>>): string {
  if (!ids) return '';
  return Object.entries(ids)
    .map(([k, v]) => `${k}=0x${(v >>> 0).toString(16).padStart(8, '0')}`)
    .join(' ');
}

/** Adds `extract <archive> --out-dir <dir> [--list] [--max-unpacked size] [--force] [--json]`. */
export function addExtractCommand(
  program: Command,
  ctx: { io: Output; formats?: readonly LegacyFormat[]; setExit: (code: number) => void },
): void {
  const { io, setExit } = ctx;
  program
    .command('extract')
    .description(
      'Write every entry of an archive (.pak, FAR) under --out-dir, decompressed, at its path inside the archive. An entry path that is absolute or climbs out with ".." is refused (PATH_ESCAPE); two entries with one path are both kept (the later as NAME~2.EXT, reported); nothing existing is overwritten without --force.',
    )
    .argument('<archive>', 'the archive')
    .option('--out-dir <dir>', 'folder to write the entries under')
    .option('--list', 'only list the entries (path, size, stored size, compression, ids); write nothing')
    .option(
      '--max-unpacked <size>',
      'largest unpacked size of one entry and of the whole archive, e.g. 2G (default 256M per entry, 512M per archive; code UNPACKED_TOO_LARGE above)',
    )
    .option('-f, --force', 'overwrite existing files')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      `
Examples:
  gltf-legacy extract Data.pak --out-dir data/          # Models/…, Materials/…, Textures/…
  gltf-legacy extract avatardata.dat --list             # a FAR archive's entries and ids

Exit code: 0 when every entry was written, 1 when any was refused or damaged (the others are written), 2 on a usage error.`,
    )
    .action(
      async (
        archive: string,
        opts: { outDir?: string; list?: boolean; maxUnpacked?: string; force?: boolean; json?: boolean },
      ) => {
        if (!opts.outDir && !opts.list) throw usage('extract needs --out-dir DIR or --list');
        const max =
          opts.maxUnpacked === undefined ? undefined : parseByteSize('--max-unpacked', opts.maxUnpacked);
        let report: ExtractReport;
        try {
          report = await extractArchive(archive, {
            outDir: opts.outDir,
            list: opts.list,
            force: opts.force,
            limits: max === undefined ? undefined : { maxEntryBytes: max, maxTotalBytes: max },
            formats: ctx.formats,
          });
        } catch (e) {
          const r = toErrorRecord(e);
          io.err(`${archive}: error ${r.code}: ${r.message}`);
          setExit(EXIT.FAILED);
          return;
        }
        const bad = report.entries.filter((e) => e.error);
        if (opts.json) io.out(JSON.stringify(report, null, 2));
        else {
          if (opts.list)
            io.out(
              renderTable(
                ['path', 'size', 'stored', 'compression', 'kind', 'ids'],
                report.entries.map((e) => [
                  e.path,
                  e.size,
                  e.packedSize,
                  e.compression,
                  e.kind ?? '',
                  idsText(e.ids),
                ]),
              ),
            );
          for (const e of report.entries) {
            if (e.error) io.err(`${archive}: entry "${e.path}": error ${e.error.code}: ${e.error.message}`);
            else if (e.renamedFrom)
              io.out(
                `${archive}: entry "${e.path}" written as ${e.written} (another entry has the path ${e.renamedFrom})`,
              );
          }
          const bytes = report.entries.reduce((s, e) => s + (e.written ? e.size : 0), 0);
          io.out(
            opts.list
              ? `${archive}: ${report.entries.length} entries (${report.format})`
              : `${archive}: ${report.written.length} of ${report.entries.length} entries written (${formatBytes(bytes)}) to ${relative(process.cwd(), opts.outDir!) || '.'}${bad.length ? `; ${bad.length} refused or damaged` : ''}`,
          );
        }
        setExit(bad.length ? EXIT.FAILED : EXIT.OK);
      },
    );
}
