// Issue 29: a geometry's bone mapping longer than 16 entries (and geometry centres of more than 5
// geometries) travels as bytes (GLTF_LEGACY_kept_bytes
// `boneMapping:<geometry>` of the model's top node, u32 little-endian), not as a JSON number array
// in extras; a .glb written before (the array in extras.urho3d.model) still exports byte for byte.
import { KEPT_BYTES, KeptBytesExtension, getKeptBytes, removeKeptBytes } from '@gltf-legacy/core';
import { corpusFiles, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import {
  BONE_MAPPING_JSON_MAX,
  legacyFormat,
  MSFTLod,
  modelExtrasOf,
  readMdl,
  writeMdl,
} from '../src/index.js';

const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, MSFTLod, KeptBytesExtension]);
const plainIO = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, MSFTLod]);
const jackPath = corpusFiles('urho', ['.mdl']).find((f) => f.endsWith('/Jack.mdl'))!;

function glbJson(glb: Uint8Array): any {
  const len = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + len)));
}

describe('bone mappings as kept bytes', () => {
  const bytes = readBytes(jackPath);
  const mappings = readMdl(bytes).geometries.map((g) => g.boneMapping);
  const long = mappings.map((m, g) => [g, m] as const).filter(([, m]) => m.length > BONE_MAPPING_JSON_MAX);

  it('Jack.mdl: long mappings are bytes on the top node, short ones stay JSON; byte-exact back', async () => {
    expect(long.length).toBeGreaterThan(0);
    const { document } = await legacyFormat.import(new Map([['Jack.mdl', bytes]]), { main: 'Jack.mdl' });
    const glb = await io.writeBinary(document);
    const json = glbJson(glb);
    const top = json.nodes.find((n: any) => n.extras?.urho3d?.model);
    json.nodes.forEach((n: any) => {
      for (const g of n.extras?.urho3d?.model?.geometries ?? [])
        expect(g.boneMapping?.length ?? 0).toBeLessThanOrEqual(BONE_MAPPING_JSON_MAX);
    });
    expect(Object.keys(top.extensions[KEPT_BYTES].entries)).toEqual(
      expect.arrayContaining(long.map(([g]) => `boneMapping:${g}`)),
    );
    const back = await io.readBinary(glb);
    const hint = modelExtrasOf(back)!;
    hint.extras.geometries.forEach((g, i) => {
      expect(g.boneMapping).toEqual(Array.from(mappings[i]));
    });
    const { files } = await legacyFormat.export(back, { name: 'Jack' });
    expect(firstByteDiff(files.get('Jack.mdl')!, bytes)).toBe(-1);
  });

  it('a .glb written the old way (every mapping a JSON array, no extension) still exports byte for byte', async () => {
    const { document } = await legacyFormat.import(new Map([['Jack.mdl', bytes]]), { main: 'Jack.mdl' });
    const { top } = modelExtrasOf(document)!;
    const model = (top.getExtras() as any).urho3d.model;
    model.geometries.forEach((g: any, i: number) => {
      g.boneMapping = Array.from(mappings[i]);
      removeKeptBytes(top, `boneMapping:${i}`);
    });
    expect(long.some(([g]) => getKeptBytes(top, `boneMapping:${g}`))).toBe(false);
    const glb = await plainIO.writeBinary(document);
    expect(JSON.stringify(glbJson(glb))).not.toContain(KEPT_BYTES);
    const { files } = await legacyFormat.export(await io.readBinary(glb), { name: 'Jack' });
    expect(firstByteDiff(files.get('Jack.mdl')!, bytes)).toBe(-1);
  });

  it('geometry centres of more than 5 geometries: bytes (bit patterns, a NaN payload and -0 kept), byte-exact back', async () => {
    const axes = corpusFiles('urho', ['.mdl']).find((f) => f.endsWith('/Axes.mdl'))!;
    const model = readMdl(readBytes(axes), 'Axes.mdl');
    model.geometries = [...model.geometries, ...model.geometries];
    const centers = new Float32Array(model.geometries.length * 3).map((_, i) => i / 3);
    centers[1] = -0;
    new Uint32Array(centers.buffer)[2] = 0x7fc01234; // a NaN with a payload
    model.geometryCenters = centers;
    const bytes6 = writeMdl(model);
    const { document } = await legacyFormat.import(new Map([['Axes6.mdl', bytes6]]), { main: 'Axes6.mdl' });
    const glb = await io.writeBinary(document);
    const json = glbJson(glb);
    const top = json.nodes.find((n: any) => n.extras?.urho3d?.model);
    expect(top.extras.urho3d.model.geometryCenters).toBeUndefined();
    expect(top.extensions[KEPT_BYTES].entries.geometryCenters).toBeDefined();
    const back = await io.readBinary(glb);
    expect(modelExtrasOf(back)!.extras.geometryCenters.slice(0, 3)).toEqual([0, '-0', 'NaN:7fc01234']);
    const { files } = await legacyFormat.export(back, { name: 'Axes6' });
    expect(firstByteDiff(files.get('Axes6.mdl')!, bytes6)).toBe(-1);
  });
});
