/**
 * Import side of `.mat` libraries: find the libraries of a model, match each surface to a
 * material, resolve its inheritance and textures, and map it onto the surface's glTF material.
 */
import {
  type ImportOptions,
  MemoryResources,
  type ResourceReader,
  WarningCollector,
  dirOf,
  extName,
  resolveReference,
  stem,
} from '@gltf-legacy/core';
import type { Document, Material } from '@gltf-transform/core';
import { KHRMaterialsEmissiveStrength, KHRMaterialsSpecular } from '@gltf-transform/extensions';
import { type MaterialLibrary, readMaterialLibrary } from './mat.js';
import {
  type LoadedLibrary,
  MaterialIndex,
  type ResolvedEntry,
  type ResolvedMaterial,
  activeEntry,
  parameterNumbers,
  resolveMaterial,
} from './mat-resolve.js';
import { writeMatElement } from './mat-xml.js';
import { describeMaterial } from './mat-describe.js';
import { type TextureCache, loadTexture } from './mat-textures.js';

/** Options of {@link applyUnigineMaterials} (part of the importer's options). */
export interface UnigineMaterialOptions {
  /**
   * `.mat` libraries to read first (root-relative paths, or a comma-separated list): their
   * materials win over same-named ones elsewhere.
   */
  materials?: string | string[];
  /** Surface → material name (`{ body: 'skin' }` or `"body=skin,gun=QBZ95_long"`); default: same name. */
  materialMap?: Record<string, string> | string;
  /** Look for `.mat` libraries everywhere below the resource root. */
  scanMaterials: boolean;
  /** Most libraries read. */
  maxLibraries: number;
  /** Largest library read, in bytes. */
  maxLibraryBytes: number;
  /** Most bytes of libraries read in all. */
  maxLibraryTotalBytes: number;
}

export const UNIGINE_MATERIAL_DEFAULTS: UnigineMaterialOptions = {
  scanMaterials: true,
  maxLibraries: 256,
  maxLibraryBytes: 4 * 1024 * 1024,
  maxLibraryTotalBytes: 32 * 1024 * 1024,
};

/** What import stores in `material.extras.unigine` (export writes the material back from it). */
export interface UnigineMaterialExtras {
  /** The `.mat` material the surface got. */
  material: string;
  /** Root-relative path of its library. */
  library: string;
  /** Its parent chain (names), itself first. */
  chain: string[];
  /** The XML of the material and of its ancestors that are not in the engine's `core/` libraries, as written. */
  definitions: { name: string; library: string; xml: string }[];
  /** Texture references (as written in the `.mat`) of every active texture, by texture name. */
  textures: Record<string, string>;
  /** {@link describeMaterial} of the glTF material as import made it: export compares to detect edits. */
  mapped: string;
}

/**
 * The folder a conversion of `path` may read: the project folder (the parent of the nearest
 * ancestor named `data` or `source`, where a UNIGINE project keeps its data and its sources),
 * else the mesh's own folder.
 *
 * ```ts
 * unigineResourceRoot('/p/Unigine_FPS_Demo1/source/meshes/first_person/QBZ95_long.mesh'); // '/p/Unigine_FPS_Demo1'
 * unigineResourceRoot('models/box.mesh'); // 'models'
 * ```
 */
export function unigineResourceRoot(path: string): string {
  const parts = path.replace(/\\/g, '/').split('/');
  for (let i = parts.length - 2; i >= 0; i--) {
    const p = parts[i].toLowerCase();
    if (p === 'data' || p === 'source')
      return parts.slice(0, i).join('/') || (path.startsWith('/') ? '/' : '.');
  }
  return parts.slice(0, -1).join('/') || (path.startsWith('/') ? '/' : '.');
}

function parseMap(m: UnigineMaterialOptions['materialMap']): Map<string, string> {
  const out = new Map<string, string>();
  if (!m) return out;
  if (typeof m === 'string') {
    for (const pair of m.split(',')) {
      const eq = pair.indexOf('=');
      if (eq > 0) out.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  } else for (const [k, v] of Object.entries(m)) if (typeof v === 'string') out.set(k, v);
  return out;
}

function listOption(v: unknown): string[] {
  if (typeof v === 'string')
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(v)) return v.filter((s): s is string => typeof s === 'string');
  return [];
}

