/**
 * Urho3D material files (`Materials/*.xml`, root `<material>`): the file model.
 *
 * ```xml
 * <material>
 *     <technique name="Techniques/DiffNormal.xml" quality="0" />
 *     <texture unit="diffuse" name="Textures/Stone.dds" />
 *     <parameter name="MatDiffColor" value="1 1 1 1" />
 *     <cull value="none" />
 * </material>
 * ```
 *
 * {@link readMaterialXml} gives the fields the mapping uses (techniques, texture units,
 * parameters, cull / shadowcull / fill / depthbias) and keeps the XML tree, so that
 * {@link writeMaterialXml} writes every element it does not know (render paths, shader defines,
 * `<parameteranimation>`, comments) back unchanged, and the original bytes when nothing changed.
 */
import { FormatError } from '@gltf-legacy/core';
import {
  attr,
  cloneXml,
  DEFAULT_XML_STYLE,
  element,
  elements,
  isElement,
  readXml,
  setAttr,
  type XmlDocument,
  type XmlElement,
  writeXml,
} from './xml.js';

/** A `<technique>` entry. */
export interface MaterialTechnique {
  name: string;
  /** Other attributes (`quality`, `loddistance`) as written. */
  attributes: [string, string][];
}

/** Texture units by the names the engine accepts (numeric units are kept as written). */
export const TEXTURE_UNIT_NAMES = [
  'diffuse',
  'normal',
  'specular',
  'emissive',
  'environment',
  'volume',
  'custom1',
  'custom2',
  'lightramp',
  'lightshape',
  'shadowmap',
  'faceselect',
  'indirection',
  'depth',
  'light',
  'zone',
] as const;

/** The unit name of a `<texture unit=…>` value: names lower-cased, numbers mapped (`0` → diffuse). */
export function textureUnitName(unit: string): string {
  const u = unit.trim().toLowerCase();
  if (/^\d+$/.test(u)) {
    const n = Number(u);
    return TEXTURE_UNIT_NAMES[n] ?? u;
  }
  // Engine aliases.
  if (u === 'diff' || u === 'albedo') return 'diffuse';
  if (u === 'norm') return 'normal';
  if (u === 'spec') return 'specular';
  if (u === 'emissive' || u === 'emission' || u === 'emis') return 'emissive';
  if (u === 'env' || u === 'environment') return 'environment';
  return u;
}

/** The fields of a material the glTF mapping reads and writes. Values are kept as written. */
export interface UrhoMaterialFields {
  techniques: MaterialTechnique[];
  /** `unit` as written → texture resource name. */
  textures: { unit: string; name: string }[];
  /** `<parameter name value>` in file order. */
  parameters: { name: string; value: string }[];
  /** `<cull value>`: `ccw` (engine default), `cw`, `none`. */
  cull?: string;
  shadowCull?: string;
  /** `<fill value>`: `solid`, `wireframe`, `point`. */
  fill?: string;
  /** `<depthbias constant slopescaled>` attributes as written. */
  depthBias?: [string, string][];
}

/** A material file: its fields and the XML tree they came from. */
export interface UrhoMaterialXml {
  fields: UrhoMaterialFields;
  xml: XmlDocument;
}

/**
 * Reads a material file. Throws FormatError `BAD_XML` (malformed) or `NOT_A_MATERIAL` (another
 * root element).
 *
 * ```ts
 * const { fields } = readMaterialXml(bytes, 'Materials/Mushroom.xml');
 * fields.textures; // [{ unit: 'diffuse', name: 'Textures/Mushroom.dds' }]
 * ```
 */
export function readMaterialXml(bytes: Uint8Array, file?: string): UrhoMaterialXml {
  const xml = readXml(bytes, file, { maxBytes: 4 * 1024 * 1024, maxDepth: 32 });
  if (xml.root.name.toLowerCase() !== 'material')
    throw new FormatError(`root element <${xml.root.name}> is not <material>`, {
      code: 'NOT_A_MATERIAL',
      file,
    });
  return { fields: fieldsOf(xml.root), xml };
}

function fieldsOf(root: XmlElement): UrhoMaterialFields {
  const f: UrhoMaterialFields = { techniques: [], textures: [], parameters: [] };
  for (const e of elements(root)) {
    switch (e.name.toLowerCase()) {
      case 'technique':
        f.techniques.push({
          name: attr(e, 'name') ?? '',
          attributes: e.attributes.filter(([k]) => k !== 'name').map(([k, v]) => [k, v]),
        });
        break;
      case 'texture':
        f.textures.push({ unit: attr(e, 'unit') ?? '', name: attr(e, 'name') ?? '' });
        break;
      case 'parameter':
        f.parameters.push({ name: attr(e, 'name') ?? '', value: attr(e, 'value') ?? '' });
        break;
      case 'cull':
        f.cull = attr(e, 'value');
        break;
      case 'shadowcull':
        f.shadowCull = attr(e, 'value');
        break;
      case 'fill':
        f.fill = attr(e, 'value');
        break;
      case 'depthbias':
        f.depthBias = e.attributes.map(([k, v]) => [k, v]);
        break;
    }
  }
  return f;
}

