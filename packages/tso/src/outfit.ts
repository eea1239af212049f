import { ByteReader, ByteWriter, FormatError } from '@gltf-legacy/core';

/**
 * The Sims Online outfit files that link an avatar part to its mesh and texture (FreeSO
 * `Appearance.cs`, `Binding.cs`; checked on the FreeSO content files). Integers are big-endian,
 * strings u8-length Pascal strings.
 *
 * - `.apr` appearance: `u32 version; u32 thumbnailFileId; u32 thumbnailTypeId; u32 count;
 *   (u32 fileId, u32 typeId)[count]` — each pair names a `.bnd` binding.
 * - `.bnd` binding: `u32 version (1); pascal boneName; u32 meshKind; [if 8: u32 group, file,
 *   type]; u32 textureKind; [if 8: u32 group, file, type]`.
 *
 * Files are found by id: the content folders name each file `NAME.<file id><type id>.ext` with
 * both ids as 8 hex digits (`woodaxe.f5c2c18400000009.mesh`).
 */

/** Type ids of the content files (the second 8 hex digits of a file name). */
export const TSO_TYPE_IDS = {
  animation: 0x7,
  mesh: 0x9,
  binding: 0xb,
  appearance: 0xc,
  texture: 0x14,
} as const;

/** `meshKind`/`textureKind` value that is followed by a (group, file, type) id triple. */
export const TSO_REF_WITH_IDS = 8;

/** A reference of a binding: its kind word and, when the kind is 8, the id triple. */
export interface TsoFileRef {
  /** The u32 before the ids (8 in every known file: group, file and type follow). */
  kind: number;
  /** Present when `kind` is 8. */
  group?: number;
  file?: number;
  type?: number;
}

/** A `.bnd` file, field for field. */
export interface TsoBindingFile {
  version: number;
  /** Skeleton bone the mesh is attached to (matched case-insensitively). */
  boneName: string;
  mesh: TsoFileRef;
  texture: TsoFileRef;
  /** Bytes after the last field (none in known files), kept for a lossless write. */
  trailing: Uint8Array;
}

/** One binding an appearance names. */
export interface TsoAppearanceEntry {
  fileId: number;
  typeId: number;
}

/** An `.apr` file, field for field. */
export interface TsoAppearance {
  version: number;
  thumbnailFileId: number;
  thumbnailTypeId: number;
  bindings: TsoAppearanceEntry[];
  trailing: Uint8Array;
}

const readerOf = (bytes: Uint8Array, file?: string) =>
  new ByteReader(bytes, { file, littleEndian: false, encoding: 'latin1' });

function readRef(r: ByteReader, field: string): TsoFileRef {
  const kind = r.u32be(`${field}.kind`);
  if (kind !== TSO_REF_WITH_IDS) return { kind };
  return {
    kind,
    group: r.u32be(`${field}.group`),
    file: r.u32be(`${field}.file`),
    type: r.u32be(`${field}.type`),
  };
}

function writeRef(w: ByteWriter, ref: TsoFileRef, field: string): void {
  w.u32be(ref.kind >>> 0);
  if (ref.kind !== TSO_REF_WITH_IDS) return;
  for (const k of ['group', 'file', 'type'] as const) {
    const v = ref[k];
    if (v === undefined || !Number.isInteger(v) || v < 0 || v > 0xffffffff)
      throw new FormatError(`${field}.${k} must be a u32 when ${field}.kind is 8 (got ${v})`, {
        code: 'BAD_VALUE',
        field: `${field}.${k}`,
      });
    w.u32be(v);
  }
}

function checkVersion(version: number, r: ByteReader): void {
  if (version === 0 || version > 0xff)
    throw new FormatError(`version ${version} is not a TSO outfit file version (1–255)`, {
      code: 'BAD_VERSION',
      file: r.file,
      offset: 0,
      field: 'version',
    });
}

/**
 * Reads a `.bnd` binding. Throws `FormatError` (file, offset, field) on truncation or a version
 * outside 1–255.
 *
 * ```ts
 * const bnd = readBinding(bytes, 'woodaxe.e5b852880000000b.bnd');
 * bnd.boneName; // 'R_HAND'
 * bnd.mesh.file?.toString(16); // 'f5c2c184'
 * ```
 */
export function readBinding(bytes: Uint8Array, file?: string): TsoBindingFile {
  const r = readerOf(bytes, file);
  const version = r.u32be('version');
  checkVersion(version, r);
  const boneName = r.pstring8('boneName');
  const mesh = readRef(r, 'mesh');
  const texture = readRef(r, 'texture');
  return { version, boneName, mesh, texture, trailing: r.bytesCopy(r.remaining, 'trailing') };
}

/**
 * Writes a `.bnd` binding (the exact bytes {@link readBinding} read).
 *
 * ```ts
 * const bytes = writeBinding({ version: 1, boneName: 'HEAD', mesh: { kind: 8, group: 0, file: 0x1234, type: 9 },
 *   texture: { kind: 8, group: 0, file: 0x5678, type: 0x14 }, trailing: new Uint8Array(0) });
 * ```
 */
export function writeBinding(bnd: TsoBindingFile): Uint8Array {
  const w = new ByteWriter({ littleEndian: false, encoding: 'latin1', capacity: 64 });
  w.u32be(bnd.version >>> 0);
  w.pstring8(bnd.boneName);
  writeRef(w, bnd.mesh, 'mesh');
  writeRef(w, bnd.texture, 'texture');
  w.bytes(bnd.trailing);
  return w.finish();
}

/**
 * Reads an `.apr` appearance. The binding count is checked against the bytes left before
 * anything is allocated.
 *
 * ```ts
 * const apr = readAppearance(bytes, 'woodaxe.5d34f33e0000000c.apr');
 * apr.bindings; // [{ fileId: 0xe5b85288, typeId: 0xb }]
 * ```
 */