/** True for a library of the engine itself (`core/materials/…`), which every project has. */
export function isCoreLibrary(path: string): boolean {
  return /(^|\/)core\/materials\//i.test(path);
}

async function loadLibraries(
  reader: ResourceReader,
  meshPath: string,
  explicit: string[],
  opts: UnigineMaterialOptions,
  warnings: WarningCollector,
): Promise<LoadedLibrary[]> {
  const meshDir = dirOf(meshPath);
  const ordered: string[] = [];
  const seen = new Set<string>();
  const add = (p: string) => {
    const k = p.toLowerCase();
    if (!seen.has(k)) {
      seen.add(k);
      ordered.push(p);
    }
  };
  for (const e of explicit) add(resolveReference(e, '', { file: 'materials option' }));
  add(resolveReference(`${stem(meshPath)}.mat`, meshDir));
  if (opts.scanMaterials) {
    const all = (await reader.list('', { recursive: true })).filter((p) => extName(p) === '.mat');
    // The mesh's folder first, then project libraries, the engine's core libraries last.
    const rank = (p: string) => (dirOf(p) === meshDir ? 0 : isCoreLibrary(p) ? 2 : 1);
    all.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
    for (const p of all) add(p);
  }
  const wanted = new Set(explicit.map((e) => resolveReference(e, '').toLowerCase()));
  const out: LoadedLibrary[] = [];
  let total = 0;
  for (const p of ordered) {
    if (out.length >= opts.maxLibraries) {
      warnings.warn(
        'MATERIAL_MISSING',
        `more than ${opts.maxLibraries} .mat libraries; the rest were not read`,
      );
      break;
    }
    const bytes = await reader.read(p);
    if (!bytes) {
      if (wanted.has(p.toLowerCase()))
        warnings.warn('MATERIAL_MISSING', `material library ${p} not found in ${reader.label}`);
      continue;
    }
    if (bytes.length > opts.maxLibraryBytes || total + bytes.length > opts.maxLibraryTotalBytes) {
      warnings.warn(
        'MATERIAL_MISSING',
        `material library ${p} not read: libraries are limited to ${opts.maxLibraryBytes} bytes each and ${opts.maxLibraryTotalBytes} in all`,
      );
      continue;
    }
    total += bytes.length;
    let library: MaterialLibrary;
    try {
      library = readMaterialLibrary(bytes, p);
    } catch (e) {
      if (!(e instanceof Error && 'code' in e)) throw e;
      warnings.warn(
        'MATERIAL_FILE_INVALID',
        `material library ${p} could not be read (${e.message}); ignored`,
      );
      continue;
    }
    out.push({ path: p, library });
  }
  return out;
}

/** Texture names mapped to glTF slots, in order of preference. */
const BASE_COLOR_TEXTURES = ['diffuse', 'albedo'];
const EMISSION_TEXTURES = ['emission', 'emission_'];

function color(e: ResolvedEntry | undefined): [number, number, number, number] | undefined {
  const n = parameterNumbers(e);
  if (!n || n.length < 3) return undefined;
  const c = (v: number) => Math.min(1, Math.max(0, v));
  return [c(n[0]), c(n[1]), c(n[2]), c(n[3] ?? 1)];
}

function scalar(e: ResolvedEntry | undefined): number | undefined {
  const n = parameterNumbers(e);
  return n?.length ? n[0] : undefined;
}

