import {
  ExportError,
  type FileSet,
  FormatError,
  type Warning,
  type WarningCollector,
  baseName,
  unchangedTextureSource,
} from '@gltf-legacy/core';
import { fromGltfImage, TEXTURE_REBUILDER } from '@gltf-legacy/textures';
import type { Document, Node, Texture } from '@gltf-transform/core';
import { TSO_EXPORT_DEFAULTS, type TsoExportOptions, mapTso, prepareTso } from './export.js';
import { storable } from './export/geometry.js';
import { readMesh } from './mesh.js';
import {
  TSO_REF_WITH_IDS,
  TSO_TYPE_IDS,
  type TsoAppearance,
  type TsoBindingFile,
  type TsoFileRef,
  contentFileName,
  hex8,
  parseContentName,
  writeAppearance,
  writeBinding,
} from './outfit.js';
import {
  APPEARANCE_EXTRAS_KEY,
  type AppearanceRecord,
  BINDING_EXTRAS_KEY,
  type BindingRecord,
} from './outfit-import.js';
import { OUTFIT_FOLDERS } from './outfit-resolve.js';
import { keptRun } from './kept.js';

/** Options of {@link exportOutfit} (on top of {@link TsoExportOptions}). */
export interface TsoOutfitExportOptions extends TsoExportOptions {
  /**
   * `auto` (default) writes an outfit when the document came from one (an `.apr`/`.bnd` import,
   * or a `.mesh` that found its binding) or when a mesh has a base colour texture (a foreign
   * textured glTF keeps its texture: one part per mesh node, its texture written); `always` for
   * any document; `never` writes the plain `.mesh` (textures dropped with `TEXTURE_DROPPED`).
   * `true` / `false` are read as `always` / `never`.
   */
  outfit?: 'auto' | 'always' | 'never' | boolean;
  /**
   * File ids already used in the folder the files go to: fresh ids avoid them (the CLI can
   * collect them with {@link collectContentIds}).
   */
  existingIds?: Iterable<number>;
  /**
   * Give every file a fresh id, even those that kept their ids from the import (to add a copy
   * beside the original instead of replacing it). Default false.
   */
  freshIds?: boolean;
}

export const TSO_OUTFIT_EXPORT_DEFAULTS: Required<Pick<TsoOutfitExportOptions, 'outfit' | 'freshIds'>> = {
  outfit: 'auto',
  freshIds: false,
};

/** The file ids in a list of file names (`NAME.<file id><type id>.ext`), for `existingIds`. */
export function collectContentIds(names: Iterable<string>): Set<number> {
  const out = new Set<number>();
  for (const n of names) {
    const id = parseContentName(n);
    if (id) out.add(id.fileId);
  }
  return out;
}

/** A node the plain export writes a `.mesh` for: one with a triangle list (after the shared stage). */
function isMeshNode(n: Node): boolean {
  return !!n.getMesh()?.listPrimitives().some(storable);
}

/** A file name from extras that is safe to write again: a plain base name carrying ids. */
function safeFile(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length > 1024) return undefined;
  const base = baseName(v);
  return /^[A-Za-z0-9_ -][A-Za-z0-9_. -]*$/.test(base) && parseContentName(base) ? v : undefined;
}

function refOf(v: unknown): TsoFileRef | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const r = v as Record<string, unknown>;
  if (!u32(r.kind)) return undefined;
  if (r.kind !== TSO_REF_WITH_IDS) return { kind: r.kind };
  if (!u32(r.group) || !u32(r.file) || !u32(r.type)) return undefined;
  return { kind: r.kind, group: r.group, file: r.file, type: r.type };
}

/**
 * The binding record of a mesh node, checked field by field (extras come from any glTF), with the
 * `.bnd`'s trailing bytes (kept bytes `bndTrailing`, else the JSON of files written before).
 */
