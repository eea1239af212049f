/**
 * A prefab or scene XML → one glTF scene: its node tree with transforms, and under each node the
 * models of its `StaticModel` / `AnimatedModel` components (imported as a lone `.mdl` is, with
 * the `.ani` files beside an animated model) with the materials the component lists per geometry.
 */
import { Document, type Mesh, type Node } from '@gltf-transform/core';
import { mergeDocuments } from '@gltf-transform/functions';
import {
  baseName,
  dirOf,
  FormatError,
  MemoryResources,
  type ResourceReader,
  type Warning,
  WarningCollector,
} from '@gltf-legacy/core';
import { readAni } from './ani.js';
import { importUrho, type UrhoAnimationInput } from './import.js';
import { UrhoMaterialLoader } from './material-import.js';
import { readMdl } from './mdl.js';
import { assignGeometryMaterials } from './model-materials.js';
import { type PrefabNode, prefabNodes, readPrefabXml } from './prefab-xml.js';
import { UrhoResourceDirs } from './resource-dirs.js';
import { mirrorQuat, mirrorVec3, type UrhoAxes, urhoAxes, urhoMirror } from './space.js';

/** Options of {@link importUrhoPrefab}. */
export interface ImportPrefabOptions {
  /** Reads the models, materials and textures (default: nothing to read). */
  resources?: ResourceReader;
  /** Root-relative path of the prefab (default `file`). */
  resourcePath?: string;
  /** Name of the glTF scene (default: the file stem). */
  name?: string;
  /** Most model components imported. Default 4096. */
  maxModels?: number;
  /** Which axis to mirror (`gltf` default, or `assetimporter`): see `ImportUrhoOptions.axes`. */
  axes?: UrhoAxes;
  /** Refuse quirks the engine tolerates (a short last .ani key) instead of warning. */
  strict?: boolean;
  /** Morph NORMAL / TANGENT deltas written (default true): see `ImportUrhoOptions.frameNormals`. */
  frameNormals?: boolean;
}
export const IMPORT_PREFAB_DEFAULTS = { maxModels: 4096 } as const;

/** What `scene.extras.urho3d.prefab` holds. */
export interface UrhoPrefabExtras {
  /** Resource name of the prefab (`Objects/Ninja.xml`). */
  path: string;
  /** The file's text, written back (edited in place) on export. */
  source: string;
}

/**
 * Imports a prefab (`<node>`) or scene (`<scene>`) file as one glTF scene.
 *
 * ```ts
 * const resources = new MemoryResources(filesUnderBin);
 * const { document } = await importUrhoPrefab(bytes, 'Data/Objects/Ninja.xml', { resources });
 * ```
 */
