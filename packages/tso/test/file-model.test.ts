import { FormatError } from '@gltf-legacy/core';
import { decodeQ15, encodeQ15 } from '@gltf-legacy/quantize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  detectTsoKind,
  readAnimation,
  readMesh,
  readSkeleton,
  type TsoAnimation,
  type TsoMesh,
  type TsoSkeleton,
  writeAnimation,
  writeMesh,
  writeSkeleton,
} from '../src/index.js';
import { twoBoneAnimation, twoBoneMesh, twoBoneSkeleton } from './fixtures.js';

/** Builds bytes with explicit byte order per field: `be32`, `le32f`, `pas` (u8 length + ASCII)… */
class Bytes {
  private out: number[] = [];
  be32(v: number) {
    this.out.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
    return this;
  }
  be16(v: number) {
    this.out.push((v >>> 8) & 255, v & 255);
    return this;
  }
  u8(v: number) {
    this.out.push(v & 255);
    return this;
  }
  le32f(v: number) {
    const b = new Uint8Array(new Float32Array([v]).buffer);
    this.out.push(...b);
    return this;
  }
  pas(s: string) {
    this.out.push(s.length, ...Array.from(s, (c) => c.charCodeAt(0)));
    return this;
  }
  get bytes() {
    return Uint8Array.from(this.out);
  }
}

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return (e as FormatError).code;
  }
  return 'OK';
};

describe('.mesh struct (big-endian ints, little-endian floats)', () => {
  const b = new Bytes()
    .be32(2) // version
    .be32(1)
    .pas('HEAD') // bones
    .be32(1)
    .be32(0)
    .be32(1)
    .be32(2) // one face
    .be32(1)
    .be32(0)
    .be32(0)
    .be32(3)
    .be32(0)
    .be32(1) // binding: bone 0, real 0..3, blend 0..1
    .be32(3)
    .le32f(0)
    .le32f(1)
    .le32f(0.5)
    .le32f(0.25)
    .le32f(1)
    .le32f(0) // uvs
    .be32(1)
    .be32(0x4000)
    .be32(2) // blend: weight first, then the real vertex
    .be32(3); // vertexCount2
  for (let i = 0; i < 4 * 6; i++) b.le32f(i === 0 ? -1.5 : i / 8);
  const bytes = b.bytes;

  it('reads every field with the right byte order', () => {
    const m = readMesh(bytes, 't.mesh');
    expect(m.version).toBe(2);
    expect(m.boneNames).toEqual(['HEAD']);
    expect(Array.from(m.indices)).toEqual([0, 1, 2]);
    expect(m.bindings).toEqual([
      { boneIndex: 0, firstRealVertex: 0, realVertexCount: 3, firstBlendVertex: 0, blendVertexCount: 1 },
    ]);
    expect(Array.from(m.uvs)).toEqual([0, 1, 0.5, 0.25, 1, 0]);
    expect(Array.from(m.blendData)).toEqual([0x4000, 2]);
    expect(decodeQ15(m.blendData[0])).toBe(0.5);
    expect(m.vertexCount2).toBe(3);
    expect(m.realVertices[0]).toBe(-1.5);
    expect(m.realVertices.length).toBe(18);
    expect(Array.from(m.blendVertices)).toEqual([18, 19, 20, 21, 22, 23].map((i) => i / 8));
    expect(Buffer.compare(writeMesh(m), bytes)).toBe(0);
  });

  it('writes 1.0 as little-endian and counts as big-endian', () => {
    const out = writeMesh(twoBoneMesh());
    expect(Array.from(out.subarray(0, 8))).toEqual([0, 0, 0, 2, 0, 0, 0, 2]);
    // First UV of vertex 1 is 1.0 → 00 00 80 3F.
    const m = twoBoneMesh();
    const uvAt = 8 + 5 + 4 + 4 + 4 * 6 + 4 + 40 + 4;
    expect(Array.from(out.subarray(uvAt + 8, uvAt + 12))).toEqual([0, 0, 0x80, 0x3f]);
    expect(readMesh(out).uvs).toEqual(m.uvs);
  });

  it('rejects out-of-range indices, bindings and blend targets with BAD_INDEX', () => {
    const m = twoBoneMesh();
    m.indices[4] = 9;
    expect(code(() => readMesh(writeMesh(m)))).toBe('BAD_INDEX');
    const m2 = twoBoneMesh();
    m2.bindings[1].boneIndex = 5;
    expect(code(() => readMesh(writeMesh(m2)))).toBe('BAD_INDEX');
    const m3 = twoBoneMesh();
    m3.blendData[1] = 4;
    expect(code(() => readMesh(writeMesh(m3)))).toBe('BAD_INDEX');
    expect(code(() => readMesh(bytes.subarray(0, 30)))).toBe('TRUNCATED');
  });
});