/** The value of a parameter (case-insensitive name), or undefined. */
export function materialParameter(fields: UrhoMaterialFields, name: string): string | undefined {
  const n = name.toLowerCase();
  return fields.parameters.find((p) => p.name.toLowerCase() === n)?.value;
}

/** Parses a parameter value (`"1 0.5 0 1"`) as numbers; non-numbers give NaN. */
export function parseVector(value: string | undefined): number[] {
  if (value === undefined) return [];
  const parts = value.trim().split(/\s+/).filter(Boolean);
  return parts.map(Number);
}

/** The texture name of a unit (`diffuse`, `normal`, …; numeric units match too), or undefined. */
export function materialTexture(fields: UrhoMaterialFields, unit: string): string | undefined {
  return fields.textures.find((t) => textureUnitName(t.unit) === unit)?.name;
}

/** An empty material file model in Urho3D's own style (what the editor writes). */
export function newMaterialXml(): UrhoMaterialXml {
  return {
    fields: { techniques: [], textures: [], parameters: [] },
    xml: { root: element('material'), style: { ...DEFAULT_XML_STYLE } },
  };
}

/**
 * Writes a material file: the fields are put into the tree (known elements updated in place,
 * added after the last of their kind, removed when gone), unknown elements stay as they were; an
 * unchanged material gives the bytes it was read from.
 *
 * ```ts
 * const m = readMaterialXml(bytes);
 * writeMaterialXml(m); // === bytes
 * m.fields.cull = 'none';
 * writeMaterialXml(m); // the same file with <cull value="none" />
 * ```
 */
export function writeMaterialXml(material: UrhoMaterialXml): Uint8Array {
  // Fields as read: the tree as it is (applying them could normalize odd files, e.g. repeated <cull>).
  if (JSON.stringify(fieldsOf(material.xml.root)) === JSON.stringify(material.fields))
    return writeXml(material.xml);
  const xml = cloneXml(material.xml);
  applyFields(xml.root, material.fields);
  return writeXml(xml);
}

function applyFields(root: XmlElement, f: UrhoMaterialFields): void {
  const list = (tag: string, wanted: XmlElement[], same: (a: XmlElement, b: XmlElement) => boolean) => {
    const old = elements(root, tag);
    // Keep old elements that match in order (so their attribute order survives), replace the rest.
    const out: XmlElement[] = wanted.map((w, i) => (old[i] && same(old[i], w) ? old[i] : w));
    if (out.length === old.length && out.every((e, i) => e === old[i])) return; // unchanged: stay in place
    const firstIdx = old.length ? root.children.indexOf(old[0]) : -1;
    root.children = root.children.filter((c) => !old.includes(c as XmlElement));
    let at = firstIdx >= 0 ? Math.min(firstIdx, root.children.length) : insertionPoint(root, tag);
    for (const e of out) root.children.splice(at++, 0, e);
  };
  list(
    'technique',
    f.techniques.map((t) => element('technique', [['name', t.name], ...t.attributes])),
    sameElement,
  );
  list(
    'texture',
    f.textures.map((t) =>
      element('texture', [
        ['unit', t.unit],
        ['name', t.name],
      ]),
    ),
    sameElement,
  );
  list(
    'parameter',
    f.parameters.map((p) =>
      element('parameter', [
        ['name', p.name],
        ['value', p.value],
      ]),
    ),
    sameElement,
  );
  const single = (tag: string, value: [string, string][] | undefined) => {
    const old = elements(root, tag);
    if (value === undefined) {
      root.children = root.children.filter((c) => !old.includes(c as XmlElement));
      return;
    }
    if (old.length) {
      for (const [k, v] of value) setAttr(old[0], k, v);
      old[0].attributes = old[0].attributes.filter(([k]) => value.some(([n]) => n === k));
    } else root.children.splice(insertionPoint(root, tag), 0, element(tag, value));
  };
  single('cull', f.cull === undefined ? undefined : [['value', f.cull]]);
  single('shadowcull', f.shadowCull === undefined ? undefined : [['value', f.shadowCull]]);
  single('fill', f.fill === undefined ? undefined : [['value', f.fill]]);
  single('depthbias', f.depthBias);
}

/** Attribute sets equal ignoring order (then the old element, with its order, is kept). */
function sameElement(a: XmlElement, b: XmlElement): boolean {
  if (a.attributes.length !== b.attributes.length || a.children.some(isElement)) return false;
  return b.attributes.every(([k, v]) => attr(a, k) === v);
}

const ORDER = ['technique', 'texture', 'parameter', 'cull', 'shadowcull', 'fill', 'depthbias'];

function insertionPoint(root: XmlElement, tag: string): number {
  const rank = ORDER.indexOf(tag);
  let at = 0;
  root.children.forEach((c, i) => {
    if (isElement(c) && ORDER.indexOf(c.name.toLowerCase()) <= rank && ORDER.includes(c.name.toLowerCase()))
      at = i + 1;
  });
  return at;
}
