/**
 * Fuzz findings on long animation clips (glTF → legacy, generated documents):
 * - c8d0cdbbd453ab4b (MEMORY at reimport:writeBinary): import made one key per frame for every
 *   channel, so a 1000-second clip of a 285-bone skeleton became a 360 MB glTF; runs of equal
 *   frames are now two keys (the line between them is that value).
 * - ccafdbec6cebeb22 (TIMEOUT at reexport): export sampled every frame with a binary search and
 *   checked "keys on frames" with a fixed 1e-5 s tolerance, which float32 key times beyond ~256 s
 *   miss: our own clips were re-interpolated (slow, and the second export differed).
 * - b5d73d3eee623403 (TIMEOUT at export, 171 joints × long clips): export filled frame-major
 *   float64 arrays of every bone and frame before quantizing; it now works bone by bone, and
 *   blocks above MAX_BLOCK_ENTRIES are refused with ExportError ANIMATION_TOO_LONG.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ExportError, type SamplerData } from '@gltf-legacy/core';
import { Document, NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import { MAX_BLOCK_ENTRIES, exportUnigine, importUnigine, readAnim, sampleFrames } from '../src/index.js';

function firstDiff(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/**
 * A triangle skinned to a chain of `joints` bones; `times`/`values` animate bone 1's translation,
 * and with `stillTracks` every other bone gets a two-key track holding its rest translation.
 */
function skinnedDoc(joints: number, times: number[], values: number[], stillTracks = false): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const acc = (type: 'SCALAR' | 'VEC3' | 'VEC4' | 'MAT4', a: Float32Array | Uint16Array) =>
    doc.createAccessor().setType(type).setArray(a).setBuffer(buffer);
  const bones = Array.from({ length: joints }, (_, i) =>
    doc.createNode(`b${i}`).setTranslation([0, i ? 0.1 : 0, 0]),
  );
  for (let i = 1; i < joints; i++) bones[i - 1].addChild(bones[i]);
  const ibm = new Float32Array(joints * 16);
  for (let i = 0; i < joints; i++) {
    ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.1 * i, 0, 1], i * 16);
  }
  const skin = doc.createSkin('s').setInverseBindMatrices(acc('MAT4', ibm));
  for (const b of bones) skin.addJoint(b);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', acc('VEC3', new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])))
    .setAttribute('JOINTS_0', acc('VEC4', new Uint16Array([0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])))
    .setAttribute('WEIGHTS_0', acc('VEC4', new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])));
  const mesh = doc.createNode('m').setMesh(doc.createMesh('m').addPrimitive(prim)).setSkin(skin);
  doc.createScene('sc').addChild(bones[0]).addChild(mesh);
  const sampler = doc
    .createAnimationSampler()
    .setInput(acc('SCALAR', Float32Array.from(times)))
    .setOutput(acc('VEC3', Float32Array.from(values)));
  const anim = doc.createAnimation('long');
  anim
    .addSampler(sampler)
    .addChannel(
      doc.createAnimationChannel().setTargetNode(bones[1]).setTargetPath('translation').setSampler(sampler),
    );
  for (let i = 0; stillTracks && i < joints; i++) {
    if (i === 1) continue;
    const t = bones[i].getTranslation();
    const still = doc
      .createAnimationSampler()
      .setInput(acc('SCALAR', Float32Array.from([0, times[times.length - 1]])))
      .setOutput(acc('VEC3', Float32Array.from([...t, ...t])));
    anim
      .addSampler(still)
      .addChannel(
        doc.createAnimationChannel().setTargetNode(bones[i]).setTargetPath('translation').setSampler(still),
      );
  }
  return doc;
}

function keyCount(doc: Document): number {
  let n = 0;
  for (const a of doc.getRoot().listAnimations())
    for (const s of a.listSamplers()) n += s.getInput()?.getCount() ?? 0;
  return n;
}

