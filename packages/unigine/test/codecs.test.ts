import {
  decodeRangeU16,
  decodeSnorm16,
  encodeRangeU16,
  encodeSnorm16,
  rangeU16Float32Safe,
  rangeU16MaxError,
} from '@gltf-legacy/quantize';
import { firstByteDiff, readBytes } from '@gltf-legacy/test-utils';
import { Document } from '@gltf-transform/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AnimFile,
  type MeshFile,
  encodeTangentFrames,
  exportUnigine,
  importUnigine,
  packF32,
  readAnim,
  readMesh,
  unpackF32,
  writeAnim,
  writeMesh,
} from '../src/index.js';
import { quatToNormalTangent } from '../src/math.js';
import { unigineCorpus } from './helpers.js';

const { supported } = unigineCorpus();

const unitVec = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  )
  .filter(([x, y, z]) => Math.hypot(x, y, z) > 0.1)
  .map(([x, y, z]) => {
    const l = Math.hypot(x, y, z);
    return [x / l, y / l, z / l];
  });

describe('tangent quaternions', () => {
  it('encode a normal/tangent/handedness frame that decodes back (property)', async () => {
    fc.assert(
      fc.property(unitVec, unitVec, fc.boolean(), (n, t0, flip) => {
        // Make t perpendicular to n.
        const d = n[0] * t0[0] + n[1] * t0[1] + n[2] * t0[2];
        const t = [t0[0] - n[0] * d, t0[1] - n[1] * d, t0[2] - n[2] * d];
        const l = Math.hypot(...t);
        fc.pre(l > 0.1);
        const tan = [t[0] / l, t[1] / l, t[2] / l, flip ? -1 : 1];
        const q = encodeTangentFrames(n, tan, 1);
        const len = Math.hypot(...q);
        const nn = new Float32Array(3);
        const tt = new Float32Array(4);
        quatToNormalTangent(q[0] / len, q[1] / len, q[2] / len, q[3] / len, nn, 0, tt, 0);
        const err = Math.max(
          ...[0, 1, 2].map((k) => Math.abs(nn[k] - n[k])),
          ...[0, 1, 2].map((k) => Math.abs(tt[k] - tan[k])),
        );
        return err < 3e-4 && (q[3] < 0 ? -1 : 1) === tan[3];
      }),
      { numRuns: 2000 },
    );
  });

  it('re-encoding the decoded frames of a real mesh reproduces the stored codes within 2', async () => {
    const path = supported.find((f) => f.endsWith('sphere_00.mesh')) as string;
    const mesh = readMesh(readBytes(path));
    const q = mesh.surfaces[0].tangents;
    const count = q.length / 4;
    const n = new Float32Array(count * 3);
    const t = new Float32Array(count * 4);
    for (let v = 0; v < count; v++) {
      const l = Math.hypot(q[v * 4], q[v * 4 + 1], q[v * 4 + 2], q[v * 4 + 3]);
      quatToNormalTangent(
        q[v * 4] / l,
        q[v * 4 + 1] / l,
        q[v * 4 + 2] / l,
        q[v * 4 + 3] / l,
        n,
        v * 3,
        t,
        v * 4,
      );
      t[v * 4 + 3] = q[v * 4 + 3] < 0 ? -1 : 1;
    }
    const again = encodeTangentFrames(n, t, count);
    let worst = 0;
    for (let i = 0; i < q.length; i++) worst = Math.max(worst, Math.abs(again[i] - q[i]));
    expect(worst).toBeLessThanOrEqual(2);
  });
});

