/**
 * A glTF scene → Urho3D resource files: `.mdl` per model, `.ani` per clip, `Materials/*.xml`,
 * `Textures/*` and a prefab `Objects/NAME.xml` that puts them together. File keys are resource
 * names (relative, `/`-separated, never `..`), so the set written into a folder is a resource
 * directory the importer reads again.
 *
 * A document imported from a prefab is written back through that prefab: each model component's
 * model is exported from its own subtree to its original path, transforms / model / material
 * attributes are rewritten only where the glTF values changed, and everything else in the file
 * (scripts, physics, ids) stays — unchanged input gives byte-identical files.
 */
import type { Document, Node } from '@gltf-transform/core';
import { cloneDocument } from '@gltf-transform/functions';
import {
  type AxisMap,
  ExportError,
  type ExportResult,
  type FileSet,
  type Warning,
  WarningCollector,
} from '@gltf-legacy/core';
import { writeAni } from './ani.js';
import { type ExportUrhoOptions, exportAxes, exportUrhoModel } from './export.js';
import {
  type ExportMaterialsOptions,
  safeResourcePath,
  sanitizeName,
  UrhoMaterialWriter,
} from './material-export.js';
import { closeEnough } from './material-values.js';
import { writeMdl } from './mdl.js';
import { MSFT_LOD } from './msft-lod.js';
import {
  attributeValue,
  type PrefabNode,
  parseResourceRef,
  parseResourceRefList,
  prefabNodes,
  readPrefabXml,
  setAttributeValue,
} from './prefab-xml.js';
import type { UrhoPrefabExtras } from './prefab-import.js';
import { mirrorQuat, mirrorVec3, urhoMirror } from './space.js';
import { DEFAULT_XML_STYLE, element, type XmlDocument, type XmlElement, writeXml } from './xml.js';

/** Options of {@link exportUrhoScene}. */
export interface ExportUrhoSceneOptions extends ExportUrhoOptions, ExportMaterialsOptions {}

interface ModelOut {
  top: Node | null;
  path: string;
  hasModel: boolean;
  skinned: boolean;
  materials: string[];
  component?: { node: number; index: number };
}

function prefabExtras(doc: Document): UrhoPrefabExtras | undefined {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const e = (scene?.getExtras() as any)?.urho3d?.prefab;
  return e && typeof e.path === 'string' && typeof e.source === 'string' ? e : undefined;
}

/** Nodes of the default scene with the model extras our importer writes (one per imported model). */
function modelTops(doc: Document): Node[] {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const out: Node[] = [];
  const visit = (n: Node) => {
    if ((n.getExtras() as any)?.urho3d?.model) out.push(n);
    else for (const c of n.listChildren()) visit(c);
  };
  for (const n of scene?.listChildren() ?? []) visit(n);
  return out;
}

/**
 * A copy of the document holding only the model under `top` (its subtree, LOD nodes, skins and
 * animation channels), with `top` as the only scene root. Materials keep their order.
 */
function isolateModel(doc: Document, top: Node): Document {
  const clone = cloneDocument(doc);
  const nodes = doc.getRoot().listNodes();
  const cnodes = clone.getRoot().listNodes();
  const ctop = cnodes[nodes.indexOf(top)];
  const keep = new Set<Node>();
  const visit = (n: Node) => {
    keep.add(n);
    for (const l of (n.getExtension<any>(MSFT_LOD)?.listLods?.() ?? []) as Node[]) visit(l);
    for (const c of n.listChildren()) visit(c);
  };
  visit(ctop);
  ctop.getParentNode()?.removeChild(ctop);
  for (const scene of clone.getRoot().listScenes())
    for (const c of scene.listChildren()) scene.removeChild(c);
  (clone.getRoot().getDefaultScene() ?? clone.getRoot().listScenes()[0]).addChild(ctop);
  const keptMeshes = new Set([...keep].map((n) => n.getMesh()).filter((m) => m));
  const keptSkins = new Set([...keep].map((n) => n.getSkin()).filter((s) => s));
  for (const a of clone.getRoot().listAnimations()) {
    for (const c of a.listChannels()) {
      const t = c.getTargetNode();
      if (!t || !keep.has(t)) c.dispose();
    }
    if (!a.listChannels().length) a.dispose();
    else for (const s of a.listSamplers()) if (!s.listParents().some((p) => p !== a)) s.dispose();
  }
  for (const n of cnodes) if (!keep.has(n)) n.dispose();
  for (const m of clone.getRoot().listMeshes()) if (!keptMeshes.has(m)) m.dispose();
  for (const s of clone.getRoot().listSkins()) if (!keptSkins.has(s)) s.dispose();
  return clone;
}

/**
 * Exports a document as Urho3D resource files with materials, textures and a prefab.
 *
 * ```ts
 * const { files } = await exportUrhoScene(document, { name: 'Ninja' });
 * // Objects/Ninja.xml, Models/NinjaSnowWar/Ninja.mdl, Materials/NinjaSnowWar/Ninja.xml, Textures/…
 * ```
 */
