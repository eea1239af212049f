/**
 * Reading a `.gltf` from disk without letting it read anything else: its buffer and image URIs
 * are untrusted references, resolved with core's `resolveReference` against the glTF's folder
 * (or `--resource-dir`) and read through a {@link FolderResources}, never by NodeIO itself.
 */
import type { Document, JSONDocument, NodeIO } from '@gltf-transform/core';
import {
  dirOf,
  FormatError,
  isDataUri,
  isLegacyError,
  LegacyError,
  resolveReference,
  type WarningCollector,
} from '@gltf-legacy/core';
import type { FolderIndex } from './folder-index.js';
import { inputResources } from './folder-resources.js';
import { checkAccessorCounts } from './gltf-accessors.js';

/** Options of {@link readGltfJson}. */
export interface ReadGltfOptions {
  /** The folder external URIs are read from (default: the glTF's folder). */
  resourceDir?: string;
  /** Receives `TEXTURE_MISSING` for an image file that does not exist. */
  warnings?: WarningCollector;
  /** A batch's shared folder listings (issue 31); default: the reader's own. */
  folders?: FolderIndex;
}

/** Parses glTF JSON bytes; a typed `FormatError` BAD_JSON instead of a SyntaxError. */
export function parseGltfJson(bytes: Uint8Array, file: string): JSONDocument['json'] {
  try {
    const json = JSON.parse(new TextDecoder().decode(bytes));
    if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('not a JSON object');
    return json;
  } catch (e) {
    throw new FormatError(`not valid glTF JSON (${(e as Error).message})`, { code: 'BAD_JSON', file });
  }
}

/**
 * Reads a `.gltf` file's JSON and the files its buffers and images name, then builds the document
 * with `io.readJSON`. A URI that is absolute, climbs out of the root with `..`, leaves it through
 * a symbolic link, or has a scheme other than `data:` (`http:`, `file:`, …) is a `ResourceError`
 * (`PATH_ESCAPE` / `EXTERNAL_URI`) naming the glTF file and the URI: it is never read. A missing
 * buffer is a LegacyError `RESOURCE_MISSING`; a missing image a `TEXTURE_MISSING` warning.
 *
 * ```ts
 * const doc = await readGltfJson(io, 'scene/model.gltf', bytes, { resourceDir: 'scene' });
 * ```
 */
export async function readGltfJson(
  io: NodeIO,
  path: string,
  bytes: Uint8Array,
  options: ReadGltfOptions = {},
): Promise<Document> {
  const json = parseGltfJson(bytes, path);
  checkAccessorCounts(json, path);
  wrapRootExtras(json, path, options.warnings);
  const resources = await externalResources(json, path, options);
  return readOrExplain(() => io.readJSON({ json, resources }), bytes, path);
}

/**
 * A root `extras` that is not a JSON object (a string, number, array…) becomes `{ value: … }`,
 * with a `ROOT_EXTRAS_WRAPPED` warning. glTF-Transform spreads the root extras into an object:
 * a string became one property per character — garbage, and a 300 MB string an internal error
 * after 8 s and 1.4 GB. Returns whether it changed the JSON.
 *
 * ```ts
 * wrapRootExtras(json, 'model.gltf', warnings); // "extras": "note" → { "value": "note" }
 * ```
 */
export function wrapRootExtras(
  json: JSONDocument['json'],
  path: string,
  warnings?: WarningCollector,
): boolean {
  const root = json as { extras?: unknown };
  const extras = root.extras;
  if (extras === undefined || (typeof extras === 'object' && extras !== null && !Array.isArray(extras)))
    return false;
  root.extras = { value: extras };
  warnings?.warn(
    'ROOT_EXTRAS_WRAPPED',
    `${path}: the root extras is ${Array.isArray(extras) ? 'an array' : extras === null ? 'null' : `a ${typeof extras}`}, not an object; kept as { "value": … }`,
  );
  return true;
}

/**
 * Runs glTF-Transform's reader. An exception that is not one of ours means it could not read the
 * JSON (`"asset": null`, `"nodes": "x"`, a node index past the end, `"type": "VEC9"` — a
 * TypeError or a bare Error from inside it); the Khronos validator, loaded only then, names what
 * is wrong: a `FormatError` BAD_GLTF with the file, the JSON pointer of its first error (else
 * warning: an unknown accessor type is only a warning to it) as `field`, its message and the
 * reader's. When the validator cannot read the file either (it throws on `"meshes": [null]`) the
 * reader's message is the BAD_GLTF's; when it finds nothing to say, the exception is left as it
 * is: a valid file that does not read is a bug (INTERNAL_ERROR).
 */
