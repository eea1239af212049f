/**
 * `GLTF_LEGACY_kept_bytes`: bytes glTF has no place for (an original texture file, trailing bytes
 * after a model, an unknown chunk) kept in buffer views of the `.glb`, so that an export writes
 * the game's file back byte for byte. One optional extension (in `extensionsUsed`, never in
 * `extensionsRequired`): a client that does not know it draws the file as it would without it.
 * The JSON shape is in `packages/core/SPEC-kept-bytes.md`.
 *
 * The bytes live in glTF-Transform properties (one {@link KeptBytes} per holder, one
 * {@link KeptBytesEntry} per key), so `dedup`, `prune`, `cloneDocument`, `--optimize` and our own
 * `prepare` carry them like any other property; the writer places each entry in a buffer view of
 * the entry's buffer (default: the document's first), the reader gives them back.
 *
 * ```ts
 * setKeptBytes(doc.getRoot().listScenes()[0], 'trailing', new Uint8Array([0, 0, 0, 0]));
 * getKeptBytes(scene, 'trailing'); // Uint8Array(4)
 * listKeptBytes(scene); // ['trailing']
 * ```
 */
import {
  type Buffer,
  Document,
  type ExtensibleProperty,
  Extension,
  ExtensionProperty,
  type IProperty,
  type Mesh,
  type Nullable,
  type Primitive,
  PropertyType,
  type ReaderContext,
  RefMap,
  type WriterContext,
} from '@gltf-transform/core';

/** The extension's name, as it appears in `extensionsUsed` and in `extensions` objects. */
export const KEPT_BYTES = 'GLTF_LEGACY_kept_bytes';

/** JSON-safe small fields kept beside the bytes (a path, a hash, a header field). */
export type KeptInfo = Record<string, string | number | boolean | null>;

/** The property types that may hold kept bytes. */
const HOLDER_TYPES: string[] = [
  PropertyType.ROOT,
  PropertyType.SCENE,
  PropertyType.NODE,
  PropertyType.MESH,
  PropertyType.PRIMITIVE,
  PropertyType.MATERIAL,
  PropertyType.TEXTURE,
  PropertyType.ANIMATION,
  PropertyType.SKIN,
  PropertyType.CAMERA,
  PropertyType.ACCESSOR,
];

interface IKeptBytesEntry extends IProperty {
  bytes: Uint8Array;
  info: KeptInfo;
  buffer: Buffer;
}

interface IKeptBytes extends IProperty {
  entries: RefMap<KeptBytesEntry>;
}

/** One kept byte string and its small fields. Made by {@link setKeptBytes}. */
export class KeptBytesEntry extends ExtensionProperty<IKeptBytesEntry> {
  static override EXTENSION_NAME = KEPT_BYTES;
  declare extensionName: typeof KEPT_BYTES;
  declare propertyType: 'KeptBytesEntry';
  declare parentTypes: ['KeptBytes'];

  protected init(): void {
    this.extensionName = KEPT_BYTES;
    this.propertyType = 'KeptBytesEntry';
    this.parentTypes = ['KeptBytes'];
  }

  protected override getDefaults(): Nullable<IKeptBytesEntry> {
    return Object.assign(super.getDefaults(), { bytes: new Uint8Array(0), info: {}, buffer: null });
  }

  getBytes(): Uint8Array {
    return this.get('bytes');
  }
  setBytes(bytes: Uint8Array): this {
    return this.set('bytes', bytes);
  }
  getInfo(): KeptInfo {
    return this.get('info');
  }
  setInfo(info: KeptInfo): this {
    return this.set('info', info);
  }
  /** The buffer whose buffer view holds the bytes (null: the document's first). */
  getBuffer(): Buffer | null {
    return this.getRef('buffer');
  }
  setBuffer(buffer: Buffer | null): this {
    return this.setRef('buffer', buffer);
  }
}

/** The kept bytes of one property, by key. */
export class KeptBytes extends ExtensionProperty<IKeptBytes> {
  static override EXTENSION_NAME = KEPT_BYTES;
  declare extensionName: typeof KEPT_BYTES;
  declare propertyType: 'KeptBytes';
  declare parentTypes: string[];

