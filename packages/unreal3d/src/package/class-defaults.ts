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
  const e = pkg.exportEntry(i);
  const start = e.serialOffset;
  const end = start + e.serialSize;
  const bytes = pkg.bytes;
  const tags = names
    .map((n) => pkg.names.findIndex((x) => x.toLowerCase() === n.toLowerCase()))
    .filter((k) => k >= 0)
    .map((k) => encodeCompactIndex(k));
  if (!tags.length) return undefined;
  const none = pkg.names.findIndex((x) => x.toLowerCase() === 'none');
  const r = new ByteReader(bytes, { file: pkg.file });
  // only bytes that start a tag are looked at closer
  const first = new Uint8Array(256);
  for (const t of tags) first[t[0]] = 1;
  for (let o = start; o < end; o++) {
    if (!first[bytes[o]]) continue;
    // a tag of one of the names, then an info byte of an object property
    const t = tags.find((t) => t.every((b, k) => bytes[o + k] === b));
    if (!t || (bytes[o + t.length] & 0x0f) !== PropertyType.OBJECT) continue;
    if (!chainEndsAt(bytes, pkg.names.length, none, o, end)) continue;
    r.seek(o);
    try {
      const props = readProperties(r, pkg.names, end);
      if (r.offset === end) return props;
    } catch {
      // not the start of the defaults after all: keep looking
    }
  }
  return undefined;
}

/** A compact index at `o` (value, bytes taken), or bytes taken 0 when malformed or past `end`. */
function peekCompact(bytes: Uint8Array, o: number, end: number): [number, number] {
  let n = 0;
  let value = 0;
  let shift = 0;
  let b: number;
  do {
    if (o + n >= end || n === 5) return [0, 0];
    b = bytes[o + n];
    value += n === 0 ? b & 0x3f : (b & 0x7f) * 2 ** shift;
    shift += n === 0 ? 6 : 7;
    n++;
  } while (n === 1 ? b & 0x40 : b & 0x80);
  return [bytes[o] & 0x80 ? -value : value, n];
}

/**
 * True when a tagged property list starting at `o` ends with `None` exactly at `end` — walked
 * without building anything (a cheap test before {@link readProperties} reads it).
 */
function chainEndsAt(bytes: Uint8Array, nameCount: number, none: number, o: number, end: number): boolean {
  for (let guard = 0; o < end && guard < 4096; guard++) {
    const [name, n] = peekCompact(bytes, o, end + 1);
    if (!n || name < 0 || name >= nameCount) return false;
    o += n;
    if (name === none) return o === end;
    if (o >= end) return false;
    const info = bytes[o++];
    const type = info & 0x0f;
    if (type === 0) return false;
    if (type === PropertyType.STRUCT) {
      const [sn, k] = peekCompact(bytes, o, end);
      if (!k || sn < 0 || sn >= nameCount) return false;
      o += k;
    }
    let size = [1, 2, 4, 12, 16, 0, 0, 0][(info >> 4) & 7];
    const code = (info >> 4) & 7;
    if (code === 5) size = bytes[o++];
    else if (code === 6) {
      size = bytes[o] | (bytes[o + 1] << 8);
      o += 2;
    } else if (code === 7) {
      size = bytes[o] | (bytes[o + 1] << 8) | (bytes[o + 2] << 16) | (bytes[o + 3] << 24);
      o += 4;
    }
    if (type === PropertyType.BOOL) continue;
    if (info & 0x80) o += bytes[o] < 0x80 ? 1 : bytes[o] & 0x40 ? 4 : 2;
    if (size < 0) return false;
    o += size;
    if (o > end) return false;
  }
  return false;
}

/** Each package's class defaults, read once for all its meshes. */
const defaultsCache = new WeakMap<UnrealPackage, (readonly [number, PropertyList | undefined])[]>();

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
  let all = defaultsCache.get(pkg);
  if (!all)
    defaultsCache.set(pkg, (all = pkg.exportsOf('Class').map((c) => [c, classDefaults(pkg, c)] as const)));
  for (const [c, props] of all) {
    const m = props?.get('Mesh');
    if (!props || m?.type !== PropertyType.OBJECT || m.value !== mesh + 1) continue;
    out.classes.push(pkg.exportName(c));
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
