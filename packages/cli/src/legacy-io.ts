import { basename, dirname, extname, resolve } from 'node:path';
import type { Document } from '@gltf-transform/core';
import {
  type FileSet,
  type FormatCapabilities,
  type LegacyFormat,
  LegacyError,
  leanDocument,
  joinPath,
  MemoryResources,
  printable,
  type ResourceOptions,
  setUnpackLimits,
  type Warning,
  WarningCollector,
  type ResourceReader,
} from '@gltf-legacy/core';
import { archiveResources } from './archive-resources.js';
import { unpackInput } from './containers.js';
import { type OutputData, outputBytes } from './streamed-file.js';
import { addOutput, gatherFiles, outputBase, unpackLimitsOf, writeGltf } from './convert.js';
import { checkSizes, recordSourceSizes } from './size-check.js';
import { outputPath, readInput, writeFilesAtomic } from './files.js';
import { inputResources } from './folder-resources.js';
import { readGlbFile, readGltfJson } from './gltf-input.js';
import { codecsFor, createCodecNodeIO } from './gltf-io.js';
import { FORMATS, formatById, formatForOutput, sniffFormat } from './registry.js';

/** Options of {@link LegacyIO}. */
export interface LegacyIOOptions {
  /** Formats to use (default: every registered one). */
  formats?: readonly LegacyFormat[];
  /** Load companion files found beside a main file (default true). */
  companions?: boolean;
  /** Options passed to every import and export (fps, variant, …). */
  formatOptions?: Record<string, unknown>;
  /** Overwrite existing files on write (default true, like NodeIO; the CLI defaults to false). */
  overwrite?: boolean;
  /**
   * The folder textures, material files and glTF buffers/images are read from (default: the
   * format's `resourceRoot` when it is an ancestor of the file, else the file's folder). Nothing
   * outside it is read.
   */
  resourceDir?: string;
  /** Bound on the unpacked bytes of a container, per entry and per package (default: core's `UNPACK_LIMITS_DEFAULTS`). */
  maxUnpacked?: number;
}

export const LEGACY_IO_DEFAULTS: Required<Pick<LegacyIOOptions, 'companions' | 'overwrite'>> = {
  companions: true,
  overwrite: true,
};

/** One entry of {@link LegacyIO.listFormats}. */
export interface FormatInfo {
  id: string;
  label: string;
  extensions: string[];
  mainExtension: string;
  capabilities: FormatCapabilities;
}

/** What {@link LegacyIO.readDetailed} returns. */
export interface LegacyReadResult {
  document: Document;
  /** Format id (`urho3d`, …, `glb`, `gltf`). */
  format: string;
  /** Names of the files read (main first, then companions). */
  files: string[];
  warnings: Warning[];
}

/** Options of {@link LegacyIO.write}. */
export interface LegacyWriteOptions {
  /** Target: a legacy format id, `glb` or `gltf`. Default: from the path's extension. */
  format?: string;
  /** Per-call format options (merged over the constructor's). */
  formatOptions?: Record<string, unknown>;
}

const GLTF_INFO: FormatInfo[] = [
  {
    id: 'glb',
    label: 'glTF 2.0 binary',
    extensions: ['.glb'],
    mainExtension: '.glb',
    capabilities: { import: true, export: true, skins: true, morphTargets: true, animations: true },
  },
  {
    id: 'gltf',
    label: 'glTF 2.0 JSON',
    extensions: ['.gltf'],
    mainExtension: '.gltf',
    capabilities: { import: true, export: true, skins: true, morphTargets: true, animations: true },
  },
];

/**
 * Reads and writes every format gltf-legacy knows, the way glTF-Transform's `NodeIO` reads and
 * writes glTF: the format is sniffed from the bytes, companion files (animations, `.uc`, …) are
 * found beside the main file, and the result is a plain glTF-Transform `Document`.
 *
 * ```ts
 * const io = new LegacyIO();
 * const doc = await io.read('Jack.mdl');                 // + Jack_*.ani beside it
 * await doc.transform(dedup(), weld(), prune());
 * await io.write('out/Jack.glb', doc);                   // or 'out/Jack_d.3d', { format: 'unreal3d' }
 * ```
 */
export class LegacyIO {
  /** Warnings of the last read or write (grouped by code with counts). */
  lastWarnings: Warning[] = [];
  private readonly formats: readonly LegacyFormat[];
  private readonly options: LegacyIOOptions;

  constructor(options: LegacyIOOptions = {}) {
    this.options = { ...LEGACY_IO_DEFAULTS, ...options };
    this.formats = options.formats ?? FORMATS;
  }

  /** The formats this IO reads and writes, glTF included. */
  listFormats(): FormatInfo[] {
    return [
      ...this.formats.map((f) => ({
        id: f.id,
        label: f.label,
        extensions: [...f.extensions],
        mainExtension: f.mainExtension,
        capabilities: { ...f.capabilities },
      })),
      ...GLTF_INFO,
    ];
  }

  /** Reads a file of any supported format (legacy, .glb, .gltf) into a Document. */
  async read(path: string): Promise<Document> {
    return (await this.readDetailed(path)).document;
  }

