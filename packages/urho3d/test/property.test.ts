import { firstByteDiff, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AniAnimation,
  ELEMENT_TYPE_SIZES,
  ElementType,
  elementsFromDescriptors,
  elementsFromMask,
  exportUrhoModel,
  importUrho,
  type MdlModel,
  MSFTLod,
  type VertexElement,
  readAni,
  readMdl,
  Semantic,
  writeAni,
  writeMdl,
} from '../src/index.js';

/** A deterministic PRNG so one fast-check integer drives a whole random model. */
function prng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    float: () => {
      const r = next();
      return r < 0.05 ? 0 : r < 0.1 ? -0 : Math.fround((next() - 0.5) * 200);
    },
  };
}

const MENU: [number, number, number][] = [
  [ElementType.VECTOR3, Semantic.NORMAL, 0],
  [ElementType.UBYTE4_NORM, Semantic.COLOR, 0],
  [ElementType.UBYTE4_NORM, Semantic.COLOR, 1],
  [ElementType.VECTOR2, Semantic.TEXCOORD, 0],
  [ElementType.VECTOR2, Semantic.TEXCOORD, 1],
  [ElementType.VECTOR2, Semantic.TEXCOORD, 3],
  [ElementType.VECTOR4, Semantic.TANGENT, 0],
  [ElementType.VECTOR3, Semantic.BINORMAL, 0],
  [ElementType.VECTOR3, Semantic.TEXCOORD, 0],
];

