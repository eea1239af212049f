/**
 * UNIGINE material libraries (`.mat`, XML, the `<materials version="1.x">` of the ms11 era): the
 * file model. A library holds `<material name parent editable hidden …>` elements whose children
 * are `<state>`, `<parameter>`, `<texture>`, `<options>`, `<blend>` and whatever else the engine
 * had (`<shader>`, `<bind>`, …): every element, attribute, comment and whitespace is kept, and
 * {@link writeMaterialLibrary} gives back the same text for an unchanged library.
 */
import { FormatError } from '@gltf-legacy/core';
import {
  MAT_XML_LIMITS,
  type MatAttribute,
  type MatElement,
  type MatXmlLimits,
  parseMatXml,
  writeMatElement,
} from './mat-xml.js';

export type { MatAttribute, MatElement, MatElementSource } from './mat-xml.js';

/** A `.mat` library. */
export interface MaterialLibrary {
  /** File name (or root-relative path) it was read from, for messages. */
  name: string;
  /** Text before the root element (XML declaration, comments), as written. */
  prolog: string;
  /** The `<materials>` element. */
  root: MatElement;
  /** Text after the root element, as written. */
  epilog: string;
}

/** Largest `.mat` text read (the engine's base library is 40 KB). */
export const MAX_MATERIAL_LIBRARY_CHARS = 16 * 1024 * 1024;

/**
 * Reads a material library from its text (or UTF-8 bytes; a BOM is kept).
 *
 * ```ts
 * const lib = readMaterialLibrary(text, 'qbz95.mat');
 * libraryMaterials(lib).map((m) => attribute(m, 'name')); // ['qbz95_03_base', 'skin', …]
 * writeMaterialLibrary(lib) === text; // true
 * ```
 */
export function readMaterialLibrary(
  text: string | Uint8Array,
  name = 'materials.mat',
  limits: MatXmlLimits = MAT_XML_LIMITS,
): MaterialLibrary {
  const s = typeof text === 'string' ? text : new TextDecoder('utf-8', { ignoreBOM: true }).decode(text);
  if (s.length > MAX_MATERIAL_LIBRARY_CHARS)
    throw new FormatError(`material library larger than ${MAX_MATERIAL_LIBRARY_CHARS} characters`, {
      code: 'XML_TOO_LARGE',
      file: name,
    });
  const doc = parseMatXml(s, name, limits);
  if (doc.root.tag !== 'materials')
    throw new FormatError(`root element is <${doc.root.tag}>, not <materials>`, {
      code: 'BAD_MATERIAL_LIBRARY',
      file: name,
      offset: doc.prolog.length,
      field: doc.root.tag,
    });
  libraryMaterials({ name, ...doc }).forEach((m, i) => {
    if (attribute(m, 'name') === undefined)
      throw new FormatError('a <material> has no name attribute', {
        code: 'BAD_MATERIAL_LIBRARY',
        file: name,
        field: `materials.material[${i}]`,
      });
  });
  return { name, ...doc };
}

/**
 * Writes a library as text: the text it was read from where nothing changed, tab-indented XML
 * for new or edited elements.
 *
 * ```ts
 * const lib = createMaterialLibrary('gun.mat');
 * addMaterial(lib, { name: 'gun', parent: 'mesh_base' });
 * writeMaterialLibrary(lib); // '<?xml version="1.0" encoding="utf-8"?>\n<materials version="1.11">\n\t<material name="gun" parent="mesh_base"/>\n</materials>\n'
 * ```
 */
export function writeMaterialLibrary(lib: MaterialLibrary): string {
  return lib.prolog + writeMatElement(lib.root, 0) + lib.epilog;
}

/** A new, empty library (`<materials version="1.11">`, the version of the corpus' own libraries). */
export function createMaterialLibrary(name: string, version = '1.11'): MaterialLibrary {
  return {
    name,
    prolog: '<?xml version="1.0" encoding="utf-8"?>\n',
    root: { tag: 'materials', attributes: [{ name: 'version', value: version }], children: [] },
    epilog: '\n',
  };
}

/** The `version` attribute of `<materials>`. */
export function libraryVersion(lib: MaterialLibrary): string | undefined {
  return attribute(lib.root, 'version');
}