function bindingOf(n: Node): (BindingRecord & { trailingBytes: Uint8Array }) | undefined {
  const r = (n.getExtras() as Record<string, unknown>)[BINDING_EXTRAS_KEY] as
    | Record<string, unknown>
    | undefined;
  if (!r || typeof r !== 'object') return undefined;
  const mesh = refOf(r.mesh);
  const texture = refOf(r.texture);
  if (!mesh || !texture) return undefined;
  const bone =
    typeof r.boneName === 'string' && /^[\u0001-\u00ff]{0,255}$/.test(r.boneName) ? r.boneName : '';
  return {
    file: safeFile(r.file),
    version: u32(r.version) && r.version >= 1 ? r.version : 1,
    boneName: bone,
    mesh,
    texture,
    trailingBytes: keptRun(n, 'bndTrailing', r.trailing),
    meshFile: safeFile(r.meshFile),
    textureFile: safeFile(r.textureFile),
  };
}

/** The scene's appearance record, with the `.apr`'s trailing bytes (like {@link bindingOf}). */
function appearanceOf(doc: Document): (AppearanceRecord & { trailingBytes: Uint8Array }) | undefined {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const r = scene?.getExtras()?.[APPEARANCE_EXTRAS_KEY] as Record<string, unknown> | undefined;
  if (!r || typeof r !== 'object' || !Array.isArray(r.bindings)) return undefined;
  const bindings = (r.bindings as unknown[])
    .slice(0, 1 << 20)
    .filter((b): b is { fileId: number; typeId: number } => {
      const e = b as Record<string, unknown> | null;
      return !!e && typeof e === 'object' && u32(e.fileId) && u32(e.typeId);
    })
    .map((b) => ({ fileId: b.fileId, typeId: b.typeId }));
  return {
    file: safeFile(r.file) ?? '',
    version: u32(r.version) && r.version >= 1 ? r.version : 1,
    thumbnailFileId: u32(r.thumbnailFileId) ? r.thumbnailFileId : 0,
    thumbnailTypeId: u32(r.thumbnailTypeId) ? r.thumbnailTypeId : 0,
    bindings,
    trailingBytes: keptRun(scene, 'aprTrailing', r.trailing),
    parts: Array.isArray(r.parts)
      ? (r.parts as unknown[])
          .slice(0, 1 << 20)
          .filter((p): p is number[] => Array.isArray(p) && p.length === 2 && u32(p[0]) && u32(p[1]))
      : [],
  };
}

/**
 * Whether `legacyFormat.export` writes an outfit for this document (see
 * {@link TsoOutfitExportOptions.outfit}).
 */
export function isOutfitDocument(doc: Document, options: TsoOutfitExportOptions = {}): boolean {
  const mode: unknown = options.outfit ?? TSO_OUTFIT_EXPORT_DEFAULTS.outfit;
  if (mode === 'always' || mode === true) return true;
  if (mode === 'never' || mode === false) return false;
  if (mode !== 'auto')
    throw new ExportError('BAD_OPTION', `outfit must be auto, always or never, got ${String(mode)}`);
  const root = doc.getRoot();
  return (
    !!appearanceOf(doc) ||
    root.listNodes().some((n) => !!bindingOf(n)) ||
    // a foreign glTF with a texture: written as an outfit so the texture is kept
    root
      .listMeshes()
      .some((m) => m.listPrimitives().some((p) => !!p.getMaterial()?.getBaseColorTexture()?.getImage()))
  );
}

/**
 * Whether the texture's image can be read back (once per texture, cached in `seen`): an original
 * the import kept was read then; a foreign image is decoded now. One that cannot be decoded is not
 * written (`TEXTURE_UNREADABLE`), as import would leave it out: its binding names no texture.
 */
async function readableTexture(
  texture: Texture,
  seen: Map<Texture, boolean>,
  warnings: WarningCollector,
): Promise<boolean> {
  let ok = seen.get(texture);
  if (ok !== undefined) return ok;
  ok = true;
  if (!(await unchangedTextureSource(texture, TEXTURE_REBUILDER))) {
    try {
      fromGltfImage(texture.getImage()!, texture.getMimeType());
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      warnings.warn(
        'TEXTURE_UNREADABLE',
        `base colour texture "${texture.getName()}" could not be decoded (${e.message}); not written`,
      );
      ok = false;
    }
  }
  seen.set(texture, ok);
  return ok;
}

