/**
 * Material inheritance: a `<material parent="…">` takes every state, parameter, texture, option
 * and blend of its parent (found by name in any loaded library) and overrides what it sets itself.
 * Entries that a base material guards with a state (`<texture name="albedo" workflow="0">`) apply
 * only while that state has one of the listed values, as in the engine's shader selection.
 */
import { FormatError, type WarningCollector } from '@gltf-legacy/core';
import {
  type MatElement,
  type MaterialLibrary,
  attribute,
  libraryMaterials,
  materialEntries,
} from './mat.js';

/** A library and the root-relative path it was read from. */
export interface LoadedLibrary {
  path: string;
  library: MaterialLibrary;
}

/** Where a material is defined. */
export interface MaterialDefinitionRef {
  name: string;
  /** Root-relative path of its library. */
  library: string;
  element: MatElement;
}

/** One entry after inheritance: its merged attributes, value and where its value was set. */
export interface ResolvedEntry {
  attributes: Map<string, string>;
  value: string;
  /** Library that set the value (texture paths may be relative to it). */
  library: string;
}

/** A material with its inheritance resolved. */
export interface ResolvedMaterial {
  name: string;
  /** The material itself, then its parent, … up to the root ancestor found. */
  chain: MaterialDefinitionRef[];
  /** A parent named but not found in any library. */
  missingParent?: string;
  states: Map<string, ResolvedEntry>;
  parameters: Map<string, ResolvedEntry>;
  textures: Map<string, ResolvedEntry>;
  options: Map<string, string>;
  blend: Map<string, string>;
}

/** Deepest `parent=` chain followed (the engine's own libraries are 2 deep, the corpus 4). */
export const MAX_MATERIAL_DEPTH = 32;

/**
 * Material names of several libraries. The first library that defines a name wins (callers pass
 * libraries in priority order).
 *
 * ```ts
 * const index = new MaterialIndex([{ path: 'source/material/qbz95.mat', library }]);
 * index.get('skin')?.library; // 'source/material/qbz95.mat'
 * ```
 */
export class MaterialIndex {
  private readonly byName = new Map<string, MaterialDefinitionRef>();
  readonly libraries: readonly LoadedLibrary[];
  constructor(libraries: readonly LoadedLibrary[]) {
    this.libraries = libraries;
    for (const { path, library } of libraries)
      for (const element of libraryMaterials(library)) {
        const name = attribute(element, 'name') as string;
        if (!this.byName.has(name)) this.byName.set(name, { name, library: path, element });
      }
  }
  get(name: string): MaterialDefinitionRef | undefined {
    return this.byName.get(name);
  }
  has(name: string): boolean {
    return this.byName.has(name);
  }
}

function mergeEntries(
  into: Map<string, ResolvedEntry>,
  entries: Map<string, MatElement>,
  library: string,
): void {
  for (const [name, e] of entries) {
    const prev = into.get(name);
    const attributes = new Map(prev?.attributes);
    for (const a of e.attributes) attributes.set(a.name, a.value);
    const text = (e.text ?? '').trim();
    // A child entry without text (e.g. `<texture name="x" wrap="clamp"/>`) changes only attributes.
    if (prev && !text) into.set(name, { attributes, value: prev.value, library: prev.library });
    else into.set(name, { attributes, value: text, library });
  }
}

/**
 * Resolves a material's inheritance. Throws `FormatError` `MATERIAL_CYCLE` when a `parent=` chain
 * comes back to a material already in it, `MATERIAL_TOO_DEEP` beyond {@link MAX_MATERIAL_DEPTH}.
 * A parent that no library defines is a `MATERIAL_MISSING` warning; what was found is used.
 *
 * ```ts
 * const m = resolveMaterial(index, 'Material #0');
 * m.chain.map((d) => d.name); // ['Material #0', 'qbz95_03_base', 'mesh_pbr_base']
 * activeEntry(m, m.textures, 'diffuse')?.value; // 'core/textures/common/white.dds'
 * ```
 */
export function resolveMaterial(
  index: MaterialIndex,
  name: string,
  warnings?: WarningCollector,
): ResolvedMaterial | undefined {
  const first = index.get(name);
  if (!first) return undefined;
  const chain: MaterialDefinitionRef[] = [first];
  const seen = new Set([name]);
  let missingParent: string | undefined;
  for (let cur = first; ; ) {
    const parent = attribute(cur.element, 'parent');
    if (parent === undefined || parent === '') break;
    if (seen.has(parent))
      throw new FormatError(
        `material "${cur.name}" has parent "${parent}", which inherits from it (${[...chain.map((c) => c.name), parent].join(' → ')})`,
        { code: 'MATERIAL_CYCLE', file: cur.library, field: `material[name=${cur.name}].parent` },
      );
    if (chain.length >= MAX_MATERIAL_DEPTH)
      throw new FormatError(`material "${name}" inherits through more than ${MAX_MATERIAL_DEPTH} parents`, {
        code: 'MATERIAL_TOO_DEEP',
        file: cur.library,
        field: `material[name=${cur.name}].parent`,
      });
    const next = index.get(parent);
    if (!next) {
      missingParent = parent;
      warnings?.warn(
        'MATERIAL_MISSING',
        `material "${cur.name}" (${cur.library}) inherits from "${parent}", which none of the libraries read defines (${index.libraries.map((l) => l.path).join(', ') || 'none'}); its own entries are used`,
      );
      break;
    }
    seen.add(parent);
    chain.push(next);
    cur = next;
  }
  const out: ResolvedMaterial = {
    name,
    chain,
    missingParent,
    states: new Map(),
    parameters: new Map(),
    textures: new Map(),
    options: new Map(),
    blend: new Map(),
  };
  for (let i = chain.length - 1; i >= 0; i--) {
    const { element, library } = chain[i];
    const e = materialEntries(element);
    mergeEntries(out.states, e.states, library);
    mergeEntries(out.parameters, e.parameters, library);
    mergeEntries(out.textures, e.textures, library);
    for (const [k, v] of e.options) out.options.set(k, v);
    for (const [k, v] of e.blend) out.blend.set(k, v);
  }
  return out;
}

/**
 * True when every attribute of an entry that names a state of the material lists that state's
 * value (`workflow="1"`, `detail="1,2,3,4"`), i.e. the engine would use the entry.
 */
export function isActive(material: ResolvedMaterial, entry: ResolvedEntry): boolean {
  for (const [k, v] of entry.attributes) {
    if (k === 'name') continue;
    const state = material.states.get(k);
    if (!state) continue;
    if (!v.split(',').some((x) => x.trim() === state.value)) return false;
  }
  return true;
}

/** An entry of `map` by name when it exists and is active. */
export function activeEntry(
  material: ResolvedMaterial,
  map: Map<string, ResolvedEntry>,
  name: string,
): ResolvedEntry | undefined {
  const e = map.get(name);
  return e && isActive(material, e) ? e : undefined;
}

/** Parses a parameter's numbers (`"0.5 0.5 0.5 1.0"`); non-numbers → `undefined`. */
export function parameterNumbers(e: ResolvedEntry | undefined): number[] | undefined {
  if (!e) return undefined;
  const parts = e.value.split(/[\s,]+/).filter(Boolean);
  if (!parts.length) return undefined;
  const nums = parts.map(Number);
  return nums.every(Number.isFinite) ? nums : undefined;
}
