import { FormatError, KeptBytesExtension } from '@gltf-legacy/core';
import { decodeUnrealPackedArray, encodeUnrealPacked, encodeUnrealPackedArray } from '@gltf-legacy/quantize';
import { firstByteDiff } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anivFrame, readAniv, type UnrealAniv, writeAniv } from '../src/aniv.js';
import { createDataHeader, createPolys, readData, type UnrealData, writeData } from '../src/data.js';
import { exportUnreal } from '../src/export.js';
import { importUnrealFiles, legacyFormat, UNREAL_UNIT_METRES } from '../src/index.js';
import { parseUc, ucMesh, ucMeshForFile, ucMeshNames, writeUc } from '../src/uc.js';

describe('11/11/10 packing edges', () => {
  it('round-trips −1024, 1023 (X/Y) and −512, 511 (Z) through an aniv file', () => {
    const xyz = [-1024, 1023, -512, 1023, -1024, 511, 0, -1, -1, -512 * 2, 0, 511];
    const { packed, clamped } = encodeUnrealPackedArray(xyz);
    expect(clamped).toBe(0);
    expect(packed[0]).toBe((0x400 | (0x3ff << 11) | (0x200 << 22)) >>> 0);
    const aniv: UnrealAniv = {
      numFrames: 1,
      frameSize: 16,
      layout: 'packed',
      numVertices: 4,
      frameCount: 1,
      packed,
      frameExtra: new Uint8Array(0),
      trailing: new Uint8Array(0),
    };
    const back = readAniv(writeAniv(aniv), 'e_a.3d', { numVertices: 4 });
    expect(Array.from(anivFrame(back, 0))).toEqual(xyz);
  });
  it('clamps and counts values just outside the fields', () => {
    const { packed, clamped } = encodeUnrealPackedArray([1024, -1025, 512]);
    expect(clamped).toBe(1);
    expect(Array.from(decodeUnrealPackedArray(packed))).toEqual([1023, -1024, 511]);
    expect(encodeUnrealPacked(-0.4, 0.4, -0.6) >>> 0).toBe((0x3ff << 22) >>> 0);
  });
});

describe('.uc parsing', () => {
  const text = [
    '// #exec MESH IMPORT MESH=Ghost ANIVFILE=x_a.3d DATAFILE=x_d.3d',
    '/* #exec MESH SEQUENCE MESH=Two SEQ=Hidden STARTFRAME=0 NUMFRAMES=2',
    '   still a comment */',
    '#EXEC mesh import MESH=One anivfile="Models\\One_a.3d" DataFile=Models\\One_d.3d X=0 Y=0 Z=0 unmirror=1',
    '  #exec   Mesh   Sequence  mesh = One  seq=Walk startframe=2 NUMFRAMES=3 Rate=12.5  // trailing comment',
    '#exec MESH NOTIFY MESH=One SEQ=walk TIME=0.5 FUNCTION=Step',
    '#exec MESH ORIGIN MESH=One X=10 Y=-20 Z=3 YAW=64',
    '#exec MESH LODPARAMS MESH=One STRENGTH=0.5',
    '#exec mesh import mesh=Two anivfile=Models\\Other_a.3d datafile=Models\\Other_d.3d',
    '#exec MESHMAP SCALE MESHMAP=One X=0.1 Y=0.1 Z=0.2',
    '#exec MESHMAP SCALE MESHMAP=Two X=1 Y=1 Z=2',
    '#exec TEXTURE IMPORT NAME=Skin1 FILE=Textures\\one.pcx GROUP=Skins',
    '#exec TEXTURE IMPORT NAME=Skin1 FILE=Textures\\palette.pcx PALETTE=Skin1',
    '#exec MESHMAP SETTEXTURE MESHMAP=One NUM=1 TEXTURE=Skin1',
  ].join('\r\n');
  const uc = parseUc(text);
  it('skips // and /* */ comments, is case- and spacing-insensitive', () => {
    expect(uc.eol).toBe('\r\n');
    expect(ucMeshNames(uc)).toEqual(['One', 'Two']);
    expect(uc.directives.every((d) => !d.raw.startsWith('//'))).toBe(true);
    expect(uc.directives.some((d) => d.raw.includes('Hidden'))).toBe(false);
  });
  it('collects one mesh among several', () => {
    const one = ucMesh(uc, 'one');
    expect(one.anivFile).toBe('Models\\One_a.3d');
    expect(one.unmirror).toBe(true);
    expect(one.sequences).toEqual([
      { name: 'Walk', startFrame: 2, numFrames: 3, rate: 12.5, notifies: [{ time: 0.5, function: 'Step' }] },
    ]);
    expect(one.origin).toEqual({ x: 10, y: -20, z: 3, pitch: 0, yaw: 64, roll: 0 });
    expect(one.scale).toEqual([0.1, 0.1, 0.2]);
    expect(one.textures).toEqual([{ num: 1, name: 'Skin1', file: 'one.pcx' }]);
    expect(one.directives.map((d) => `${d.command} ${d.action}`)).toContain('MESH LODPARAMS');
    const two = ucMesh(uc, 'Two');
    expect(two.scale).toEqual([1, 1, 2]);
    expect(two.sequences).toEqual([]);
  });
  it('finds the mesh of a data file by DATAFILE, else by name', () => {
    expect(ucMeshForFile(uc, 'other_d.3d')).toBe('Two');
    expect(ucMeshForFile(uc, 'One_d.3d')).toBe('One');
    expect(ucMeshForFile(uc, 'Nobody_d.3d')).toBeUndefined();
  });
  it('writeUc output parses back to the same mesh', () => {
    const one = ucMesh(uc, 'One');
    const again = ucMesh(parseUc(writeUc(one)), 'One');
    expect(again.sequences).toEqual(one.sequences);
    expect(again.scale).toEqual(one.scale);
    expect(again.origin).toEqual(one.origin);
    expect(again.unmirror).toBe(true);
    expect(again.textures).toEqual(one.textures);
  });
});