export async function exportUrhoScene(
  doc: Document,
  options: ExportUrhoSceneOptions = {},
): Promise<ExportResult> {
  const warnings = new WarningCollector();
  const files: FileSet = new Map();
  const writer = new UrhoMaterialWriter(files, warnings, options);
  const pe = prefabExtras(doc);
  const tops = pe ? modelTops(doc).filter((t) => (t.getExtras() as any)?.urho3d?.component) : [];
  const name = sanitizeName(
    options.name ??
      (pe
        ? pe.path
            .split('/')
            .pop()!
            .replace(/\.xml$/i, '')
        : undefined) ??
      modelTops(doc)[0]?.getName() ??
      'model',
  );
  const materials = doc.getRoot().listMaterials();
  const outs: ModelOut[] = [];
  const keepWarning = (w: Warning) =>
    w.code !== 'MATERIAL_DROPPED' && w.code !== 'TEXTURE_DROPPED'
      ? warnings.warn(w.code, w.message, w.count)
      : undefined;

  const exportOne = async (source: Document, top: Node | null, modelName: string, path: string) => {
    const r = await exportUrhoModel(source, { ...options, name: modelName });
    r.warnings.forEach(keepWarning);
    const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    const at = (f: string) => (dir ? `${dir}/${f}` : f);
    if (r.model) files.set(path, writeMdl(r.model));
    for (const a of r.animations) files.set(at(`${sanitizeName(a.fileName)}.ani`), writeAni(a.animation));
    const names: string[] = [];
    for (const m of r.geometryMaterials) {
      const original = m && source !== doc ? materials[source.getRoot().listMaterials().indexOf(m)] : m;
      names.push(
        original && !(original.getExtras() as any)?.urho3d?.placeholder
          ? await writer.material(original)
          : '',
      );
    }
    const c = top ? (top.getExtras() as any)?.urho3d?.component : undefined;
    outs.push({
      top,
      path,
      hasModel: !!r.model,
      skinned: !!r.model?.bones.length,
      materials: names,
      component: c && Number.isInteger(c.node) && Number.isInteger(c.index) ? c : undefined,
    });
  };

  if (tops.length) {
    // Instances of one model file are exported once (from the first); each keeps its own materials.
    const byPath = new Map<string, ModelOut>();
    for (const top of tops) {
      const mp = (top.getExtras() as any)?.urho3d?.modelPath as string | undefined;
      const path = safeResourcePath(mp, 'Models', `${top.getName() || 'model'}.mdl`);
      const first = byPath.get(path.toLowerCase());
      if (first) {
        const c = (top.getExtras() as any)?.urho3d?.component;
        outs.push({
          ...first,
          top,
          materials: await instanceMaterials(top, first.materials, writer),
          component: c && Number.isInteger(c.node) && Number.isInteger(c.index) ? c : undefined,
        });
        continue;
      }
      const stem = path
        .split('/')
        .pop()!
        .replace(/\.mdl$/i, '');
      await exportOne(isolateModel(doc, top), top, stem, path);
      byPath.set(path.toLowerCase(), outs[outs.length - 1]);
    }
  } else {
    const top = modelTops(doc)[0] ?? null;
    const mp = (top?.getExtras() as any)?.urho3d?.modelPath as string | undefined;
    const dir = mp ? safeResourcePath(mp, 'Models', `${name}.mdl`).replace(/\/?[^/]*$/, '') : 'Models';
    await exportOne(doc, top, name, `${dir ? `${dir}/` : ''}${name}.mdl`);
  }
  if (!pe && ![...files.keys()].some((k) => /\.(mdl|ani)$/i.test(k))) {
    throw new ExportError(
      'NOTHING_TO_EXPORT',
      'the document has no meshes, skins or animations to write as Urho3D files',
    );
  }

  const xml = pe ? prefabFromSource(doc, pe, outs, warnings, urhoMirror(exportAxes(doc, options))) : null;
  const prefab = xml ?? newPrefab(name, outs);
  files.set(safeResourcePath(pe?.path, 'Objects', `${name}.xml`), writeXml(prefab));
  return { files, warnings: warnings.list() };
}

/** Material names per geometry of one more instance of an exported model (its LOD 0 primitives). */
async function instanceMaterials(
  top: Node,
  fallback: string[],
  writer: UrhoMaterialWriter,
): Promise<string[]> {
  const names = [...fallback];
  const visit = async (n: Node) => {
    for (const p of n.getMesh()?.listPrimitives() ?? []) {
      const e = (p.getExtras() as any)?.urho3d;
      const m = p.getMaterial();
      if (!Number.isInteger(e?.geometry) || e.lod !== 0 || e.geometry >= names.length) continue;
      names[e.geometry] = m && !(m.getExtras() as any)?.urho3d?.placeholder ? await writer.material(m) : '';
    }
    for (const c of n.listChildren()) await visit(c);
  };
  await visit(top);
  return names;
}

