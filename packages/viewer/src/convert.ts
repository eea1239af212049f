/**
 * In-browser conversion: a pool of dropped files → the models in it → a glTF-Transform Document and
 * .glb bytes; a Document → the files of any legacy format. Pure TypeScript on Uint8Array (works in
 * a browser and in Node).
 */
import { type Document, WebIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import {
  documentStats,
  isMainFileName,
  type DocumentStats,
  type FileSet,
  type LegacyFormat,
  LegacyError,
  type Warning,
} from '@gltf-legacy/core';
import { FORMATS, formatById, sniff, unpackContainer } from './registry.js';
import { isResourceKey, poolResources } from './resource-pool.js';

/** Files the user dropped (name → bytes), containers already unpacked. */
export type FilePool = Map<string, Uint8Array>;

/** A model found in a pool: its main file and how it is read. */
export interface ModelEntry {
  /** Main file name in the pool. */
  name: string;
  /** Legacy format id, `glb` or `gltf`. */
  format: string;
}

/** A converted model. */
export interface ConvertedModel {
  name: string;
  format: string;
  /** Files of the pool that were used (main first). */
  files: string[];
  document: Document;
  /** The model as .glb (what three.js shows and what "Download .glb" saves). */
  glb: Uint8Array;
  warnings: Warning[];
  stats: DocumentStats;
}

/** A WebIO knowing every Khronos extension and the ones our formats define. */
export function createWebIO(formats: readonly LegacyFormat[] = FORMATS): WebIO {
  return new WebIO().registerExtensions([
    ...ALL_EXTENSIONS,
    ...formats.flatMap((f) => f.gltfExtensions ?? []),
  ]);
}

/**
 * Adds files to a pool; containers (`.pak`) are replaced by their entries (prefixed with the
 * container name when an entry's name is taken). Returns the names added.
 *
 * ```ts
 * const pool: FilePool = new Map();
 * addToPool(pool, [['Jack.mdl', mdl], ['Jack_Walk.ani', ani]]);
 * ```
 */
export function addToPool(
  pool: FilePool,
  files: Iterable<[string, Uint8Array]>,
  formats: readonly LegacyFormat[] = FORMATS,
): string[] {
  const added: string[] = [];
  for (const [name, bytes] of files) {
    if (isResourceKey(name)) {
      pool.set(name, bytes);
      continue;
    }
    const kind = sniff(bytes, name, formats);
    const entries = typeof kind === 'object' ? unpackContainer(kind, bytes, name) : undefined;
    if (entries) {
      for (const [inner, b] of entries) {
        const key = pool.has(inner) ? `${name}/${inner}` : inner;
        pool.set(key, b);
        added.push(key);
      }
    } else {
      pool.set(name, bytes);
      added.push(name);
    }
  }
  return added;
}

/**
 * The models of a pool: glTF files and main files of a legacy format (sniffed by bytes and named
 * with the format's main extension). Companions (animations, `_a.3d`, `.uc`, …) are not listed.
 * When a pool holds only companions (an animation alone), they are listed so the importer can say
 * what it needs.
 */
export function listModels(pool: FilePool, formats: readonly LegacyFormat[] = FORMATS): ModelEntry[] {
  const out: ModelEntry[] = [];
  const loose: ModelEntry[] = [];
  for (const [name, bytes] of pool) {
    if (isResourceKey(name)) continue;
    const kind = sniff(bytes, name, formats);
    if (kind === 'glb' || kind === 'gltf') out.push({ name, format: kind });
    else if (kind) {
      if (isMainFileName(kind, name)) out.push({ name, format: kind.id });
      else loose.push({ name, format: kind.id });
    }
  }
  return out.length ? out : loose;
}

/** Compression extensions whose decoders the page does not bundle. */
const UNSUPPORTED_COMPRESSION = ['KHR_draco_mesh_compression', 'EXT_meshopt_compression'];

/** The JSON of a .glb (first chunk) or .gltf file. */
function gltfJsonOf(bytes: Uint8Array, kind: 'glb' | 'gltf'): { extensionsUsed?: string[] } {
  if (kind === 'gltf') return JSON.parse(new TextDecoder().decode(bytes));
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = bytes.length >= 20 ? dv.getUint32(12, true) : 0;
  if (len === 0 || 20 + len > bytes.length) throw new LegacyError('BAD_GLB', 'the .glb has no JSON chunk');
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + len)));
}