  /** {@link read} plus the format, the files used and the warnings. */
  async readDetailed(path: string): Promise<LegacyReadResult> {
    const bytes = readInput(path);
    const kind = sniffFormat(bytes, path, this.formats);
    if (!kind)
      throw new LegacyError(
        'UNKNOWN_FORMAT',
        `${path}: not a format gltf-legacy reads (first bytes "${printable(bytes.subarray(0, 8))}")`,
      );
    if (typeof kind === 'string') {
      const io = await createCodecNodeIO(this.formats, codecsFor(bytes));
      const warnings = new WarningCollector();
      const document =
        kind === 'glb'
          ? await readGlbFile(io, path, bytes, { resourceDir: this.options.resourceDir, warnings })
          : await readGltfJson(io, path, bytes, { resourceDir: this.options.resourceDir, warnings });
      this.lastWarnings = warnings.list();
      return { document, format: kind, files: [basename(path)], warnings: this.lastWarnings };
    }
    if (this.unpack(kind, bytes, path)) {
      throw new LegacyError(
        'CONTAINER_INPUT',
        `${basename(path)} is a ${kind.label} container: use readContainer() to get one document per model inside`,
      );
    }
    const files = await gatherFiles(path, kind, bytes, { companions: this.options.companions });
    return this.importSet(kind, files, basename(path), inputResources(path, kind, this.options.resourceDir));
  }

  /** {@link unpackInput} under this IO's `maxUnpacked`. */
  private unpack(kind: LegacyFormat, bytes: Uint8Array, path: string): FileSet | undefined {
    const limits = unpackLimitsOf(this.options.maxUnpacked);
    const previous = limits ? setUnpackLimits(limits) : undefined;
    try {
      return unpackInput(kind, bytes, path);
    } finally {
      if (previous) setUnpackLimits(previous);
    }
  }

  /**
   * Reads an in-memory file set (name → bytes). The main file is `options.main`, else the first
   * file some format sniffs as a main file; its format may be forced with `options.format`.
   * Textures and material files are read from `options.resources` (default: the set itself).
   */
  async readFiles(
    files: FileSet,
    options: { main?: string; format?: string } & ResourceOptions = {},
  ): Promise<Document> {
    return (await this.readFilesDetailed(files, options)).document;
  }

  /** {@link readFiles} plus the format, the files used and the warnings. */
  async readFilesDetailed(
    files: FileSet,
    options: { main?: string; format?: string } & ResourceOptions = {},
  ): Promise<LegacyReadResult> {
    let main = options.main;
    let format = options.format ? formatById(options.format, this.formats) : undefined;
    if (options.format && !format)
      throw new LegacyError('UNKNOWN_FORMAT', `unknown format "${options.format}"`);
    if (!main) {
      for (const [name, bytes] of files) {
        const k = sniffFormat(bytes, name, this.formats);
        if (typeof k === 'string' && !format) {
          main = name;
          break;
        }
        if (
          typeof k === 'object' &&
          (!format || k === format) &&
          name.toLowerCase().endsWith(k.mainExtension.toLowerCase())
        ) {
          main = name;
          format = k;
          break;
        }
      }
    }
    const bytes = main ? files.get(main) : undefined;
    if (!main || !bytes)
      throw new LegacyError(
        'NO_MAIN_FILE',
        `no main file among ${[...files.keys()].join(', ') || '(no files)'}`,
      );
    if (!format) {
      const k = sniffFormat(bytes, main, this.formats);
      if (typeof k === 'string') {
        const io = await createCodecNodeIO(this.formats, codecsFor(bytes));
        if (k === 'gltf') {
          const json = JSON.parse(new TextDecoder().decode(bytes));
          const resources = Object.fromEntries([...files].filter(([n]) => n !== main)) as Record<
            string,
            Uint8Array<ArrayBuffer>
          >;
          return {
            document: await io.readJSON({ json, resources }),
            format: k,
            files: [...files.keys()],
            warnings: [],
          };
        }
        return { document: await io.readBinary(bytes), format: k, files: [main], warnings: [] };
      }
      if (!k) throw new LegacyError('UNKNOWN_FORMAT', `${main}: not a format gltf-legacy reads`);
      format = k;
    }
    return this.importSet(format, files, main, {
      resources: options.resources ?? new MemoryResources(files, 'files'),
      resourcePath: options.resourcePath ?? main,
    });
  }

  private async importSet(
    format: LegacyFormat,
    files: FileSet,
    main: string,
    resources: ResourceOptions & { containerResources?: ResourceReader; containerPath?: string },
  ): Promise<LegacyReadResult> {
    const ordered: FileSet = new Map([[main, files.get(main)!], ...[...files].filter(([n]) => n !== main)]);
    const result = await format.import(ordered, {
      ...this.options.formatOptions,
      main,
      resources: resources.resources,
      resourcePath: resources.resourcePath,
      ...(resources.containerResources
        ? { containerResources: resources.containerResources, containerPath: resources.containerPath }
        : {}),
    });
    const warnings = new WarningCollector();
    warnings.merge(result.warnings);
    this.lastWarnings = warnings.list();
    recordSourceSizes(result.document, format.id, main, ordered);
    if (this.options.formatOptions?.lean) leanDocument(result.document);
    return {
      document: result.document,
      format: format.id,
      files: [...ordered.keys()],
      warnings: this.lastWarnings,
    };
  }

