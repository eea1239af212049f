/**
 * One listing per folder per batch (issue 31): the names of a folder are read once and looked up
 * in constant time — by exact name and by case-folded name (the games ran on Windows) — by every
 * input of a batch (companions) and every resource tree (textures, material files). A container
 * reader can feed the same index with the entries of an archive ({@link FolderIndex.fromPaths}),
 * so a package's folders are listed once per batch too.
 */
import { type Dirent, readdirSync } from 'node:fs';
import { type CompanionLookup, extName } from '@gltf-legacy/core';

/** What a folder entry is: a regular file, a folder, a symbolic link (not followed), or other. */
export type EntryKind = 'file' | 'dir' | 'link' | 'other';

/** One entry of a folder listing. */
export interface FolderEntry {
  name: string;
  kind: EntryKind;
}

/** Reads a folder's entries; `undefined` when it cannot be listed (missing, not a folder, no access). */
export type ReadFolder = (dir: string) => FolderEntry[] | undefined;

function kindOf(d: Dirent): EntryKind {
  return d.isFile() ? 'file' : d.isDirectory() ? 'dir' : d.isSymbolicLink() ? 'link' : 'other';
}

/** {@link FolderIndex}'s default reader: one `readdir(2)` pass with entry types. */
export const readDiskFolder: ReadFolder = (dir) => {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((d) => ({ name: d.name, kind: kindOf(d) }));
  } catch {
    return undefined;
  }
};

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Code-unit order, as the batch sorts names (deterministic, locale-free). */
const byName = (a: FolderEntry, b: FolderEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The entries of one folder, sorted by name, with constant-time lookups. Names differing only in
 * case resolve, case-insensitively, to the first of them in sorted order.
 */
export class FolderListing {
  readonly entries: readonly FolderEntry[];
  private readonly exact = new Map<string, EntryKind>();
  private readonly folded = new Map<string, string>();
  private fileNames?: readonly string[];
  private lookupOf?: CompanionLookup;

  constructor(entries: Iterable<FolderEntry>) {
    this.entries = Object.freeze([...entries].sort(byName));
    for (const e of this.entries) {
      this.exact.set(e.name, e.kind);
      const f = e.name.toLowerCase();
      if (!this.folded.has(f)) this.folded.set(f, e.name);
    }
  }

  /** True when `name` is an entry, exactly as spelled. */
  has(name: string): boolean {
    return this.exact.has(name);
  }

  /** The kind of the entry `name` (exact spelling), or undefined. */
  kind(name: string): EntryKind | undefined {
    return this.exact.get(name);
  }

  /** The entry's name as listed: `name` itself when it exists, else its case-insensitive match. */
  find(name: string): string | undefined {
    return this.exact.has(name) ? name : this.folded.get(name.toLowerCase());
  }

  /**
   * Names of the regular files (not folders, not links), sorted; computed once and frozen (it is
   * shared by every input of a batch: a caller that tried to change it would fail loudly).
   */
  files(): readonly string[] {
    this.fileNames ??= Object.freeze(this.entries.filter((e) => e.kind === 'file').map((e) => e.name));
    return this.fileNames;
  }

  /**
   * The files of this folder as a {@link CompanionLookup} (what a format's `companionsIn` asks):
   * by case-folded name and by extension from maps, by prefix from a binary search of the
   * case-folded names; built once, on first use.
   */
  lookup(): CompanionLookup {
    if (this.lookupOf) return this.lookupOf;
    const named = new Map<string, string[]>();
    const byExt = new Map<string, string[]>();
    const folded: [string, string][] = [];
    for (const name of this.files()) {
      const f = name.toLowerCase();
      push(named, f, name);
      push(byExt, extName(name), name);
      folded.push([f, name]);
    }
    for (const list of [...named.values(), ...byExt.values()]) Object.freeze(list);
    folded.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1));
    const none: readonly string[] = Object.freeze([]);
    this.lookupOf = {
      named: (name) => named.get(name.toLowerCase()) ?? none,
      withExtension: (ext) => byExt.get(ext.toLowerCase()) ?? none,
      withPrefix: (prefix) => {
        const p = prefix.toLowerCase();
        let lo = 0;
        let hi = folded.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (folded[mid][0] < p) lo = mid + 1;
          else hi = mid;
        }
        const out: string[] = [];
        for (let i = lo; i < folded.length && folded[i][0].startsWith(p); i++) out.push(folded[i][1]);
        return out.sort();
      },
    };
    return this.lookupOf;
  }
}