describe('quantize codecs as this format uses them', () => {
  it('animation range codes survive float32 storage when the range is float32-safe', async () => {
    fc.assert(
      fc.property(
        fc.float({ min: -1000, max: 1000, noNaN: true }),
        fc.float({ min: Math.fround(0.01), max: 2000, noNaN: true }),
        fc.integer({ min: 0, max: 65535 }),
        (min, size, q) => {
          fc.pre(rangeU16Float32Safe(min, size));
          const v = Math.fround(decodeRangeU16(q, min, size));
          return encodeRangeU16(v, min, size) === q;
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('snorm16 rotation codes survive float32 storage', async () => {
    for (let q = -32767; q <= 32767; q++) {
      if (encodeSnorm16(Math.fround(decodeSnorm16(q))) !== q) throw new Error(`code ${q}`);
    }
  });

  it('packs float32 extras exactly, including −0 and NaN', async () => {
    const a = Float32Array.from([1.5, -0, 0, Number.NaN, Number.POSITIVE_INFINITY, 1e9]);
    const packed = JSON.parse(JSON.stringify(packF32(a)));
    const back = unpackF32(packed, a.length) as Float32Array;
    expect(new Uint8Array(back.buffer)).toEqual(new Uint8Array(a.buffer));
    expect(packF32([1, 2, 3])).toEqual([1, 2, 3]);
    expect(unpackF32([1, 2], 3)).toBeNull();
  });
});

describe('an10 export from glTF animation', () => {
  it('quantizes into range boxes, flags only changed components and reports the worst error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.float({ min: -5, max: 5, noNaN: true }),
            fc.float({ min: -5, max: 5, noNaN: true }),
            fc.float({ min: -5, max: 5, noNaN: true }),
          ),
          { minLength: 2, maxLength: 12 },
        ),
        async (keys) => {
          const doc = new Document();
          const buf = doc.createBuffer();
          const root = doc.createNode('root');
          const bone = doc.createNode('bone').setTranslation([0, 1, 0]);
          root.addChild(bone);
          doc.createScene().addChild(root);
          const pos = doc
            .createAccessor()
            .setType('VEC3')
            .setArray(Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]))
            .setBuffer(buf);
          const j = doc.createAccessor().setType('VEC4').setArray(new Uint8Array(12)).setBuffer(buf);
          const w = doc
            .createAccessor()
            .setType('VEC4')
            .setArray(Float32Array.from([1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0]))
            .setBuffer(buf);
          const prim = doc
            .createPrimitive()
            .setAttribute('POSITION', pos)
            .setAttribute('JOINTS_0', j)
            .setAttribute('WEIGHTS_0', w);
          const skin = doc.createSkin().addJoint(root).addJoint(bone);
          const meshNode = doc.createNode('m').setMesh(doc.createMesh().addPrimitive(prim)).setSkin(skin);
          doc.getRoot().listScenes()[0].addChild(meshNode);
          const times = Float32Array.from(keys.map((_, i) => i / 30));
          const values = Float32Array.from(keys.flat());
          const sampler = doc
            .createAnimationSampler()
            .setInput(doc.createAccessor().setArray(times).setBuffer(buf))
            .setOutput(doc.createAccessor().setType('VEC3').setArray(values).setBuffer(buf));
          doc
            .createAnimation('move')
            .addSampler(sampler)
            .addChannel(
              doc
                .createAnimationChannel()
                .setTargetNode(bone)
                .setTargetPath('translation')
                .setSampler(sampler),
            );
          const out = await exportUnigine(doc, { name: 'p', fps: 30 });
          const anim = readAnim(out.files.get('p_move.anim') as Uint8Array);
          const block = anim.animations[0];
          expect(block.numFrames).toBe(keys.length);
          expect(block.bones.length).toBe(1);
          const boxes = block.boxes as Float32Array;
          // Decode with carry-forward and compare in UNIGINE axes: (x, y, z)_gltf → (x, −z, y).
          const cur = [0, 0, 0];
          for (let f = 0; f < keys.length; f++) {
            const [gx, gy, gz] = keys[f];
            const want = [gx, -gz, gy];
            for (let c = 0; c < 3; c++) {
              if (block.flags[f] & (1 << c))
                cur[c] = decodeRangeU16(block.positions[f * 3 + c], boxes[c], boxes[3 + c]);
              const tol = rangeU16MaxError(boxes[3 + c]) + 1e-6 * Math.max(1, Math.abs(want[c]));
              if (!(Math.abs(cur[c] - want[c]) <= tol)) return false;
            }
            if (f > 0 && keys[f].every((v, k) => v === keys[f - 1][k])) expect(block.flags[f] & 7).toBe(0);
          }
          expect(
            out.warnings.some((x) => x.code === 'VALUE_QUANTIZED' && x.message.includes('worst error')),
          ).toBe(true);
          return true;
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('random file models round-trip', () => {
  const f32 = fc.float({ noNaN: true, noDefaultInfinity: true });
  const name = fc.string({ maxLength: 12 }).filter((s) => !s.includes('\u0000'));

  it('meshes: write → read → write is stable (property)', async () => {
    const surface = fc.record({
      nc: fc.integer({ min: 1, max: 300 }),
      nt: fc.integer({ min: 1, max: 300 }),
      tris: fc.integer({ min: 0, max: 20 }),
      weights: fc.boolean(),
      uv1: fc.boolean(),
      colors: fc.boolean(),
      name,
      targets: fc.integer({ min: 1, max: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(surface, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        f32,
        (surfaces, nb, seed, fv) => {
          let s = seed;
          const rnd = (n: number) => {
            s = (s * 1103515245 + 12345) >>> 0;
            return s % n;
          };
          const mesh: MeshFile = {
            magic: 'ms11',
            encoding: 'utf8',
            bounds: Float32Array.from({ length: 10 }, () => fv),
            bones: Array.from({ length: nb }, (_, i) => ({ name: `b${i}`, parent: i - 1 })),
            animationNames: [],
            animations: [],
            bindPose: Float32Array.from({ length: nb * 10 }, (_, i) => i * 0.5),
            surfaces: surfaces.map((x) => {
              const n = x.tris * 3;
              const counts = Uint8Array.from({ length: x.weights && nb ? x.nc : 0 }, () => rnd(5));
              const starts = new Uint32Array(counts.length + 1);
              for (let i = 0; i < counts.length; i++) starts[i + 1] = starts[i] + counts[i];
              const total = starts[counts.length];
              return {
                name: x.name,
                bounds: Float32Array.from({ length: 10 }, (_, i) => i),
                targetNames: Array.from({ length: x.targets }, (_, i) => (i ? `t${i}` : '')),
                targets: Array.from({ length: x.targets }, () =>
                  Float32Array.from({ length: x.nc * 3 }, () => rnd(1000) / 7),
                ),
                tangents: Int16Array.from({ length: x.nt * 4 }, () => rnd(65536) - 32768),
                weightCounts: counts,
                weightStarts: starts,
                weightBones: Int16Array.from({ length: total }, () => rnd(Math.max(1, nb))),
                weightValues: Uint16Array.from({ length: total }, () => rnd(65536)),
                uv0: Float32Array.from({ length: x.nt * 2 }, () => rnd(100) / 3),
                uv1: Float32Array.from({ length: x.uv1 ? x.nt * 2 : 0 }, () => rnd(100) / 3),
                colors: Uint8Array.from({ length: x.colors ? x.nt * 4 : 0 }, () => rnd(256)),
                coordIndices: Uint32Array.from({ length: n }, () => rnd(x.nc)),
                triIndices: Uint32Array.from({ length: n }, () => rnd(x.nt)),
              };
            }),
          };
          const bytes = writeMesh(mesh);
          const again = writeMesh(readMesh(bytes));
          expect(firstByteDiff(again, bytes)).toBe(-1);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('animations: write → read → write is stable and imports (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        async (nb, frames, seed) => {
          let s = seed;
          const rnd = (n: number) => {
            s = (s * 1103515245 + 12345) >>> 0;
            return s % n;
          };
          const entries = nb * frames;
          const flags = Uint8Array.from({ length: entries }, (_, e) => (e < nb ? 0x7f : rnd(128)));
          const anim: AnimFile = {
            magic: 'an10',
            encoding: 'utf8',
            bounds: Float32Array.from([1e9, 1e9, 1e9, -1e9, -1e9, -1e9, 0, 0, 0, -1]),
            bones: Array.from({ length: nb }, (_, i) => ({
              name: `bone${i}`,
              parent: i === 0 ? -1 : rnd(i),
            })),
            animationNames: ['a'],
            bindPose: Float32Array.from(
              { length: nb * 10 },
              (_, i) => [0, 0, 0, 0, 0, 0, 1, 1, 1, 1][i % 10],
            ),
            animations: [
              {
                bones: Int16Array.from({ length: nb }, (_, i) => i),
                boxes: Float32Array.from([-1, -2, -3, 2, 4, 6, 1, 1, 1, 0.5, 0.5, 0.5]),
                componentMask: 0x7f,
                numFrames: frames,
                flags,
                positions: Uint16Array.from({ length: entries * 3 }, (_, i) =>
                  flags[Math.floor(i / 3)] & (1 << (i % 3)) ? rnd(65536) : 0,
                ),
                rotations: Int16Array.from({ length: entries * 4 }, (_, i) =>
                  flags[Math.floor(i / 4)] & 8 ? [0, 0, 0, 32767][i % 4] - rnd(3) : 0,
                ),
                scales: Uint16Array.from({ length: entries * 3 }, (_, i) =>
                  flags[Math.floor(i / 3)] & (16 << (i % 3)) ? rnd(65536) : 0,
                ),
              },
            ],
          };
          const bytes = writeAnim(anim);
          expect(firstByteDiff(writeAnim(readAnim(bytes)), bytes)).toBe(-1);
          // The document round trip restores the same bytes as well.
          const { document } = importUnigine(new Map([['r.anim', bytes]]), { main: 'r.anim' });
          const out = await exportUnigine(document, { name: 'r' });
          expect(firstByteDiff(out.files.get('r.anim') as Uint8Array, bytes)).toBe(-1);
        },
      ),
      { numRuns: 60 },
    );
  });
});