describe('.skel struct', () => {
  const bytes = new Bytes()
    .be32(1)
    .pas('adult')
    .be16(2)
    // bone 0 with props
    .be32(0xdeadbeef)
    .pas('ROOT')
    .pas('NULL')
    .u8(1)
    .be32(1)
    .be32(1)
    .pas('k')
    .pas('v')
    .le32f(1)
    .le32f(2)
    .le32f(3)
    .le32f(0)
    .le32f(0)
    .le32f(0)
    .le32f(1)
    .be32(1)
    .be32(1)
    .be32(0)
    .le32f(0.5)
    .le32f(-2)
    // bone 1 without props
    .be32(0)
    .pas('PELVIS')
    .pas('ROOT')
    .u8(0)
    .le32f(0)
    .le32f(1)
    .le32f(0)
    .le32f(0)
    .le32f(0)
    .le32f(0)
    .le32f(1)
    .be32(0)
    .be32(1)
    .be32(1)
    .le32f(0)
    .le32f(0).bytes;

  it('reads bones, parent names, properties and flags', () => {
    const s = readSkeleton(bytes);
    expect(s.name).toBe('adult');
    expect(s.bones.map((b) => [b.name, b.parentName])).toEqual([
      ['ROOT', 'NULL'],
      ['PELVIS', 'ROOT'],
    ]);
    expect(s.bones[0].unknown).toBe(0xdeadbeef);
    expect(s.bones[0].props).toEqual([[['k', 'v']]]);
    expect(Array.from(s.bones[0].translation)).toEqual([1, 2, 3]);
    expect(s.bones[0].wiggleValue).toBe(0.5);
    expect(s.bones[0].wigglePower).toBe(-2);
    expect([s.bones[1].canTranslate, s.bones[1].canRotate, s.bones[1].canBlend]).toEqual([0, 1, 1]);
    expect(Buffer.compare(writeSkeleton(s), bytes)).toBe(0);
    expect(detectTsoKind(bytes, 'adult.skel')).toBe('skel');
  });

  it('rejects unknown parents and cycles', () => {
    const s = twoBoneSkeleton();
    s.bones[1].parentName = 'NOPE';
    expect(code(() => readSkeleton(writeSkeleton(s)))).toBe('BAD_PARENT');
    const c = twoBoneSkeleton();
    c.bones[0].parentName = 'ARM';
    expect(code(() => readSkeleton(writeSkeleton(c)))).toBe('BONE_CYCLE');
  });
});

