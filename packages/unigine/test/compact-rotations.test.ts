/**
 * Issue 19: bone rotations imported as glTF normalized SHORT (the file's int16 codes) with
 * `compact: true` (issue 30); the default (portable) is float32, as `float: true` was, and
 * `float: true` gives the same bytes. A client decoding the SHORT values (`max(c / 32767, −1)`)
 * gets exactly the float32 values of the float path; both export back byte for byte; the shared stage leaves our
 * imports alone; foreign SHORT/BYTE rotation outputs export like their float equivalents.
 */
import { accessorFloats } from '@gltf-legacy/core';
import { prepare } from '@gltf-legacy/prepare';
import {
  corpusFiles,
  firstByteDiff,
  loadWithThree,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { Accessor, type Animation, Document, NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { legacyFormat } from '../src/index.js';
import { exactSnorm16 } from '../src/import/rotations.js';
import { fileSet } from './helpers.js';

const io = new NodeIO();
const actor = corpusFiles('unigine', ['actor_00.mesh'])[0];

async function importBoth(files: Map<string, Uint8Array>, main: string) {
  const compact = (await legacyFormat.import(files, { main, compact: true })).document;
  const float = (await legacyFormat.import(files, { main })).document;
  // `float: true` is the portable mode's old name: the same document as the default
  const old = (await legacyFormat.import(files, { main, float: true })).document;
  expect(Buffer.from(await io.writeBinary(old)).equals(Buffer.from(await io.writeBinary(float)))).toBe(true);
  return { compact, float };
}

/** What a glTF client reads from an output accessor: normalized SHORT as max(c / 32767, −1) in float32. */
function clientValues(a: Accessor): Float32Array {
  const arr = a.getArray()!;
  if (arr instanceof Float32Array) return arr;
  expect(a.getComponentType()).toBe(Accessor.ComponentType.SHORT);
  expect(a.getNormalized()).toBe(true);
  return Float32Array.from(arr, (c) => Math.max(c / 32767, -1));
}

function channels(anim: Animation) {
  return anim.listChannels().map((c) => ({
    node: c.getTargetNode()?.getName(),
    path: c.getTargetPath(),
    times: c.getSampler()!.getInput()!,
    out: c.getSampler()!.getOutput()!,
  }));
}

describe('rotation outputs as normalized SHORT', () => {
  it('exactSnorm16 takes only exact codes', () => {
    expect(Array.from(exactSnorm16(Float32Array.of(0, -0, 1, -1, Math.fround(-123 / 32767)))!)).toEqual([
      0, 0, 32767, -32767, -123,
    ]);
    expect(exactSnorm16(Float32Array.of(0.5))).toBeNull();
    expect(exactSnorm16(Float32Array.of(Math.fround(-32768 / 32767)))).toBeNull(); // glTF clamps it to −1
    expect(exactSnorm16(Float32Array.of(Number.NaN))).toBeNull();
    expect(exactSnorm16(Float32Array.of(1.0001))).toBeNull();
    // Every code: back to itself, and core's decoder (the exporter's) gives the same float32.
    const all = Int16Array.from({ length: 65535 }, (_, i) => i - 32767);
    const values = Float32Array.from(all, (c) => c / 32767);
    expect(exactSnorm16(values)).toEqual(all);
    const decoded = accessorFloats(new Document().createAccessor().setArray(all).setNormalized(true));
    expect(decoded).toEqual(values);
  });

  it('actor_00 + 6 clips: every rotation SHORT, decoded equal to the float path, same keys', async () => {
    const { compact, float } = await importBoth(fileSet(actor), 'actor_00.mesh');
    const ca = compact.getRoot().listAnimations();
    const fa = float.getRoot().listAnimations();
    expect(ca.map((a) => a.getName())).toEqual(fa.map((a) => a.getName()));
    let rotations = 0;
    for (let i = 0; i < ca.length; i++) {
      const c = channels(ca[i]);
      const f = channels(fa[i]);
      expect(c.map((x) => `${x.node}/${x.path}`)).toEqual(f.map((x) => `${x.node}/${x.path}`));
      for (let k = 0; k < c.length; k++) {
        expect(Array.from(c[k].times.getArray()!)).toEqual(Array.from(f[k].times.getArray()!));
        expect(f[k].out.getComponentType()).toBe(Accessor.ComponentType.FLOAT);
        if (c[k].path !== 'rotation') {
          expect(c[k].out.getComponentType()).toBe(Accessor.ComponentType.FLOAT);
          continue;
        }
        rotations++;
        expect(c[k].out.getComponentType()).toBe(Accessor.ComponentType.SHORT);
        const got = clientValues(c[k].out);
        const want = f[k].out.getArray() as Float32Array;
        expect(got.length).toBe(want.length);
        for (let j = 0; j < got.length; j++) if (got[j] !== want[j]) expect(got[j]).toBe(want[j]);
      }
    }
    expect(rotations).toBe(330);
  });

  it('is smaller, validates with the float path’s report, and both export byte for byte', async () => {
    const files = fileSet(actor);
    const { compact, float } = await importBoth(files, 'actor_00.mesh');
    const cg = await io.writeBinary(compact);
    const fg = await io.writeBinary(float);
    expect(cg.length).toBeLessThan(fg.length - 35_000); // 702 644 → 663 624 bytes
    const cr = await validateGlb(cg);
    const fr = await validateGlb(fg);
    expect(cr.issues.numErrors, validatorErrors(cr)).toBe(0);
    expect(cr.issues.numWarnings).toBe(fr.issues.numWarnings);
    for (const glb of [cg, fg]) {
      const back = await io.readBinary(glb);
      const out = await legacyFormat.export!(back, { name: 'actor_00' });
      expect(out.warnings).toEqual([]);
      for (const [n, bytes] of files) expect(firstByteDiff(bytes, out.files.get(n)!), n).toBe(-1);
    }
  });

  it('three.js plays the SHORT rotations with the float path’s values', async () => {
    const path = corpusFiles('unigine', ['actor_00_run_fwd.anim'])[0];
    const { compact, float } = await importBoth(fileSet(path), 'actor_00_run_fwd.anim');
    type Track = { name: string; times: Float32Array; values: Float32Array };
    const tracksOf = async (doc: Document) =>
      ((await loadWithThree(await io.writeBinary(doc))).animations[0].tracks as Track[]).filter((t) =>
        t.name.endsWith('.quaternion'),
      );
    const got = await tracksOf(compact);
    const want = await tracksOf(float);
    expect(got.length).toBe(53);
    expect(got.map((t) => t.name)).toEqual(want.map((t) => t.name));
    for (let i = 0; i < got.length; i++) {
      expect(Array.from(got[i].times)).toEqual(Array.from(want[i].times));
      // Equal numbers; the float path has −0 where the axis change negates a code 0 (SHORT has one zero).
      const g = got[i].values;
      const w = want[i].values;
      expect(g.length).toBe(w.length);
      for (let j = 0; j < g.length; j++) if (g[j] !== w[j]) expect(g[j]).toBe(w[j]);
    }
  });

  it('a lone .anim: SHORT rotations; the shared stage leaves the import alone', async () => {
    const path = corpusFiles('unigine', ['actor_00_idle.anim'])[0];
    const files = fileSet(path);
    const { compact } = await importBoth(files, 'actor_00_idle.anim');
    const back = await io.readBinary(await io.writeBinary(compact));
    const limits = legacyFormat.exportLimits!(back, {});
    const prepared = await prepare(back, limits);
    expect(prepared.changed).toBe(false);
    expect(prepared.document).toBe(back);
    const rot = back
      .getRoot()
      .listAnimations()[0]
      .listChannels()
      .filter((c) => c.getTargetPath() === 'rotation');
    expect(rot.length).toBe(53);
    for (const c of rot) expect(c.getSampler()!.getOutput()!.getArray()).toBeInstanceOf(Int16Array);
  });
});

/** A one-bone skinned triangle whose bone turns about Y over `times`; rotations `values` as `out`. */
function turningBone(times: number[], out: (doc: Document) => Accessor): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const acc = (type: 'SCALAR' | 'VEC3' | 'VEC4', a: Float32Array | Uint16Array) =>
    doc.createAccessor().setType(type).setArray(a).setBuffer(buffer);
  const bone = doc.createNode('bone');
  const skin = doc.createSkin('s').addJoint(bone);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', acc('VEC3', new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])))
    .setAttribute('JOINTS_0', acc('VEC4', new Uint16Array(12)))
    .setAttribute('WEIGHTS_0', acc('VEC4', new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])));
  const mesh = doc.createNode('m').setMesh(doc.createMesh('m').addPrimitive(prim)).setSkin(skin);
  doc.createScene('sc').addChild(bone).addChild(mesh);
  const output = out(doc).setBuffer(buffer);
  const sampler = doc
    .createAnimationSampler()
    .setInput(acc('SCALAR', Float32Array.from(times)))
    .setOutput(output);
  doc
    .createAnimation('turn')
    .addSampler(sampler)
    .addChannel(
      doc.createAnimationChannel().setTargetNode(bone).setTargetPath('rotation').setSampler(sampler),
    );
  return doc;
}

