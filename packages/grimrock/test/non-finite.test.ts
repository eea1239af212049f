// Issue 29: the non-finite bit patterns of raw vertex arrays (NaN / ±Infinity tangents of
// rusted_great_axe.model) travel as bytes (GLTF_LEGACY_kept_bytes `nonFinite:<array>` of the mesh,
// u32 little-endian [value index, bits] pairs), not as JSON number arrays in extras; a .glb
// written before (extras.grimrock.nonFinite) still exports byte for byte.
import { basename } from 'node:path';
import {
  KEPT_BYTES,
  KeptBytesExtension,
  getKeptBytes,
  listKeptBytes,
  removeKeptBytes,
} from '@gltf-legacy/core';
import { corpusFiles, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { exportGrimrock, importGrimrock } from '../src/index.js';

const io = new NodeIO().registerExtensions([KeptBytesExtension]);
const plainIO = new NodeIO();
const axe = corpusFiles('grimrock', ['.model']).find((p) => basename(p) === 'rusted_great_axe.model')!;

function glbJsonText(glb: Uint8Array): string {
  const len = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return new TextDecoder().decode(glb.subarray(20, 20 + len));
}

async function exported(glb: Uint8Array): Promise<Uint8Array> {
  const { files } = await exportGrimrock(await io.readBinary(glb), { name: 'rusted_great_axe' });
  return files.get('rusted_great_axe.model')!;
}

describe('non-finite patches as kept bytes', () => {
  const bytes = readBytes(axe);
  const load = () =>
    importGrimrock(new Map([['rusted_great_axe.model', bytes]]), { main: 'rusted_great_axe.model' }).document;

  it('rusted_great_axe.model: the patches are bytes on the mesh, none in the JSON; byte-exact back', async () => {
    const document = load();
    const keys = document
      .getRoot()
      .listMeshes()
      .flatMap((m) => listKeptBytes(m).filter((k) => k.startsWith('nonFinite:')));
    expect(keys.length).toBeGreaterThan(0);
    expect(keys).toContain('nonFinite:tangent');
    const glb = await io.writeBinary(document);
    const text = glbJsonText(glb);
    expect(text).not.toContain('"nonFinite"');
    expect(text).toContain(KEPT_BYTES);
    expect(firstByteDiff(await exported(glb), bytes)).toBe(-1);
  });

  it('a .glb written the old way (extras.grimrock.nonFinite, no extension) still exports byte for byte', async () => {
    const document = load();
    for (const mesh of document.getRoot().listMeshes()) {
      const nonFinite: Record<string, [number, number][]> = {};
      for (const key of listKeptBytes(mesh).filter((k) => k.startsWith('nonFinite:'))) {
        const b = getKeptBytes(mesh, key)!;
        const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
        nonFinite[key.slice('nonFinite:'.length)] = Array.from({ length: b.byteLength / 8 }, (_, k) => [
          view.getUint32(k * 8, true),
          view.getUint32(k * 8 + 4, true),
        ]);
        removeKeptBytes(mesh, key);
      }
      if (Object.keys(nonFinite).length) {
        const x = mesh.getExtras() as { grimrock: Record<string, unknown> };
        mesh.setExtras({ ...x, grimrock: { ...x.grimrock, nonFinite } });
      }
    }
    const glb = await plainIO.writeBinary(document);
    const text = glbJsonText(glb);
    expect(text).toContain('"nonFinite"');
    expect(text).not.toContain(KEPT_BYTES);
    expect(firstByteDiff(await exported(glb), bytes)).toBe(-1);
  });
});
