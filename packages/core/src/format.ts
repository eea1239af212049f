import type { Document } from '@gltf-transform/core';
import type { ContainerEntriesOptions, ContainerEntry } from './container.js';
import type { Warning } from './errors.js';
import type { LegacyLimits } from './limits.js';
import type { ResourceOptions } from './resources.js';

/** File name → bytes. Names are base names (no directories) unless a format says otherwise. */
export type FileSet = Map<string, Uint8Array>;

/**
 * Options every importer accepts; formats add their own (documented in their README).
 * `resources`/`resourcePath` (see `ResourceOptions`) give the importer the folder tree it may read
 * textures and material files from; without them it reads only `files`.
 */
export interface ImportOptions extends ResourceOptions {
  /** The main file of the set (default: the first entry). Companions are the others. */
  main?: string;
  /**
   * Refuse quirks the original engine or tool tolerated (a count one too high, a short last
   * frame, …) with the `FormatError` they are, instead of reading them with a warning. Default
   * false: convert what the game accepted. Each package README lists its tolerated quirks.
   */
  strict?: boolean;
  /**
   * Write the source's quantized vertex-animation data as integers (issue 30; CLI `--compact`):
   * `KHR_mesh_quantization` morph targets (listed in `extensionsRequired`) and normalized SHORT
   * rotation tracks. Default false: **portable** — float32 morph targets and animation outputs,
   * sparse where smaller, no entry in `extensionsRequired`, so every glTF client opens the file
   * (Godot 4, f3d/VTK and libGDX refuse files that require `KHR_mesh_quantization`). See
   * `vertexAnimationEncoding` for how it combines with `float`.
   */
  compact?: boolean;
  /**
   * The portable mode's name from before issue 30 (CLI `--float`), now the default: `float: true`
   * wins over `compact: true`; `float: false` alone does not select the compact mode.
   */
  float?: boolean;
  /**
   * Write a NORMAL delta per morph target (per animation frame). Default true; false (CLI
   * `--no-frame-normals`) leaves them out — smaller files, the client keeps the base normals.
   */
  frameNormals?: boolean;
  /** Format-specific options. */
  [key: string]: unknown;
}

/** Options every exporter accepts; formats add their own. */
export interface ExportOptions {
  /** Base name of the files to write (`NAME` → `NAME_d.3d`, `NAME.mdl`, …). Default `model`. */
  name?: string;
  /** Format-specific options (variant, fps, …). */
  [key: string]: unknown;
}

export interface ImportResult {
  document: Document;
  warnings: Warning[];
}

export interface ExportResult {
  /** Every file the format needs, by name, to be written side by side. */
  files: FileSet;
  warnings: Warning[];
}

/** What a format can do, shown by `gltf-legacy formats`. */
export interface FormatCapabilities {
  import: boolean;
  export: boolean;
  skins: boolean;
  morphTargets: boolean;
  animations: boolean;
  /** The format is a container of other files (e.g. `.pak`). */
  container?: boolean;
}

/**
 * One format-specific option (a key of the import or export options object, `--option key=value`
 * on the command line), as `gltf-legacy convert --help` and `gltf-legacy formats --options` list
 * it. Each format declares its own in `LegacyFormat.options`, so a new option shows up there.
 *
 * ```ts
 * const materials: FormatOptionInfo = {
 *   name: 'materials', use: 'export', values: 'auto|true|false', default: 'auto',
 *   description: 'write material files and textures',
 * };
 * ```
 */
export interface FormatOptionInfo {
  /** Key in the options object and of `--option key=value`. */
  name: string;
  /** Read by import, export or both. */
  use: 'import' | 'export' | 'both';
  /** The accepted values: `auto|true|false`, `<number>`, `<path>`, … */
  values: string;
  /** The default, as a user reads it (`auto`, `30`, `the imported rate, else 30`). */
  default: string;
  /** What it does, in one sentence. */
  description: string;
  /** A dedicated CLI flag that sets it too (`--pak`, `--fps`), when there is one. */
  flag?: string;
}

/** A table of the file model, shown by `gltf-legacy inspect`. */
export interface InspectSection {
  title: string;
  /** Key/value facts (counts, versions, bounds). */
  facts?: Record<string, string | number | boolean>;
  /** Optional table: column names and rows. */
  columns?: string[];
  rows?: (string | number)[][];
}

/**
 * Lookups in one folder's file names (regular files only, case-insensitive), each answered from
 * an index built once per folder: what {@link LegacyFormat.companionsIn} uses instead of a scan.
 *
 * ```ts
 * folder.named('skull_a.3d');   // ['Skull_a.3d']
 * folder.withExtension('.uc');  // every .uc file of the folder
 * folder.withPrefix('skull_');  // ['Skull_a.3d', 'Skull_d.3d']
 * ```
 */
export interface CompanionLookup {
  /** The files whose name equals `name` ignoring case (usually none or one), sorted. */
  named(name: string): readonly string[];
  /** The files whose extension (`extName`: the last one, lower case, with its dot) is `ext`, sorted. */
  withExtension(ext: string): readonly string[];
  /** The files whose name starts with `prefix` ignoring case, sorted. */
  withPrefix(prefix: string): readonly string[];
}

/**
 * One legacy format, as the CLI registers it. Keep implementations small: the real work lives in
 * the package's file-model and mapping modules.
 */