/** A random valid mesh as a file model. */
const meshArb = fc
  .record({
    nv: fc.integer({ min: 3, max: 12 }),
    frames: fc.integer({ min: 1, max: 4 }),
    polys: fc.integer({ min: 1, max: 10 }),
    deusex: fc.boolean(),
    seed: fc.integer({ min: 1, max: 0x7fffffff }),
  })
  .map(({ nv, frames, polys, deusex, seed }) => {
    let s = seed;
    const rnd = (n: number) => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return (s >>> 8) % n;
    };
    const p = createPolys(polys);
    const types = [0, 1, 2, 3, 4, 0x11, 0x90, 8];
    for (let i = 0; i < polys; i++) {
      for (let c = 0; c < 3; c++) p.vertices[i * 3 + c] = rnd(nv);
      for (let k = 0; k < 6; k++) p.uvs[i * 6 + k] = rnd(256);
      p.types[i] = types[rnd(types.length)];
      p.colors[i] = rnd(3);
      p.textures[i] = rnd(3);
      p.flags[i] = rnd(2) ? 0 : 0x40;
    }
    if (p.types[0] === 8) p.types[0] = 0; // at least one rendered triangle (else NO_TRIANGLES)
    const data: UnrealData = { header: createDataHeader(polys, nv), polys: p, trailing: new Uint8Array(0) };
    const xyz = Array.from({ length: frames * nv * 3 }, (_, i) =>
      i % 3 === 2 ? rnd(1024) - 512 : rnd(2048) - 1024,
    );
    const aniv: UnrealAniv = {
      numFrames: frames,
      frameSize: nv * (deusex ? 8 : 4),
      layout: deusex ? 'deusex' : 'packed',
      numVertices: nv,
      frameCount: frames,
      frameExtra: new Uint8Array(0),
      trailing: new Uint8Array(0),
    };
    if (deusex) {
      aniv.words = new Int16Array(frames * nv * 4);
      for (let i = 0; i < frames * nv; i++)
        for (let c = 0; c < 3; c++) aniv.words[i * 4 + c] = xyz[i * 3 + c] * 8;
    } else aniv.packed = encodeUnrealPackedArray(xyz).packed;
    return { data, aniv };
  });

describe('property tests', () => {
  it('random file models write → read → write identically', () => {
    fc.assert(
      fc.property(meshArb, ({ data, aniv }) => {
        const d = writeData(data);
        const a = writeAniv(aniv);
        const d2 = readData(d);
        const a2 = readAniv(a, 'r_a.3d', { numVertices: d2.header.numVertices });
        expect(firstByteDiff(writeData(d2), d)).toBe(-1);
        expect(firstByteDiff(writeAniv(a2), a)).toBe(-1);
      }),
      { numRuns: 200 },
    );
  });
  it('random meshes (weapon triangles, unused vertices, Deus Ex) survive import → .glb → export byte-exact', async () => {
    const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, KeptBytesExtension]);
    await fc.assert(
      fc.asyncProperty(meshArb, async ({ data, aniv }) => {
        const files = new Map([
          ['r_d.3d', writeData(data)],
          ['r_a.3d', writeAniv(aniv)],
        ]);
        const { document } = await importUnrealFiles(files, { main: 'r_d.3d' });
        const back = await io.readBinary(await io.writeBinary(document));
        const out = await exportUnreal(back, { name: 'r' });
        expect(firstByteDiff(out.files.get('r_d.3d') as Uint8Array, files.get('r_d.3d') as Uint8Array)).toBe(
          -1,
        );
        expect(firstByteDiff(out.files.get('r_a.3d') as Uint8Array, files.get('r_a.3d') as Uint8Array)).toBe(
          -1,
        );
      }),
      { numRuns: 25 },
    );
  });
});

