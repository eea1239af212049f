import {
  FormatError,
  type ResourceReader,
  WarningCollector,
  baseName,
  keepTextureSource,
  resolveReference,
} from '@gltf-legacy/core';
import { alphaUse, fromGltfImage, TEXTURE_REBUILDER, toGltfImage } from '@gltf-legacy/textures';
import type { Document, Material, Node } from '@gltf-transform/core';
import { rejectNonFinite } from './finite.js';
import { type TsoImportOptions, importTso } from './import.js';
import { type TsoMesh, readMesh } from './mesh.js';
import { noteTrailingBytes } from './quirks.js';
import { keepRun } from './kept.js';
import {
  TSO_REF_WITH_IDS,
  type TsoAppearance,
  type TsoBindingFile,
  parseContentName,
  readAppearance,
  readBinding,
} from './outfit.js';
import {
  type FolderIndex,
  OUTFIT_FOLDERS,
  bindingForMesh,
  describeLink,
  findById,
  searchFolders,
} from './outfit-resolve.js';
import type { TsoAnimation } from './anim.js';
import type { TsoSkeleton } from './skel.js';

/** Missing bindings named one by one in warnings; further ones are counted. */
const MAX_NAMED_MISSING = 16;

/** Key of the binding record in a mesh node's extras (export writes the `.bnd` back from it). */
export const BINDING_EXTRAS_KEY = 'tsoBinding';
/** Key of the appearance record in the scene's extras. */
export const APPEARANCE_EXTRAS_KEY = 'tsoAppearance';

/** What a mesh node keeps of its binding (JSON). */
export interface BindingRecord {
  /** Root-relative path of the `.bnd`, when there was one. */
  file?: string;
  version: number;
  boneName: string;
  mesh: { kind: number; group?: number; file?: number; type?: number };
  texture: { kind: number; group?: number; file?: number; type?: number };
  /** Files written before kept bytes: the `.bnd`'s trailing bytes (now kept bytes `bndTrailing` of the node). */
  trailing?: number[];
  /** Root-relative paths of the mesh and texture files read. */
  meshFile?: string;
  textureFile?: string;
}

/** What the scene keeps of its appearance (JSON). */
export interface AppearanceRecord {
  file: string;
  version: number;
  thumbnailFileId: number;
  thumbnailTypeId: number;
  bindings: { fileId: number; typeId: number }[];
  /** Files written before kept bytes: the `.apr`'s trailing bytes (now kept bytes `aprTrailing` of the scene). */
  trailing?: number[];
  /**
   * The entries (file id, type id) that became mesh nodes: export drops those whose node is gone;
   * the others (missing at import) are written back as they were.
   */
  parts?: number[][];
}

/** One part of an outfit: a mesh, the binding that named it and its texture file. */
interface Part {
  mesh: TsoMesh;
  name: string;
  record: BindingRecord;
  /** The `.bnd`'s trailing bytes (kept as bytes, not in the record). */
  trailing: Uint8Array;
  texture?: { path: string; bytes: Uint8Array };
}

function bindingRecord(b: TsoBindingFile, file?: string): BindingRecord {
  return {
    ...(file ? { file } : {}),
    version: b.version,
    boneName: b.boneName,
    mesh: { ...b.mesh },
    texture: { ...b.texture },
  };
}