/** FNV-1a, 32 bits. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Deterministic ids from names that avoid every id in `used` (and 0). */
class IdPool {
  readonly used: Set<number>;
  readonly chosen: string[] = [];
  constructor(existing: Iterable<number>) {
    this.used = new Set(existing);
  }
  fresh(seed: string, what: string): number {
    let id = fnv1a(seed);
    for (let k = 1; id === 0 || this.used.has(id); k++) id = fnv1a(`${seed}#${k}`);
    this.used.add(id);
    this.chosen.push(`${what} ${hex8(id)}`);
    return id;
  }
  keep(id: number): number {
    this.used.add(id);
    return id;
  }
}

/** A content name TSO tools accept: no path separators or dots, latin1. */
function cleanName(name: string, fallback: string): string {
  const s = name.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return s || fallback;
}

const u32 = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;

/**
 * Writes a document as TSO outfit files: per mesh node `Meshes/NAME.<id>00000009.mesh`, its base
 * colour texture `Textures/NAME.<id>00000014.png|jpg|…` and `Bindings/NAME.<id>0000000b.bnd`, and
 * one `Appearances/NAME.<id>0000000c.apr` naming the bindings; a skeleton and animations (when
 * the plain export writes them) go to `Skeletons/` and `Animations/`.
 *
 * Ids: a file that came from an outfit keeps its id (so the files replace the originals and an
 * unchanged document gives the same bytes back); any other file gets a fresh id, FNV-1a of its
 * kind and name, re-hashed while it is 0 or in `existingIds` or already taken. Fresh ids are
 * reported as an info warning `IDS_CHOSEN`.
 *
 * ```ts
 * const { files } = await exportOutfit(doc, { name: 'cape', existingIds: collectContentIds(namesInFolder) });
 * // Meshes/cape.1a2b3c4d00000009.mesh, Textures/…, Bindings/…, Appearances/cape.…0000000c.apr
 * ```
 */
