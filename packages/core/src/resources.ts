/**
 * The one resolver for every file a conversion reads besides its inputs: glTF buffers and images,
 * `.uc` texture paths, material and texture references, prefab resources, TSO bindings.
 *
 * A reference found inside a file is untrusted. {@link resolveReference} turns it into a path
 * relative to the conversion's resource root, or throws a {@link ResourceError}:
 * - `EXTERNAL_URI` for any URI scheme (`http:`, `file:`, …); `data:` URIs are not paths and are
 *   decoded by the caller;
 * - `PATH_ESCAPE` for absolute paths (`/etc/passwd`, `C:\x`, `\\host\share`) and for `..` that
 *   climbs above the root.
 *
 * A {@link ResourceReader} reads resolved paths. Readers look names up case-insensitively (the
 * games ran on Windows), and a reader on disk also refuses symbolic links that leave its root.
 */
import { LegacyError } from './errors.js';

/** Codes of {@link ResourceError}. */
export type ResourceErrorCode = 'PATH_ESCAPE' | 'EXTERNAL_URI' | 'RESOURCE_TOO_LARGE';

/** A reference that a conversion refuses to follow. */
export class ResourceError extends LegacyError {
  /** The file the reference was found in (as given to the resolver). */
  readonly file?: string;
  /** The reference exactly as written in that file. */
  readonly reference: string;
  constructor(code: ResourceErrorCode, reference: string, detail: string, file?: string) {
    super(code, `${file ? `${file}: ` : ''}reference "${printableRef(reference)}" ${detail}`);
    this.name = 'ResourceError';
    this.file = file;
    this.reference = reference;
  }
}

function printableRef(ref: string): string {
  const s = ref.length > 200 ? `${ref.slice(0, 200)}…` : ref;
  return s.replace(/[\u0000-\u001f\u007f]/g, '?');
}

/** Options of {@link resolveReference}. */
export interface ResolveOptions {
  /** The file the reference was found in, for error messages. */
  file?: string;
  /** The reference is a URI (glTF `uri`): percent-escapes are decoded. Default false. */
  uri?: boolean;
}

/** True for `data:` URIs (embedded bytes, not a path). */
export function isDataUri(ref: string): boolean {
  return /^data:/i.test(ref.trim());
}

/**
 * Resolves `ref`, written in a file inside folder `baseDir` (root-relative, `/`-separated, `''`
 * for the root itself), to a normalized root-relative path. Backslashes count as separators.
 *
 * ```ts
 * resolveReference('Textures\\Skin.pcx', 'MyPkg');        // 'MyPkg/Textures/Skin.pcx'
 * resolveReference('../Textures/a.dds', 'Data/Materials'); // 'Data/Textures/a.dds'
 * resolveReference('../../../etc/passwd', 'a');            // throws ResourceError PATH_ESCAPE
 * resolveReference('http://x/y.png', '');                  // throws ResourceError EXTERNAL_URI
 * ```
 */
export function resolveReference(ref: string, baseDir: string, options: ResolveOptions = {}): string {
  const { file } = options;
  let text = ref;
  if (text.includes('\u0000')) throw new ResourceError('PATH_ESCAPE', ref, 'contains a NUL character', file);
  // a scheme has two or more characters before the colon (one letter is a Windows drive)
  if (/^[a-z][a-z0-9+.-]+:/i.test(text.trim())) {
    throw new ResourceError(
      'EXTERNAL_URI',
      ref,
      'is a URI; only relative paths (and data: URIs) are read, never network or file: URIs',
      file,
    );
  }
  if (options.uri) {
    try {
      text = decodeURIComponent(text);
    } catch {
      throw new ResourceError('PATH_ESCAPE', ref, 'has a malformed percent-escape', file);
    }
    if (text.includes('\u0000'))
      throw new ResourceError('PATH_ESCAPE', ref, 'contains a NUL character', file);
  }
  text = text.replace(/\\/g, '/');
  if (text.startsWith('/') || /^[a-z]:/i.test(text)) {
    throw new ResourceError(
      'PATH_ESCAPE',
      ref,
      'is an absolute path; only paths inside the input folder are read',
      file,
    );
  }
  const parts = baseDir
    ? baseDir
        .replace(/\\/g, '/')
        .split('/')
        .filter((p) => p && p !== '.')
    : [];
  for (const seg of text.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!parts.length) {
        throw new ResourceError('PATH_ESCAPE', ref, 'climbs out of the folder the conversion may read', file);
      }
      parts.pop();
    } else parts.push(seg);
  }
  if (!parts.length) throw new ResourceError('PATH_ESCAPE', ref, 'names no file', file);
  return parts.join('/');
}

