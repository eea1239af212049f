/**
 * Urho3D prefabs (`Objects/*.xml`, root `<node>`) and scenes (`Scenes/*.xml`, root `<scene>`):
 * the file model — a node tree with transforms and the model components that give it a look.
 *
 * ```xml
 * <node id="2">
 *     <attribute name="Name" value="Crate" />
 *     <attribute name="Position" value="0 1 0" />
 *     <attribute name="Rotation" value="1 0 0 0" />   <!-- w x y z -->
 *     <component type="StaticModel" id="3">
 *         <attribute name="Model" value="Model;Models/Box.mdl" />
 *         <attribute name="Material" value="Material;Materials/Stone.xml" />
 *     </component>
 *     <node id="4">…</node>
 * </node>
 * ```
 *
 * Everything else (scripts, physics, other components, ids) stays in the XML tree, which export
 * writes back (the original bytes while nothing changed).
 */
import { FormatError } from '@gltf-legacy/core';
import { attr, elements, readXml, setAttr, type XmlDocument, type XmlElement } from './xml.js';

/** Components that draw a model (`Model` + `Material` attributes). */
export const MODEL_COMPONENTS = ['StaticModel', 'AnimatedModel', 'Skybox', 'StaticModelGroup'];

/** A model component of a node. */
export interface PrefabModel {
  element: XmlElement;
  type: string;
  /** Resource name of the `.mdl` (`Models/X.mdl`), or null when the attribute is empty. */
  model: string | null;
  /** Material resource names per geometry (empty entries are ''). */
  materials: string[];
}

/** A node of a prefab or scene. */
export interface PrefabNode {
  element: XmlElement;
  name: string;
  /** Urho3D space, as stored (null when the attribute is absent: identity). */
  position: number[] | null;
  /** `w x y z` as stored. */
  rotation: number[] | null;
  scale: number[] | null;
  models: PrefabModel[];
  children: PrefabNode[];
}

/** A parsed prefab or scene file. */
export interface UrhoPrefabXml {
  kind: 'node' | 'scene';
  root: PrefabNode;
  xml: XmlDocument;
  /** Number of nodes in the tree. */
  nodeCount: number;
}

/** Options of {@link readPrefabXml}. */
export interface ReadPrefabOptions {
  /** Most nodes accepted. Default 100 000. */
  maxNodes?: number;
}
export const READ_PREFAB_DEFAULTS: Required<ReadPrefabOptions> = { maxNodes: 100_000 };

/** Named attribute value of a node or component (`<attribute name value>`). */
export function attributeValue(e: XmlElement, name: string): string | undefined {
  for (const a of elements(e, 'attribute')) if (attr(a, 'name') === name) return attr(a, 'value');
  return undefined;
}

/** Sets a named attribute value (added at the end of the attributes when absent). */
export function setAttributeValue(e: XmlElement, name: string, value: string): void {
  for (const a of elements(e, 'attribute'))
    if (attr(a, 'name') === name) {
      setAttr(a, 'value', value);
      return;
    }
  const list = elements(e, 'attribute');
  const at = list.length ? e.children.indexOf(list[list.length - 1]) + 1 : 0;
  e.children.splice(at, 0, {
    name: 'attribute',
    attributes: [
      ['name', name],
      ['value', value],
    ],
    children: [],
  });
}

function numbers(value: string | undefined, n: number): number[] | null {
  if (value === undefined) return null;
  const v = value.trim().split(/\s+/).map(Number);
  if (v.length < n || v.slice(0, n).some((x) => !Number.isFinite(x))) return null;
  return v.slice(0, n);
}

/** `Model;Models/X.mdl` → `Models/X.mdl` (null for an empty reference). */
export function parseResourceRef(value: string | undefined): string | null {
  if (value === undefined) return null;
  const parts = value.split(';');
  const name = (parts.length > 1 ? parts[1] : parts[0]).trim();
  return name ? name : null;
}

/** `Material;A.xml;B.xml` → `['A.xml', 'B.xml']`. */
export function parseResourceRefList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(';')
    .slice(1)
    .map((s) => s.trim());
}

/** True when the bytes are an XML file whose root element is `<node>` or `<scene>`. */
export function isPrefabXml(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 4096)).replace(/^\ufeff/, '');
  const m = /^\s*(?:<\?xml[^?]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<(node|scene)[\s>/]/i.exec(head);
  return m !== null;
}

/**
 * Reads a prefab or scene. Throws FormatError `BAD_XML`, `NOT_A_PREFAB` (another root),
 * `TOO_LARGE` (more than `maxNodes` nodes).
 *
 * ```ts
 * const prefab = readPrefabXml(bytes, 'Objects/Ninja.xml');
 * prefab.root.children[0].models[0].model; // 'Models/NinjaSnowWar/Ninja.mdl'
 * ```
 */
export function readPrefabXml(
  bytes: Uint8Array,
  file?: string,
  options: ReadPrefabOptions = {},
): UrhoPrefabXml {
  const { maxNodes } = { ...READ_PREFAB_DEFAULTS, ...options };
  const xml = readXml(bytes, file);
  const kind = xml.root.name.toLowerCase();
  if (kind !== 'node' && kind !== 'scene')
    throw new FormatError(`root element <${xml.root.name}> is neither <node> nor <scene>`, {
      code: 'NOT_A_PREFAB',
      file,
    });
  let count = 0;
  const visit = (e: XmlElement): PrefabNode => {
    if (++count > maxNodes)
      throw new FormatError(`more than ${maxNodes} nodes`, { code: 'TOO_LARGE', file, field: 'node' });
    const models: PrefabModel[] = [];
    for (const c of elements(e, 'component')) {
      const type = attr(c, 'type') ?? '';
      if (!MODEL_COMPONENTS.includes(type)) continue;
      models.push({
        element: c,
        type,
        model: parseResourceRef(attributeValue(c, 'Model')),
        materials: parseResourceRefList(attributeValue(c, 'Material')),
      });
    }
    return {
      element: e,
      name: attributeValue(e, 'Name') ?? '',
      position: numbers(attributeValue(e, 'Position'), 3),
      rotation: numbers(attributeValue(e, 'Rotation'), 4),
      scale: numbers(attributeValue(e, 'Scale'), 3),
      models,
      children: elements(e, 'node').map(visit),
    };
  };
  const root = visit(xml.root);
  return { kind: kind as 'node' | 'scene', root, xml, nodeCount: count };
}

/** Every node of a tree in depth-first order (the order node indices in extras refer to). */
export function prefabNodes(root: PrefabNode): PrefabNode[] {
  const out: PrefabNode[] = [];
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return out;
}