async function mapMaterial(
  doc: Document,
  material: Material,
  m: ResolvedMaterial,
  cache: TextureCache,
  warnings: WarningCollector,
): Promise<void> {
  const label = `material "${m.name}"`;
  const tex = async (names: string[]) => {
    for (const n of names) {
      const e = activeEntry(m, m.textures, n);
      if (e?.value) return { name: n, texture: await loadTexture(doc, cache, e, label, warnings) };
    }
    return undefined;
  };
  material.setMetallicFactor(0);
  const base = color(
    activeEntry(m, m.parameters, 'diffuse_color') ?? activeEntry(m, m.parameters, 'albedo_color'),
  );
  if (base) material.setBaseColorFactor(base);
  const gloss = scalar(activeEntry(m, m.parameters, 'gloss'));
  const rough = scalar(activeEntry(m, m.parameters, 'roughness'));
  if (rough !== undefined) material.setRoughnessFactor(Math.min(1, Math.max(0, rough)));
  else if (gloss !== undefined) material.setRoughnessFactor(Math.min(1, Math.max(0, 1 - gloss)));
  const diffuse = await tex(BASE_COLOR_TEXTURES);
  if (diffuse?.texture) material.setBaseColorTexture(diffuse.texture);
  const normal = await tex(['normal']);
  if (normal?.texture) material.setNormalTexture(normal.texture);
  const emission = await tex(EMISSION_TEXTURES);
  if (emission?.texture) material.setEmissiveTexture(emission.texture);
  const emissionOn = m.states.get('emission')?.value !== '0';
  const ec = color(activeEntry(m, m.parameters, 'emission_color'));
  const es = scalar(activeEntry(m, m.parameters, 'emission_scale')) ?? 1;
  if (emissionOn && ec && es > 0 && (ec[0] || ec[1] || ec[2])) {
    const k = Math.min(1, es);
    material.setEmissiveFactor([ec[0] * k, ec[1] * k, ec[2] * k]);
    if (es > 1)
      material.setExtension(
        'KHR_materials_emissive_strength',
        doc.createExtension(KHRMaterialsEmissiveStrength).createEmissiveStrength().setEmissiveStrength(es),
      );
  }
  const specular = await tex(['specular']);
  const sc = color(activeEntry(m, m.parameters, 'specular_color'));
  if (specular?.texture || sc) {
    const ext = doc.createExtension(KHRMaterialsSpecular).createSpecular();
    if (sc) ext.setSpecularColorFactor([sc[0], sc[1], sc[2]]);
    if (specular?.texture) ext.setSpecularColorTexture(specular.texture);
    material.setExtension('KHR_materials_specular', ext);
  }
  if (m.options.get('alpha_test') === '1') material.setAlphaMode('MASK').setAlphaCutoff(0.5);
  const src = m.blend.get('src');
  const dest = m.blend.get('dest');
  if (src && dest && src !== 'none' && !(src === 'one' && dest === 'zero')) material.setAlphaMode('BLEND');
  if (m.options.get('two_sided') === '1') material.setDoubleSided(true);
}

/**
 * Reads the model's `.mat` libraries and gives each surface's glTF material the `.mat` material
 * of the same name (or the one `materialMap` names): colours, textures (DDS → PNG, originals kept
 * for a byte-exact export), alpha test/blend, two-sided. Returns the warnings (MATERIAL_MISSING,
 * TEXTURE_MISSING, TEXTURE_INVALID). Without a resource reader and without `.mat` files in `extra`
 * it does nothing.
 *
 * ```ts
 * const { document } = importUnigine(files, { main: 'QBZ95_long.mesh' });
 * const warnings = await applyUnigineMaterials(document, {
 *   resources: folderResources('Unigine_FPS_Demo1'),
 *   resourcePath: 'source/meshes/first_person/QBZ95_long.mesh',
 * });
 * ```
 */