/** The folder part of a root-relative path (`a/b/c.x` → `a/b`, `c.x` → `''`). */
export function dirOf(path: string): string {
  const p = path.replace(/\\/g, '/');
  const i = p.lastIndexOf('/');
  return i >= 0 ? p.slice(0, i) : '';
}

/** Joins root-relative path parts with `/` (no normalization, no checks). */
export function joinPath(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/');
}

/**
 * Reads the files a conversion may read besides its inputs, below one root folder. Paths are
 * root-relative and `/`-separated (use {@link resolveReference} on references found in files).
 */
export interface ResourceReader {
  /** A label of the root for messages (a folder path, a `.pak` name). */
  readonly label: string;
  /**
   * The file at a root-relative path, matched case-insensitively when no exact match exists, or
   * `undefined` when there is none. Throws `PATH_ESCAPE` for a path that leaves the root (a `..`
   * or a symbolic link out of it) and `RESOURCE_TOO_LARGE` above the reader's size limit.
   */
  read(path: string): Promise<Uint8Array | undefined>;
  /**
   * The actual root-relative path of a file (the case as on disk) when it exists, else
   * `undefined`. Same refusals as {@link ResourceReader.read}.
   */
  find(path: string): Promise<string | undefined>;
  /** Root-relative paths of the files in a root-relative folder (`''` for the root); `recursive` walks below it. */
  list(dir: string, options?: { recursive?: boolean }): Promise<string[]>;
}

/** Default largest file a {@link ResourceReader} reads: 256 MiB (no texture or material of the corpus is near it). */
export const MAX_RESOURCE_BYTES = 256 * 1024 * 1024;

/**
 * A {@link ResourceReader} over files in memory (tests, the browser viewer, `.pak` entries).
 *
 * ```ts
 * const resources = new MemoryResources(new Map([['Textures/Skin.pcx', bytes]]), 'MyPkg');
 * await resources.read('textures/skin.PCX'); // bytes (case-insensitive)
 * ```
 */
export class MemoryResources implements ResourceReader {
  readonly label: string;
  private readonly files = new Map<string, Uint8Array>();
  private readonly lower = new Map<string, string>();

