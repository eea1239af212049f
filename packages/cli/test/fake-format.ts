import { Document } from '@gltf-transform/core';
import {
  ByteReader,
  ByteWriter,
  ExportError,
  type FileSet,
  FormatError,
  type LegacyFormat,
  mainFile,
  WarningCollector,
} from '@gltf-legacy/core';

/**
 * A tiny format for CLI tests: "FAKE", u32 vertex count, f32 positions; a companion "NAME.note"
 * adds a warning. Export writes NAME.fake and NAME.note. Count 999 throws a TypeError (a bug:
 * INTERNAL_ERROR), count 998 spins for an hour (a hang: only --timeout stops it).
 */
export const fakeFormat: LegacyFormat = {
  id: 'fake',
  label: 'Fake test format',
  extensions: ['.fake', '.note'],
  mainExtension: '.fake',
  capabilities: { import: true, export: true, skins: false, morphTargets: false, animations: false },
  sniff: (b) => b[0] === 0x46 && b[1] === 0x41 && b[2] === 0x4b && b[3] === 0x45,
  companions: (name, siblings) => siblings.filter((s) => s === name.replace(/\.fake$/i, '.note')),
  async import(files: FileSet, options) {
    const [name, bytes] = mainFile(files, options);
    const r = new ByteReader(bytes, { file: name });
    r.expectMagic('FAKE');
    const n = r.count(r.u32('count'), 12, 'positions');
    if (n === 999) throw new TypeError('simulated bug');
    if (n === 998) {
      // simulated hang (a parser stuck in a loop): only --timeout can stop it
      const until = Date.now() + 3_600_000;
      while (Date.now() < until) r.offset;
    }
    const pos = r.f32Array(n * 3, 'positions', true);
    const warnings = new WarningCollector();
    for (const other of files.keys())
      if (other !== name) warnings.warn('NOTE_SEEN', `companion ${other} read`);
    const doc = new Document();
    const buf = doc.createBuffer();
    const acc = doc.createAccessor().setType('VEC3').setArray(pos).setBuffer(buf);
    doc
      .createScene()
      .addChild(
        doc
          .createNode('fake')
          .setMesh(doc.createMesh('fake').addPrimitive(doc.createPrimitive().setAttribute('POSITION', acc))),
      );
    return { document: doc, warnings: warnings.list() };
  },
  async export(doc, options) {
    const prims = doc
      .getRoot()
      .listMeshes()
      .flatMap((m) => m.listPrimitives());
    if (!prims.length) throw new ExportError('NO_MESH', 'nothing to export');
    const pos = prims[0].getAttribute('POSITION')!.getArray() as Float32Array;
    const w = new ByteWriter()
      .string('FAKE')
      .u32(pos.length / 3)
      .f32Array(pos);
    const name = options?.name ?? 'model';
    const files: FileSet = new Map([
      [`${name}.fake`, w.finish()],
      [`${name}.note`, new TextEncoder().encode('note')],
    ]);
    return { files, warnings: [{ code: 'FAKE_EXPORT', message: 'exported', count: 1 }] };
  },
  inspect: (files) => [{ title: 'Fake', facts: { files: files.size } }],
};

export function fakeBytes(positions: number[]): Uint8Array {
  return new ByteWriter()
    .string('FAKE')
    .u32(positions.length / 3)
    .f32Array(new Float32Array(positions))
    .finish();
}

export { FormatError };

/** For worker threads (see batch.ts `formatsModule`): the formats this module provides. */
export const formats = [fakeFormat];
