/**
 * The resource tree of an archive given as input (issue 27): its own entries first, then the game
 * or mod folder around it (the format's resource root, as for a loose file), so that a `.dat` or
 * FAR given alone finds the textures, skeletons, bindings … it does not hold, and never anything
 * outside that root. The archive's entries sit at the archive's own folder below the root; the
 * archive file itself is hidden from the folder layer (its entries already are the first layer).
 */
import { dirOf, joinPath, MemoryResources, type ResourceReader } from '@gltf-legacy/core';

/**
 * Readers looked up in order: the first that has a path gives it; listings are the union (the
 * first reader's spelling wins for paths that differ only by case). `hidden` (root-relative) is
 * left out of every layer after the first.
 *
 * ```ts
 * const r = new LayeredResources([new MemoryResources(entries, 'Mod.dat'), folderResources], 'Mod.dat', 'Mod.dat');
 * await r.read('mod_assets/textures/crate_dif.dds'); // the archive's entry, else the loose file
 * ```
 */
export class LayeredResources implements ResourceReader {
  readonly label: string;

  constructor(
    private readonly layers: readonly ResourceReader[],
    label: string,
    private readonly hidden?: string,
  ) {
    this.label = label;
  }

  private isHidden(layer: number, path: string): boolean {
    return layer > 0 && this.hidden !== undefined && path.toLowerCase() === this.hidden.toLowerCase();
  }

  async find(path: string): Promise<string | undefined> {
    for (let i = 0; i < this.layers.length; i++) {
      const found = await this.layers[i].find(path);
      if (found !== undefined && !this.isHidden(i, found)) return found;
    }
    return undefined;
  }

  async read(path: string): Promise<Uint8Array | undefined> {
    for (let i = 0; i < this.layers.length; i++) {
      const found = await this.layers[i].find(path);
      if (found === undefined || this.isHidden(i, found)) continue;
      const bytes = await this.layers[i].read(found);
      if (bytes) return bytes;
    }
    return undefined;
  }

  async list(dir: string, options: { recursive?: boolean } = {}): Promise<string[]> {
    const seen = new Map<string, string>();
    for (let i = 0; i < this.layers.length; i++) {
      for (const p of await this.layers[i].list(dir, options)) {
        const key = p.toLowerCase();
        if (!seen.has(key) && !this.isHidden(i, p)) seen.set(key, p);
      }
    }
    return [...seen.values()].sort();
  }
}

/**
 * The resources of an archive's models: its entries (placed at the archive's folder below the
 * root) over `around`, the reader of the resource root the archive sits in, whose root-relative
 * path is `archivePath`. Returns the reader and the folder the entries are placed at.
 *
 * ```ts
 * const { resources, mount } = archiveResources(entries, 'Mod.dat', folder.resources, folder.resourcePath);
 * // resourcePath of an entry: joinPath(mount, entryName)
 * ```
 */
export function archiveResources(
  entries: Iterable<[string, Uint8Array]>,
  label: string,
  around: ResourceReader,
  archivePath: string,
): { resources: ResourceReader; mount: string } {
  const mount = dirOf(archivePath);
  const own = new MemoryResources(
    [...entries].map(
      ([name, bytes]) => [joinPath(mount, name.replace(/\\/g, '/')), bytes] as [string, Uint8Array],
    ),
    label,
  );
  return { resources: new LayeredResources([own, around], label, archivePath), mount };
}
