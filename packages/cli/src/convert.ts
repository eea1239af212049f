import { readdirSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import type { Document } from '@gltf-transform/core';
import {
  type DocumentStats,
  documentStats,
  type FileSet,
  type LegacyFormat,
  LegacyError,
  joinPath,
  leanDocument,
  printable,
  type ResourceReader,
  setUnpackLimits,
  type UnpackLimits,
  type Warning,
  WarningCollector,
} from '@gltf-legacy/core';
import { looseCounterpart } from './archive-loose.js';
import { archiveResources } from './archive-resources.js';
import { unpackInput } from './containers.js';
import { type FolderEntry, FolderIndex, FolderListing } from './folder-index.js';
import { inputResources } from './folder-resources.js';
import { readGlbFile, readGltfJson } from './gltf-input.js';
import { type ErrorRecord, toErrorRecord } from './errors.js';
import { outputPath, readInput as readBytes, writeFilesAtomic } from './files.js';
import { FastVertexWrite, streamFastGlb, writeFastJSON } from './fast-vertex-write.js';
import type { OutputData } from './streamed-file.js';
import { formatsFor } from './format-table.js';
import { codecsFor, createCodecNodeIO, createWriterNodeIO } from './gltf-io.js';
import { formatById, formatForOutput } from './lookup.js';
import { type OptimizeOptions, optimizeFlags, optimizeTransform } from './optimize.js';
import { WarningLogger } from './library-log.js';
import { checkSizes, noteSteps, recordSourceSizes } from './size-check.js';
import { fileSafeName, modelBaseName, sniffFormat } from '@gltf-legacy/core';

/** Options of {@link convertFile}. */
export interface ConvertOptions {
  /** Output file (`-o`). Its extension picks glb/gltf or the legacy format. */
  output?: string;
  /** Output folder (`--out-dir`); names come from the input's base name. */
  outDir?: string;
  /** Target: a legacy format id, `glb` or `gltf`. Default: glb for legacy input. */
  to?: string;
  /** Overwrite existing outputs. */
  force?: boolean;
  /** Extra companion files (`--with`). */
  with?: string[];
  /** Discover companion files beside the input (default true). */
  companions?: boolean;
  /**
   * Convert only this model of a container (`--mesh NAME`: an Unreal package's mesh, a `.pak`
   * entry), matched case-insensitively against its output name; others are left out.
   */
  entry?: string;
  /** Options passed to the format's import and export (fps, variant, frames, …). */
  formatOptions?: Record<string, unknown>;
  /** A step run on the document between import and write (the optimize chain). */
  transform?: (doc: Document) => Promise<void>;
  /** The optimize chain as plain options (used when `transform` is not given; see optimize.ts). */
  optimize?: OptimizeOptions;
  /**
   * The formats to use (default: every registered one; only the packages this input and target
   * need are loaded, see format-table.ts).
   */
  formats?: readonly LegacyFormat[];
  /**
   * The folder textures, material files and glTF buffers/images are read from
   * (`--resource-dir`). Default: the format's `resourceRoot` when it is an ancestor of the input,
   * else the input's folder. Nothing outside it is read.
   */
  resourceDir?: string;
  /** Bound on the unpacked bytes of a container (`--max-unpacked`): per entry and per package. */
  maxUnpacked?: number;
  /**
   * Folder listings shared by a batch (companions and resource trees: each folder read once per
   * batch, issue 31). Default: a fresh index per conversion.
   */
  folders?: FolderIndex;
  /**
   * Set by a batch for a container input: the batch's other inputs below its folder. A model
   * entry that is one of them is left to that input's record (`CONTAINER_ENTRY_LOOSE`).
   */
  looseInputs?: string[];
}

export const CONVERT_DEFAULTS: Required<Pick<ConvertOptions, 'force' | 'companions'>> = {
  force: false,
  companions: true,
};

/** The outcome of converting one input: also the record format of `--report`. */
export interface ConvertRecord {
  input: string;
  format: string;
  outputs: string[];
  status: 'ok' | 'error';
  error?: ErrorRecord;
  warnings: Warning[];
  stats?: Pick<DocumentStats, 'vertices' | 'triangles' | 'joints' | 'morphTargets' | 'animations'>;
  ms: number;
}

interface Loaded {
  document: Document;
  format: string;
  /** Base name for outputs (`Skull` for `Skull_d.3d`). */
  base: string;
}

/** The base name of outputs for a legacy main file (`Skull` for `Skull_d.3d`). */
export const outputBase = modelBaseName;

function unknownFormat(path: string, bytes: Uint8Array): LegacyError {
  return new LegacyError(
    'UNKNOWN_FORMAT',
    `${path}: not a format gltf-legacy reads (first bytes "${printable(bytes.subarray(0, 8))}"); run \`gltf-legacy formats\` for the list`,
  );
}

async function importLegacy(
  format: LegacyFormat,
  files: FileSet,
  main: string,
  options: ConvertOptions,
  warnings: WarningCollector,
  resources: {
    resources: ResourceReader;
    resourcePath: string;
    /** A container's entry: the folder tree the container sits in, and its path there. */
    containerResources?: ResourceReader;
    containerPath?: string;
  },
): Promise<Document> {
  const result = await format.import(files, {
    ...options.formatOptions,
    main,
    resources: resources.resources,
    resourcePath: resources.resourcePath,
    // a container's models read its entries; a format may also look beside the container
    // (Unreal: textures of the packages a package imports, in the game folder)
    ...(resources.containerResources
      ? { containerResources: resources.containerResources, containerPath: resources.containerPath }
      : {}),
  });
  warnings.merge(result.warnings);
  recordSourceSizes(result.document, format.id, main, files);
  if (options.formatOptions?.lean) leanDocument(result.document);
  return result.document;
}

/**
 * The folder of a package entry as a relative output folder: `A/B/` → `A/B`. A name that would
 * leave the output folder (`../x.mdl`, `/x.mdl`, `C:x`) is refused (PATH_ESCAPE).
 */
function entryFolder(folder: string, input: string): string {
  if (!folder) return '';
  const probe = outputPath('/', `${folder}x`, basename(input));
  return dirname(probe).split(sep).filter(Boolean).join(sep);
}

/**
 * Reads the companions of a legacy main file from its folder and `--with`. The folder's names
 * come from `options.folders` (a batch's {@link FolderIndex}: listed once for every input of the
 * batch), and each name the format picks is checked in constant time.
 *
 * ```ts
 * const folders = new FolderIndex();
 * const files = await gatherFiles('Models/Skull_d.3d', unreal3d, bytes, { folders }); // + Skull_a.3d
 * ```
 */
export async function gatherFiles(
  path: string,
  format: LegacyFormat,
  bytes: Uint8Array,
  options: Pick<ConvertOptions, 'companions' | 'with' | 'folders'>,
): Promise<FileSet> {
  const name = basename(path);
  const files: FileSet = new Map([[name, bytes]]);
  if ((options.companions ?? true) && format.companions) {
    const dir = dirname(path);
    const listing = (options.folders ?? new FolderIndex()).listing(resolve(dir));
    // a folder that cannot be listed fails as it did before the index (EACCES, ENOENT, …)
    if (!listing) readdirSync(dir);
    // constant-time lookups when the format offers them; else the folder's files, shared
    // (frozen) by every input of the batch (formats skip the main file's own name)
    const picked =
      format.companionsIn && listing
        ? format.companionsIn(name, listing.lookup())
        : format.companions(name, (listing?.files() ?? []) as string[]);
    for (const c of picked) {
      if (!files.has(c) && c !== name && listing?.kind(c) === 'file') files.set(c, readBytes(join(dir, c)));
    }
  }
  for (const extra of options.with ?? []) files.set(basename(extra), readBytes(extra));
  return files;
}

/** Which entries of a container are models to convert: main files of a format, by extension. */
function containerModels(entries: FileSet, formats: readonly LegacyFormat[]): [string, LegacyFormat][] {
  const out: [string, LegacyFormat][] = [];
  for (const [name, bytes] of entries) {
    const f = sniffFormat(bytes, name, formats);
    if (typeof f === 'object' && name.toLowerCase().endsWith(f.mainExtension.toLowerCase()))
      out.push([name, f]);
  }
  return out;
}

/** A container's entries by folder (`A/B/`, '' for the top), each a listing of the names in it. */
function containerFolders(entries: FileSet): Map<string, FolderListing> {
  const names = new Map<string, FolderEntry[]>();
  for (const n of entries.keys()) {
    const folder = folderOf(n);
    const list = names.get(folder) ?? [];
    list.push({ name: n.slice(folder.length), kind: 'file' });
    names.set(folder, list);
  }
  return new Map([...names].map(([folder, list]) => [folder, new FolderListing(list)]));
}

function folderOf(name: string): string {
  const i = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  return i >= 0 ? name.slice(0, i + 1) : '';
}

/**
 * Adds an output; two outputs of one conversion with the same name (two entries of a package,
 * an exporter's file named like another) are an error before anything is written.
 */
export function addOutput(
  outputs: Map<string, OutputData>,
  path: string,
  data: OutputData,
  from: string,
): void {
  if (outputs.has(path))
    throw new LegacyError(
      'OUTPUT_CONFLICT',
      `${from}: ${relative(process.cwd(), path) || path} would be written twice by this conversion; nothing was written`,
    );
  outputs.set(path, data);
}

/** The limits of `--max-unpacked` (both per entry and per package), or undefined for the defaults. */
export function unpackLimitsOf(maxUnpacked: number | undefined): Partial<UnpackLimits> | undefined {
  return maxUnpacked === undefined ? undefined : { maxEntryBytes: maxUnpacked, maxTotalBytes: maxUnpacked };
}

/** Encodes a document as .glb, or .gltf + .bin named after `target`, into `outputs` (not written yet). */
export async function writeGltf(
  doc: Document,
  target: string,
  binary: boolean,
  options: Pick<ConvertOptions, 'formats' | 'optimize'>,
  outputs: Map<string, OutputData>,
): Promise<void> {
  const io = await createWriterNodeIO(doc, {
    draco: !!options.optimize?.draco,
    meshopt: !!options.optimize?.meshopt,
  });
  io.registerExtensions([FastVertexWrite]);
  if (binary) {
    // a GLB holds one buffer: merge those of a multi-buffer .gltf input
    if (doc.getRoot().listBuffers().length > 1) {
      const { unpartition } = await import('@gltf-transform/functions');
      await doc.transform(unpartition());
    }
    // written piece by piece from the accessors (io.writeBinary makes three copies of the buffer)
    addOutput(outputs, target, await streamFastGlb(io, doc), basename(target));
    return;
  }
  const base = basename(target, extname(target));
  // name the binary buffer after the output so several conversions can share a folder
  for (const buffer of doc.getRoot().listBuffers()) buffer.setURI(`${base}.bin`);
  const { json, resources } = await writeFastJSON(io, doc);
  addOutput(outputs, target, new TextEncoder().encode(JSON.stringify(json, null, 2)), basename(target));
  // image and buffer URIs come from the document (untrusted names): inside the output's folder only
  for (const [uri, data] of Object.entries(resources))
    addOutput(outputs, outputPath(dirname(target), uri, basename(target)), data, basename(target));
}

/**
 * Converts one input file. Never throws: failures are returned as a record with an error code.
 * Legacy → glTF (default `.glb` beside the input), glTF → legacy (`--to` or the output
 * extension), and legacy → legacy through glTF. Containers (`.pak`) convert every model inside.
 *
 * ```ts
 * const record = await convertFile('Jack.mdl', { outDir: 'out' });
 * if (record.status === 'error') console.error(record.error.code, record.error.message);
 * ```
 */
export async function convertFile(input: string, options: ConvertOptions = {}): Promise<ConvertRecord> {
  const start = performance.now();
  const { record, outputs } = await prepareConversion(input, options);
  if (record.status === 'ok') {
    try {
      record.outputs = (await writeFilesAtomic(outputs, options.force ?? false)).map(
        (p) => relative(process.cwd(), p) || p,
      );
    } catch (e) {
      record.status = 'error';
      record.error = toErrorRecord(e);
    }
  }
  record.ms = Math.round(performance.now() - start);
  return record;
}

/**
 * Reads the input and imports it (every model of a container): the input's bytes live only in
 * this function, so they can be collected before the output is encoded (an input can be
 * 17 MB of a 200 MB peak).
 */
async function loadDocuments(
  input: string,
  options: ConvertOptions,
  warnings: WarningCollector,
  record: ConvertRecord,
): Promise<{ docs: Loaded[]; formats: readonly LegacyFormat[] }> {
  const bytes = readBytes(input);
  const formats = options.formats ?? (await formatsFor(bytes, input, options));
  const kind = sniffFormat(bytes, input, formats);
  if (!kind) throw unknownFormat(input, bytes);
  record.format = typeof kind === 'string' ? kind : kind.id;
  const docs: Loaded[] = [];
  let entries: FileSet | undefined;

  if (typeof kind === 'string') {
    if (!options.to && !options.output) {
      throw new LegacyError(
        'UNKNOWN_TARGET',
        `${basename(input)} is already glTF: pass --to <format> (glb, gltf, ${formats
          .filter((f) => f.export)
          .map((f) => f.id)
          .join(', ')}) or an output name with the format's extension`,
      );
    }
    const io = await createCodecNodeIO(formats, codecsFor(bytes));
    const gltfOptions = { resourceDir: options.resourceDir, folders: options.folders };
    const document =
      kind === 'glb'
        ? await readGlbFile(io, input, bytes, { ...gltfOptions, warnings })
        : await readGltfJson(io, input, bytes, { ...gltfOptions, warnings });
    docs.push({ document, format: kind, base: outputBase(input) });
  } else if ((entries = unpackInput(kind, bytes, input))) {
    let models: [string, LegacyFormat][] = kind.containerModels
      ? kind.containerModels(entries).map((n) => [n, kind])
      : containerModels(entries, formats);
    const notes = kind.unpackNotes?.(bytes, basename(input));
    if (notes) warnings.merge(notes.warnings);
    if (!models.length)
      warnings.warn(
        'CONTAINER_EMPTY',
        notes?.empty ?? `${basename(input)} holds no model gltf-legacy converts`,
      );
    if (options.entry !== undefined) {
      const wanted = options.entry.toLowerCase();
      const all = models.map(([name, f]) => outputBase(name.slice(folderOf(name).length), f));
      models = models.filter((_, k) => all[k].toLowerCase() === wanted);
      if (!models.length)
        throw new LegacyError(
          'ENTRY_NOT_FOUND',
          `${basename(input)} has no model named ${options.entry} (it has: ${all.join(', ') || 'none'})`,
        );
    }
    // the folder tree the container sits in (its format's resource root; folders listed once per batch)
    const outer = inputResources(input, kind, options.resourceDir, options.folders);
    // the package's files are the resources of its models (paths inside it, case-insensitive),
    // placed at the package's folder below that root, then the root's own files (issue 27: a
    // .dat or FAR given alone finds what it does not hold around it, as a loose file does)
    const { resources, mount } = archiveResources(
      entries,
      basename(input),
      outer.resources,
      outer.resourcePath,
    );
    // the package's folders, listed once for all its models (issue 31), not once per model
    const folders = containerFolders(entries);
    for (const [name, f] of models) {
      const loose = looseCounterpart(input, name, options.looseInputs);
      if (loose) {
        warnings.warn(
          'CONTAINER_ENTRY_LOOSE',
          `${name}: converted from the loose file ${loose} (an input of this batch), not again from ${basename(input)}`,
        );
        continue;
      }
      const folder = folderOf(name);
      const listing = folders.get(folder)!;
      const files: FileSet = new Map([[name.slice(folder.length), entries.get(name)!]]);
      if ((options.companions ?? true) && f.companions) {
        const own = name.slice(folder.length);
        const picked = f.companionsIn
          ? f.companionsIn(own, listing.lookup())
          : f.companions(
              own,
              (listing.files() as string[]).filter((n) => n !== own),
            );
        for (const c of picked) {
          const e = entries.get(folder + c);
          if (e) files.set(c, e);
        }
      }
      // a name that leaves the package (../../x.mdl) fails the whole conversion before any import
      const outFolder = entryFolder(folder, input);
      try {
        const document = await importLegacy(f, files, name.slice(folder.length), options, warnings, {
          resources,
          resourcePath: joinPath(mount, name.replace(/\\/g, '/')),
          containerResources: outer.resources,
          containerPath: outer.resourcePath,
        });
        docs.push({
          document,
          format: f.id,
          // entries keep their folders inside the package: A/x.mdl and B/x.mdl are two outputs
          // (an entry's name is made file-safe by core's naming rule: the package is untrusted)
          base: join(basename(input, extname(input)), outFolder, fileSafeName(outputBase(name, f), 'Model')),
        });
      } catch (e) {
        const err = toErrorRecord(e);
        if (err.code === 'INTERNAL_ERROR') throw e;
        warnings.warn('CONTAINER_ENTRY_FAILED', `${name}: ${err.message}`);
      }
    }
  } else {
    const files = await gatherFiles(input, kind, bytes, options);
    const document = await importLegacy(
      kind,
      files,
      basename(input),
      options,
      warnings,
      inputResources(input, kind, options.resourceDir, options.folders),
    );
    docs.push({ document, format: kind.id, base: outputBase(input, kind) });
  }
  return { docs, formats };
}

/** A conversion done in memory: the record (outputs not yet written) and the files to write. */
export interface PreparedConversion {
  record: ConvertRecord;
  /**
   * Absolute output path → bytes, or a {@link StreamedFile} (a .glb, a .gltf's buffer: written
   * piece by piece; `outputBytes` assembles one); empty when the conversion failed.
   */
  outputs: Map<string, OutputData>;
}

/**
 * Everything {@link convertFile} does except writing: reads, imports, transforms and encodes, and
 * returns the files to write. Batch workers use it so that only the main thread writes (a worker
 * stopped by `--timeout` can never leave a partial file). Never throws.
 */
export async function prepareConversion(
  input: string,
  options: ConvertOptions = {},
): Promise<PreparedConversion> {
  const start = performance.now();
  const outputs = new Map<string, OutputData>();
  let formats = options.formats;
  const warnings = new WarningCollector();
  const record: ConvertRecord = { input, format: 'unknown', outputs: [], status: 'ok', warnings: [], ms: 0 };
  const previousLimits =
    options.maxUnpacked === undefined ? undefined : setUnpackLimits(unpackLimitsOf(options.maxUnpacked));
  try {
    const loaded = await loadDocuments(input, options, warnings, record);
    formats = loaded.formats;
    const { docs } = loaded;
    const transform = options.transform ?? optimizeTransform(options.optimize);
    const targetId = options.to?.toLowerCase();

    for (const { document, format: sourceFormat, base } of docs) {
      document.setLogger(new WarningLogger(warnings));
      if (transform) await transform(document);
      noteSteps(document, optimizeFlags(options.optimize));
      const stats = documentStats(document);
      record.stats = record.stats
        ? {
            vertices: record.stats.vertices + stats.vertices,
            triangles: record.stats.triangles + stats.triangles,
            joints: record.stats.joints + stats.joints,
            morphTargets: Math.max(record.stats.morphTargets, stats.morphTargets),
            animations: record.stats.animations + stats.animations,
          }
        : {
            vertices: stats.vertices,
            triangles: stats.triangles,
            joints: stats.joints,
            morphTargets: stats.morphTargets,
            animations: stats.animations,
          };

      // Pick the target: --to, else the output's extension, else glb (or the legacy format a glTF input cannot default to).
      let target: LegacyFormat | 'glb' | 'gltf' | undefined;
      if (targetId === 'glb' || targetId === 'gltf') target = targetId;
      else if (targetId) {
        target = formatById(targetId, formats);
        if (!target)
          throw new LegacyError(
            'UNKNOWN_TARGET',
            `unknown target format "${options.to}"; known: glb, gltf, ${formats.map((f) => f.id).join(', ')}`,
          );
      } else if (options.output) {
        const ext = extname(options.output).toLowerCase();
        if (ext === '.glb' || ext === '.gltf') target = ext.slice(1) as 'glb' | 'gltf';
        else {
          target = formatForOutput(options.output, formats);
          if (!target)
            throw new LegacyError(
              'UNKNOWN_TARGET',
              `cannot tell the target format from "${basename(options.output)}"; pass --to <format>`,
            );
        }
      } else if (sourceFormat === 'glb' || sourceFormat === 'gltf') {
        throw new LegacyError(
          'UNKNOWN_TARGET',
          `${basename(input)} is already glTF: pass --to <format> (${formats
            .filter((f) => f.export)
            .map((f) => f.id)
            .join(', ')}) or an output name with the format's extension`,
        );
      } else target = 'glb';

      const single = docs.length === 1 && options.output;
      if (target === 'glb' || target === 'gltf') {
        const path = single
          ? resolve(options.output!)
          : join(resolve(options.outDir ?? dirname(input)), `${base}.${target}`);
        await writeGltf(document, path, target === 'glb', { ...options, formats }, outputs);
      } else {
        if (!target.export)
          throw new LegacyError('EXPORT_UNSUPPORTED', `${target.label} export is not available`);
        const dir = single
          ? dirname(resolve(options.output!))
          : join(resolve(options.outDir ?? dirname(input)), dirname(base));
        const name = single ? outputBase(options.output!, target) : basename(base);
        const result = await target.export(document, { ...options.formatOptions, name });
        warnings.merge(result.warnings);
        checkSizes(
          document,
          target.id,
          [...result.files.keys()].find((f) => f.toLowerCase().endsWith(target.mainExtension.toLowerCase())),
          result.files,
          warnings,
          optimizeFlags(options.optimize),
        );
        // file keys may have subfolders (Textures/NAME.pcx) but never leave the output folder
        for (const [file, data] of result.files)
          addOutput(outputs, outputPath(dir, file, `${target.id} export`), data, basename(input));
        record.format = `${sourceFormat}→${target.id}`;
      }
    }
  } catch (e) {
    record.status = 'error';
    record.error = toErrorRecord(e);
    outputs.clear();
  } finally {
    if (previousLimits) setUnpackLimits(previousLimits);
  }
  record.warnings = warnings.list();
  record.ms = Math.round(performance.now() - start);
  return { record, outputs };
}