describe('weapon triangle', () => {
  it('becomes an animated WeaponTriangle node (v200 rule) and is written back', async () => {
    // Triangle 0: rendered; triangle 1: weapon (type 8) on vertices 3, 4, 5.
    const p = createPolys(2);
    p.vertices.set([0, 1, 2, 3, 4, 5]);
    p.types.set([0, 8]);
    const data: UnrealData = { header: createDataHeader(2, 6), polys: p, trailing: new Uint8Array(0) };
    // Frame 0: weapon corners c0=(0,0,0) c1=(10,5,0) c2=(20,0,0); frame 1 shifted by +100 X.
    const f0 = [0, 0, 0, 10, 0, 0, 0, 10, 0, 0, 0, 0, 10, 5, 0, 20, 0, 0];
    const f1 = f0.map((v, i) => (i >= 9 && i % 3 === 0 ? v + 100 : v));
    const aniv: UnrealAniv = {
      numFrames: 2,
      frameSize: 24,
      layout: 'packed',
      numVertices: 6,
      frameCount: 2,
      packed: encodeUnrealPackedArray([...f0, ...f1]).packed,
      frameExtra: new Uint8Array(0),
      trailing: new Uint8Array(0),
    };
    const files = new Map([
      ['w_d.3d', writeData(data)],
      ['w_a.3d', writeAniv(aniv)],
    ]);
    // The v200 frame rule in the plain Y/Z swap (axes: 'swap'); the default turn is tested in axes.test.ts.
    const { document } = await importUnrealFiles(files, { main: 'w_d.3d', axes: 'swap' });
    const weapon = document
      .getRoot()
      .listNodes()
      .find((n) => n.getName() === 'WeaponTriangle');
    expect(weapon).toBeDefined();
    // Origin = midpoint of corners 0 and 2 = (10, 0, 0) → glTF (10, 0, 0); X axis toward corner 1 = +Y (Unreal) → glTF +Z.
    // glTF is in metres (1 UU = UNREAL_UNIT_METRES): compared in Unreal units.
    expect(
      Array.from(weapon?.getTranslation() ?? []).map((v) => Number((v / UNREAL_UNIT_METRES).toFixed(4)) + 0),
    ).toEqual([10, 0, 0]);
    // X toward corner 1 (Unreal +Y → glTF +Z), Y = X × (c0 − c2) (Unreal +Z → glTF +Y), Z = Y × X:
    // a −90° turn about glTF Y.
    const q = weapon?.getRotation() ?? [0, 0, 0, 1];
    const s = Math.SQRT1_2;
    expect(Math.abs(q[0]) + Math.abs(q[2])).toBeLessThan(1e-6);
    expect(q[1] * Math.sign(q[3])).toBeCloseTo(-s, 6);
    expect(Math.abs(q[3])).toBeCloseTo(s, 6);
    const anim = document.getRoot().listAnimations()[0];
    const tr = anim
      .listChannels()
      .find((c) => c.getTargetNode() === weapon && c.getTargetPath() === 'translation');
    const out = tr?.getSampler()?.getOutput()?.getArray() as Float32Array;
    expect(
      Array.from(out.subarray(3, 6)).map((v) => Number((v / UNREAL_UNIT_METRES).toFixed(4)) + 0),
    ).toEqual([110, 0, 0]);
    expect(document.getRoot().listMeshes()[0].listPrimitives().length).toBe(1);
    const back = await exportUnreal(document, { name: 'w' });
    expect(firstByteDiff(back.files.get('w_d.3d') as Uint8Array, files.get('w_d.3d') as Uint8Array)).toBe(-1);
    expect(firstByteDiff(back.files.get('w_a.3d') as Uint8Array, files.get('w_a.3d') as Uint8Array)).toBe(-1);
  });
});