/** Options of {@link FolderIndex}. */
export interface FolderIndexOptions {
  /** How a folder is read (default {@link readDiskFolder}); tests count calls, containers feed entries. */
  read?: ReadFolder;
}

/**
 * A snapshot of folders, each read once, then shared: `listing(dir)` reads `dir` on its first
 * call and answers every later call from memory. Keys are the folder paths as given (callers on
 * disk pass absolute, `resolve`d paths; an archive's index uses its `/`-separated entry folders,
 * `''` for the top). A batch's own outputs appear after the snapshot and are never companions.
 *
 * ```ts
 * const index = new FolderIndex();
 * index.listing('/game/Models')?.find('skull_A.3D'); // 'Skull_a.3d', one readdir for the batch
 * const pak = FolderIndex.fromPaths(['Models/x.mdl', 'Textures/X.dds']);
 * pak.listing('Textures')?.find('x.dds');          // 'X.dds', no file system at all
 * ```
 */
export class FolderIndex {
  private readonly folders = new Map<string, FolderListing | undefined>();
  private readonly read: ReadFolder;
  /** Folders read so far through `read` (fed ones do not count). */
  reads = 0;

  constructor(options: FolderIndexOptions = {}) {
    this.read = options.read ?? readDiskFolder;
  }

  /** The listing of `dir`, read on first use; undefined when the folder cannot be listed. */
  listing(dir: string): FolderListing | undefined {
    if (this.folders.has(dir)) return this.folders.get(dir);
    this.reads++;
    const entries = this.read(dir);
    const listing = entries ? new FolderListing(entries) : undefined;
    this.folders.set(dir, listing);
    return listing;
  }

  /** Feeds a folder's entries from elsewhere (an archive's table of contents); replaces any listing. */
  set(dir: string, entries: Iterable<FolderEntry>): FolderListing {
    const listing = new FolderListing(entries);
    this.folders.set(dir, listing);
    return listing;
  }

  /** Forgets `dir` (read again on next use), or every folder. */
  forget(dir?: string): void {
    if (dir === undefined) this.folders.clear();
    else this.folders.delete(dir);
  }

  /**
   * An index of a tree given as `/`- (or `\`-) separated file paths, e.g. the entries of a
   * package: every folder on the way is a `dir` entry of its parent; folders not in the tree
   * are unlisted (`listing` is undefined, nothing is read).
   */
  static fromPaths(paths: Iterable<string>): FolderIndex {
    const tree = new Map<string, Map<string, EntryKind>>([['', new Map()]]);
    const folder = (d: string) => {
      let m = tree.get(d);
      if (!m) tree.set(d, (m = new Map()));
      return m;
    };
    for (const raw of paths) {
      const parts = raw.replace(/\\/g, '/').split('/').filter(Boolean);
      let dir = '';
      for (let i = 0; i < parts.length; i++) {
        const last = i === parts.length - 1;
        const entries = folder(dir);
        if (!entries.has(parts[i]) || !last) entries.set(parts[i], last ? 'file' : 'dir');
        dir = dir ? `${dir}/${parts[i]}` : parts[i];
      }
    }
    const index = new FolderIndex({ read: () => undefined });
    for (const [d, entries] of tree)
      index.set(
        d,
        [...entries].map(([name, kind]) => ({ name, kind })),
      );
    return index;
  }
}
