/**
 * Issue 29: TSO's kept byte runs (trailing pads of every file kind, raw blend records, raw real
 * positions, raw animation pool entries) travel as bytes in the `.glb` (`GLTF_LEGACY_kept_bytes`),
 * never as JSON number arrays in extras; `.glb` files written before (number arrays in
 * `extras.tso` / `tsoBinding` / `tsoAppearance`) still export byte for byte.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  KEPT_BYTES,
  KeptBytesExtension,
  getKeptBytes,
  listKeptBytes,
  removeKeptBytes,
} from '@gltf-legacy/core';
import { TEST_ASSETS, corpusFiles, firstByteDiff, folderResources, readBytes } from '@gltf-legacy/test-utils';
import { type Document, type ExtensibleProperty, NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { legacyFormat, writeAnimation, writeMesh, writeSkeleton } from '../src/index.js';
import { syntheticAdultSkeleton, twoBoneAnimation, twoBoneMesh } from './fixtures.js';

const DIR = join(TEST_ASSETS, 'tso');
const file = (name: string) => new Uint8Array(readFileSync(join(DIR, name)));
const io = new NodeIO().registerExtensions([KeptBytesExtension]);
/** What a client that does not know the extension (or our writer before it) reads and writes. */
const plainIO = new NodeIO();

/** The JSON chunk of a .glb. */
function glbJson(glb: Uint8Array): Record<string, unknown> {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + view.getUint32(12, true))));
}

/** Every array of numbers (nested or not) under an `extras` key, with its JSON path. */
function numberArraysInExtras(json: unknown, path = '', inExtras = false, out: string[] = []): string[] {
  if (Array.isArray(json)) {
    if (inExtras && json.length > 0 && json.every((v) => typeof v === 'number'))
      out.push(`${path} (${json.length})`);
    json.forEach((v, i) => {
      numberArraysInExtras(v, `${path}[${i}]`, inExtras, out);
    });
  } else if (json && typeof json === 'object')
    for (const [k, v] of Object.entries(json))
      numberArraysInExtras(v, `${path}.${k}`, inExtras || k === 'extras', out);
  return out;
}

/** Bytes as a little-endian u32 list. */
const words = (b: Uint8Array) =>
  Array.from({ length: b.length / 4 }, (_, i) => new DataView(b.buffer, b.byteOffset).getUint32(i * 4, true));

/**
 * Rewrites `doc` the way files were written before kept bytes: every TSO kept run goes back
 * into the extras as a JSON number array (float32 bit patterns as u32 numbers) and the
 * extension is removed, so the .glb is what the old writer made.
 */
function toLegacyShape(doc: Document): void {
  const root = doc.getRoot();
  const take = (holder: ExtensibleProperty, key: string) => {
    const b = getKeptBytes(holder, key);
    removeKeptBytes(holder, key);
    return b;
  };
  const groups = (w: number[], size: number) =>
    Array.from({ length: w.length / size }, (_, i) => w.slice(i * size, i * size + size));
  for (const mesh of root.listMeshes()) {
    const x = mesh.getExtras().tso as Record<string, any>;
    x.trailing = Array.from(take(mesh, 'trailing') ?? []);
    const raw = take(mesh, 'rawPositions');
    if (raw) x.rawPositions = words(raw);
    const blend = take(mesh, 'blend');
    if (!x.blend.attributes) {
      const w = blend ? words(blend) : [];
      const c = x.blend.count as number;
      x.blend = { data: w.slice(0, 2 * c), vertices: w.slice(2 * c, 8 * c), realPositions: w.slice(8 * c) };
    }
  }
  for (const skin of root.listSkins()) {
    const x = skin.getExtras().tso as Record<string, any>;
    if (x?.skeleton) x.skeleton.trailing = Array.from(take(skin, 'trailing') ?? []);
  }
  for (const a of root.listAnimations()) {
    const x = a.getExtras().tso as Record<string, any>;
    x.trailing = Array.from(take(a, 'trailing') ?? []);
    x.rawT = groups(words(take(a, 'rawTranslations') ?? new Uint8Array(0)), 4);
    x.rawR = groups(words(take(a, 'rawRotations') ?? new Uint8Array(0)), 5);
  }
  for (const n of root.listNodes()) {
    const b = take(n, 'bndTrailing');
    const x = n.getExtras() as Record<string, any>;
    if (x.tsoBinding) x.tsoBinding.trailing = Array.from(b ?? []);
  }
  for (const s of root.listScenes()) {
    const b = take(s, 'aprTrailing');
    const x = s.getExtras() as Record<string, any>;
    if (x.tsoAppearance) x.tsoAppearance.trailing = Array.from(b ?? []);
  }
  for (const p of [
    root,
    ...root.listNodes(),
    ...root.listMeshes(),
    ...root.listSkins(),
    ...root.listAnimations(),
    ...root.listScenes(),
  ])
    expect(listKeptBytes(p), p.getName()).toEqual([]);
}

