import { firstByteDiff } from '@gltf-legacy/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AnimationFile,
  dataTypeSize,
  exportGrimrock,
  importGrimrock,
  type ModelFile,
  type ModelNode,
  readAnimation,
  readModel,
  type VertexArray,
  writeAnimation,
  writeModel,
} from '../src/index.js';

const f32 = fc.float({ noNaN: true });
const vec = (n: number) => fc.array(f32, { minLength: n, maxLength: n }).map((a) => Float32Array.from(a));
const name = fc.string({ maxLength: 12 });

/** A vertex array with a random layout whose stride matches dim × size (or is unused). */
function vertexArray(n: number, forceUsed = false): fc.Arbitrary<VertexArray> {
  return fc
    .record({
      dataType: fc.integer({ min: 0, max: 3 }),
      dim: fc.integer({ min: 1, max: 4 }),
      used: forceUsed ? fc.constant(true) : fc.boolean(),
    })
    .chain(({ dataType, dim, used }) => {
      const stride = used ? dim * dataTypeSize(dataType)! : 0;
      return fc
        .uint8Array({ minLength: n * stride, maxLength: n * stride })
        .map((data) => ({ dataType: used ? dataType : 0, dim: used ? dim : 0, stride, data }));
    });
}

function modelArb(opts: { importable: boolean }): fc.Arbitrary<ModelFile> {
  return fc.integer({ min: 1, max: 5 }).chain((numNodes) =>
    fc
      .tuple(
        ...Array.from({ length: numNodes }, (_, i) =>
          fc.record({
            name: opts.importable ? fc.constant(`node${i}`) : name,
            localToParent: vec(12),
            parent: i === 0 ? fc.constant(-1) : fc.integer({ min: -1, max: i - 1 }),
            mesh: fc.option(
              fc.integer({ min: opts.importable ? 3 : 0, max: 6 }).chain((nv) =>
                fc.record({
                  numVertices: fc.constant(nv),
                  position: opts.importable
                    ? fc.array(f32, { minLength: nv * 3, maxLength: nv * 3 }).map((a) => {
                        const data = new Uint8Array(new Float32Array(a).buffer);
                        return { dataType: 3, dim: 3, stride: 12, data };
                      })
                    : vertexArray(nv),
                  others: fc.array(vertexArray(nv), { minLength: 14, maxLength: 14 }),
                  tris: fc.array(fc.integer({ min: 0, max: Math.max(0, nv - 1) }), {
                    minLength: 3,
                    maxLength: 12,
                  }),
                  material: opts.importable ? fc.constantFrom('stone', 'iron') : name,
                  bones: fc.array(fc.integer({ min: 0, max: numNodes - 1 }), {
                    maxLength: opts.importable ? 0 : 3,
                  }),
                  bounds: vec(10),
                  castShadow: fc.integer({ min: 0, max: 255 }),
                  emissive: vec(3),
                }),
              ),
              { nil: undefined },
            ),
          }),
        ),
      )
      .map((raw) => {
        const nodes: ModelNode[] = raw.map((r) => {
          const node: ModelNode = {
            name: r.name,
            localToParent: r.localToParent,
            parent: r.parent,
            type: r.mesh ? 0 : -1,
          };
          const m = r.mesh;
          if (m) {
            const indices = Int32Array.from(m.tris.slice(0, m.tris.length - (m.tris.length % 3)));
            node.meshEntity = {
              mesh: {
                magic: 'MESH',
                version: 2,
                numVertices: m.numVertices,
                arrays: [m.position, ...m.others],
                indices,
                segments: [
                  { material: m.material, primitiveType: 2, firstIndex: 0, count: indices.length / 3 },
                ],
                boundCenter: m.bounds.subarray(0, 3),
                boundRadius: m.bounds[3],
                boundMin: m.bounds.subarray(4, 7),
                boundMax: m.bounds.subarray(7, 10),
              },
              bones: m.bones.map((b) => ({ nodeIndex: b, invRestMatrix: new Float32Array(12) })),
              emissiveColor: m.emissive,
              castShadow: m.castShadow,
            };
          }
          return node;
        });
        return { magic: 'MDL1', version: 2, nodes };
      }),
  );
}