function fmt(values: number[]): string {
  return values
    .map((x) => {
      const f = Math.fround(x);
      for (let p = 1; p <= 9; p++)
        if (Math.fround(Number(f.toPrecision(p))) === f) return String(Number(f.toPrecision(p)));
      return String(f);
    })
    .join(' ');
}

/** The node's TRS in Urho3D space (position, rotation `w x y z`, scale). */
function urhoTrs(n: Node, mirror: AxisMap): { position: number[]; rotation: number[]; scale: number[] } {
  const t = [...n.getTranslation()];
  mirrorVec3(t, 3, mirror);
  const q = [...n.getRotation()];
  mirrorQuat(q, mirror);
  return { position: t, rotation: [q[3], q[0], q[1], q[2]], scale: [...n.getScale()] };
}

function sameNumbers(a: number[] | null, b: number[], dflt: number[]): boolean {
  const x = a ?? dflt;
  return x.length === b.length && x.every((v, i) => closeEnough(v, b[i]));
}

function prefabFromSource(
  doc: Document,
  pe: UrhoPrefabExtras,
  outs: ModelOut[],
  warnings: WarningCollector,
  mirror: AxisMap,
): XmlDocument | null {
  let prefab: ReturnType<typeof readPrefabXml>;
  try {
    prefab = readPrefabXml(new TextEncoder().encode(pe.source), pe.path);
  } catch {
    warnings.warn(
      'PREFAB_REBUILT',
      `the prefab kept in the scene extras could not be read; a new ${pe.path} is written`,
    );
    return null;
  }
  const order = prefabNodes(prefab.root);
  for (const n of doc.getRoot().listNodes()) {
    const i = (n.getExtras() as any)?.urho3d?.prefabNode;
    const p: PrefabNode | undefined = Number.isInteger(i) ? order[i] : undefined;
    if (!p) continue;
    const trs = urhoTrs(n, mirror);
    // Stored rotations need not be unit length: compare after normalizing, as import did.
    const r = p.rotation;
    const rl = r ? Math.hypot(...r) || 1 : 1;
    if (!sameNumbers(p.position, trs.position, [0, 0, 0]))
      setAttributeValue(p.element, 'Position', fmt(trs.position));
    if (!sameNumbers(r ? r.map((x) => x / rl) : null, trs.rotation, [1, 0, 0, 0]))
      setAttributeValue(p.element, 'Rotation', fmt(trs.rotation));
    if (!sameNumbers(p.scale, trs.scale, [1, 1, 1])) setAttributeValue(p.element, 'Scale', fmt(trs.scale));
    // import names an unnamed root after the file: that name is not an edit
    const nameNow = n.getName();
    const imported = p.name || (i === 0 ? (pe.path.split('/').pop() ?? '').replace(/\.xml$/i, '') : '');
    if (attributeValue(p.element, 'Name') !== undefined && nameNow !== imported)
      setAttributeValue(p.element, 'Name', nameNow);
  }
  for (const o of outs) {
    if (!o.component || !o.hasModel) continue;
    const m = order[o.component.node]?.models[o.component.index];
    if (!m) continue;
    const oldModel = parseResourceRef(attributeValue(m.element, 'Model'));
    if (!oldModel || oldModel.replace(/\\/g, '/').toLowerCase() !== o.path.toLowerCase())
      setAttributeValue(m.element, 'Model', `Model;${o.path}`);
    const oldMats = parseResourceRefList(attributeValue(m.element, 'Material'));
    // a geometry without material (placeholder: none listed, or the listed file was missing) keeps the old entry
    const same = o.materials.every(
      (x, k) => !x || (oldMats[k] ?? '').replace(/\\/g, '/').toLowerCase() === x.toLowerCase(),
    );
    if (!same) setAttributeValue(m.element, 'Material', ['Material', ...o.materials].join(';'));
  }
  return prefab.xml;
}

function attribute(name: string, value: string): XmlElement {
  return element('attribute', [
    ['name', name],
    ['value', value],
  ]);
}

/** A new prefab: one node holding a model component per exported model. */
function newPrefab(name: string, outs: ModelOut[]): XmlDocument {
  let id = 1;
  const root = element(
    'node',
    [['id', String(id++)]],
    [
      attribute('Name', name),
      attribute('Position', '0 0 0'),
      attribute('Rotation', '1 0 0 0'),
      attribute('Scale', '1 1 1'),
    ],
  );
  for (const o of outs) {
    if (!o.hasModel) continue;
    root.children.push(
      element(
        'component',
        [
          ['type', o.skinned ? 'AnimatedModel' : 'StaticModel'],
          ['id', String(id++)],
        ],
        [
          attribute('Model', `Model;${o.path}`),
          attribute('Material', ['Material', ...o.materials].join(';')),
        ],
      ),
    );
  }
  return { root, style: { ...DEFAULT_XML_STYLE } };
}