describe('.anim struct', () => {
  const bytes = new Bytes()
    .be32(2)
    .be16(4)
    .u8(0x77)
    .u8(0x61)
    .u8(0x76)
    .u8(0x65) // u16 big-endian name length + "wave"
    .le32f(2000)
    .le32f(1.5)
    .u8(1)
    .be32(2)
    .le32f(1)
    .le32f(2)
    .le32f(3)
    .le32f(4)
    .le32f(5)
    .le32f(6)
    .be32(2)
    .le32f(0)
    .le32f(0)
    .le32f(0)
    .le32f(1)
    .le32f(0)
    .le32f(1)
    .le32f(0)
    .le32f(0)
    .be32(1)
    .be32(9)
    .pas('HEAD')
    .be32(2)
    .le32f(2000)
    .u8(1)
    .u8(1)
    .be32(0)
    .be32(0)
    .u8(1) // props: 1 list of 1 item of 1 pair
    .be32(1)
    .be32(1)
    .be32(1)
    .pas('a')
    .pas('b')
    .u8(1) // time props: 1 list, 1 item at frame 1 with 1 item of 1 pair
    .be32(1)
    .be32(1)
    .be32(1)
    .be32(1)
    .be32(1)
    .pas('xevt')
    .pas('boom').bytes;

  it('reads pools, motions, properties and time properties', () => {
    const a = readAnimation(bytes);
    expect(a.name).toBe('wave');
    expect(a.duration).toBe(2000);
    expect(a.distance).toBe(1.5);
    expect(a.isMoving).toBe(1);
    expect(Array.from(a.translations)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(a.rotations.length).toBe(8);
    const m = a.motions[0];
    expect([m.unknown, m.boneName, m.frameCount, m.hasTranslation, m.hasRotation]).toEqual([
      9,
      'HEAD',
      2,
      1,
      1,
    ]);
    expect(m.props).toEqual([[[['a', 'b']]]]);
    expect(m.timeProps).toEqual([[{ id: 1, props: [[['xevt', 'boom']]] }]]);
    expect(Buffer.compare(writeAnimation(a), bytes)).toBe(0);
    expect(detectTsoKind(bytes, 'wave.anim')).toBe('anim');
  });

  it('rejects motions pointing outside the pools', () => {
    const a = twoBoneAnimation();
    a.motions[0].frameCount = 4;
    expect(code(() => readAnimation(writeAnimation(a)))).toBe('BAD_INDEX');
  });
});

describe('hostile skel/anim/mesh fixtures', () => {
  it('truncation, flips and 0xFFFFFFFF counts give success or FormatError only', () => {
    const t0 = Date.now();
    const sets: [Uint8Array, (b: Uint8Array) => unknown][] = [
      [writeSkeleton(twoBoneSkeleton()), readSkeleton],
      [writeAnimation(twoBoneAnimation()), readAnimation],
      [writeMesh(twoBoneMesh()), readMesh],
    ];
    for (const [bytes, read] of sets) {
      for (let cut = 0; cut < bytes.length; cut++)
        expect(code(() => read(bytes.subarray(0, cut)))).not.toBe('OK');
      for (let at = 0; at < bytes.length; at++) {
        for (const x of [0xff, 0x01]) {
          const b = bytes.slice();
          b[at] ^= x;
          code(() => read(b));
          if (x === 0xff) code(() => detectTsoKind(b));
        }
        if (at + 4 <= bytes.length) {
          const b = bytes.slice();
          b.fill(0xff, at, at + 4);
          code(() => read(b));
        }
      }
    }
    expect(Date.now() - t0).toBeLessThan(10_000);
  });
});

// ---- property tests
const f32 = fc.float({ noNaN: true, noDefaultInfinity: true });
const name = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789'.split('')),
  minLength: 1,
  maxLength: 12,
});
const props = fc.array(fc.array(fc.tuple(name, name), { maxLength: 3 }), { maxLength: 2 });