function animationArb(names: string[]): fc.Arbitrary<AnimationFile> {
  return fc
    .record({
      version: fc.constantFrom(1, 2),
      numFrames: fc.integer({ min: 2, max: 6 }),
      fps: fc.constantFrom(24, 30, 12.5),
    })
    .chain(({ version, numFrames, fps }) =>
      fc
        .array(
          fc.record({
            nodeName: fc.constantFrom(...names),
            counts: fc.tuple(
              ...[0, 1, 2].map(() =>
                version === 1 ? fc.constant(numFrames) : fc.constantFrom(1, numFrames),
              ),
            ),
            values: fc.array(fc.float({ noNaN: true, min: -100, max: 100 }), {
              minLength: numFrames * 10,
              maxLength: numFrames * 10,
            }),
          }),
          { minLength: 1, maxLength: names.length },
        )
        .map((items) => {
          const unique = items.filter((it, i) => items.findIndex((o) => o.nodeName === it.nodeName) === i);
          return {
            magic: 'ANIM',
            version,
            name: '',
            framesPerSecond: fps,
            numFrames,
            items: unique.map((it) => {
              const [np, nr, ns] = it.counts;
              const rotations = new Float32Array(nr * 4);
              for (let k = 0; k < nr; k++) {
                // Unit quaternions, as the game writes them.
                const q = it.values.slice(k * 4, k * 4 + 4);
                const l = Math.hypot(...q) || 1;
                rotations.set(
                  q.map((x) => (Math.hypot(...q) ? x / l : 0)),
                  k * 4,
                );
                if (!Math.hypot(...q)) rotations[k * 4 + 3] = 1;
              }
              return {
                nodeName: it.nodeName,
                positions: Float32Array.from(it.values.slice(0, np * 3)),
                rotations,
                scales: Float32Array.from(it.values.slice(numFrames * 4, numFrames * 4 + ns * 3)),
              };
            }),
          } satisfies AnimationFile;
        }),
    );
}

describe('property: file model round trips', () => {
  it('writeModel(readModel(writeModel(m))) is stable for random models', () => {
    fc.assert(
      fc.property(modelArb({ importable: false }), (m) => {
        const bytes = writeModel(m);
        const back = writeModel(readModel(bytes));
        expect(firstByteDiff(back, bytes)).toBe(-1);
      }),
      { numRuns: 100 },
    );
  });

  it('writeAnimation(readAnimation(b)) is stable for random v1/v2 animations', () => {
    fc.assert(
      fc.property(animationArb(['a', 'b', 'c']), (a) => {
        const bytes = writeAnimation(a);
        expect(firstByteDiff(writeAnimation(readAnimation(bytes)), bytes)).toBe(-1);
      }),
      { numRuns: 100 },
    );
  });
});

describe('property: import → export is byte-identical', () => {
  it('for random models with any vertex array layouts', async () => {
    await fc.assert(
      fc.asyncProperty(modelArb({ importable: true }), async (m) => {
        const bytes = writeModel(m);
        const { document } = importGrimrock(new Map([['m.model', bytes]]));
        const { files } = await exportGrimrock(document, { name: 'm' });
        expect(firstByteDiff(files.get('m.model')!, bytes)).toBe(-1);
      }),
      { numRuns: 40 },
    );
  });

  it('for random animations of a model', async () => {
    const names = ['RootNode', 'hip', 'spine', 'head'];
    const model: ModelFile = {
      magic: 'MDL1',
      version: 2,
      nodes: names.map((n, i) => ({
        name: n,
        localToParent: Float32Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, i, 0),
        parent: i - 1,
        type: -1,
      })),
    };
    const modelBytes = writeModel(model);
    await fc.assert(
      fc.asyncProperty(animationArb(names), async (a) => {
        const bytes = writeAnimation(a);
        const { document } = importGrimrock(
          new Map([
            ['m.model', modelBytes],
            ['m_x.animation', bytes],
          ]),
        );
        const { files } = await exportGrimrock(document, { name: 'm' });
        expect(firstByteDiff(files.get('m_x.animation')!, bytes)).toBe(-1);
      }),
      { numRuns: 40 },
    );
  });
});