  constructor(files: Iterable<[string, Uint8Array]>, label = 'memory') {
    this.label = label;
    for (const [name, bytes] of files) {
      const path = name.replace(/\\/g, '/').replace(/^\.\//, '');
      this.files.set(path, bytes);
      const key = path.toLowerCase();
      if (!this.lower.has(key)) this.lower.set(key, path);
    }
  }

  async find(path: string): Promise<string | undefined> {
    const p = resolveReference(path, '');
    if (this.files.has(p)) return p;
    return this.lower.get(p.toLowerCase());
  }

  async read(path: string): Promise<Uint8Array | undefined> {
    const p = await this.find(path);
    return p === undefined ? undefined : this.files.get(p);
  }

  async list(dir: string, options: { recursive?: boolean } = {}): Promise<string[]> {
    const d = dir ? resolveReference(dir, '').toLowerCase() : '';
    const out: string[] = [];
    for (const path of this.files.keys()) {
      const parent = dirOf(path).toLowerCase();
      if (parent === d || (options.recursive && (d === '' || parent.startsWith(`${d}/`)))) out.push(path);
    }
    return out.sort();
  }
}

/**
 * Options every importer that reads resources accepts (part of `ImportOptions`): the reader of the
 * resource root and where the main file sits below it.
 */
export interface ResourceOptions {
  /** Reads the files the model links to (textures, material files, `.uc`, prefabs). */
  resources?: ResourceReader;
  /** Root-relative path of the main file (default: its name, at the root). */
  resourcePath?: string;
}

/**
 * Bounds on what unpacking a container (`.pak`) may allocate: the unpacked bytes of one entry and
 * of the whole package. Compressed containers check the sizes their tables claim against these
 * before decoding anything, and throw a `FormatError` with code `UNPACKED_TOO_LARGE` above them.
 */
export interface UnpackLimits {
  /** Largest unpacked entry, in bytes. */
  maxEntryBytes: number;
  /** Largest sum of the unpacked entries of one package, in bytes. */
  maxTotalBytes: number;
}

/**
 * Default {@link UnpackLimits}: 256 MiB per entry, 512 MiB per package. The largest package of
 * the corpus (Urho3D's `Data.pak` of the 2019 samples) unpacks to 3.99 MB, its largest entry to
 * 0.64 MB; the CLI raises both with `--max-unpacked`.
 */
export const UNPACK_LIMITS_DEFAULTS: Readonly<UnpackLimits> = Object.freeze({
  maxEntryBytes: 256 * 1024 * 1024,
  maxTotalBytes: 512 * 1024 * 1024,
});

let currentUnpackLimits: UnpackLimits = { ...UNPACK_LIMITS_DEFAULTS };

/**
 * The unpack limits in force (what a container format uses when it is not given limits of its
 * own, e.g. through `LegacyFormat.unpack`, whose signature has no options).
 *
 * ```ts
 * unpackLimits().maxTotalBytes; // 536870912 unless raised with setUnpackLimits
 * ```
 */
export function unpackLimits(): Readonly<UnpackLimits> {
  return currentUnpackLimits;
}

/**
 * Sets the unpack limits for this thread (the CLI does, from `--max-unpacked`); missing fields
 * keep their defaults, `undefined` restores them. Returns the previous limits.
 *
 * ```ts
 * const previous = setUnpackLimits({ maxEntryBytes: 2 ** 31, maxTotalBytes: 2 ** 32 });
 * try { format.unpack!(bytes, name); } finally { setUnpackLimits(previous); }
 * ```
 */
export function setUnpackLimits(limits?: Partial<UnpackLimits>): Readonly<UnpackLimits> {
  const previous = currentUnpackLimits;
  const next = { ...UNPACK_LIMITS_DEFAULTS, ...limits };
  for (const k of ['maxEntryBytes', 'maxTotalBytes'] as const) {
    if (!(next[k] >= 0)) throw new RangeError(`unpack limit ${k} must be a number ≥ 0, got ${next[k]}`);
  }
  currentUnpackLimits = next;
  return previous;
}

/**
 * The folder a conversion of `mainPath` (an absolute, `/`-separated path) reads resources from:
 * the format's `resourceRoot` when it names a proper ancestor of the file, else the file's own
 * folder. One rule for the CLI's folder reader and the viewer's resource tree (`--resource-dir`,
 * when given, is used instead by both).
 *
 * ```ts
 * chooseResourceRoot('/mods/Pkg/Models/X_d.3d', unreal3d.resourceRoot); // '/mods/Pkg'
 * chooseResourceRoot('/tmp/x.mdl', () => '/elsewhere');                // '/tmp'
 * ```
 */
export function chooseResourceRoot(mainPath: string, resourceRoot?: (path: string) => string): string {
  const dir = dirOf(mainPath) || '/';
  if (!resourceRoot) return dir;
  let raw: string;
  try {
    raw = resourceRoot(mainPath);
  } catch {
    return dir; // a format that cannot tell: the file's folder
  }
  if (typeof raw !== 'string' || !raw) return dir;
  const root = raw === '/' ? '/' : raw.replace(/\/+$/, '');
  const inside = root === '/' ? mainPath.startsWith('/') : mainPath.startsWith(`${root}/`);
  return inside && !root.split('/').includes('..') ? root : dir;
}