/** Reads the mesh and texture a binding links to (warnings `MESH_MISSING`, `TEXTURE_MISSING`). */
async function resolvePart(
  binding: TsoBindingFile,
  bindingPath: string | undefined,
  from: string,
  resources: ResourceReader,
  warnings: WarningCollector,
  cache: FolderIndex,
  strict?: boolean,
): Promise<Part | undefined> {
  const record = bindingRecord(binding, bindingPath);
  const m = binding.mesh;
  if (m.kind !== TSO_REF_WITH_IDS) {
    warnings.warn('MESH_MISSING', `binding "${bindingPath ?? from}" names no mesh (kind ${m.kind})`);
    return undefined;
  }
  const meshFolders = searchFolders(from, OUTFIT_FOLDERS.meshes);
  const meshFile = await findById(
    resources,
    meshFolders,
    m.file!,
    m.type!,
    bindingPath ?? from,
    cache,
    warnings,
  );
  if (!meshFile) {
    warnings.warn(
      'MESH_MISSING',
      `binding "${bindingPath ?? from}": no ${describeLink('mesh', m.file!, m.type!, meshFolders)}`,
    );
    return undefined;
  }
  // A broken linked file costs its part only (the main file's own errors are thrown).
  let mesh: TsoMesh;
  try {
    mesh = readMesh(meshFile.bytes, meshFile.path);
    rejectNonFinite(mesh, meshFile.bytes.length, meshFile.path);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    warnings.warn(
      'MESH_UNREADABLE',
      `mesh "${meshFile.path}" is not a readable TSO mesh (${e.message}); part left out`,
    );
    return undefined;
  }
  noteTrailingBytes(mesh.trailing, meshFile.bytes.length, meshFile.path, { strict }, warnings);
  record.meshFile = meshFile.path;
  const part: Part = {
    mesh,
    name: parseContentName(meshFile.path)?.name ?? baseName(meshFile.path),
    record,
    trailing: binding.trailing,
  };
  const t = binding.texture;
  if (t.kind === TSO_REF_WITH_IDS) {
    const texFolders = searchFolders(from, OUTFIT_FOLDERS.textures);
    const tex = await findById(resources, texFolders, t.file!, t.type!, bindingPath ?? from, cache, warnings);
    if (!tex)
      warnings.warn(
        'TEXTURE_MISSING',
        `binding "${bindingPath ?? from}": no ${describeLink('texture', t.file!, t.type!, texFolders)}`,
      );
    else {
      record.textureFile = tex.path;
      part.texture = tex;
    }
  }
  return part;
}

/**
 * Gives a mesh node its binding's look: the texture as `baseColorTexture` of a material named
 * after the texture file (PNG/JPEG pass through, BMP/TGA… become PNG with the original bytes
 * kept), alpha mode from the image's alpha, and the binding record in the node's extras. With
 * `shared`, bindings that name the same texture file share one material and texture (so export
 * writes that file once, under its id, as the outfit had it). The `.bnd`'s `trailing` bytes are
 * kept as bytes on the node (`bndTrailing`, see kept.ts).
 */
export async function applyBinding(
  doc: Document,
  node: Node,
  record: BindingRecord,
  texture: { path: string; bytes: Uint8Array } | undefined,
  warnings: WarningCollector,
  shared?: Map<string, Material | null>,
  trailing: Uint8Array = new Uint8Array(0),
): Promise<void> {
  node.setExtras({ ...node.getExtras(), [BINDING_EXTRAS_KEY]: record });
  keepRun(node, 'bndTrailing', trailing);
  if (!texture) return;
  const key = texture.path.toLowerCase();
  const known = shared?.get(key);
  if (known !== undefined) {
    if (known) setNodeMaterial(node, known);
    return;
  }
  shared?.set(key, null);
  const stemName = parseContentName(texture.path)?.name ?? baseName(texture.path);
  let image: ReturnType<typeof toGltfImage>;
  let rgba: ReturnType<typeof fromGltfImage>;
  try {
    image = toGltfImage(texture.bytes, texture.path);
    // PNG/JPEG pass through undecoded: decode them here too, so a broken one is caught now
    // (and the alpha mode comes from the pixels).
    rgba = image.image ?? fromGltfImage(image.bytes, image.mimeType);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    warnings.warn(
      'TEXTURE_UNREADABLE',
      `texture "${texture.path}" could not be decoded (${e.message}); left out`,
    );
    return;
  }
  const tex = doc.createTexture(stemName).setImage(image.bytes).setMimeType(image.mimeType);
  // PNG/JPEG files are the glTF image itself; other kinds keep their original bytes beside it.
  if (image.bytes !== texture.bytes)
    await keepTextureSource(tex, texture.path, texture.bytes, TEXTURE_REBUILDER);
  const use = alphaUse(rgba);
  const material = doc
    .createMaterial(stemName)
    .setBaseColorTexture(tex)
    .setMetallicFactor(0)
    .setRoughnessFactor(1)
    .setAlphaMode(use === 'opaque' ? 'OPAQUE' : use === 'mask' ? 'MASK' : 'BLEND');
  shared?.set(key, material);
  setNodeMaterial(node, material);
}