async function readOrExplain(
  read: () => Promise<Document>,
  bytes: Uint8Array,
  path: string,
): Promise<Document> {
  try {
    return await read();
  } catch (e) {
    if (isLegacyError(e)) throw e;
    const reason = (e as Error)?.message ?? String(e);
    const { validateGltfBytes } = await import('./validate.js');
    // external files are not given to the validator: what they hold was read (or refused) above
    const report = await validateGltfBytes(bytes, path).catch(() => undefined);
    const said = report?.messages.filter((m) => !m.code.startsWith('IO_'));
    const first = said?.find((m) => m.severity === 'error') ?? said?.find((m) => m.severity === 'warning');
    if (report && !first) throw e;
    throw new FormatError(
      first
        ? `not a glTF that can be read: ${first.message} (${first.code}; the reader: ${reason})`
        : `not a glTF that can be read (the reader: ${reason}; the Khronos validator could not read it either)`,
      { code: 'BAD_GLTF', file: path, field: first?.pointer },
    );
  }
}

/**
 * Reads a `.glb`. One that names no external file (every GLB the formats write) goes straight to
 * `io.readBinary`; one whose buffers or images have a `uri` (allowed by the spec) has those
 * resolved exactly as {@link readGltfJson} does — NodeIO would refuse them with an untyped error.
 *
 * ```ts
 * const doc = await readGlbFile(io, 'model.glb', bytes);
 * ```
 */
export async function readGlbFile(
  io: NodeIO,
  path: string,
  bytes: Uint8Array,
  options: ReadGltfOptions = {},
): Promise<Document> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = bytes.length >= 20 ? view.getUint32(12, true) : 0;
  if (bytes.length < 20 || view.getUint32(16, true) !== 0x4e4f534a || 20 + jsonLength > bytes.length)
    return readOrExplain(() => io.readBinary(bytes), bytes, path); // the validator says what is wrong
  const chunk = bytes.subarray(20, 20 + jsonLength);
  const json = parseGltfJson(chunk, path);
  checkAccessorCounts(json, path);
  const wrapped = wrapRootExtras(json, path, options.warnings);
  const named = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).includes('"uri"');
  if (!named && !wrapped) return readOrExplain(() => io.readBinary(bytes), bytes, path);
  const resources = named ? await externalResources(json, path, options) : {};
  const binAt = 20 + ((jsonLength + 3) & ~3);
  if (binAt + 8 <= bytes.length && view.getUint32(binAt + 4, true) === 0x004e4942) {
    const binLength = Math.min(view.getUint32(binAt, true), bytes.length - binAt - 8);
    resources['@glb.bin'] = bytes.slice(binAt + 8, binAt + 8 + binLength);
  }
  return readOrExplain(() => io.readJSON({ json, resources }), bytes, path);
}

/** The external files a glTF's buffers and images name, read through the resource reader. */
async function externalResources(
  json: JSONDocument['json'],
  path: string,
  options: ReadGltfOptions,
): Promise<Record<string, Uint8Array<ArrayBuffer>>> {
  const { resources, resourcePath } = inputResources(path, undefined, options.resourceDir, options.folders);
  const base = dirOf(resourcePath);
  const out: Record<string, Uint8Array<ArrayBuffer> | null> = {};
  const list = (key: 'buffers' | 'images') => {
    const v = (json as unknown as Record<string, unknown>)[key];
    return Array.isArray(v) ? (v as { uri?: unknown }[]) : [];
  };
  for (const key of ['buffers', 'images'] as const) {
    for (const [i, def] of list(key).entries()) {
      const uri = def?.uri;
      if (uri === undefined) continue;
      if (typeof uri !== 'string')
        throw new FormatError('uri is not a string', {
          code: 'BAD_URI',
          file: path,
          field: `${key}[${i}].uri`,
        });
      if (isDataUri(uri) || uri in out) continue;
      const rel = resolveReference(uri, base, { uri: true, file: path });
      const data = await resources.read(rel);
      if (!data) {
        if (key === 'buffers')
          throw new LegacyError(
            'RESOURCE_MISSING',
            `${path}: buffers[${i}].uri "${uri}" names ${rel} in ${resources.label}, which does not exist`,
          );
        options.warnings?.warn(
          'TEXTURE_MISSING',
          `${path}: image "${uri}" not found (tried ${rel} in ${resources.label})`,
        );
        out[uri] = null;
        continue;
      }
      out[uri] = data as Uint8Array<ArrayBuffer>;
    }
  }
  return out as Record<string, Uint8Array<ArrayBuffer>>;
}