export function readAppearance(bytes: Uint8Array, file?: string): TsoAppearance {
  const r = readerOf(bytes, file);
  const version = r.u32be('version');
  checkVersion(version, r);
  const thumbnailFileId = r.u32be('thumbnailFileId');
  const thumbnailTypeId = r.u32be('thumbnailTypeId');
  const count = r.count(r.u32be('bindingCount'), 8, 'bindings');
  const bindings: TsoAppearanceEntry[] = new Array(count);
  for (let i = 0; i < count; i++)
    bindings[i] = { fileId: r.u32be(`bindings[${i}].fileId`), typeId: r.u32be(`bindings[${i}].typeId`) };
  return {
    version,
    thumbnailFileId,
    thumbnailTypeId,
    bindings,
    trailing: r.bytesCopy(r.remaining, 'trailing'),
  };
}

/**
 * Writes an `.apr` appearance (the exact bytes {@link readAppearance} read).
 *
 * ```ts
 * writeAppearance({ version: 1, thumbnailFileId: 0, thumbnailTypeId: 0,
 *   bindings: [{ fileId: 0xe5b85288, typeId: 0xb }], trailing: new Uint8Array(0) });
 * ```
 */
export function writeAppearance(apr: TsoAppearance): Uint8Array {
  const w = new ByteWriter({
    littleEndian: false,
    capacity: 16 + apr.bindings.length * 8 + apr.trailing.length,
  });
  w.u32be(apr.version >>> 0);
  w.u32be(apr.thumbnailFileId >>> 0);
  w.u32be(apr.thumbnailTypeId >>> 0);
  w.u32be(apr.bindings.length);
  for (const b of apr.bindings) w.u32be(b.fileId >>> 0).u32be(b.typeId >>> 0);
  w.bytes(apr.trailing);
  return w.finish();
}

/** Which outfit file a byte string is. */
export type TsoOutfitKind = 'apr' | 'bnd';

function be(b: Uint8Array, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}

function bndEnd(b: Uint8Array): number {
  if (b.length < 5 || be(b, 0) !== 1) return -1;
  // Bone names are printable ASCII in every known file.
  for (let i = 5; i < 5 + b[4] && i < b.length; i++) if (b[i] < 0x20 || b[i] > 0x7e) return -1;
  let o = 5 + b[4];
  for (let k = 0; k < 2; k++) {
    if (o + 4 > b.length) return -1;
    o += be(b, o) === TSO_REF_WITH_IDS ? 16 : 4;
  }
  return o;
}

function aprFits(b: Uint8Array): boolean {
  const n = b.length;
  if (n < 16 || (n - 16) % 8 !== 0) return false;
  const version = be(b, 0);
  if (version < 1 || version > 0xff || be(b, 12) !== (n - 16) / 8) return false;
  // Every entry names a binding (type 0xb).
  for (let o = 20; o < n; o += 8) if (be(b, o) !== TSO_TYPE_IDS.binding) return false;
  return true;
}

/**
 * Structural check of an outfit file (no magic exists): a `.bnd` has version 1, a printable bone
 * name and ends exactly after its two references; an `.apr` has a version of 1–255 and ends
 * exactly after its entries, each naming a binding (type id 0xb). The name's extension decides
 * when both layouts fit. The readers accept more (any entry type, any name bytes).
 *
 * ```ts
 * detectOutfitKind(bytes, 'x.apr'); // 'apr' | 'bnd' | undefined
 * ```
 */
export function detectOutfitKind(bytes: Uint8Array, name = ''): TsoOutfitKind | undefined {
  const bnd = bndEnd(bytes) === bytes.length;
  const apr = aprFits(bytes);
  if (bnd && apr) return name.toLowerCase().endsWith('.apr') ? 'apr' : 'bnd';
  return bnd ? 'bnd' : apr ? 'apr' : undefined;
}

/** A content file id: the two ids in its name (`NAME.<file><type>.ext`). */
export interface TsoContentId {
  /** The name before the ids (`woodaxe`). */
  name: string;
  fileId: number;
  typeId: number;
}

const ID_PATTERN = /^(.*)\.([0-9a-f]{8})([0-9a-f]{8})\.[^./\\]+$/i;

/**
 * The ids in a content file name, or `undefined` when it has none.
 *
 * ```ts
 * parseContentName('Meshes/woodaxe.f5c2c18400000009.mesh'); // { name: 'woodaxe', fileId: 0xf5c2c184, typeId: 9 }
 * ```
 */
export function parseContentName(path: string): TsoContentId | undefined {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const m = ID_PATTERN.exec(base);
  if (!m) return undefined;
  return { name: m[1], fileId: Number.parseInt(m[2], 16), typeId: Number.parseInt(m[3], 16) };
}

/** 8 lower-case hex digits. */
export function hex8(v: number): string {
  return (v >>> 0).toString(16).padStart(8, '0');
}

/**
 * The file name of a content file: `NAME.<file id><type id>.ext` (ids as 8 lower-case hex digits).
 *
 * ```ts
 * contentFileName('woodaxe', 0xf5c2c184, 9, 'mesh'); // 'woodaxe.f5c2c18400000009.mesh'
 * ```
 */
export function contentFileName(name: string, fileId: number, typeId: number, ext: string): string {
  return `${name}.${hex8(fileId)}${hex8(typeId)}.${ext}`;
}

/** The `.<file><type>.` part a file name must contain to be the file with these ids (lower case). */
export function contentIdTag(fileId: number, typeId: number): string {
  return `.${hex8(fileId)}${hex8(typeId)}.`;
}
