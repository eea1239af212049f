import { type Document, type Extension, Format, NodeIO, type PlatformIO } from '@gltf-transform/core';
import { KeptBytesExtension, type LegacyFormat } from '@gltf-legacy/core';
import { loadAllFormats } from './format-table.js';

// Everything here is loaded on demand: @gltf-transform/extensions (~20 ms), meshoptimizer (its
// WebAssembly modules, ~50 ms) and draco3dgltf are only imported when a file needs them.

/** Which codecs a NodeIO needs: each is loaded only when asked for. */
export interface CodecNeeds {
  /** EXT_meshopt_compression (meshoptimizer). Default true. */
  meshopt?: boolean;
  /** KHR_draco_mesh_compression (draco3dgltf). Default false. */
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

async function registerCodecs(io: NodeIO, needs: CodecNeeds): Promise<NodeIO> {
  if (needs.meshopt ?? true) {
    const { MeshoptDecoder, MeshoptEncoder } = await import('meshoptimizer');
    await Promise.all([MeshoptDecoder.ready, MeshoptEncoder.ready]);
    io.registerDependencies({ 'meshopt.decoder': MeshoptDecoder, 'meshopt.encoder': MeshoptEncoder });
  }
  if (needs.draco) {
    const { decoder, encoder } = await loadDraco();
    io.registerDependencies({ 'draco3d.decoder': decoder, 'draco3d.encoder': encoder });
  }
  return io;
}

/**
 * A NodeIO that reads anything: every Khronos extension and those our formats define, plus the
 * compression codecs: EXT_meshopt_compression (meshoptimizer) unless `needs.meshopt` is false,
 * KHR_draco_mesh_compression (draco3dgltf) when `needs.draco`.
 */
export async function createCodecNodeIO(
  formats?: readonly LegacyFormat[],
  needs: CodecNeeds = {},
): Promise<NodeIO> {
  const [{ ALL_EXTENSIONS }, all] = await Promise.all([
    import('@gltf-transform/extensions'),
    formats ?? loadAllFormats(),
  ]);
  const extra = all.flatMap((f) => f.gltfExtensions ?? []);
  return registerCodecs(
    new NodeIO().registerExtensions([...ALL_EXTENSIONS, KeptBytesExtension, ...extra]),
    needs,
  );
}

/**
 * A NodeIO that writes `doc`: the extensions it uses and the codecs those need. (Writing only
 * serializes the extensions a document uses, so nothing else has to be loaded.)
 */
export async function createWriterNodeIO(doc: Document, needs: CodecNeeds = {}): Promise<NodeIO> {
  const used = doc.getRoot().listExtensionsUsed();
  const names = new Set(used.map((e) => e.extensionName));
  const io = new NodeIO().registerExtensions(used.map((e) => e.constructor as unknown as typeof Extension));
  return registerCodecs(io, {
    meshopt: !!needs.meshopt || names.has('EXT_meshopt_compression'),
    draco: !!needs.draco || names.has('KHR_draco_mesh_compression'),
  });
}

function mentions(bytes: Uint8Array, text: string): boolean {
  const head = bytes.subarray(0, Math.min(bytes.length, 1 << 20));
  return Buffer.from(head.buffer, head.byteOffset, head.byteLength).includes(text);
}

/** True when glTF bytes (GLB or JSON) mention Draco compression, so the decoder must be loaded. */
export function mentionsDraco(bytes: Uint8Array): boolean {
  return mentions(bytes, 'KHR_draco_mesh_compression');
}

/** True when glTF bytes (GLB or JSON) mention meshopt compression, so the decoder must be loaded. */
export function mentionsMeshopt(bytes: Uint8Array): boolean {
  return mentions(bytes, 'EXT_meshopt_compression');
}

/** The codecs needed to read these glTF bytes. */
export function codecsFor(bytes: Uint8Array): CodecNeeds {
  return { draco: mentionsDraco(bytes), meshopt: mentionsMeshopt(bytes) };
}

/**
 * GLB bytes of a document, the same bytes as `io.writeBinary(doc)` with one allocation instead of
 * three: writeBinary copies the binary buffer into a chunk and the chunk into the file, so three
 * copies of the output are alive at its peak (a 2 GB .glb from a 1000-frame Unreal mesh held
 * ~8.9 GB). Here the JSON and the buffer glTF-Transform's writer made are placed once.
 *
 * ```ts
 * const glb = await encodeGlb(io, doc); // bytes equal to await io.writeBinary(doc)
 * ```
 */
export async function encodeGlb(io: PlatformIO, doc: Document): Promise<Uint8Array> {
  const { json, resources } = await io.writeJSON(doc, { format: Format.GLB });
  let bin: Uint8Array | undefined = Object.values(resources)[0];
  if (bin && !bin.byteLength) bin = undefined;
  return assembleGlb(json, bin?.byteLength ?? 0, (out) => bin && out.set(bin));
}

/**
 * A GLB file: the JSON chunk, and a BIN chunk of `binLength` bytes (none when 0) that `fillBin`
 * writes into the view it is given (zero-filled; padding stays 0).
 */
export function assembleGlb(json: object, binLength: number, fillBin: (bin: Uint8Array) => void): Uint8Array {
  const { head, total } = glbHead(json, binLength);
  const out = new Uint8Array(total);
  out.set(head);
  if (binLength) fillBin(out.subarray(head.byteLength, head.byteLength + binLength));
  return out;
}

/**
 * The bytes of a GLB up to its BIN chunk's data — the 12-byte header, the JSON chunk (padded with
 * spaces) and the BIN chunk's 8-byte header (none when `binLength` is 0) — and the file's length;
 * the BIN data and its zero padding (`pad4(binLength) − binLength` bytes) follow.
 *
 * ```ts
 * const { head, total } = glbHead(json, bin.byteLength);
 * ```
 */
export function glbHead(json: object, binLength: number): { head: Uint8Array; total: number } {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = pad4(text.byteLength);
  const paddedBin = binLength ? pad4(binLength) : 0;
  const total = 12 + 8 + jsonLength + (binLength ? 8 + paddedBin : 0);
  const head = new Uint8Array(20 + jsonLength + (binLength ? 8 : 0));
  const view = new DataView(head.buffer);
  view.setUint32(0, 0x46546c67, true); // 'glTF'
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true); // 'JSON'
  head.set(text, 20);
  head.fill(0x20, 20 + text.byteLength, 20 + jsonLength);
  if (binLength) {
    const at = 20 + jsonLength;
    view.setUint32(at, paddedBin, true);
    view.setUint32(at + 4, 0x004e4942, true); // 'BIN\0'
  }
  return { head, total };
}

function pad4(n: number): number {
  return Math.ceil(n / 4) * 4;
}