/** The padded twobone set: mesh (3 bytes), skeleton (2) and animation (4) pads. */
function paddedSet(): Map<string, Uint8Array> {
  return new Map([
    ['twobone-pad.mesh', file('quirks/twobone-pad.mesh')],
    ['twobone-pad.skel', file('quirks/twobone-pad.skel')],
    ['twobone-wave-pad.anim', file('quirks/twobone-wave-pad.anim')],
  ]);
}

/**
 * A mesh whose blend records share a vertex (no attribute can carry them) and raw positions,
 * and an animation with a motion for a bone no file has (raw pool entries), a non-unit rotation
 * and a pad.
 */
function rawSet(): Map<string, Uint8Array> {
  const m = twoBoneMesh();
  m.bindings[0].firstBlendVertex = 1;
  m.bindings[0].blendVertexCount = 1;
  m.blendData = new Uint32Array([0x4000, 1, 0x1000, 1]);
  m.blendVertices = new Float32Array([1, 0, 1, 0, 0, 1, 0.5, -0, 1, 0, 1, 0]);
  m.trailing = new Uint8Array([9, 8, 7]);
  const a = twoBoneAnimation();
  a.translations = new Float32Array([...a.translations, 5, -0, 6, 7, 8, 9, 1e-30, 2, 3]);
  a.rotations[3] = 2; // not a unit quaternion: normalized, raw bits kept
  a.motions.push({ ...a.motions[0], boneName: 'GHOST', firstTranslation: 3 });
  a.trailing = new Uint8Array([0xcd, 0xcd]);
  return new Map([
    ['raw.mesh', writeMesh(m)],
    ['raw.anim', writeAnimation(a)],
  ]);
}

/** A corpus mesh on a rotated skeleton that keeps a sparse list of raw positions (12 of 124 vertices). */
function hoodSet(): Map<string, Uint8Array> {
  const hood = corpusFiles('tso', ['.mesh']).find((f) => f.includes('FSONPC-Grim-Hood'))!;
  return new Map([
    ['hood.mesh', readBytes(hood)],
    ['adult.skel', writeSkeleton(syntheticAdultSkeleton())],
  ]);
}

async function roundTrip(files: Map<string, Uint8Array>, main: string, legacy: boolean, name: string) {
  const { document } = await legacyFormat.import(files, { main });
  if (legacy) toLegacyShape(document);
  const glb = await (legacy ? plainIO : io).writeBinary(document);
  const back = await io.readBinary(glb);
  const out = await legacyFormat.export(back, { name });
  return { json: glbJson(glb), files: out.files, warnings: out.warnings };
}