  /** Reads every model inside a container (`.pak`): entry name → document. */
  async readContainer(path: string): Promise<Map<string, Document>> {
    const bytes = readInput(path);
    const kind = sniffFormat(bytes, path, this.formats);
    const entries = typeof kind === 'object' ? this.unpack(kind, bytes, path) : undefined;
    if (!entries)
      throw new LegacyError('NOT_A_CONTAINER', `${basename(path)} is not a container gltf-legacy can unpack`);
    // the folder tree the container sits in (Unreal: the game folder other packages are read from)
    const outer = inputResources(path, kind as LegacyFormat, this.options.resourceDir);
    // the container's entries first, then that folder tree (issue 27, as the CLI's convert)
    const { resources, mount } = archiveResources(
      entries,
      basename(path),
      outer.resources,
      outer.resourcePath,
    );
    const out = new Map<string, Document>();
    for (const [name, data] of entries) {
      const f = sniffFormat(data, name, this.formats);
      if (typeof f !== 'object' || !name.toLowerCase().endsWith(f.mainExtension.toLowerCase())) continue;
      const folder = name.slice(0, Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
      const siblings = [...entries.keys()]
        .filter((n) => n !== name && n.startsWith(folder) && !n.slice(folder.length).match(/[\\/]/))
        .map((n) => n.slice(folder.length));
      const set: FileSet = new Map([[name.slice(folder.length), data]]);
      if (this.options.companions && f.companions)
        for (const c of f.companions(name.slice(folder.length), siblings))
          set.set(c, entries.get(folder + c)!);
      out.set(
        name,
        (
          await this.importSet(f, set, name.slice(folder.length), {
            resources,
            resourcePath: joinPath(mount, name.replace(/\\/g, '/')),
            containerResources: outer.resources,
            containerPath: outer.resourcePath,
          })
        ).document,
      );
    }
    return out;
  }

  /**
   * Encodes a document without writing: glTF (`glb`/`gltf`) or every file a legacy format needs,
   * named from `name` (`NAME` → `NAME_d.3d`, `NAME_a.3d`, `NAME.uc`).
   */
  async writeFiles(
    document: Document,
    options: { format: string; name?: string; formatOptions?: Record<string, unknown> },
  ): Promise<FileSet> {
    const id = options.format.toLowerCase();
    const name = options.name ?? 'model';
    if (id === 'glb' || id === 'gltf') {
      const outputs = new Map<string, OutputData>();
      await writeGltf(document, `${name}.${id}`, id === 'glb', { formats: this.formats }, outputs);
      return new Map([...outputs].map(([file, data]) => [file, outputBytes(data)]));
    }
    const target = formatById(id, this.formats);
    if (!target)
      throw new LegacyError(
        'UNKNOWN_TARGET',
        `unknown target format "${options.format}"; known: ${this.listFormats()
          .map((f) => f.id)
          .join(', ')}`,
      );
    if (!target.export)
      throw new LegacyError('EXPORT_UNSUPPORTED', `${target.label} export is not available`);
    const result = await target.export(document, {
      ...this.options.formatOptions,
      ...options.formatOptions,
      name,
    });
    const warnings = new WarningCollector();
    warnings.merge(result.warnings);
    const mainOut = [...result.files.keys()].find((f) =>
      f.toLowerCase().endsWith(target.mainExtension.toLowerCase()),
    );
    checkSizes(document, target.id, mainOut, result.files, warnings);
    this.lastWarnings = warnings.list();
    return result.files;
  }

  /**
   * Writes a document as glTF or a legacy format, atomically (all files or none). The format comes
   * from `options.format` or the path (`.glb`, `.gltf`, `_d.3d`, `.mdl`, …). Returns the paths written.
   */
  async write(path: string, document: Document, options: LegacyWriteOptions = {}): Promise<string[]> {
    const ext = extname(path).toLowerCase();
    const id =
      options.format?.toLowerCase() ??
      (ext === '.glb' || ext === '.gltf' ? ext.slice(1) : formatForOutput(path, this.formats)?.id);
    if (!id)
      throw new LegacyError(
        'UNKNOWN_TARGET',
        `cannot tell the target format from "${basename(path)}"; pass { format }`,
      );
    const outputs = new Map<string, OutputData>();
    if (id === 'glb' || id === 'gltf') {
      await writeGltf(document, resolve(path), id === 'glb', { formats: this.formats }, outputs);
      this.lastWarnings = [];
    } else {
      const target = formatById(id, this.formats);
      const files = await this.writeFiles(document, {
        format: id,
        name: outputBase(path, target),
        formatOptions: options.formatOptions,
      });
      for (const [file, data] of files)
        addOutput(outputs, outputPath(dirname(resolve(path)), file, `${id} export`), data, basename(path));
    }
    return writeFilesAtomic(outputs, this.options.overwrite ?? true);
  }
}