export async function applyUnigineMaterials(
  document: Document,
  options: ImportOptions & Partial<UnigineMaterialOptions>,
  extra: Map<string, Uint8Array> = new Map(),
): Promise<WarningCollector> {
  const warnings = new WarningCollector();
  const opts: UnigineMaterialOptions = { ...UNIGINE_MATERIAL_DEFAULTS };
  if (typeof options.scanMaterials === 'boolean') opts.scanMaterials = options.scanMaterials;
  if (Number.isFinite(options.maxLibraries)) opts.maxLibraries = Number(options.maxLibraries);
  if (Number.isFinite(options.maxLibraryBytes)) opts.maxLibraryBytes = Number(options.maxLibraryBytes);
  if (Number.isFinite(options.maxLibraryTotalBytes))
    opts.maxLibraryTotalBytes = Number(options.maxLibraryTotalBytes);
  const explicit = listOption(options.materials);
  let reader = options.resources;
  let meshPath = options.resourcePath ?? (typeof options.main === 'string' ? options.main : 'model.mesh');
  const extraMats = [...extra.keys()].filter((k) => extName(k) === '.mat');
  if (!reader) {
    if (!extraMats.length && !explicit.length) return warnings;
    reader = new MemoryResources(extra, 'input files');
    meshPath = meshPath.slice(meshPath.lastIndexOf('/') + 1);
  } else if (extraMats.length) {
    // .mat files given beside the mesh: read them first, from memory.
    const mem = new MemoryResources(
      extraMats.map((k) => [
        resolveReference(k.slice(k.lastIndexOf('/') + 1), dirOf(meshPath)),
        extra.get(k) as Uint8Array,
      ]),
    );
    const inner = reader;
    reader = {
      label: inner.label,
      read: async (p) => (await mem.read(p)) ?? inner.read(p),
      find: async (p) => (await mem.find(p)) ?? inner.find(p),
      list: async (d, o) => [...new Set([...(await mem.list(d, o)), ...(await inner.list(d, o))])],
    };
    for (const k of extraMats)
      explicit.push(resolveReference(k.slice(k.lastIndexOf('/') + 1), dirOf(meshPath)));
  }
  const libraries = await loadLibraries(reader, meshPath, explicit, opts, warnings);
  if (!libraries.length) {
    const surfaces = document.getRoot().listMaterials().length;
    warnings.warn(
      'MATERIAL_MISSING',
      `no .mat library under ${reader.label} (tried ${resolveReference(`${stem(meshPath)}.mat`, dirOf(meshPath))}${opts.scanMaterials ? ' and every .mat below the folder' : ''}); surfaces keep placeholder materials`,
      surfaces,
    );
    return warnings;
  }
  const index = new MaterialIndex(libraries);
  const libraryList =
    libraries
      .slice(0, 5)
      .map((l) => l.path)
      .join(', ') + (libraries.length > 5 ? `, … (${libraries.length} libraries)` : '');
  const map = parseMap(options.materialMap);
  const cache: TextureCache = { reader, dataDir: 'data', textures: new Map(), lookups: new Map() };
  const done = new Set<Material>();
  for (const mesh of document.getRoot().listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      const ex = (prim.getExtras() as { unigine?: { surface?: unknown } }).unigine;
      const material = prim.getMaterial();
      if (!material || done.has(material)) continue;
      done.add(material);
      const surface = typeof ex?.surface === 'string' ? ex.surface : material.getName();
      const wanted = map.get(surface) ?? surface;
      const resolved = resolveMaterial(index, wanted, warnings);
      if (!resolved) {
        warnings.warn('MATERIAL_MISSING', `surface "${surface}": no material "${wanted}" in ${libraryList}`);
        continue;
      }
      if (wanted !== surface) material.setName(wanted);
      await mapMaterial(document, material, resolved, cache, warnings);
      const textures: Record<string, string> = {};
      for (const [n, e] of resolved.textures)
        if (e.value && activeEntry(resolved, resolved.textures, n)) textures[n] = e.value;
      const extras: UnigineMaterialExtras = {
        material: resolved.name,
        library: resolved.chain[0].library,
        chain: resolved.chain.map((c) => c.name),
        definitions: resolved.chain
          .filter((c) => !isCoreLibrary(c.library))
          .map((c) => ({ name: c.name, library: c.library, xml: writeMatElement(c.element, 1) })),
        textures,
        mapped: await describeMaterial(material),
      };
      material.setExtras({ ...material.getExtras(), unigine: extras });
    }
  }
  return warnings;
}