export async function importUrhoPrefab(
  bytes: Uint8Array,
  file: string,
  options: ImportPrefabOptions = {},
): Promise<{ document: Document; warnings: Warning[] }> {
  const warnings = new WarningCollector();
  const axes = urhoAxes(options.axes);
  const mirror = urhoMirror(axes);
  const resourcePath = options.resourcePath ?? file;
  const prefab = readPrefabXml(bytes, resourcePath);
  const dirs = new UrhoResourceDirs(options.resources ?? new MemoryResources([]), resourcePath);
  const doc = new Document();
  const buffer = doc.createBuffer();
  const stem = baseName(file).replace(/\.[^.]*$/, '');
  const scene = doc.createScene(options.name ?? stem);
  doc.getRoot().setDefaultScene(scene);
  const extras: UrhoPrefabExtras = {
    path: dirs.resourceName(resourcePath),
    source: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes),
  };
  scene.setExtras({ urho3d: { prefab: extras, kind: prefab.kind, axes } });
  const loader = new UrhoMaterialLoader(doc, dirs, warnings);
  const maxModels = options.maxModels ?? IMPORT_PREFAB_DEFAULTS.maxModels;
  const order = prefabNodes(prefab.root);
  const index = new Map(order.map((n, i) => [n, i]));
  let models = 0;
  const importedModels = new Map<string, { document: Document; geometries: number }>();
  const stemOf = (p: string) => baseName(p).replace(/\.[^.]*$/, '');

  const build = async (p: PrefabNode): Promise<Node> => {
    const node = doc.createNode(p.name || (p === prefab.root ? stem : ''));
    if (p.position) {
      const t = [...p.position];
      mirrorVec3(t, 3, mirror);
      node.setTranslation(t as [number, number, number]);
    }
    if (p.rotation) {
      const [w, x, y, z] = p.rotation;
      const len = Math.hypot(w, x, y, z);
      const q = len > 0 ? [x / len, y / len, z / len, w / len] : [0, 0, 0, 1];
      mirrorQuat(q, mirror);
      node.setRotation(q as [number, number, number, number]);
    }
    if (p.scale) node.setScale(p.scale as [number, number, number]);
    node.setExtras({ urho3d: { prefabNode: index.get(p) } });
    for (const [ci, m] of p.models.entries()) {
      if (!m.model) continue;
      if (++models > maxModels)
        throw new FormatError(`more than ${maxModels} model components`, {
          code: 'TOO_LARGE',
          file: resourcePath,
          field: 'component',
        });
      const top = await importModel(m.model, m.type === 'AnimatedModel', m.materials);
      if (top) {
        const e = top.getExtras() as any;
        top.setExtras({ ...e, urho3d: { ...e.urho3d, component: { node: index.get(p), index: ci } } });
        node.addChild(top);
      }
    }
    for (const c of p.children) node.addChild(await build(c));
    return node;
  };

  const importModel = async (
    name: string,
    animated: boolean,
    materialNames: string[],
  ): Promise<Node | null> => {
    const tried: string[] = [];
    const found = await dirs.find(name, resourcePath, tried);
    if (!found) {
      warnings.warn(
        'MODEL_MISSING',
        `model "${name}" (named in ${resourcePath}) not found; tried ${tried.join(', ')}`,
      );
      return null;
    }
    const key = `${found.path.toLowerCase()}|${animated}`;
    let imported = importedModels.get(key);
    if (!imported) {
      const mdl = readMdl(found.bytes, found.path);
      const anims: UrhoAnimationInput[] = [];
      if (animated) {
        const base = stemOf(found.path).toLowerCase();
        for (const p of await dirs.resources.list(dirOf(found.path)).catch(() => [] as string[])) {
          const b = baseName(p).toLowerCase();
          if (!b.endsWith('.ani') || !b.startsWith(base)) continue;
          const aniBytes = await dirs.resources.read(p);
          if (aniBytes)
            anims.push({
              fileName: stemOf(p),
              animation: readAni(aniBytes, p, { strict: options.strict, warnings }),
            });
        }
      }
      const sub = importUrho(mdl, anims, {
        name: stemOf(found.path),
        axes,
        frameNormals: options.frameNormals,
      });
      warnings.merge(sub.warnings);
      imported = { document: sub.document, geometries: mdl.geometries.length };
      importedModels.set(key, imported);
    }
    // merging copies: one import serves every instance of the model
    const sub = imported;
    const subScene = sub.document.getRoot().getDefaultScene()!;
    const subTop = subScene.listChildren()[0];
    const subMeshes = sub.document.getRoot().listMeshes();
    const map = mergeDocuments(doc, sub.document);
    const top = map.get(subTop) as Node;
    const meshes = subMeshes.map((m) => map.get(m) as Mesh);
    (map.get(subScene) as { dispose(): void }).dispose();
    const e = top.getExtras() as any;
    top.setExtras({ ...e, urho3d: { ...e.urho3d, modelPath: dirs.resourceName(found.path) } });
    const materials = [];
    // entries past the model's geometries name nothing the engine uses: not read
    for (const mn of materialNames.slice(0, imported.geometries))
      materials.push(mn ? await loader.load(mn, resourcePath) : null);
    assignGeometryMaterials(doc, meshes, materials);
    return top;
  };

  scene.addChild(await build(prefab.root));
  for (const acc of doc.getRoot().listAccessors()) acc.setBuffer(buffer);
  for (const b of doc.getRoot().listBuffers()) if (b !== buffer) b.dispose();
  // No model found at all: an empty buffer would be written without byteLength (invalid glTF).
  if (!doc.getRoot().listAccessors().length) buffer.dispose();
  return { document: doc, warnings: warnings.list() };
}