export async function exportOutfit(
  source: Document,
  options: TsoOutfitExportOptions = {},
): Promise<{ files: FileSet; warnings: Warning[] }> {
  const name = cleanName(options.name ?? TSO_EXPORT_DEFAULTS.name, 'model');
  const fresh = options.freshIds ?? TSO_OUTFIT_EXPORT_DEFAULTS.freshIds;
  // The shared stage once for every part (the caller's document itself when nothing must change).
  const { document: doc, warnings } = await prepareTso(source, options);
  const files: FileSet = new Map();
  const root = doc.getRoot();
  const nodes = root.listNodes().filter(isMeshNode);
  if (!nodes.length)
    throw new ExportError('NOTHING_TO_EXPORT', 'the document has no triangle mesh to write as an outfit');
  const pool = new IdPool(options.existingIds ?? []);
  // Reserve every kept id first so fresh ids cannot take one.
  const appearance = fresh ? undefined : appearanceOf(doc);
  const records = nodes.map((n) => (fresh ? undefined : bindingOf(n)));
  for (const r of records) {
    if (u32(r?.mesh.file)) pool.keep(r.mesh.file);
    if (u32(r?.texture.file)) pool.keep(r.texture.file);
    const b = r?.file ? parseContentName(r.file) : undefined;
    if (b) pool.keep(b.fileId);
  }
  const aprId = appearance?.file ? parseContentName(appearance.file) : undefined;
  if (aprId) pool.keep(aprId.fileId);

  // A kept id is used by one file of its kind only (hostile or copied extras could name one twice).
  const claimed = new Set<string>();
  const claim = (kind: string, id: number | undefined) => {
    if (id === undefined || claimed.has(`${kind}/${id}`)) return false;
    claimed.add(`${kind}/${id}`);
    return true;
  };
  const textureIds = new Map<Texture, { id: number; type: number }>();
  const readable = new Map<Texture, boolean>();
  const entries: { fileId: number; typeId: number }[] = [];
  const used = new Set<string>();
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const record = records[i];
    const meshId = record && parseContentName(record.meshFile ?? '');
    let partName = cleanName(meshId?.name ?? node.getName() ?? '', `${name}_${i}`);
    for (let k = 2; used.has(partName.toLowerCase()); k++)
      partName = `${cleanName(meshId?.name ?? node.getName(), name)}_${k}`;
    used.add(partName.toLowerCase());

    // ---- mesh
    const part = mapTso(doc, {
      ...options,
      name: 'part',
      meshNodes: [node],
      skeleton: 'never',
      animations: false,
      texturesWritten: true,
    });
    warnings.merge(part.warnings);
    const meshBytes = part.files.get('part.mesh');
    if (!meshBytes) continue;
    const keptMesh = record && record.mesh.kind === TSO_REF_WITH_IDS && claim('mesh', record.mesh.file);
    const meshFile = keptMesh ? record.mesh.file! : pool.fresh(`mesh:${partName}`, `mesh ${partName}`);
    const meshType = keptMesh ? record.mesh.type! : TSO_TYPE_IDS.mesh;
    const meshBase =
      keptMesh && record.meshFile && parseContentName(record.meshFile)?.fileId === meshFile
        ? baseName(record.meshFile)
        : contentFileName(partName, meshFile, meshType, 'mesh');
    files.set(`${OUTFIT_FOLDERS.meshes}/${meshBase}`, meshBytes);

    // ---- texture
    const texture = node.getMesh()!.listPrimitives()[0]?.getMaterial()?.getBaseColorTexture() ?? null;
    let texRef: { id: number; type: number } | undefined;
    if (texture?.getImage() && (await readableTexture(texture, readable, warnings))) {
      texRef = textureIds.get(texture);
      if (!texRef) {
        const keptTex =
          record && record.texture.kind === TSO_REF_WITH_IDS && claim('texture', record.texture.file);
        texRef = keptTex
          ? { id: record.texture.file!, type: record.texture.type! }
          : { id: pool.fresh(`texture:${partName}`, `texture ${partName}`), type: TSO_TYPE_IDS.texture };
        textureIds.set(texture, texRef);
        const original = await unchangedTextureSource(texture, TEXTURE_REBUILDER);
        const originalExt = original ? /\.([A-Za-z0-9]{1,5})$/.exec(baseName(original.path))?.[1] : undefined;
        const bytes = (originalExt ? original?.bytes : undefined) ?? texture.getImage()!;
        // A pass-through image keeps the extension its file had (`.jpeg`, `.PNG`) when the kind matches.
        const mime = texture.getMimeType();
        const fileExt = /\.([A-Za-z]{3,4})$/.exec(record?.textureFile ?? '')?.[1];
        const sameKind =
          fileExt &&
          ((mime === 'image/png' && /^png$/i.test(fileExt)) ||
            (mime === 'image/jpeg' && /^jpe?g$/i.test(fileExt)));
        const ext =
          originalExt ??
          (sameKind ? fileExt : mime === 'image/jpeg' ? 'jpg' : mime === 'image/webp' ? 'webp' : 'png');
        const known = keptTex && record.textureFile ? parseContentName(record.textureFile) : undefined;
        const texBase =
          known &&
          known.fileId === texRef.id &&
          record!.textureFile!.toLowerCase().endsWith(`.${ext.toLowerCase()}`)
            ? baseName(record!.textureFile!)
            : contentFileName(
                cleanName(texture.getName() || partName, partName),
                texRef.id,
                texRef.type,
                ext,
              );
        files.set(`${OUTFIT_FOLDERS.textures}/${texBase}`, bytes);
      }
    } else if (record?.texture.kind === TSO_REF_WITH_IDS && !texture)
      warnings.warn(
        'TEXTURE_DROPPED',
        `mesh "${partName}" has no base colour texture; its binding names none`,
      );

    // ---- binding
    const boneName = record?.boneName || readMesh(meshBytes).boneNames[0] || 'ROOT';
    const bnd: TsoBindingFile = {
      version: record && u32(record.version) && record.version >= 1 ? record.version : 1,
      boneName,
      mesh: {
        kind: TSO_REF_WITH_IDS,
        group: record && u32(record.mesh.group) ? record.mesh.group : 0,
        file: meshFile,
        type: meshType,
      },
      texture: texRef
        ? {
            kind: TSO_REF_WITH_IDS,
            group: record && u32(record.texture.group) ? record.texture.group : 0,
            file: texRef.id,
            type: texRef.type,
          }
        : record && record.texture.kind !== TSO_REF_WITH_IDS && u32(record.texture.kind)
          ? { kind: record.texture.kind }
          : { kind: 0 },
      trailing: record?.trailingBytes ?? new Uint8Array(0),
    };
    const bndParsed = record?.file ? parseContentName(record.file) : undefined;
    const bndKept = bndParsed && claim('binding', bndParsed.fileId) ? bndParsed : undefined;
    const bndId = bndKept ? bndKept.fileId : pool.fresh(`binding:${partName}`, `binding ${partName}`);
    const bndType = bndKept ? bndKept.typeId : TSO_TYPE_IDS.binding;
    const bndBase = bndKept ? baseName(record!.file!) : contentFileName(partName, bndId, bndType, 'bnd');
    files.set(`${OUTFIT_FOLDERS.bindings}/${bndBase}`, writeBinding(bnd));
    entries.push({ fileId: bndId, typeId: bndType });
  }

  // ---- appearance: the original entries in their order (those not written stay as they were)
  const apr: TsoAppearance = {
    version: appearance && u32(appearance.version) && appearance.version >= 1 ? appearance.version : 1,
    thumbnailFileId: appearance && u32(appearance.thumbnailFileId) ? appearance.thumbnailFileId : 0,
    thumbnailTypeId: appearance && u32(appearance.thumbnailTypeId) ? appearance.thumbnailTypeId : 0,
    bindings: [],
    trailing: appearance?.trailingBytes ?? new Uint8Array(0),
  };
  const pending = [...entries];
  const written = new Set(entries.map((e) => `${e.fileId}/${e.typeId}`));
  const wereParts = new Set((appearance?.parts ?? []).map(([f, t]) => `${f}/${t}`));
  for (const e of appearance?.bindings ?? []) {
    const key = `${e.fileId}/${e.typeId}`;
    if (wereParts.has(key) && !written.has(key)) {
      warnings.warn(
        'BINDING_DROPPED',
        `the part of binding ${hex8(e.fileId)} is no longer in the document; the appearance no longer names it`,
      );
      continue;
    }
    const k = pending.findIndex((p) => p.fileId === e.fileId && p.typeId === e.typeId);
    if (k >= 0) pending.splice(k, 1);
    apr.bindings.push({ fileId: e.fileId, typeId: e.typeId });
  }
  apr.bindings.push(...pending);
  const aprFile = aprId ? aprId.fileId : pool.fresh(`appearance:${name}`, `appearance ${name}`);
  const aprBase = aprId
    ? baseName(appearance!.file)
    : contentFileName(name, aprFile, TSO_TYPE_IDS.appearance, 'apr');
  files.set(`${OUTFIT_FOLDERS.appearances}/${aprBase}`, writeAppearance(apr));

  // ---- skeleton and animations, as the plain export writes them
  const rest = mapTso(doc, { ...options, name, meshNodes: [], texturesWritten: true });
  warnings.merge(rest.warnings);
  for (const [file, bytes] of rest.files) {
    const folder = file.endsWith('.skel') ? OUTFIT_FOLDERS.skeletons : OUTFIT_FOLDERS.animations;
    files.set(`${folder}/${file}`, bytes);
  }
  if (pool.chosen.length)
    warnings.warn('IDS_CHOSEN', `info: fresh file ids chosen: ${pool.chosen.join(', ')}`);
  return { files, warnings: warnings.list() };
}
