import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { corpusFiles, firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { KeptBytesExtension, getKeptBytes } from '@gltf-legacy/core';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import {
  BLEND_ATTRIBUTES,
  RAW_POSITION_ATTRIBUTE,
  legacyFormat,
  readMesh,
  writeMesh,
  writeSkeleton,
} from '../src/index.js';
import { syntheticAdultSkeleton, twoBoneMesh } from './fixtures.js';

const io = new NodeIO().registerExtensions([KeptBytesExtension]);

/** import → .glb on disk → NodeIO → export: the .mesh bytes and the imported primitive. */
async function throughGlb(name: string, bytes: Uint8Array) {
  const { document } = await legacyFormat.import(new Map([[name, bytes]]), { main: name });
  const file = join(mkdtempSync(join(tmpdir(), 'tso-blend-')), 'm.glb');
  writeFileSync(file, await io.writeBinary(document));
  const back = await io.readBinary(new Uint8Array(readFileSync(file)));
  const { files } = await legacyFormat.export(back, { name: 'm' });
  return { document, mesh: files.get('m.mesh')!, glbBytes: readFileSync(file).length };
}

describe('blend records as vertex attributes', () => {
  const withBlends = corpusFiles('tso', ['.mesh']).filter((f) => readMesh(readBytes(f)).blendData.length > 0);

  it.each(withBlends.map((f) => [basename(f), f]))(
    '%s keeps its blend records in _TSO_BLEND* attributes, not in JSON extras',
    async (name, f) => {
      const bytes = readBytes(f);
      const raw = readMesh(bytes);
      const { document, mesh, glbBytes } = await throughGlb(name, bytes);
      expect(firstByteDiff(mesh, bytes)).toBe(-1);
      const gltfMesh = document.getRoot().listMeshes()[0];
      const blend = (gltfMesh.getExtras().tso as { blend: Record<string, unknown> }).blend;
      const count = raw.blendData.length / 2;
      expect(blend).toEqual({ attributes: true, count });
      const prim = gltfMesh.listPrimitives()[0];
      const record = prim.getAttribute(BLEND_ATTRIBUTES.record)!;
      const position = prim.getAttribute(BLEND_ATTRIBUTES.position)!;
      // Record j sits on its target vertex: (j + 1, raw weight) and the raw blend position.
      for (const j of [0, count >> 1, count - 1]) {
        const t = raw.blendData[j * 2 + 1];
        expect(record.getElement(t, [])).toEqual([j + 1, raw.blendData[j * 2]]);
        expect(position.getElement(t, [])).toEqual(Array.from(raw.blendVertices.subarray(j * 6, j * 6 + 3)));
      }
      // The .glb holds binary floats, no JSON arrays: smaller than the legacy file's vertex data × 3.
      expect(glbBytes).toBeLessThan(bytes.length * 3);
    },
  );

  it('two blend records on one real vertex are kept as bytes (no JSON arrays) and still round-trip exactly', async () => {
    const m = twoBoneMesh();
    // A second blend record (bone ROOT's binding) pulling on vertex 1 too.
    m.bindings[0].firstBlendVertex = 1;
    m.bindings[0].blendVertexCount = 1;
    m.blendData = new Uint32Array([0x4000, 1, 0x1000, 1]);
    m.blendVertices = new Float32Array([1, 0, 1, 0, 0, 1, 0.5, -0, 1, 0, 1, 0]);
    const bytes = writeMesh(m);
    const { document, mesh } = await throughGlb('two.mesh', bytes);
    const blend = (document.getRoot().listMeshes()[0].getExtras().tso as { blend: Record<string, unknown> })
      .blend;
    expect(blend).toEqual({ count: 2 });
    // GLTF_LEGACY_kept_bytes `blend`: u32 words, data ‖ vertices ‖ real positions (11 per record)
    const kept = getKeptBytes(document.getRoot().listMeshes()[0], 'blend')!;
    expect(kept.byteLength).toBe(2 * 11 * 4);
    expect(Array.from(new Uint32Array(kept.slice(0, 16).buffer))).toEqual([0x4000, 1, 0x1000, 1]);
    const prim = document.getRoot().listMeshes()[0].listPrimitives()[0];
    expect(prim.getAttribute(BLEND_ATTRIBUTES.record)).toBeNull();
    expect(firstByteDiff(mesh, bytes)).toBe(-1);
  });

  it('attributes that no longer describe the records make export write from the glTF data', async () => {
    const bytes = readBytes(withBlends[0]);
    const name = basename(withBlends[0]);
    const { document } = await legacyFormat.import(new Map([[name, bytes]]), { main: name });
    const record = document
      .getRoot()
      .listMeshes()[0]
      .listPrimitives()[0]
      .getAttribute(BLEND_ATTRIBUTES.record)!;
    // Two vertices now claim record 1.
    const first = record.getArray()!.findIndex((v, i) => i % 2 === 0 && v === 1) / 2;
    const other = first === 0 ? 1 : 0;
    record.setElement(other, [1, 0x100]);
    const { warnings } = await legacyFormat.export(document, { name: 'm' });
    expect(warnings.map((w) => w.code)).toContain('EXTRAS_STALE');
  });
});

describe('raw positions as a vertex attribute', () => {
  it('is used for the corpus meshes on a rotated skeleton where most vertices need theirs', async () => {
    const modes: string[] = [];
    for (const f of corpusFiles('tso', ['.mesh'])) {
      const files = new Map([
        [basename(f), readBytes(f)],
        ['adult.skel', writeSkeleton(syntheticAdultSkeleton())],
      ]);
      const { document } = await legacyFormat.import(files, { main: basename(f) });
      const x = document.getRoot().listMeshes()[0].getExtras().tso as { rawPositionAttribute?: boolean };
      modes.push(x.rawPositionAttribute ? 'attribute' : 'json');
    }
    // 13 of 14 (FSONPC-Grim-Hood needs 12 of 124 vertices: a sparse list, kept as bytes).
    expect(modes.filter((m) => m === 'attribute').length).toBe(13);
  });

  it.each(corpusFiles('tso', ['.mesh']).map((f) => [basename(f), f]))(
    '%s bound to a rotated skeleton: export through a .glb on disk gives the .mesh back byte for byte',
    async (name, f) => {
      const bytes = readBytes(f);
      const files = new Map([
        [name, bytes],
        ['adult.skel', writeSkeleton(syntheticAdultSkeleton())],
      ]);
      const { document } = await legacyFormat.import(files, { main: name });
      const gltfMesh = document.getRoot().listMeshes()[0];
      const x = gltfMesh.getExtras().tso as { rawPositionAttribute?: boolean; rawPositions?: number[] };
      const prim = gltfMesh.listPrimitives()[0];
      // Most vertices lose a bit through the rotated bones: one attribute instead of a JSON list.
      expect(x.rawPositions).toBeUndefined(); // never a JSON list: an attribute or kept bytes
      if (x.rawPositionAttribute) {
        expect(prim.getAttribute(RAW_POSITION_ATTRIBUTE)!.getCount()).toBe(readMesh(bytes).uvs.length / 2);
        expect(getKeptBytes(gltfMesh, 'rawPositions')).toBeUndefined();
      } else {
        expect(prim.getAttribute(RAW_POSITION_ATTRIBUTE)).toBeNull();
        expect(getKeptBytes(gltfMesh, 'rawPositions')!.byteLength % 16).toBe(0);
      }
      const file = join(mkdtempSync(join(tmpdir(), 'tso-raw-')), 'm.glb');
      writeFileSync(file, await io.writeBinary(document));
      const back = await io.readBinary(new Uint8Array(readFileSync(file)));
      const out = await legacyFormat.export(back, { name: 'm' });
      expect(firstByteDiff(out.files.get('m.mesh')!, bytes)).toBe(-1);
    },
  );
});