/** The `<material>` elements of a library, in file order. */
export function libraryMaterials(lib: MaterialLibrary): MatElement[] {
  return lib.root.children.filter((c) => c.tag === 'material');
}

/** An attribute's value, or `undefined`. */
export function attribute(e: MatElement, name: string): string | undefined {
  return e.attributes.find((a) => a.name === name)?.value;
}

/** Sets (or with `undefined` removes) an attribute, keeping the order of the others. */
export function setAttribute(e: MatElement, name: string, value: string | undefined): void {
  const i = e.attributes.findIndex((a) => a.name === name);
  if (value === undefined) {
    if (i >= 0) e.attributes = e.attributes.filter((_, k) => k !== i);
  } else if (i >= 0) {
    if (e.attributes[i].value !== value)
      e.attributes = e.attributes.map((a, k) => (k === i ? { name, value } : a));
  } else e.attributes = [...e.attributes, { name, value }];
}

/** The child `<tag name="…">` of a material, or `undefined`. */
export function findEntry(material: MatElement, tag: string, name: string): MatElement | undefined {
  return material.children.find((c) => c.tag === tag && attribute(c, 'name') === name);
}

/**
 * Sets the text of the child `<tag name="…">` of a material (added after the last child of the
 * same tag, or at the end, when missing).
 *
 * ```ts
 * setEntry(material, 'parameter', 'diffuse_color', '1 0 0 1');
 * ```
 */
export function setEntry(
  material: MatElement,
  tag: string,
  name: string,
  value: string,
  attributes: MatAttribute[] = [],
): MatElement {
  const existing = findEntry(material, tag, name);
  if (existing) {
    if (existing.text !== value) existing.text = value;
    return existing;
  }
  const e: MatElement = {
    tag,
    attributes: [{ name: 'name', value: name }, ...attributes],
    text: value,
    children: [],
  };
  let at = -1;
  material.children.forEach((c, i) => {
    if (c.tag === tag) at = i;
  });
  material.children =
    at >= 0
      ? [...material.children.slice(0, at + 1), e, ...material.children.slice(at + 1)]
      : [...material.children, e];
  return e;
}

/** A new `<material>` element (not yet in a library). */
export function createMaterialElement(name: string, parent?: string): MatElement {
  const attributes: MatAttribute[] = [{ name: 'name', value: name }];
  if (parent !== undefined) attributes.push({ name: 'parent', value: parent });
  return { tag: 'material', attributes, children: [] };
}

/**
 * Appends a `<material>` to a library and returns it.
 *
 * ```ts
 * const m = addMaterial(lib, { name: 'gun', parent: 'mesh_base' });
 * ```
 */
export function addMaterial(
  lib: MaterialLibrary,
  init: { name: string; parent?: string } | MatElement,
): MatElement {
  const m = 'tag' in init ? init : createMaterialElement(init.name, init.parent);
  lib.root.children = [...lib.root.children, m];
  return m;
}

/**
 * The material library entries of one material as plain maps (text trimmed): what a material
 * *itself* sets, before inheritance (see `resolveMaterial`).
 */
export interface MaterialEntries {
  states: Map<string, MatElement>;
  parameters: Map<string, MatElement>;
  textures: Map<string, MatElement>;
  /** Attributes of `<options>` (several elements merge, later wins). */
  options: Map<string, string>;
  /** Attributes of `<blend>` (`src`, `dest`). */
  blend: Map<string, string>;
}

/** Collects a material's states, parameters, textures, options and blend. */
export function materialEntries(material: MatElement): MaterialEntries {
  const out: MaterialEntries = {
    states: new Map(),
    parameters: new Map(),
    textures: new Map(),
    options: new Map(),
    blend: new Map(),
  };
  for (const c of material.children) {
    const n = attribute(c, 'name');
    if (c.tag === 'state' && n !== undefined) out.states.set(n, c);
    else if (c.tag === 'parameter' && n !== undefined) out.parameters.set(n, c);
    else if (c.tag === 'texture' && n !== undefined) out.textures.set(n, c);
    else if (c.tag === 'options') for (const a of c.attributes) out.options.set(a.name, a.value);
    else if (c.tag === 'blend') for (const a of c.attributes) out.blend.set(a.name, a.value);
  }
  return out;
}