/** Every primitive of the node's mesh gets `material` (an old one used nowhere else is disposed). */
function setNodeMaterial(node: Node, material: Material): void {
  for (const prim of node.getMesh()?.listPrimitives() ?? []) {
    const old = prim.getMaterial();
    prim.setMaterial(material);
    if (old && old !== material && old.listParents().length <= 1) old.dispose();
  }
}

/** Options of {@link importOutfit}. */
export interface OutfitImportOptions extends TsoImportOptions {
  /** Refuse quirks (`TRAILING_BYTES`) with a FormatError instead of reading them with a warning. */
  strict?: boolean;
  /** Root-relative path of the main file below the resource root. */
  resourcePath: string;
  resources: ResourceReader;
  skeleton?: TsoSkeleton;
  /** Animations to add (the `.anim` companions of the main file). */
  animations?: { name: string; animation: TsoAnimation }[];
}

/**
 * Imports an `.apr` appearance or a `.bnd` binding: every mesh it binds (found by id in the
 * `Meshes/` folder beside its own), each with its texture, as one scene — on the skeleton when
 * one is given. Missing files are warnings (`BINDING_MISSING`, `MESH_MISSING`,
 * `TEXTURE_MISSING`) naming the id and the folders tried.
 *
 * ```ts
 * const resources = folderResources('Content/Avatar');
 * const { document } = await importOutfit('apr', aprBytes, { resources, resourcePath: 'Appearances/woodaxe.5d34f33e0000000c.apr' }, warnings);
 * ```
 */