const meshArb: fc.Arbitrary<TsoMesh> = fc
  .record({
    bones: fc.uniqueArray(name, { minLength: 1, maxLength: 4 }),
    real: fc.integer({ min: 1, max: 20 }),
    blend: fc.integer({ min: 0, max: 5 }),
  })
  .chain(({ bones, real, blend }) =>
    fc.record({
      version: fc.constant(2),
      boneNames: fc.constant(bones),
      indices: fc
        .array(fc.integer({ min: 0, max: real - 1 }), { maxLength: 30 })
        .map((a) => Uint32Array.from(a.slice(0, a.length - (a.length % 3)))),
      bindings: fc.constant([
        {
          boneIndex: bones.length - 1,
          firstRealVertex: 0,
          realVertexCount: real,
          firstBlendVertex: blend ? 0 : 0xffffffff,
          blendVertexCount: blend,
        },
      ]),
      uvs: fc.array(f32, { minLength: real * 2, maxLength: real * 2 }).map((a) => Float32Array.from(a)),
      blendData: fc
        .array(fc.tuple(fc.integer({ min: 0, max: 0x8000 }), fc.integer({ min: 0, max: real - 1 })), {
          minLength: blend,
          maxLength: blend,
        })
        .map((a) => Uint32Array.from(a.flat())),
      vertexCount2: fc.constant(real),
      realVertices: fc
        .array(f32, { minLength: real * 6, maxLength: real * 6 })
        .map((a) => Float32Array.from(a)),
      blendVertices: fc
        .array(f32, { minLength: blend * 6, maxLength: blend * 6 })
        .map((a) => Float32Array.from(a)),
      trailing: fc.constant(new Uint8Array(0)),
    }),
  );

const skelArb: fc.Arbitrary<TsoSkeleton> = fc
  .uniqueArray(name, { minLength: 1, maxLength: 6 })
  .chain((names) =>
    fc.record({
      version: fc.constant(1),
      name,
      bones: fc.tuple(
        ...names.map((n, i) =>
          fc.record({
            unknown: fc.nat(),
            name: fc.constant(n),
            parentName: i === 0 ? fc.constant('NULL') : fc.constantFrom(...names.slice(0, i)),
            hasProps: fc.constantFrom(0, 1),
            props,
            translation: fc.array(f32, { minLength: 3, maxLength: 3 }).map((a) => Float32Array.from(a)),
            rotation: fc.array(f32, { minLength: 4, maxLength: 4 }).map((a) => Float32Array.from(a)),
            canTranslate: fc.nat(1),
            canRotate: fc.nat(1),
            canBlend: fc.nat(1),
            wiggleValue: f32,
            wigglePower: f32,
          }),
        ),
      ),
      trailing: fc.constant(new Uint8Array(0)),
    }),
  ) as fc.Arbitrary<TsoSkeleton>;

const animArb: fc.Arbitrary<TsoAnimation> = fc
  .record({ t: fc.integer({ min: 0, max: 6 }), r: fc.integer({ min: 0, max: 6 }) })
  .chain(({ t, r }) =>
    fc.record({
      version: fc.constant(2),
      name,
      duration: f32,
      distance: f32,
      isMoving: fc.nat(1),
      translations: fc.array(f32, { minLength: t * 3, maxLength: t * 3 }).map((a) => Float32Array.from(a)),
      rotations: fc.array(f32, { minLength: r * 4, maxLength: r * 4 }).map((a) => Float32Array.from(a)),
      motions: fc.array(
        fc.record({
          unknown: fc.nat(),
          boneName: name,
          frameCount: fc.integer({ min: 0, max: Math.min(t, r) }),
          duration: f32,
          hasTranslation: fc.constantFrom(0, 1),
          hasRotation: fc.constantFrom(0, 1),
          firstTranslation: fc.constant(0),
          firstRotation: fc.constant(0),
          hasProps: fc.constantFrom(0, 1),
          props: fc.array(props, { maxLength: 2 }),
          hasTimeProps: fc.constantFrom(0, 1),
          timeProps: fc.array(
            fc.array(fc.record({ id: fc.integer({ min: -5, max: 100 }), props }), { maxLength: 2 }),
            { maxLength: 2 },
          ),
        }),
        { maxLength: 3 },
      ),
      trailing: fc.constant(new Uint8Array(0)),
    }),
  );