describe('long clips (fuzz c8d0cdbb, ccafdbec, b5d73d3e)', () => {
  it('a 400 s clip of 20 bones re-imports to a small document and exports to a fixed point', async () => {
    // Bone 1 moves during the first 2 s and then holds still for 398 s; 19 bones never move.
    const doc = skinnedDoc(20, [0, 2, 400], [0, 0.1, 0, 0, 0.3, 0, 0, 0.3, 0], true);
    const e1 = await exportUnigine(doc, { name: 'long' });
    const anim = readAnim(e1.files.get('long_long.anim') as Uint8Array);
    expect(anim.animations[0].numFrames).toBe(12001);
    const frames = anim.animations[0].numFrames;
    const { document: d2 } = importUnigine(e1.files, { main: 'long.mesh' });
    const channels = d2.getRoot().listAnimations()[0].listChannels().length;
    expect(channels).toBe(40); // 20 bones × (translation, rotation)
    // One key per frame would be channels × 12001 keys; equal runs keep only their two ends.
    expect(keyCount(d2)).toBeLessThan(channels * 2 + 3 * 61 + 10);
    expect(keyCount(d2)).toBeLessThan((channels * frames) / 100);
    const glb = await new NodeIO().writeBinary(d2);
    expect(glb.length).toBeLessThan(64 * 1024);
    const e2 = await exportUnigine(d2, { name: 'long' });
    expect([...e2.files.keys()].sort()).toEqual([...e1.files.keys()].sort());
    for (const [name, bytes] of e1.files)
      expect({ name, diff: firstDiff(e2.files.get(name) as Uint8Array, bytes) }).toEqual({ name, diff: -1 });
    // The imported keys play the same motion: bone 1 at 1 s is halfway, still at 300 s.
    const ch = d2
      .getRoot()
      .listAnimations()[0]
      .listChannels()
      .find((c) => c.getTargetNode()?.getName() === 'b1' && c.getTargetPath() === 'translation');
    const times = ch?.getSampler()?.getInput()?.getArray() as Float32Array;
    const values = ch?.getSampler()?.getOutput()?.getArray() as Float32Array;
    const at = (t: number) => {
      const k = times.findIndex((x) => x >= t - 1e-6);
      if (Math.abs(times[k] - t) < 1e-4) return values[k * 3 + 1];
      const u = (t - times[k - 1]) / (times[k] - times[k - 1]);
      return values[(k - 1) * 3 + 1] * (1 - u) + values[k * 3 + 1] * u;
    };
    expect(at(1)).toBeCloseTo(0.2, 3);
    expect(at(300)).toBeCloseTo(0.3, 3);
  });

  it('keys on frames far into a clip are taken exactly, equal neighbours repeat, only real gaps are interpolated', async () => {
    const fps = 30;
    const times = Float32Array.from([0, 1627, 1627 + 1 / fps, 1627 + 4 / fps]); // f32 of 48810/30 is ~4e-5 off
    const values = Float32Array.from([1, 1, 2, 5]);
    const s: SamplerData = { times, values, size: 1, interpolation: 'LINEAR', quaternion: false };
    const frames = 48816;
    const out = new Float64Array(frames);
    expect(sampleFrames(s, frames, fps, out)).toBe(false);
    expect(out[0]).toBe(1);
    expect(out[30000]).toBe(1); // between two equal keys: the key, not a*(1-u)+a*u
    expect(out[48810]).toBe(1);
    expect(out[48811]).toBe(2);
    expect(out[48812]).toBeCloseTo(3, 1);
    expect(out[48814]).toBe(5);
    expect(out[48815]).toBe(5); // clamped after the last key
    const step = sampleFrames({ ...s, interpolation: 'STEP' }, frames, fps, out);
    expect(step).toBe(false);
    expect(out[48813]).toBe(2);
    // Keys between frames: resampled (and reported).
    const off = { ...s, times: Float32Array.from([0, 0.01, 0.5, 1]) };
    expect(sampleFrames(off, 31, fps, new Float64Array(31))).toBe(true);
  });

  it('refuses a block above MAX_BLOCK_ENTRIES with ExportError ANIMATION_TOO_LONG, before allocating it', async () => {
    // 3 bones × (2e6 s × 30 fps) frames: 180 M entries.
    const doc = skinnedDoc(3, [0, 2e6], [0, 0, 0, 1, 0, 0]);
    let err: unknown;
    const before = process.memoryUsage().rss;
    try {
      await exportUnigine(doc, { name: 'huge' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExportError);
    expect((err as ExportError).code).toBe('ANIMATION_TOO_LONG');
    expect((err as ExportError).message).toMatch(/60000001 frames × \d+ animated bones/);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    expect(MAX_BLOCK_ENTRIES).toBe(2 ** 23);
    // A lower frame rate fits.
    const files = (await exportUnigine(skinnedDoc(3, [0, 2e4], [0, 0, 0, 1, 0, 0]), { name: 'ok', fps: 10 }))
      .files;
    expect(readAnim(files.get('ok_long.anim') as Uint8Array).animations[0].numFrames).toBe(200001);
  });

  // Campaign seed 99, iteration 209 (robot.glb with one f32 mutated, not stored: 1.5 MB): a
  // rotation key of length 0 was written as codes (0, 0, 0, 0); import normalizes such keys to
  // the identity, so the second export wrote (0, 0, 0, 32767). Same for far-from-unit keys.
  it('zero and non-unit rotation keys export as import reads them (fixed point)', async () => {
    const doc = skinnedDoc(3, [0, 2 / 30], [0, 0.1, 0, 0, 0.2, 0]);
    const bone1 = doc
      .getRoot()
      .listNodes()
      .find((n) => n.getName() === 'b1');
    const buffer = doc.getRoot().listBuffers()[0];
    const acc = (type: 'SCALAR' | 'VEC4', a: Float32Array) =>
      doc.createAccessor().setType(type).setArray(a).setBuffer(buffer);
    const rot = doc
      .createAnimationSampler()
      .setInput(acc('SCALAR', Float32Array.from([0, 1 / 30, 2 / 30])))
      .setOutput(acc('VEC4', Float32Array.from([0, 0, 0, 0, 0.5, 0, 0, 0.5, 0, 0, 0, 1])));
    const anim = doc.getRoot().listAnimations()[0];
    anim.addSampler(rot).addChannel(
      doc
        .createAnimationChannel()
        .setTargetNode(bone1 ?? null)
        .setTargetPath('rotation')
        .setSampler(rot),
    );
    const e1 = (await exportUnigine(doc, { name: 'rot' })).files;
    const block = readAnim(e1.get('rot_long.anim') as Uint8Array).animations[0];
    const b = Array.from(block.bones).indexOf(1);
    const codes = (f: number) =>
      Array.from(
        block.rotations.subarray((f * block.bones.length + b) * 4, (f * block.bones.length + b) * 4 + 4),
      );
    expect(codes(0)).toEqual([0, 0, 0, 32767]); // zero quaternion → identity
    expect(codes(1)).toEqual([23170, 0, 0, 23170]); // (0.5, 0, 0, 0.5) normalized (file axes keep x)
    const { document: d2 } = importUnigine(e1, { main: 'rot.mesh' });
    const e2 = (await exportUnigine(d2, { name: 'rot' })).files;
    for (const [name, bytes] of e1)
      expect({ name, diff: firstDiff(e2.get(name) as Uint8Array, bytes) }).toEqual({ name, diff: -1 });
  });

  it('the stored b5d73d3e GLB (171 joints, 1000 s clip) exports in bounded CPU time', async () => {
    const bin = fileURLToPath(
      new URL('../../../test-assets/fuzz-regressions/unigine/b5d73d3eee623403.bin', import.meta.url),
    );
    const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
    const doc = await io.readBinary(new Uint8Array(readFileSync(bin)));
    const cpu0 = process.cpuUsage();
    const e1 = (await exportUnigine(doc, { name: 'fuzz' })).files;
    const cpu = process.cpuUsage(cpu0);
    // Before: > 20 s; now ~1 s on a loaded 2-core machine (CPU time, generous bound).
    expect((cpu.user + cpu.system) / 1e6).toBeLessThan(10);
    // The long clip is one flag byte per frame and bone where nothing moves.
    const sizes = [...e1].map(([n, b]) => [n, b.length]);
    // file name by core's naming rule (the clip name's leading '_' is kept)
    expect(sizes).toContainEqual(['fuzz__O_b.ByN.anim', 5044403]);
  }, 60_000);
});