  protected init(): void {
    this.extensionName = KEPT_BYTES;
    this.propertyType = 'KeptBytes';
    this.parentTypes = HOLDER_TYPES;
  }

  protected override getDefaults(): Nullable<IKeptBytes> {
    return Object.assign(super.getDefaults(), { entries: new RefMap<KeptBytesEntry>() });
  }

  getEntry(key: string): KeptBytesEntry | null {
    return this.getRefMap('entries', key);
  }
  setEntry(key: string, entry: KeptBytesEntry | null): this {
    return this.setRefMap('entries', key, entry);
  }
  listKeys(): string[] {
    return this.listRefMapKeys('entries');
  }
  listEntries(): KeptBytesEntry[] {
    return this.listRefMapValues('entries');
  }
}

/** The JSON of one entry: the buffer view, plus the entry's small fields. */
interface EntryDef {
  bufferView: number;
  [field: string]: unknown;
}

/**
 * The glTF-Transform extension: register it on every IO that reads or writes our files (the CLI,
 * `LegacyIO` and the viewer do; each format lists it in `gltfExtensions`).
 *
 * ```ts
 * const io = new NodeIO().registerExtensions([KeptBytesExtension]);
 * ```
 */
export class KeptBytesExtension extends Extension {
  static override readonly EXTENSION_NAME = KEPT_BYTES;
  override readonly extensionName = KEPT_BYTES;
  override readonly prewriteTypes = [PropertyType.BUFFER];

  /** A container for one holder's entries (attach with `holder.setExtension(KEPT_BYTES, c)`). */
  createKeptBytes(): KeptBytes {
    return new KeptBytes(this.document.getGraph());
  }

  /** One entry (see {@link setKeptBytes}). */
  createEntry(): KeptBytesEntry {
    return new KeptBytesEntry(this.document.getGraph());
  }

  /**
   * The containers attached to some holder, in document order (root, scenes, nodes, meshes and
   * their primitives, materials, textures, animations, skins, cameras, accessors), so the buffer
   * views are laid out the same however the document was built.
   */
  private attached(): KeptBytes[] {
    const root = this.document.getRoot();
    const holders: ExtensibleProperty[] = [root, ...root.listScenes(), ...root.listNodes()];
    for (const mesh of root.listMeshes()) holders.push(mesh, ...mesh.listPrimitives());
    holders.push(
      ...root.listMaterials(),
      ...root.listTextures(),
      ...root.listAnimations(),
      ...root.listSkins(),
      ...root.listCameras(),
      ...root.listAccessors(),
    );
    const out: KeptBytes[] = [];
    const seen = new Set<KeptBytes>();
    for (const h of holders) {
      const kept = h.getExtension<KeptBytes>(KEPT_BYTES);
      if (kept && !seen.has(kept)) {
        seen.add(kept);
        out.push(kept);
      }
    }
    return out;
  }

  override prewrite(context: WriterContext, _type: PropertyType): this {
    const first = this.document.getRoot().listBuffers()[0];
    const placed = new Set<Uint8Array>();
    for (const kept of this.attached()) {
      for (const entry of kept.listEntries()) {
        const bytes = entry.getBytes();
        if (placed.has(bytes)) continue;
        const buffer = entry.getBuffer() ?? first;
        if (!buffer) throw new Error(`${KEPT_BYTES}: the document has no buffer to hold kept bytes`);
        let views = context.otherBufferViews.get(buffer);
        if (!views) {
          views = [];
          context.otherBufferViews.set(buffer, views);
        }
        views.push(bytes);
        placed.add(bytes);
      }
    }
    return this;
  }

  override write(context: WriterContext): this {
    for (const kept of this.attached()) {
      const entries: Record<string, EntryDef> = {};
      for (const key of kept.listKeys()) {
        const entry = kept.getEntry(key)!;
        const bufferView = context.otherBufferViewsIndexMap.get(entry.getBytes());
        if (bufferView === undefined) continue;
        entries[key] = { ...entry.getInfo(), bufferView };
      }
      if (Object.keys(entries).length === 0) continue;
      for (const holder of kept.listParents()) {
        const def = holderDef(context, holder as ExtensibleProperty, kept);
        if (!def) continue;
        def.extensions = { ...(def.extensions ?? {}), [KEPT_BYTES]: { entries } };
      }
    }
    return this;
  }

