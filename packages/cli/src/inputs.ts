import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { extName, type LegacyFormat, LegacyError } from '@gltf-legacy/core';
import { CONTAINER_EXTENSIONS, FORMAT_TABLE, loadAllFormats } from './format-table.js';
import { mainFormatOf } from './lookup.js';

/** One input of a batch: a file and where its outputs go below `--out-dir`. */
export interface BatchItem {
  /** Path of the input file (as given or found). */
  input: string;
  /** Folder below `--out-dir` that mirrors the input tree ('' for the top). */
  rel: string;
}

/** A file found in a folder or by a glob that is not converted on its own. */
export interface SkippedFile {
  path: string;
  reason: 'companion-or-unknown';
}

export interface ExpandedInputs {
  items: BatchItem[];
  skipped: SkippedFile[];
}

/** Extensions that always name a model to convert, whatever the bytes say (besides main extensions). */
const MODEL_EXTENSIONS = new Set(['.glb', '.gltf', ...CONTAINER_EXTENSIONS]);

/** Bytes read to sniff a file found in a folder: whole files up to this size. */
const SNIFF_LIMIT = 64 * 1024 * 1024;

// Synchronous file system calls: one quick system call each, where a promise was a trip through
// libuv's thread pool — four per file sniffed in a folder (issue 19).

function readHead(path: string): Uint8Array {
  // a FIFO or device a glob matched is not opened (a FIFO would wait for a writer): its
  // conversion reports NOT_A_FILE
  if (!statSync(path).isFile()) return new Uint8Array(0);
  const fd = openSync(path, 'r');
  try {
    const size = Math.min(fstatSync(fd).size, SNIFF_LIMIT);
    const buf = new Uint8Array(size);
    readSync(fd, buf, 0, size, 0);
    return buf;
  } finally {
    closeSync(fd);
  }
}

function walk(dir: string, out: string[]): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
}

/**
 * Expands command-line inputs into the files to convert. A file is taken as given; a folder is
 * walked recursively and a glob is matched, keeping only files that convert on their own (glTF,
 * a format's main file, a container) — companions are loaded by their main file, never twice.
 * Order is deterministic: inputs in the order given, folder contents sorted by name. A path that
 * does not exist is kept (its conversion reports FILE_NOT_FOUND).
 */
export async function expandInputs(
  inputs: string[],
  formats?: readonly LegacyFormat[],
): Promise<ExpandedInputs> {
  // (file names are checked against the format table: format packages are loaded only when a
  // folder or a glob has files to sniff)
  const known = new Set([
    '.glb',
    '.gltf',
    ...(formats ?? FORMAT_TABLE).flatMap((f) => f.extensions.map((e) => e.toLowerCase())),
  ]);
  const mains = (formats ?? FORMAT_TABLE).map((f) => f.mainExtension.toLowerCase());
  const items: BatchItem[] = [];
  const skipped: SkippedFile[] = [];
  const seen = new Set<string>();
  const add = (input: string, rel: string) => {
    const key = resolve(input);
    if (seen.has(key)) return;
    seen.add(key);
    items.push({ input, rel });
  };
  const consider = async (files: string[], base: string) => {
    for (const file of files) {
      const lower = file.toLowerCase();
      if (!known.has(extName(file)) && !mains.some((m) => lower.endsWith(m))) continue;
      formats ??= await loadAllFormats();
      // a file named like a model (a main extension, glTF, a package) that no reader accepts is an
      // input too: its record fails with the code the conversion gives (UNKNOWN_FORMAT, BAD_MAGIC…)
      // named like a model: an input whatever its bytes say, so they are not read here (the
      // conversion reads them once; issue 31: one open and read less per input of a batch)
      if (
        MODEL_EXTENSIONS.has(extName(file)) ||
        mains.some((m) => lower.endsWith(m)) ||
        mainFormatOf(readHead(file), file, formats)
      )
        add(file, relative(base, dirname(file)));
      else skipped.push({ path: file, reason: 'companion-or-unknown' });
    }
  };
  for (const input of inputs) {
    if (existsSync(input)) {
      if (statSync(input).isDirectory()) {
        const files: string[] = [];
        walk(input, files);
        await consider(files, input);
      } else add(input, '');
      continue;
    }
    // tinyglobby is loaded only for a path that does not exist (a glob or a missing file)
    const { glob, globBase, isDynamicPattern } = await import('./glob-base.js');
    if (isDynamicPattern(input.replace(/\\/g, '/'))) {
      const matches = (
        await glob(input.replace(/\\/g, '/'), { onlyFiles: true, dot: false, expandDirectories: false })
      ).sort();
      await consider(matches, globBase(input));
    } else add(input, '');
  }
  return { items, skipped };
}

/** A `--shard i/n` slice: 1-based index `i` of `n`. */
export interface Shard {
  index: number;
  count: number;
}

/** Parses `i/n` (1 ≤ i ≤ n); throws a LegacyError `BAD_SHARD` otherwise. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : Number.NaN;
  const count = m ? Number(m[2]) : Number.NaN;
  if (!(count >= 1 && index >= 1 && index <= count))
    throw new LegacyError('BAD_SHARD', `--shard expects i/n with 1 ≤ i ≤ n (e.g. 2/4), got "${text}"`);
  return { index, count };
}

/**
 * The items of one shard: every n-th item of the expanded list, starting at the i-th
 * (round-robin, so similar files in one folder spread over the shards). The n shards of the same
 * list cover every item exactly once.
 */
export function applyShard<T>(items: readonly T[], shard: Shard | undefined): T[] {
  if (!shard) return [...items];
  return items.filter((_, k) => k % shard.count === shard.index - 1);
}

/**
 * Inputs of one command that would write the same output: the same base name (`x` of `x.mdl`,
 * `x_d.3d`, `x.model`, `x.glb`) in the same output folder (`--out-dir` + the input's folder below
 * it, else the input's own folder). Containers (`.pak`) write into a folder of their own and are
 * not compared. Returns, for each input that clashes with an earlier one, the message of its
 * `OUTPUT_CONFLICT` error: the batch refuses those inputs before anything is converted or
 * written, so which one wins never depends on timing and nothing is silently replaced.
 *
 * ```ts
 * outputCollisions([{ input: 'a/x.mdl', rel: '' }, { input: 'b/x.mdl', rel: '' }], 'out');
 * // Map(1 → 'b/x.mdl would write out/x.* like a/x.mdl; …')
 * ```
 */
export function outputCollisions(
  items: readonly BatchItem[],
  outDir: string | undefined,
  formats: readonly { mainExtension: string }[] = FORMAT_TABLE,
): Map<number, string> {
  const containers = CONTAINER_EXTENSIONS;
  const seen = new Map<string, string>();
  const out = new Map<number, string>();
  for (const [k, { input, rel }] of items.entries()) {
    const name = basename(input);
    const lower = name.toLowerCase();
    if (containers.has(extName(name))) continue;
    const main = formats.map((f) => f.mainExtension.toLowerCase()).find((m) => lower.endsWith(m));
    const stem = main
      ? name.slice(0, name.length - main.length)
      : name.slice(0, name.length - extname(name).length);
    const key = join(outDir ? resolve(outDir, rel) : dirname(resolve(input)), stem);
    const other = seen.get(key);
    if (other === undefined) seen.set(key, input);
    else
      out.set(
        k,
        `${input} would write ${relative(process.cwd(), key) || key}.* like ${other} in this batch; not converted (give it another --out-dir or convert it separately)`,
      );
  }
  return out;
}