describe('foreign normalized rotation outputs', () => {
  // Quarter turns about Y, as codes of each type (all exact in both: 0, ±max, and a 45° step that
  // is not: the float document holds what the integer one decodes to).
  const H = Math.SQRT1_2;
  const quats = [0, 0, 0, 1, 0, H, 0, H, 0, 1, 0, 0, 0, -H, 0, H];
  const shorts = Int16Array.from(quats, (v) => Math.round(v * 32767));
  const bytes = Int8Array.from(quats, (v) => Math.round(v * 127));
  const vec4 = (doc: Document, a: Float32Array | Int16Array | Int8Array, normalized: boolean) =>
    doc.createAccessor().setType('VEC4').setArray(a).setNormalized(normalized);

  it.each([
    ['on 30 fps frames (no resampling)', [0, 1 / 30, 2 / 30, 3 / 30]],
    ['between frames (the stage samples them)', [0, 0.05, 0.11, 0.2]],
  ])('SHORT and BYTE export like their decoded float32 values, %s', async (_, times) => {
    const cases: [string, Int16Array | Int8Array, number][] = [
      ['SHORT', shorts, 32767],
      ['BYTE', bytes, 127],
    ];
    for (const [type, codes, max] of cases) {
      const asInt = turningBone(times, (d) => vec4(d, codes, true));
      const asFloat = turningBone(times, (d) =>
        vec4(
          d,
          Float32Array.from(codes, (c) => Math.max(c / max, -1)),
          false,
        ),
      );
      // Through a .glb, as a user's file would come: glTF-Transform gives the raw integers.
      const readBack = await io.readBinary(await io.writeBinary(asInt));
      const outAcc = readBack.getRoot().listAnimations()[0].listSamplers()[0].getOutput()!;
      expect(outAcc.getNormalized()).toBe(true);
      // getArray gives the raw integers (core's accessorFloats decodes them); glTF-Transform 4's
      // getElement decodes them itself.
      expect(outAcc.getArray()![5]).toBe(codes[5]);
      expect(outAcc.getElement(1, [])[1]).toBeCloseTo(codes[5] / max, 6);
      const a = await legacyFormat.export!(readBack, { name: 'm' });
      const b = await legacyFormat.export!(asFloat, { name: 'm' });
      expect([...a.files.keys()].sort(), type).toEqual([...b.files.keys()].sort());
      for (const [n, f] of b.files) expect(firstByteDiff(f, a.files.get(n)!), `${type} ${n}`).toBe(-1);
      // and the clip turns the bone: the last key decodes to −45° about Y (not to raw codes)
      const { document } = await legacyFormat.import(a.files, { main: 'm.mesh' });
      const rot = document
        .getRoot()
        .listAnimations()[0]
        .listChannels()
        .find((c) => c.getTargetPath() === 'rotation')!;
      const v = accessorFloats(rot.getSampler()!.getOutput()!);
      const last = Array.from(v.subarray(v.length - 4));
      expect(last[1]).toBeCloseTo(-Math.SQRT1_2, 2);
      expect(last[3]).toBeCloseTo(Math.SQRT1_2, 2);
    }
  });
});