  override read(context: ReaderContext): this {
    const json = context.jsonDoc.json;
    const readDef = (
      def: { extensions?: Record<string, unknown> } | undefined,
      holder: ExtensibleProperty | undefined,
    ) => {
      const ext = def?.extensions?.[KEPT_BYTES] as { entries?: Record<string, EntryDef> } | undefined;
      if (!ext || !holder || typeof ext.entries !== 'object' || !ext.entries) return;
      for (const [key, e] of Object.entries(ext.entries)) {
        if (!e || typeof e !== 'object' || !Number.isInteger(e.bufferView)) continue;
        const view = context.bufferViews[e.bufferView];
        if (!view) continue;
        const { bufferView, ...rest } = e;
        const info: KeptInfo = {};
        for (const [k, v] of Object.entries(rest))
          if (v === null || ['string', 'number', 'boolean'].includes(typeof v))
            info[k] = v as KeptInfo[string];
        const kept = keptOf(this, holder);
        const entry = this.createEntry().setBytes(view.slice()).setInfo(info);
        const buffer = context.bufferViewBuffers[bufferView];
        if (buffer) entry.setBuffer(buffer);
        kept.setEntry(key, entry);
      }
    };
    readDef(json as never, this.document.getRoot());
    const lists: [unknown[] | undefined, ExtensibleProperty[]][] = [
      [json.scenes, context.scenes],
      [json.nodes, context.nodes],
      [json.meshes, context.meshes],
      [json.materials, context.materials],
      [json.images, context.textures],
      [json.animations, context.animations],
      [json.skins, context.skins],
      [json.cameras, context.cameras],
      [json.accessors, context.accessors],
    ];
    for (const [defs, props] of lists)
      (defs ?? []).forEach((d, i) => {
        readDef(d as never, props[i]);
      });
    (json.meshes ?? []).forEach((meshDef, m) => {
      const prims = (context.meshes[m] as Mesh | undefined)?.listPrimitives() ?? [];
      (meshDef.primitives ?? []).forEach((p, i) => {
        readDef(p as never, prims[i]);
      });
    });
    return this;
  }
}

/** True when `holder` has `kept` as its extension (not merely a graph parent). */
function isHolderOf(holder: unknown, kept: KeptBytes): boolean {
  return (holder as ExtensibleProperty).getExtension?.(KEPT_BYTES) === kept;
}

type Def = { extensions?: Record<string, unknown> };

function holderDef(context: WriterContext, holder: ExtensibleProperty, kept: KeptBytes): Def | undefined {
  if (!isHolderOf(holder, kept)) return undefined;
  const json = context.jsonDoc.json;
  const at = <T>(list: T[] | undefined, i: number | undefined) => (i === undefined ? undefined : list?.[i]);
  switch (holder.propertyType) {
    case PropertyType.ROOT:
      return json as Def;
    case PropertyType.SCENE:
      return at(json.scenes, context.sceneIndexMap.get(holder as never)) as Def;
    case PropertyType.NODE:
      return at(json.nodes, context.nodeIndexMap.get(holder as never)) as Def;
    case PropertyType.MESH:
      return at(json.meshes, context.meshIndexMap.get(holder as never)) as Def;
    case PropertyType.MATERIAL:
      return at(json.materials, context.materialIndexMap.get(holder as never)) as Def;
    case PropertyType.TEXTURE:
      return at(json.images, context.imageIndexMap.get(holder as never)) as Def;
    case PropertyType.ANIMATION:
      return at(json.animations, context.animationIndexMap.get(holder as never)) as Def;
    case PropertyType.SKIN:
      return at(json.skins, context.skinIndexMap.get(holder as never)) as Def;
    case PropertyType.CAMERA:
      return at(json.cameras, context.cameraIndexMap.get(holder as never)) as Def;
    case PropertyType.ACCESSOR:
      return at(json.accessors, context.accessorIndexMap.get(holder as never)) as Def;
    case PropertyType.PRIMITIVE: {
      const prim = holder as unknown as Primitive;
      const mesh = prim.listParents().find((p) => p.propertyType === PropertyType.MESH) as Mesh | undefined;
      const meshDef = mesh && at(json.meshes, context.meshIndexMap.get(mesh));
      return mesh && meshDef
        ? (meshDef.primitives[mesh.listPrimitives().indexOf(prim)] as Def | undefined)
        : undefined;
    }
    default:
      return undefined;
  }
}

