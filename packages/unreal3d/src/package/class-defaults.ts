/**
 * A class's default properties (`Mesh=`, `Skin=`, `MultiSkins(n)=` of `defaultproperties`) as the
 * package stores them: tagged properties at the end of the `Class` export, after its script
 * bytecode. UE1 stores the bytecode in its in-memory size, not its byte length on disk, so the
 * start of the defaults is found instead of walked to: the first place where one of the names
 * looked for starts a property list that ends with `None` exactly at the end of the export.
 * A list that parses tag by tag and closes exactly there is what UCC wrote (a stray match in the
 * bytecode would have to form such a chain by chance); without one the class has none of them.
 */
import { ByteReader } from '@gltf-legacy/core';
import { encodeCompactIndex } from './compact-index.js';
import type { UnrealPackage } from './package.js';
import { type PropertyList, PropertyType, readProperties } from './properties.js';

/** Property names {@link classDefaults} looks for. */
export const SKIN_PROPERTY_NAMES = ['Mesh', 'Skin', 'MultiSkins'] as const;

/**
 * The default properties of class export `i` from the first of `names` on, or undefined.
 *
 * ```ts
 * classDefaults(pkg, pkg.findExport('SkullItem', 'Class'))?.get('Mesh')?.value; // ref of LodMesh Skull
 * ```
 */
export function classDefaults(
  pkg: UnrealPackage,
  i: number,
  names: readonly string[] = SKIN_PROPERTY_NAMES,
): PropertyList | undefined {
  const e = pkg.exports[i];
  const start = e.serialOffset;
  const end = start + e.serialSize;
  const bytes = pkg.bytes;
  const tags = names
    .map((n) => pkg.names.findIndex((x) => x.toLowerCase() === n.toLowerCase()))
    .filter((k) => k >= 0)
    .map((k) => encodeCompactIndex(k));
  if (!tags.length) return undefined;
  const r = new ByteReader(bytes, { file: pkg.file });
  for (let o = start; o < end; o++) {
    // a tag of one of the names, then an info byte of an object property
    const t = tags.find((t) => t.every((b, k) => bytes[o + k] === b));
    if (!t || (bytes[o + t.length] & 0x0f) !== PropertyType.OBJECT) continue;
    r.seek(o);
    try {
      const props = readProperties(r, pkg.names, end);
      if (r.offset === end) return props;
    } catch {
      // not the start of the defaults: keep looking
    }
  }
  return undefined;
}

/** The skins the classes using a mesh set: `Skin` and `MultiSkins(n)` texture references. */
export interface MeshClassSkins {
  /** Class names whose `Mesh` default is the mesh. */
  classes: string[];
  /** `Skin=` (object reference), first class wins. */
  skin?: number;
  /** `MultiSkins(n)=` by slot, first class wins per slot. */
  multiSkins: Map<number, number>;
}

/**
 * The `Skin`/`MultiSkins` defaults of the package's classes whose `Mesh` default is mesh export `mesh`.
 *
 * ```ts
 * meshClassSkins(pkg, pkg.findExport('dogTag', 'LodMesh')).classes; // ['DogTagItemVisuals']
 * ```
 */
export function meshClassSkins(pkg: UnrealPackage, mesh: number): MeshClassSkins {
  const out: MeshClassSkins = { classes: [], multiSkins: new Map() };
  for (const c of pkg.exportsOf('Class')) {
    const props = classDefaults(pkg, c);
    const m = props?.get('Mesh');
    if (!props || m?.type !== PropertyType.OBJECT || m.value !== mesh + 1) continue;
    out.classes.push(pkg.exports[c].name);
    const skin = props.get('Skin');
    if (
      out.skin === undefined &&
      skin?.type === PropertyType.OBJECT &&
      typeof skin.value === 'number' &&
      skin.value !== 0
    )
      out.skin = skin.value;
    for (const p of props.items)
      if (
        p.name.toLowerCase() === 'multiskins' &&
        p.type === PropertyType.OBJECT &&
        typeof p.value === 'number' &&
        p.value !== 0
      )
        if (!out.multiSkins.has(p.arrayIndex)) out.multiSkins.set(p.arrayIndex, p.value);
  }
  return out;
}
