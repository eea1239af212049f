import { Document } from '@gltf-transform/core';
import {
  ByteReader,
  type FileSet,
  type LegacyFormat,
  mainFile,
  resolveReference,
  dirOf,
} from '@gltf-legacy/core';

/**
 * A test format that reads resources the way the real importers do: "PROB", then a text
 * reference (u32 length + UTF-8) to a file it reads through `options.resources` after
 * `resolveReference` against the main file's folder. The import records what it saw in the
 * document's extras (`resourcePath`, the reference's resolved path, the bytes read or
 * `missing`). Its exporter writes the file keys given by `PROBE_EXPORT_KEYS` in the root extras
 * (hostile names for the output checks). `resourceRoot`: the folder above a `Models/` folder.
 */
export const probeFormat: LegacyFormat = {
  id: 'probe',
  label: 'Resource probe (tests)',
  extensions: ['.probe'],
  mainExtension: '.probe',
  capabilities: { import: true, export: true, skins: false, morphTargets: false, animations: false },
  sniff: (b) => b[0] === 0x50 && b[1] === 0x52 && b[2] === 0x4f && b[3] === 0x42,
  resourceRoot(path: string): string {
    const parts = path.split('/');
    const i = parts.map((p) => p.toLowerCase()).lastIndexOf('models');
    return i > 0 ? parts.slice(0, i).join('/') : parts.slice(0, -1).join('/');
  },
  async import(files: FileSet, options = {}) {
    const [name, bytes] = mainFile(files, options);
    const r = new ByteReader(bytes, { file: name });
    r.expectMagic('PROB');
    const ref = new TextDecoder().decode(r.bytesView(r.count(r.u32('length'), 1, 'ref'), 'ref'));
    const resourcePath = options.resourcePath ?? name;
    const resolved = resolveReference(ref, dirOf(resourcePath), { file: name });
    const data = await options.resources?.read(resolved);
    const doc = new Document();
    doc.getRoot().setExtras({
      probe: {
        resourcePath,
        resolved,
        read: data ? new TextDecoder().decode(data) : 'missing',
        label: options.resources?.label,
      },
    });
    const buf = doc.createBuffer();
    const acc = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
      .setBuffer(buf);
    doc
      .createScene()
      .addChild(
        doc
          .createNode('probe')
          .setMesh(doc.createMesh('probe').addPrimitive(doc.createPrimitive().setAttribute('POSITION', acc))),
      );
    return { document: doc, warnings: [] };
  },
  async export(doc, options) {
    const keys = ((doc.getRoot().getExtras() as { PROBE_EXPORT_KEYS?: string[] }).PROBE_EXPORT_KEYS ?? [
      `${options?.name ?? 'model'}.probe`,
    ]) as string[];
    return { files: new Map(keys.map((k) => [k, new TextEncoder().encode(k)])), warnings: [] };
  },
};

/** A probe file referring to `ref`. */
export function probeBytes(ref: string): Uint8Array {
  const text = new TextEncoder().encode(ref);
  const out = new Uint8Array(8 + text.length);
  out.set([0x50, 0x52, 0x4f, 0x42]);
  new DataView(out.buffer).setUint32(4, text.length, true);
  out.set(text, 8);
  return out;
}