/** A random valid model: any layout, shared buffers, LODs, morphs, skeleton. */
export function randomModel(seed: number): MdlModel {
  const r = prng(seed);
  const legacy = r.next() < 0.5;
  const numBones = r.int(5);
  const vertexBuffers = Array.from({ length: 1 + r.int(2) }, () => {
    let elements: VertexElement[];
    let elementMask = 0;
    let descriptors: Uint32Array | null = null;
    const skinned = numBones > 0 && r.next() < 0.7;
    if (legacy) {
      elementMask = 1;
      for (const bit of [1, 2, 3, 4, 5, 7]) if (r.next() < 0.5) elementMask |= 1 << bit;
      if (skinned) elementMask |= 0x300;
      elements = elementsFromMask(elementMask)!;
    } else {
      const list: [number, number, number][] = [[ElementType.VECTOR3, Semantic.POSITION, 0]];
      for (const m of MENU)
        if (r.next() < 0.4 && !list.some((x) => x[1] === m[1] && x[2] === m[2])) list.push(m);
      if (skinned)
        list.push(
          [ElementType.VECTOR4, Semantic.BLENDWEIGHTS, 0],
          [ElementType.UBYTE4, Semantic.BLENDINDICES, 0],
        );
      descriptors = Uint32Array.from(list, ([t, s, i]) => t | (s << 8) | (i << 16));
      elements = elementsFromDescriptors(descriptors);
    }
    const stride = elements.reduce((s, e) => s + ELEMENT_TYPE_SIZES[e.type], 0);
    const vertexCount = 3 + r.int(20);
    const data = new Uint8Array(vertexCount * stride);
    const dv = new DataView(data.buffer);
    for (let v = 0; v < vertexCount; v++) {
      for (const e of elements) {
        const o = v * stride + e.offset;
        if (e.type === ElementType.UBYTE4 || e.type === ElementType.UBYTE4_NORM) {
          const perm = [0, 1, 2, 3, 4].sort(() => r.next() - 0.5);
          for (let c = 0; c < 4; c++)
            data[o + c] = e.type === ElementType.UBYTE4 ? perm[c] % numBones : r.int(256);
          if (e.type === ElementType.UBYTE4) {
            // distinct bones per vertex, as real files have
            const used = new Set<number>();
            for (let c = 0; c < 4; c++) {
              let b = data[o + c];
              while (used.has(b) && used.size < numBones) b = (b + 1) % numBones;
              used.add(b);
              data[o + c] = b;
            }
          }
        } else {
          const n = ELEMENT_TYPE_SIZES[e.type] / 4;
          for (let c = 0; c < n; c++) dv.setFloat32(o + c * 4, r.float(), true);
        }
      }
    }
    // Slots beyond the bone count carry weight 0 and index 0, as exporters write them.
    const we = elements.find((e) => e.semantic === Semantic.BLENDWEIGHTS);
    const je = elements.find((e) => e.semantic === Semantic.BLENDINDICES);
    if (we && je) {
      for (let v = 0; v < vertexCount; v++) {
        for (let c = numBones; c < 4; c++) {
          dv.setFloat32(v * stride + we.offset + c * 4, 0, true);
          data[v * stride + je.offset + c] = 0;
        }
      }
    }
    return {
      vertexCount,
      elementMask,
      descriptors,
      elements,
      stride,
      morphRangeStart: 0,
      morphRangeCount: 0,
      data,
    };
  });
  // Index ranges laid out one after another (as exporters write them); LOD ranges may overlap.
  let indexCount = 0;
  const geometries = Array.from({ length: vertexBuffers.length + r.int(2) }, (_, g) => ({
    boneMapping: new Uint32Array(0),
    lods: Array.from({ length: 1 + r.int(2) }, (_, l) => {
      const primitiveType = r.next() < 0.8 ? 0 : 1;
      const count = (primitiveType === 0 ? 3 : 2) * (1 + r.int(6));
      const share = l > 0 && r.next() < 0.3; // reuse the previous range
      const start = share ? Math.max(indexCount - count, 0) : indexCount;
      if (!share || indexCount < count) indexCount = start + count;
      return {
        distance: l * r.float(),
        primitiveType,
        vertexBuffer: g % vertexBuffers.length,
        indexBuffer: 0,
        indexStart: start,
        indexCount: count,
      };
    }),
  }));
  const indexSize = r.next() < 0.5 ? 2 : 4;
  const ibData = new Uint8Array(indexCount * indexSize);
  const idv = new DataView(ibData.buffer);
  const limit = new Uint32Array(indexCount).fill(1 << 30);
  for (const g of geometries)
    for (const l of g.lods)
      for (let i = l.indexStart; i < l.indexStart + l.indexCount; i++)
        limit[i] = Math.min(limit[i], vertexBuffers[l.vertexBuffer].vertexCount);
  for (let i = 0; i < indexCount; i++) {
    const x = r.int(limit[i]);
    if (indexSize === 2) idv.setUint16(i * 2, x, true);
    else idv.setUint32(i * 4, x, true);
  }
  const morphs = Array.from({ length: r.int(3) }, (_, m) => {
    const vb = r.int(vertexBuffers.length);
    const hasNormal = vertexBuffers[vb].elements.some(
      (e) => e.semantic === Semantic.NORMAL && e.type === ElementType.VECTOR3,
    );
    const mask = 1 | (hasNormal && r.next() < 0.5 ? 2 : 0);
    const idx = [
      ...new Set(Array.from({ length: 1 + r.int(4) }, () => r.int(vertexBuffers[vb].vertexCount))),
    ].sort((a, b) => a - b);
    const nonZero = () => Float32Array.from({ length: idx.length * 3 }, () => Math.fround(1 + r.next()));
    return {
      name: `morph${m}`,
      buffers: [
        {
          vertexBuffer: vb,
          elementMask: mask,
          vertexCount: idx.length,
          indices: Uint32Array.from(idx),
          positions: nonZero(),
          normals: mask & 2 ? nonZero() : null,
          tangents: null,
        },
      ],
    };
  });
  for (const [v, vb] of vertexBuffers.entries()) {
    const idx = morphs.flatMap((m) =>
      m.buffers.filter((b) => b.vertexBuffer === v).flatMap((b) => [...b.indices]),
    );
    if (idx.length) {
      vb.morphRangeStart = Math.min(...idx);
      vb.morphRangeCount = Math.max(...idx) - vb.morphRangeStart + 1;
    }
  }
  const bones = Array.from({ length: numBones }, (_, i) => {
    const mask = r.int(4);
    return {
      name: `b${i}`,
      parent: i === 0 ? 0 : r.int(i),
      position: Float32Array.from({ length: 3 }, r.float),
      rotation: Float32Array.from({ length: 4 }, r.float),
      scale: Float32Array.from({ length: 3 }, r.float),
      offsetMatrix: Float32Array.from({ length: 12 }, r.float),
      collisionMask: mask,
      radius: mask & 1 ? r.float() : 0,
      box: mask & 2 ? Float32Array.from({ length: 6 }, r.float) : null,
    };
  });
  const bounds = new Float32Array([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
  for (const vb of vertexBuffers) {
    const dv2 = new DataView(vb.data.buffer);
    for (let v = 0; v < vb.vertexCount; v++) {
      for (let c = 0; c < 3; c++) {
        const x = dv2.getFloat32(v * vb.stride + c * 4, true);
        bounds[c] = Math.min(bounds[c], x);
        bounds[c + 3] = Math.max(bounds[c + 3], x);
      }
    }
  }
  const geometryCenters =
    r.next() < 0.5 ? new Float32Array(0) : Float32Array.from({ length: geometries.length * 3 }, r.float);
  return {
    magic: legacy ? 'UMDL' : 'UMD2',
    vertexBuffers,
    indexBuffers: [{ indexCount, indexSize, data: ibData }],
    geometries,
    morphs,
    bones,
    bounds,
    geometryCenters,
    trailing: new Uint8Array(0),
  };
}

function randomAni(seed: number, boneNames: string[]): AniAnimation {
  const r = prng(seed);
  return {
    name: `anim${seed % 100}`,
    length: Math.fround(r.next() * 5),
    tracks: boneNames.map((name) => {
      const keyCount = 1 + r.int(6);
      const channelMask = 1 + r.int(7);
      let t = 0;
      return {
        name,
        channelMask,
        keyCount,
        times: Float32Array.from({ length: keyCount }, () => (t = Math.fround(t + 0.01 + r.next()))),
        positions: channelMask & 1 ? Float32Array.from({ length: keyCount * 3 }, r.float) : null,
        rotations:
          channelMask & 2
            ? Float32Array.from({ length: keyCount * 4 }, () => Math.fround(r.next() - 0.5))
            : null,
        scales: channelMask & 4 ? Float32Array.from({ length: keyCount * 3 }, r.float) : null,
      };
    }),
  };
}

describe('property: random valid file models', () => {
  it('write → read → write is byte-identical (.mdl, .ani)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1 }), (seed) => {
        const m = randomModel(seed);
        const bytes = writeMdl(m);
        expect(firstByteDiff(writeMdl(readMdl(bytes)), bytes)).toBe(-1);
        const a = randomAni(seed, ['a', 'b', 'c']);
        const ab = writeAni(a);
        expect(firstByteDiff(writeAni(readAni(ab)), ab)).toBe(-1);
      }),
      { numRuns: 200 },
    );
  });

  it('random models round-trip byte-identically through a .glb (import → NodeIO → export)', async () => {
    const io = new NodeIO().registerExtensions([MSFTLod]);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1 }), async (seed) => {
        const m = randomModel(seed);
        const bytes = writeMdl(m);
        const { document } = importUrho(readMdl(bytes), [], { name: 'r' });
        const glb = await io.writeBinary(document);
        if (seed % 4 === 0) {
          const report = await validateGlb(glb);
          expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
        }
        const back = await io.readBinary(glb);
        const out = await exportUrhoModel(back, { name: 'r' });
        expect(firstByteDiff(writeMdl(out.model!), bytes)).toBe(-1);
      }),
      // 1393768165: a bone rotation (0, -0, 0, -0) — a zero quaternion the import makes the identity.
      { numRuns: 60, examples: [[1393768165]] },
    );
  });
});