describe('TSO kept bytes (GLTF_LEGACY_kept_bytes)', () => {
  it('padded .mesh/.skel/.anim: the pads are bytes in the .glb, no number array in any extras, byte-exact back', async () => {
    const { document } = await legacyFormat.import(paddedSet(), { main: 'twobone-pad.mesh' });
    const root = document.getRoot();
    expect(getKeptBytes(root.listMeshes()[0], 'trailing')).toEqual(new Uint8Array(3));
    expect(getKeptBytes(root.listSkins()[0], 'trailing')).toEqual(new Uint8Array([205, 205]));
    expect(getKeptBytes(root.listAnimations()[0], 'trailing')!.length).toBe(4);
    const { json, files } = await roundTrip(paddedSet(), 'twobone-pad.mesh', false, 'twobone');
    expect(json.extensionsUsed).toContain(KEPT_BYTES);
    expect(json.extensionsRequired ?? []).not.toContain(KEPT_BYTES);
    expect(
      numberArraysInExtras(json).filter((p) => !/\.bindings\[\d+\]|\.raw(Translation|Rotation) /.test(p)),
    ).toEqual([]);
    expect(JSON.stringify(json)).not.toMatch(/"trailing":\[|"rawT"|"rawR"|"rawPositions":\[/);
    for (const [name, bytes] of paddedSet()) {
      const out = name.endsWith('.anim') ? name : `twobone${name.slice(-5)}`;
      expect(firstByteDiff(files.get(out)!, bytes), name).toBe(-1);
    }
  });

  it('raw blend records, raw pool entries and a non-unit rotation: kept as bytes, byte-exact back', async () => {
    const { document } = await legacyFormat.import(rawSet(), { main: 'raw.mesh' });
    const mesh = document.getRoot().listMeshes()[0];
    const anim = document.getRoot().listAnimations()[0];
    expect(listKeptBytes(mesh).sort()).toEqual(['blend', 'trailing']);
    expect(listKeptBytes(anim).sort()).toEqual(['rawRotations', 'rawTranslations', 'trailing']);
    // the GHOST motion's 3 translations: [index, x, y, z bits] each, −0 kept
    const t = words(getKeptBytes(anim, 'rawTranslations')!);
    expect(t.filter((_, i) => i % 4 === 0)).toEqual([3, 4, 5]);
    expect(t[2]).toBe(0x80000000);
    const { json, files, warnings } = await roundTrip(rawSet(), 'raw.mesh', false, 'raw');
    expect(warnings.map((w) => w.code)).not.toContain('EXTRAS_STALE');
    expect(JSON.stringify(json)).not.toMatch(/"trailing":\[|"rawT"|"rawR"|"rawPositions":\[|"data":\[/);
    for (const [name, bytes] of rawSet()) expect(firstByteDiff(files.get(name)!, bytes), name).toBe(-1);
  });

  it('a .glb written the old way (number arrays in extras.tso, no extension) still exports byte for byte', async () => {
    for (const [set, main, name] of [
      [paddedSet(), 'twobone-pad.mesh', 'twobone'],
      [rawSet(), 'raw.mesh', 'raw'],
      [hoodSet(), 'hood.mesh', 'hood'],
    ] as const) {
      const { json, files, warnings } = await roundTrip(set, main, true, name);
      // it really is the old shape
      expect(JSON.stringify(json)).not.toContain(KEPT_BYTES);
      expect(JSON.stringify(json)).toMatch(name === 'hood' ? /"rawPositions":\[\d/ : /"trailing":\[\d/);
      expect(warnings.map((w) => w.code)).not.toContain('EXTRAS_STALE');
      for (const [input, bytes] of set) {
        if (name === 'hood' && input.endsWith('.skel')) continue; // made here, not a file under test
        const out = input.endsWith('.anim') || name !== 'twobone' ? input : `twobone${input.slice(-5)}`;
        expect(firstByteDiff(files.get(out)!, bytes), input).toBe(-1);
      }
    }
  });

  describe('the padded outfit (.apr, .bnd, .mesh)', () => {
    const OUTFIT = join(DIR, 'quirks', 'outfit-pad');
    const APR = 'Appearances/hand-cube.00c0be040000000c.apr';
    const importApr = () =>
      legacyFormat.import(new Map([['hand-cube.00c0be040000000c.apr', file(`quirks/outfit-pad/${APR}`)]]), {
        main: 'hand-cube.00c0be040000000c.apr',
        resources: folderResources(OUTFIT),
        resourcePath: APR,
      });

    for (const legacy of [false, true])
      it(`${legacy ? 'old extras shape' : 'kept bytes'}: outfit → glb → outfit gives the padded files back`, async () => {
        const { document } = await importApr();
        const scene = document.getRoot().listScenes()[0];
        const node = document
          .getRoot()
          .listNodes()
          .find((n) => n.getMesh())!;
        expect(getKeptBytes(scene, 'aprTrailing')!.length).toBe(2);
        expect(getKeptBytes(node, 'bndTrailing')!.length).toBe(1);
        expect(getKeptBytes(node.getMesh()!, 'trailing')!.length).toBe(5);
        if (legacy) toLegacyShape(document);
        const glb = await (legacy ? plainIO : io).writeBinary(document);
        const text = JSON.stringify(glbJson(glb));
        if (legacy) expect(text).toMatch(/"trailing":\[\d/);
        else expect(text).not.toContain('"trailing":[');
        const { files } = await legacyFormat.export(await io.readBinary(glb), { name: 'cube' });
        for (const [path, bytes] of files)
          expect(firstByteDiff(bytes, file(`quirks/outfit-pad/${path}`)), path).toBe(-1);
        expect(files.size).toBe(4);
      });
  });
});