describe('property tests', () => {
  it('random meshes: write → read → write is byte-identical', () => {
    fc.assert(
      fc.property(meshArb, (m) => {
        const a = writeMesh(m);
        expect(Buffer.compare(writeMesh(readMesh(a)), a)).toBe(0);
      }),
      { numRuns: 100 },
    );
  });
  it('random skeletons: write → read → write is byte-identical', () => {
    fc.assert(
      fc.property(skelArb, (s) => {
        const a = writeSkeleton(s);
        expect(Buffer.compare(writeSkeleton(readSkeleton(a)), a)).toBe(0);
      }),
      { numRuns: 100 },
    );
  });
  it('random animations: write → read → write is byte-identical', () => {
    fc.assert(
      fc.property(animArb, (an) => {
        const a = writeAnimation(an);
        expect(Buffer.compare(writeAnimation(readAnimation(a)), a)).toBe(0);
      }),
      { numRuns: 100 },
    );
  });
  it('Q1.15 weights: encode(decode(q)) = q and |decode(encode(w)) − w| ≤ 2⁻¹⁶', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x8000 }), fc.double({ min: 0, max: 1, noNaN: true }), (q, w) => {
        expect(encodeQ15(decodeQ15(q), 0, 0x8000)).toBe(q);
        expect(Math.abs(decodeQ15(encodeQ15(w, 0, 0x8000)) - w)).toBeLessThanOrEqual(2 ** -16);
      }),
    );
  });
});

describe('property: random meshes survive import → export without a skeleton', () => {
  it('byte-identical', async () => {
    const { legacyFormat } = await import('../src/index.js');
    await fc.assert(
      fc.asyncProperty(meshArb, async (m) => {
        const bytes = writeMesh(m);
        const { document } = await legacyFormat.import(new Map([['r.mesh', bytes]]), { main: 'r.mesh' });
        const { files } = await legacyFormat.export!(document, { name: 'r' });
        expect(Buffer.compare(files.get('r.mesh')!, bytes)).toBe(0);
      }),
      { numRuns: 40 },
    );
  });
});

describe('property: random skeletons and animations survive import → export', () => {
  it('a .skel alone: byte-identical (any floats, NaN and ±Infinity included)', async () => {
    const { legacyFormat } = await import('../src/index.js');
    const anyFloat = fc.float();
    const wild = skelArb.chain((s) =>
      fc
        .array(fc.tuple(anyFloat, anyFloat, anyFloat, anyFloat), {
          minLength: s.bones.length,
          maxLength: s.bones.length,
        })
        .map((qs) => {
          qs.forEach((q, i) => {
            if (i % 2) s.bones[i].rotation = Float32Array.from(q);
            else s.bones[i].translation = Float32Array.from(q.slice(0, 3));
          });
          return s;
        }),
    );
    await fc.assert(
      fc.asyncProperty(wild, async (s) => {
        const bytes = writeSkeleton(s);
        const { document } = await legacyFormat.import(new Map([['r.skel', bytes]]), { main: 'r.skel' });
        const { files } = await legacyFormat.export!(document, { name: 'r' });
        expect(Buffer.compare(files.get('r.skel')!, bytes)).toBe(0);
      }),
      { numRuns: 40 },
    );
  });
  it('an .anim alone: byte-identical', async () => {
    const { legacyFormat } = await import('../src/index.js');
    await fc.assert(
      fc.asyncProperty(animArb, async (a) => {
        const bytes = writeAnimation(a);
        const { document } = await legacyFormat.import(new Map([['r.anim', bytes]]), { main: 'r.anim' });
        if (!document.getRoot().listAnimations().length) return; // nothing animates: no glTF animation to carry it
        const { files } = await legacyFormat.export!(document, { name: 'r' });
        expect(Buffer.compare(files.get('r.anim')!, bytes)).toBe(0);
      }),
      { numRuns: 40 },
    );
  });
});
