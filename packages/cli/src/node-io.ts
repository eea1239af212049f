import { type Document, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { KeptBytesExtension, type LegacyFormat } from '@gltf-legacy/core';
import { FORMATS } from './formats.js';
import { encodeGlb } from './gltf-io.js';

/**
 * A NodeIO that knows every Khronos extension and the extensions our formats define, so that a
 * document read from disk keeps whatever an importer wrote. (Synchronous: it loads every format
 * package; the CLI itself uses the on-demand `createCodecNodeIO`.)
 */
export function createNodeIO(formats: readonly LegacyFormat[] = FORMATS): NodeIO {
  const extra = formats.flatMap((f) => f.gltfExtensions ?? []);
  return new NodeIO().registerExtensions([...ALL_EXTENSIONS, KeptBytesExtension, ...extra]);
}

/** GLB bytes of a document. */
export async function toGlb(doc: Document, formats?: readonly LegacyFormat[]): Promise<Uint8Array> {
  return encodeGlb(createNodeIO(formats), doc);
}