describe('legacyFormat', () => {
  it('an _a.3d alone is a NEEDS_DATA_FILE FormatError; with its _d.3d beside it, it converts', async () => {
    const p = createPolys(1);
    p.vertices.set([0, 1, 2]);
    const d = writeData({ header: createDataHeader(1, 3), polys: p, trailing: new Uint8Array(0) });
    const a = writeAniv({
      numFrames: 1,
      frameSize: 12,
      layout: 'packed',
      numVertices: 3,
      frameCount: 1,
      packed: encodeUnrealPackedArray([0, 0, 0, 1, 0, 0, 0, 1, 0]).packed,
      frameExtra: new Uint8Array(0),
      trailing: new Uint8Array(0),
    });
    expect(legacyFormat.sniff(a, 't_a.3d')).toBe(true);
    expect(legacyFormat.sniff(d, 't_d.3d')).toBe(true);
    expect(legacyFormat.sniff(new Uint8Array(100), 'x.bin')).toBe(false);
    const err = await legacyFormat.import(new Map([['t_a.3d', a]]), { main: 't_a.3d' }).catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect(err.code).toBe('NEEDS_DATA_FILE');
    expect(err.message).toMatch(/t_d\.3d/);
    expect(legacyFormat.companions?.('t_a.3d', ['t_d.3d', 't_a.3d', 'other.uc'])).toEqual([
      't_d.3d',
      'other.uc',
    ]);
    const ok = await legacyFormat.import(
      new Map([
        ['t_a.3d', a],
        ['t_d.3d', d],
      ]),
      { main: 't_a.3d' },
    );
    expect(ok.document.getRoot().listMeshes().length).toBe(1);
  });
  it('companions: NAME_a.3d and NAME.uc; any .uc when NAME.uc is absent', () => {
    expect(legacyFormat.companions?.('Key_d.3d', ['Key_d.3d', 'key_a.3d', 'Key.uc', 'Other.uc'])).toEqual([
      'key_a.3d',
      'Key.uc',
    ]);
    expect(
      legacyFormat.companions?.('MBeaconWeap_d.3d', ['MBeaconWeap_a.3d', 'MushBeacon.uc', 'readme.txt']),
    ).toEqual(['MBeaconWeap_a.3d', 'MushBeacon.uc']);
  });
  it('companionsIn (indexed lookups, issue 31) picks the same files as companions, for any folder', () => {
    // a naive CompanionLookup: the CLI's is an index; this checks the rule, not the index
    const lookupOf = (files: string[]) => ({
      named: (n: string) => files.filter((f) => f.toLowerCase() === n.toLowerCase()),
      withExtension: (e: string) => files.filter((f) => /\.[^.]*$/.exec(f)?.[0].toLowerCase() === e),
      withPrefix: (p: string) => files.filter((f) => f.toLowerCase().startsWith(p.toLowerCase())),
    });
    const names = fc.constantFrom('Key', 'key', 'Skull', 'MushBeacon', 'a');
    const endings = fc.constantFrom('_d.3d', '_a.3d', '_A.3D', '.uc', '.UC', '_d.3D', '.txt');
    const file = fc.tuple(names, endings).map(([n, e]) => n + e);
    fc.assert(
      fc.property(file, fc.uniqueArray(file, { maxLength: 12 }), (main, folder) => {
        // sorted, as the CLI lists a folder: the same files in the same order (the FileSet's)
        const siblings = folder.filter((f) => f !== main).sort();
        const scan = legacyFormat.companions!(main, siblings);
        const indexed = legacyFormat.companionsIn!(main, lookupOf(siblings));
        expect(indexed).toEqual(scan);
      }),
      { numRuns: 500 },
    );
  });
  it('option frames: first imports frame 0 only', async () => {
    const p = createPolys(1);
    p.vertices.set([0, 1, 2]);
    const d = writeData({ header: createDataHeader(1, 3), polys: p, trailing: new Uint8Array(0) });
    const a = writeAniv({
      numFrames: 2,
      frameSize: 12,
      layout: 'packed',
      numVertices: 3,
      frameCount: 2,
      packed: encodeUnrealPackedArray([0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 5, 5, 1, 0, 0, 0, 1, 0]).packed,
      frameExtra: new Uint8Array(0),
      trailing: new Uint8Array(0),
    });
    const files = new Map([
      ['t_d.3d', d],
      ['t_a.3d', a],
    ]);
    const all = await legacyFormat.import(files, { main: 't_d.3d' });
    expect(all.document.getRoot().listMeshes()[0].listPrimitives()[0].listTargets().length).toBe(1);
    const first = await legacyFormat.import(files, { main: 't_d.3d', frames: 'first' });
    expect(first.document.getRoot().listMeshes()[0].listPrimitives()[0].listTargets().length).toBe(0);
    expect(first.document.getRoot().listAnimations().length).toBe(0);
  });
});