export interface LegacyFormat {
  /** Format id used on the command line (`--to unreal3d`). */
  id: string;
  /** Human label. */
  label: string;
  /** Extensions handled, lower case with the dot (`.mdl`). */
  extensions: string[];
  /** Extension of the main file written by export (e.g. `_d.3d`, `.mdl`). */
  mainExtension: string;
  /**
   * Endings of every kind of file that converts on its own (a folder batch converts these and
   * loads the rest as companions). Default: `[mainExtension]`. Urho3D adds prefab/scene `.xml`,
   * TSO its outfit files `.apr`/`.bnd`.
   */
  mainExtensions?: string[];
  capabilities: FormatCapabilities;
  /** The format-specific options its import and export read (listed by the CLI's help). */
  options?: readonly FormatOptionInfo[];
  /** True if these bytes are a main file of this format (by magic, not extension). */
  sniff(bytes: Uint8Array, name: string): boolean;
  /**
   * Which of `siblings` (file names in the same folder) to load beside `name`. Formats may return
   * more than they end up using; the importer reports unused ones as warnings.
   */
  companions?(name: string, siblings: string[]): string[];
  /**
   * Optional: the same answer as `companions(name, siblings)`, found through constant-time lookups
   * in the folder's listing instead of a scan of every sibling. A batch converting a folder of
   * thousands of files calls this when present (issue 31: a scan per input made the batch's cost
   * grow with the square of the folder). Order may differ from `companions`.
   */
  companionsIn?(name: string, folder: CompanionLookup): string[];
  /**
   * The folder a conversion of `path` (a `/`-separated absolute or input-relative path of a main
   * file) may read textures and material files from: an ancestor folder of it, the way the game
   * lays out its data (Unreal: the package folder above `Models/`; Grimrock: the folder holding
   * `mod_assets`). Default: the main file's own folder. `--resource-dir` overrides it.
   */
  resourceRoot?(path: string): string;
  /** For container formats: the files inside, by name, to convert one by one. */
  unpack?(bytes: Uint8Array, name: string): FileSet;
  /**
   * For container formats: which entries of `unpack`'s FileSet convert on their own (default:
   * those ending with a format's `mainExtension`). TSO: every appearance and every mesh no
   * appearance of the archive uses.
   */
  containerModels?(entries: FileSet): string[];
  /**
   * For container formats: the entries as the container's table lists them (two may share a
   * path; nothing is decompressed until an entry's `read()`), or undefined when `bytes` are not a
   * container of this format (a model of it, say). Throws a `FormatError` on a damaged table.
   *
   * ```ts
   * for (const e of urho3d.entries!(bytes, 'Data.pak') ?? []) console.log(e.path, e.size, e.read().length);
   * ```
   */
  entries?(bytes: Uint8Array, name: string, options?: ContainerEntriesOptions): ContainerEntry[] | undefined;
  /**
   * For container formats: what `unpack` leaves out, as warnings (objects the reader names but does
   * not convert, e.g. an Unreal package's skeletal meshes), and a one-line answer when it holds no
   * model at all. The CLI reports them beside the converted entries.
   */
  unpackNotes?(bytes: Uint8Array, name: string): { warnings: Warning[]; empty?: string };
  import(files: FileSet, options?: ImportOptions): Promise<ImportResult>;
  export?(document: Document, options?: ExportOptions): Promise<ExportResult>;
  /**
   * The file of a set `export` wrote that imports the whole set again, where that is not simply
   * the file ending with `mainExtension` (Urho3D: the prefab `Objects/NAME.xml` naming the model
   * and its materials; TSO: the outfit's `.apr`). Tools that re-import an export use it (the
   * fuzzer's fixed-point check, round-trip tests). Default: the `mainExtension` file.
   */
  exportEntry?(files: FileSet): string | undefined;
  /** What the format can hold (the shared export stage's input; shown by `gltf-legacy formats`). */
  limits?: LegacyLimits;
  /**
   * The limits `export(document, options)` gives the shared stage for this document, when they
   * depend on it (a clip's own frame rate, a document the format wrote itself). Default: `limits`.
   */
  exportLimits?(document: Document, options?: ExportOptions): LegacyLimits;
  /** Summary of the file model for `gltf-legacy inspect`. */
  inspect?(files: FileSet, options?: ImportOptions): InspectSection[];
  /**
   * glTF-Transform extension classes the importer may use (e.g. a custom `MSFT_lod`): the CLI
   * registers them on its NodeIO so documents survive a trip through .glb.
   */
  gltfExtensions?: typeof import('@gltf-transform/core').Extension[];
}

/** The main file of a set: `options.main` or the first entry. Throws if missing. */
export function mainFile(files: FileSet, options?: ImportOptions): [string, Uint8Array] {
  const name = options?.main ?? files.keys().next().value;
  if (name === undefined) throw new RangeError('empty file set');
  const bytes = files.get(name);
  if (!bytes) throw new RangeError(`file set has no "${name}"`);
  return [name, bytes];
}

/** True when `name` ends with one of the format's main-file endings (`mainExtensions`, else `mainExtension`). */
export function isMainFileName(format: LegacyFormat, name: string): boolean {
  const lower = name.toLowerCase();
  return (format.mainExtensions ?? [format.mainExtension]).some((e) => lower.endsWith(e.toLowerCase()));
}

/** `dir/Name_d.3d` → `Name_d.3d` (handles / and \\). */
export function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i >= 0 ? path.slice(i + 1) : path;
}

/** Lower-case extension with the dot (`.mdl`), or '' when there is none. */
export function extName(path: string): string {
  const b = baseName(path);
  const i = b.lastIndexOf('.');
  return i > 0 ? b.slice(i).toLowerCase() : '';
}

/** File name without its extension. */
export function stem(path: string): string {
  const b = baseName(path);
  const i = b.lastIndexOf('.');
  return i > 0 ? b.slice(0, i) : b;
}
