/**
 * Resource files in the viewer's pool: the folder tree a model links its look from (textures,
 * material files, `.uc` classes, bindings), gathered on the Node side by `gatherInput` and sent
 * with the model. They sit in the pool under reserved keys `@res<group>/<root-relative path>` so the
 * model list never shows them; {@link poolResources} turns one group back into the
 * `ResourceReader` the importers read through (the same confinement rules as the CLI's).
 * Browser-safe.
 */
import { MemoryResources, type ResourceOptions, sameBytes } from '@gltf-legacy/core';

/** Prefix of resource keys in a pool. */
export const RESOURCE_KEY_PREFIX = '@res';

/** Pool key of a resource file of group `group` (one group per resource root). */
export function resourceKey(group: number, path: string): string {
  return `${RESOURCE_KEY_PREFIX}${group}/${path}`;
}

/** True for pool keys that hold resources rather than files the user opened. */
export function isResourceKey(key: string): boolean {
  return /^@res\d+\//.test(key);
}

/**
 * The resources for the main file `name` of a pool: the group that holds a file of the same base
 * name and bytes as the main file (its root-relative path is `resourcePath`). Without one (files
 * dropped by hand), the pool's own files are the resources, with the main at the root.
 *
 * ```ts
 * const { document } = await format.import(files, { main: name, ...poolResources(pool, name) });
 * ```
 */
export function poolResources(pool: Map<string, Uint8Array>, name: string): ResourceOptions {
  const bytes = pool.get(name);
  const base = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  if (bytes) {
    for (const [key, b] of pool) {
      if (!isResourceKey(key)) continue;
      const slash = key.indexOf('/');
      const rel = key.slice(slash + 1);
      if (rel.slice(rel.lastIndexOf('/') + 1).toLowerCase() !== base || !sameBytes(b, bytes)) continue;
      const prefix = key.slice(0, slash + 1);
      const files: [string, Uint8Array][] = [];
      for (const [k, v] of pool) if (k.startsWith(prefix)) files.push([k.slice(prefix.length), v]);
      return { resources: new MemoryResources(files, 'viewer'), resourcePath: rel };
    }
  }
  const loose = [...pool].filter(([k]) => !isResourceKey(k));
  return { resources: new MemoryResources(loose, 'viewer'), resourcePath: name };
}