export async function importOutfit(
  kind: 'apr' | 'bnd',
  bytes: Uint8Array,
  options: OutfitImportOptions,
  warnings = new WarningCollector(),
): Promise<Document> {
  const { resources, resourcePath: from } = options;
  resolveReference(from, '');
  const bindings: { binding: TsoBindingFile; path?: string; entry?: { fileId: number; typeId: number } }[] =
    [];
  let appearance: TsoAppearance | undefined;
  const cache: FolderIndex = new Map();
  if (kind === 'apr') {
    appearance = readAppearance(bytes, from);
    noteTrailingBytes(appearance.trailing, bytes.length, from, options, warnings);
    const folders = searchFolders(from, OUTFIT_FOLDERS.bindings);
    // Each binding once: an appearance naming one binding many times is one part.
    const seen = new Set<string>();
    let missing = 0;
    for (const entry of appearance.bindings) {
      const key = `${entry.fileId}/${entry.typeId}`;
      if (seen.has(key)) {
        warnings.warn(
          'BINDING_DUPLICATE',
          `appearance "${from}" names a binding more than once; imported once`,
        );
        continue;
      }
      seen.add(key);
      const found = await findById(resources, folders, entry.fileId, entry.typeId, from, cache, warnings);
      if (!found) {
        // The first few by id, the rest counted under one message.
        warnings.warn(
          'BINDING_MISSING',
          ++missing <= MAX_NAMED_MISSING
            ? `appearance "${from}": no ${describeLink('binding', entry.fileId, entry.typeId, folders)}`
            : `appearance "${from}": more bindings missing`,
        );
        continue;
      }
      let binding: TsoBindingFile;
      try {
        binding = readBinding(found.bytes, found.path);
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        warnings.warn(
          'BINDING_UNREADABLE',
          `"${found.path}" is not a readable .bnd (${e.message}); part left out`,
        );
        continue;
      }
      noteTrailingBytes(binding.trailing, found.bytes.length, found.path, options, warnings);
      bindings.push({ binding, path: found.path, entry });
    }
  } else {
    const binding = readBinding(bytes, from);
    noteTrailingBytes(binding.trailing, bytes.length, from, options, warnings);
    bindings.push({ binding, path: from });
  }

  const parts: Part[] = [];
  const imported: number[][] = [];
  for (const { binding, path, entry } of bindings) {
    const part = await resolvePart(binding, path, from, resources, warnings, cache, options.strict);
    if (part) parts.push(part);
    if (part && entry) imported.push([entry.fileId, entry.typeId]);
  }
  const used = new Set<string>();
  for (const p of parts) {
    let name = p.name;
    for (let k = 2; used.has(name.toLowerCase()); k++) name = `${p.name}_${k}`;
    used.add(name.toLowerCase());
    p.name = name;
  }
  let skeleton = options.skeleton;
  if (skeleton && parts.length) {
    const names = new Set(skeleton.bones.map((b) => b.name.toLowerCase()));
    if (!parts.some((p) => p.mesh.boneNames.some((n) => names.has(n.toLowerCase())))) {
      warnings.warn('SKELETON_MISMATCH', "the skeleton has none of the outfit's mesh bones; ignored");
      skeleton = undefined;
    }
  }
  const doc = importTso(
    { meshes: parts.map((p) => ({ mesh: p.mesh, name: p.name })), skeleton, animations: options.animations },
    options,
    warnings,
  );
  const meshNodes = doc
    .getRoot()
    .listNodes()
    .filter((n) => n.getMesh());
  const shared = new Map<string, Material | null>();
  for (let i = 0; i < parts.length; i++)
    await applyBinding(
      doc,
      meshNodes[i],
      parts[i].record,
      parts[i].texture,
      warnings,
      shared,
      parts[i].trailing,
    );
  if (appearance) {
    const record: AppearanceRecord = {
      file: from,
      version: appearance.version,
      thumbnailFileId: appearance.thumbnailFileId,
      thumbnailTypeId: appearance.thumbnailTypeId,
      bindings: appearance.bindings.map((b) => ({ ...b })),
      parts: imported,
    };
    const scene = doc.getRoot().getDefaultScene()!;
    scene.setExtras({ ...scene.getExtras(), [APPEARANCE_EXTRAS_KEY]: record });
    keepRun(scene, 'aprTrailing', appearance.trailing);
  }
  return doc;
}

/**
 * Looks up the look of a lone `.mesh`: the binding in a sibling `Bindings/` folder whose mesh id
 * is the mesh file's id, and the texture it names. Nothing found: no change (no warning — many
 * meshes are used without a binding); a binding whose texture is missing: `TEXTURE_MISSING`.
 */
export async function applyMeshBinding(
  doc: Document,
  resources: ResourceReader,
  meshPath: string,
  warnings: WarningCollector,
): Promise<void> {
  const found = await bindingForMesh(resources, meshPath, warnings);
  if (!found) return;
  const node = doc
    .getRoot()
    .listNodes()
    .find((n) => n.getMesh());
  if (!node) return;
  const record = bindingRecord(found.binding, found.path);
  record.meshFile = meshPath;
  let texture: { path: string; bytes: Uint8Array } | undefined;
  const t = found.binding.texture;
  if (t.kind === TSO_REF_WITH_IDS) {
    const folders = searchFolders(found.path, OUTFIT_FOLDERS.textures);
    texture = await findById(resources, folders, t.file!, t.type!, found.path, new Map(), warnings);
    if (!texture)
      warnings.warn(
        'TEXTURE_MISSING',
        `binding "${found.path}": no ${describeLink('texture', t.file!, t.type!, folders)}`,
      );
    else record.textureFile = texture.path;
  }
  await applyBinding(doc, node, record, texture, warnings, undefined, found.binding.trailing);
}