function keptOf(ext: KeptBytesExtension, holder: ExtensibleProperty): KeptBytes {
  let kept = holder.getExtension<KeptBytes>(KEPT_BYTES);
  if (!kept) {
    kept = ext.createKeptBytes();
    holder.setExtension(KEPT_BYTES, kept);
  }
  return kept;
}

function documentOf(property: ExtensibleProperty): Document {
  const doc = Document.fromGraph(property.getGraph() as never);
  if (!doc) throw new RangeError(`${KEPT_BYTES}: the property belongs to no Document`);
  return doc;
}

/**
 * Keeps `bytes` under `key` on `holder` (a Scene, Node, Mesh, Primitive, Material, Texture,
 * Animation, Skin, Camera, Accessor or the Root), with optional small JSON fields. The bytes are
 * not copied. Replaces an entry of the same key. Enables the extension on the document and gives
 * it a buffer if it has none.
 *
 * ```ts
 * setKeptBytes(texture, 'source', ddsBytes, { path: 'textures/slug_dif.dds' });
 * setKeptBytes(scene, 'trailing', model.trailing);
 * ```
 */
export function setKeptBytes(
  holder: ExtensibleProperty,
  key: string,
  bytes: Uint8Array,
  info: KeptInfo = {},
): void {
  const doc = documentOf(holder);
  const ext = doc.createExtension(KeptBytesExtension);
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  const kept = keptOf(ext, holder);
  kept.getEntry(key)?.dispose();
  kept.setEntry(
    key,
    ext
      .createEntry()
      .setBytes(bytes)
      .setInfo({ ...info })
      .setBuffer(buffer),
  );
}

/**
 * The bytes kept under `key` on `holder`, or undefined.
 *
 * ```ts
 * const trailing = getKeptBytes(scene, 'trailing');
 * ```
 */
export function getKeptBytes(holder: ExtensibleProperty, key: string): Uint8Array | undefined {
  return holder.getExtension<KeptBytes>(KEPT_BYTES)?.getEntry(key)?.getBytes();
}

/**
 * The small fields kept beside the bytes of `key` on `holder`, or undefined when nothing is kept.
 *
 * ```ts
 * const { path } = getKeptInfo(texture, 'source') ?? {};
 * ```
 */
export function getKeptInfo(holder: ExtensibleProperty, key: string): KeptInfo | undefined {
  return holder.getExtension<KeptBytes>(KEPT_BYTES)?.getEntry(key)?.getInfo();
}

/**
 * The keys of the bytes kept on `holder` (empty when none).
 *
 * ```ts
 * for (const key of listKeptBytes(mesh)) console.log(key, getKeptBytes(mesh, key)!.byteLength);
 * ```
 */
export function listKeptBytes(holder: ExtensibleProperty): string[] {
  return holder.getExtension<KeptBytes>(KEPT_BYTES)?.listKeys() ?? [];
}

/**
 * Removes the entry `key` of `holder` (no effect when absent); the holder's container goes with
 * its last entry.
 *
 * ```ts
 * removeKeptBytes(texture, 'source'); // the texture was edited: the original no longer applies
 * ```
 */
export function removeKeptBytes(holder: ExtensibleProperty, key: string): void {
  const kept = holder.getExtension<KeptBytes>(KEPT_BYTES);
  if (!kept) return;
  kept.getEntry(key)?.dispose();
  if (kept.listKeys().length === 0) {
    holder.setExtension(KEPT_BYTES, null);
    kept.dispose();
  }
}

/**
 * Drops every kept byte string of the document and disables the extension (`--lean`). Returns
 * how many bytes were dropped.
 *
 * ```ts
 * const dropped = dropKeptBytes(doc);
 * ```
 */
export function dropKeptBytes(doc: Document): number {
  const ext = doc
    .getRoot()
    .listExtensionsUsed()
    .find((e) => e.extensionName === KEPT_BYTES);
  if (!ext) return 0;
  let n = 0;
  for (const p of ext.listProperties()) if (p instanceof KeptBytesEntry) n += p.getBytes().byteLength;
  ext.dispose();
  return n;
}
