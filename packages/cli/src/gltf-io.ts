import { type Document, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import type { LegacyFormat } from '@gltf-legacy/core';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import { FORMATS } from './registry.js';

/**
 * A NodeIO that knows every Khronos extension and the extensions our formats define, so that a
 * document read from disk keeps whatever an importer wrote.
 */
export function createNodeIO(formats: readonly LegacyFormat[] = FORMATS): NodeIO {
  const extra = formats.flatMap((f) => f.gltfExtensions ?? []);
  return new NodeIO().registerExtensions([...ALL_EXTENSIONS, ...extra]);
}

/** Which codecs a NodeIO needs: meshopt is cheap (always on), Draco is loaded only on demand. */
export interface CodecNeeds {
  draco?: boolean;
}

let dracoModules: Promise<{ decoder: unknown; encoder: unknown }> | undefined;

/** The Draco decoder and encoder modules (WebAssembly, from draco3dgltf), loaded once. */
export function loadDraco(): Promise<{ decoder: unknown; encoder: unknown }> {
  dracoModules ??= import('draco3dgltf').then(async ({ default: draco3d }) => {
    const [decoder, encoder] = await Promise.all([
      draco3d.createDecoderModule(),
      draco3d.createEncoderModule(),
    ]);
    return { decoder, encoder };
  });
  return dracoModules;
}

/**
 * {@link createNodeIO} plus the compression codecs: EXT_meshopt_compression (meshoptimizer) always,
 * KHR_draco_mesh_compression (draco3dgltf) when `needs.draco`.
 */
export async function createCodecNodeIO(
  formats: readonly LegacyFormat[] = FORMATS,
  needs: CodecNeeds = {},
): Promise<NodeIO> {
  await Promise.all([MeshoptDecoder.ready, MeshoptEncoder.ready]);
  const io = createNodeIO(formats).registerDependencies({
    'meshopt.decoder': MeshoptDecoder,
    'meshopt.encoder': MeshoptEncoder,
  });
  if (needs.draco) {
    const { decoder, encoder } = await loadDraco();
    io.registerDependencies({ 'draco3d.decoder': decoder, 'draco3d.encoder': encoder });
  }
  return io;
}

/** True when glTF bytes (GLB or JSON) mention Draco compression, so the decoder must be loaded. */
export function mentionsDraco(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, Math.min(bytes.length, 1 << 20));
  return Buffer.from(head.buffer, head.byteOffset, head.byteLength).includes('KHR_draco_mesh_compression');
}

/** GLB bytes of a document. */
export async function toGlb(doc: Document, formats?: readonly LegacyFormat[]): Promise<Uint8Array> {
  return createNodeIO(formats).writeBinary(doc);
}