/** A GLB holds one buffer: moves every accessor to the first buffer (a multi-buffer .gltf). */
function mergeBuffers(document: Document): void {
  const [first, ...rest] = document.getRoot().listBuffers();
  if (!rest.length) return;
  for (const a of document.getRoot().listAccessors()) a.setBuffer(first);
  for (const b of rest) b.dispose();
}

/** Files of `pool` a glTF JSON file refers to (buffers, images), by URI. */
function gltfResources(json: Uint8Array, pool: FilePool): Record<string, Uint8Array<ArrayBuffer>> {
  const doc = JSON.parse(new TextDecoder().decode(json)) as {
    buffers?: { uri?: string }[];
    images?: { uri?: string }[];
  };
  const res: Record<string, Uint8Array<ArrayBuffer>> = {};
  for (const r of [...(doc.buffers ?? []), ...(doc.images ?? [])]) {
    if (!r.uri || r.uri.startsWith('data:')) continue;
    const uri = decodeURIComponent(r.uri);
    const base = uri.slice(uri.lastIndexOf('/') + 1);
    const b = pool.get(uri) ?? pool.get(base);
    if (b) res[r.uri] = b as Uint8Array<ArrayBuffer>;
  }
  return res;
}

/**
 * Converts one model of a pool: a legacy main file with its companions from the pool (chosen by
 * the format's `companions`), or a .glb/.gltf. Throws the importer's error (FormatError, …).
 */
export async function convertModel(
  pool: FilePool,
  name: string,
  formats: readonly LegacyFormat[] = FORMATS,
): Promise<ConvertedModel> {
  const bytes = pool.get(name);
  if (!bytes) throw new Error(`no file "${name}"`);
  const io = createWebIO(formats);
  const kind = sniff(bytes, name, formats);
  if (kind === 'glb' || kind === 'gltf') {
    const json = gltfJsonOf(bytes, kind);
    const compressed = [...(json.extensionsUsed ?? [])].filter((e) => UNSUPPORTED_COMPRESSION.includes(e));
    if (compressed.length) {
      throw new LegacyError(
        'COMPRESSION_UNSUPPORTED',
        `${name} uses ${compressed.join(', ')}: the viewer bundles no decoder for it (convert it with the CLI first)`,
      );
    }
    const document =
      kind === 'glb'
        ? await io.readBinary(bytes)
        : await io.readJSON({ json: json as never, resources: gltfResources(bytes, pool) });
    mergeBuffers(document);
    const glb = kind === 'glb' ? bytes : await io.writeBinary(document);
    return { name, format: kind, files: [name], document, glb, warnings: [], stats: documentStats(document) };
  }
  if (!kind) throw new Error(`${name}: not a format the viewer knows (sniffed by content, not extension)`);
  const files: FileSet = new Map([[name, bytes]]);
  const siblings = [...pool.keys()].filter((n) => n !== name && !isResourceKey(n));
  for (const c of kind.companions?.(name, siblings) ?? []) {
    const b = pool.get(c);
    if (b && !files.has(c)) files.set(c, b);
  }
  // textures and material files: the resource tree sent with the model, else the dropped files
  const { document, warnings } = await kind.import(files, { main: name, ...poolResources(pool, name) });
  const glb = await io.writeBinary(document);
  return {
    name,
    format: kind.id,
    files: [...files.keys()],
    document,
    glb,
    warnings,
    stats: documentStats(document),
  };
}

/** Formats the viewer can export to. */
export function exportTargets(formats: readonly LegacyFormat[] = FORMATS): LegacyFormat[] {
  return formats.filter((f) => f.capabilities.export && typeof f.export === 'function');
}

/**
 * Exports a document to a legacy format: every file the format needs, and the lossy steps as
 * warnings. Throws the exporter's ExportError when the format cannot hold the model.
 */
export async function exportModel(
  document: Document,
  formatId: string,
  name: string,
  formats: readonly LegacyFormat[] = FORMATS,
): Promise<{ files: FileSet; warnings: Warning[] }> {
  const format = formatById(formatId, formats);
  if (!format?.export) throw new Error(`format "${formatId}" cannot export`);
  // export from a copy read back from the .glb: exporters must not mutate the shown document
  const io = createWebIO(formats);
  const copy = await io.readBinary(await io.writeBinary(document));
  return format.export(copy, { name });
}

/** File name stem without the format's main extension (`Jack.mdl` → `Jack`, `Key_d.3d` → `Key`). */
export function modelBase(name: string, format?: LegacyFormat): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  if (format && base.toLowerCase().endsWith(format.mainExtension.toLowerCase()))
    return base.slice(0, base.length - format.mainExtension.length);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}
