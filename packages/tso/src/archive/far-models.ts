/**
 * Which entries of an unpacked FAR archive convert on their own: every appearance (`.apr`), and
 * every mesh no appearance of the archive reaches through its bindings (a lone mesh).
 */
import { type FileSet, FormatError, extName } from '@gltf-legacy/core';
import { contentIdTag, parseContentName, readAppearance, readBinding, TSO_REF_WITH_IDS } from '../outfit.js';

/**
 * The names of the models to convert in `entries` (as `unpackFar` names them, ids in the names):
 * appearances first, then the lone meshes, each in archive order. An appearance or binding that
 * does not read reaches nothing (its import reports why).
 *
 * ```ts
 * farModels(unpackFar(bytes, 'avatar.dat')); // ['woodaxe.5d34f33e0000000c.apr', 'lone.1234567800000009.mesh']
 * ```
 */
export function farModels(entries: FileSet): string[] {
  const byTag = new Map<string, string>();
  for (const name of entries.keys()) {
    const id = parseContentName(name);
    if (id) byTag.set(contentIdTag(id.fileId, id.typeId), name);
  }
  const names = [...entries.keys()];
  const appearances = names.filter((n) => extName(n) === '.apr');
  const reached = new Set<string>();
  const tryRead = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      return undefined;
    }
  };
  for (const apr of appearances) {
    for (const b of tryRead(() => readAppearance(entries.get(apr)!, apr))?.bindings ?? []) {
      const bnd = byTag.get(contentIdTag(b.fileId, b.typeId));
      const m = bnd ? tryRead(() => readBinding(entries.get(bnd)!, bnd))?.mesh : undefined;
      const mesh = m?.kind === TSO_REF_WITH_IDS ? byTag.get(contentIdTag(m.file!, m.type!)) : undefined;
      if (mesh) reached.add(mesh);
    }
  }
  return [...appearances, ...names.filter((n) => extName(n) === '.mesh' && !reached.has(n))];
}
