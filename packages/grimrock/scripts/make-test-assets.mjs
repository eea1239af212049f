/**
 * Writes the small sample files in test-assets/grimrock/ with this package's own writer
 * (deterministic: no randomness, no clock). Run after `npx tsup`:
 *   node packages/grimrock/scripts/make-test-assets.mjs
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emptyVertexArray, makeVertexArray, writeAnimation, writeModel } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '../../../test-assets/grimrock');
mkdirSync(out, { recursive: true });

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
const mat = (t = [0, 0, 0]) => Float32Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1, ...t]);

/**
 * A box from `min` to `max` in Grimrock space (left-handed, Y up): 24 vertices with normals,
 * tangents, bitangents and UVs; triangles clockwise seen from outside (as the game's files).
 */
function box(min, max) {
  const faces = [
    // normal, tangent (U direction), bitangent (V direction: down the texture)
    [
      [0, 0, 1],
      [-1, 0, 0],
      [0, -1, 0],
    ],
    [
      [0, 0, -1],
      [1, 0, 0],
      [0, -1, 0],
    ],
    [
      [1, 0, 0],
      [0, 0, 1],
      [0, -1, 0],
    ],
    [
      [-1, 0, 0],
      [0, 0, -1],
      [0, -1, 0],
    ],
    [
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, -1],
    ],
    [
      [0, -1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ],
  ];
  const c = [0, 1, 2].map((i) => (min[i] + max[i]) / 2);
  const h = [0, 1, 2].map((i) => (max[i] - min[i]) / 2);
  const P = [];
  const N = [];
  const T = [];
  const B = [];
  const UV = [];
  const I = [];
  for (const [n, t, b] of faces) {
    const base = P.length / 3;
    for (const [u, v] of [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ]) {
      // corner = center + n*h + t*(u-0.5)*2h + b*(v-0.5)*2h
      for (let i = 0; i < 3; i++) P.push(c[i] + (n[i] + t[i] * (2 * u - 1) + b[i] * (2 * v - 1)) * h[i]);
      N.push(...n);
      T.push(...t);
      B.push(...b);
      UV.push(u, v);
    }
    // Clockwise seen from the outside in Grimrock's left-handed frame = cross(v1-v0, v2-v0) along n.
    const q = [base, base + 1, base + 2, base, base + 2, base + 3];
    const p = (k) => P.slice(k * 3, k * 3 + 3);
    const [a, bb, cc] = [p(q[0]), p(q[1]), p(q[2])];
    const e1 = [bb[0] - a[0], bb[1] - a[1], bb[2] - a[2]];
    const e2 = [cc[0] - a[0], cc[1] - a[1], cc[2] - a[2]];
    const cr = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    if (cr[0] * n[0] + cr[1] * n[1] + cr[2] * n[2] < 0) I.push(q[0], q[2], q[1], q[3], q[5], q[4]);
    else I.push(...q);
  }
  return { P, N, T, B, UV, I };
}

function meshData(geom, segments, extra = {}) {
  const n = geom.P.length / 3;
  const arrays = Array.from({ length: 15 }, () => emptyVertexArray());
  arrays[0] = makeVertexArray(geom.P, n, 3, 3);
  arrays[1] = makeVertexArray(geom.N, n, 3, 3);
  arrays[2] = makeVertexArray(geom.T, n, 3, 3);
  arrays[3] = makeVertexArray(geom.B, n, 3, 3);
  arrays[5] = makeVertexArray(geom.UV, n, 3, 2);
  if (extra.joints) arrays[13] = makeVertexArray(extra.joints, n, 2, 4);
  if (extra.weights) arrays[14] = makeVertexArray(extra.weights, n, 3, 4);
  const min = [0, 1, 2].map((c) => Math.min(...geom.P.filter((_, i) => i % 3 === c)));
  const max = [0, 1, 2].map((c) => Math.max(...geom.P.filter((_, i) => i % 3 === c)));
  const center = [0, 1, 2].map((c) => (min[c] + max[c]) / 2);
  let radius = 0;
  for (let v = 0; v < n; v++)
    radius = Math.max(radius, Math.hypot(...[0, 1, 2].map((c) => geom.P[v * 3 + c] - center[c])));
  return {
    magic: 'MESH',
    version: 2,
    numVertices: n,
    arrays,
    indices: Int32Array.from(geom.I),
    segments,
    boundCenter: Float32Array.from(center),
    boundRadius: radius,
    boundMin: Float32Array.from(min),
    boundMax: Float32Array.from(max),
  };
}

const written = [];
function save(name, bytes) {
  writeFileSync(join(out, name), bytes);
  written.push(`${name} ${bytes.length}`);
}

// 1. crate.model: a static 0.5 m crate with one material.
{
  const geom = box([-0.25, 0, -0.25], [0.25, 0.5, 0.25]);
  save(
    'crate.model',
    writeModel({
      magic: 'MDL1',
      version: 2,
      nodes: [
        { name: 'RootNode', localToParent: Float32Array.from(IDENTITY), parent: -1, type: -1 },
        {
          name: 'crate_mesh',
          localToParent: mat(),
          parent: 0,
          type: 0,
          meshEntity: {
            mesh: meshData(geom, [{ material: 'crate', primitiveType: 2, firstIndex: 0, count: 12 }]),
            bones: [],
            emissiveColor: new Float32Array(3),
            castShadow: 1,
          },
        },
      ],
    }),
  );
}

// 2. lever.model: a skinned lever (base + handle bones, two materials) with two animations.
{
  const base = box([-0.2, 0, -0.1], [0.2, 0.1, 0.1]);
  const handle = box([-0.03, 0.1, -0.03], [0.03, 0.6, 0.03]);
  const off = base.P.length / 3;
  const geom = {
    P: [...base.P, ...handle.P],
    N: [...base.N, ...handle.N],
    T: [...base.T, ...handle.T],
    B: [...base.B, ...handle.B],
    UV: [...base.UV, ...handle.UV],
    I: [...base.I, ...handle.I.map((i) => i + off)],
  };
  const n = geom.P.length / 3;
  const joints = [];
  const weights = [];
  for (let v = 0; v < n; v++) {
    joints.push(v < off ? 0 : 1, 0, 0, 0);
    weights.push(1, 0, 0, 0);
  }
  // Bone rest transforms: base at the origin, handle pivot at y = 0.1.
  const invBase = mat([0, 0, 0]);
  const invHandle = mat([0, -0.1, 0]);
  save(
    'lever.model',
    writeModel({
      magic: 'MDL1',
      version: 2,
      nodes: [
        { name: 'RootNode', localToParent: Float32Array.from(IDENTITY), parent: -1, type: -1 },
        { name: 'b_base', localToParent: mat(), parent: 0, type: -1 },
        { name: 'b_handle', localToParent: mat([0, 0.1, 0]), parent: 1, type: -1 },
        {
          name: 'lever_mesh',
          localToParent: mat(),
          parent: 0,
          type: 0,
          meshEntity: {
            mesh: meshData(
              geom,
              [
                { material: 'lever_base', primitiveType: 2, firstIndex: 0, count: base.I.length / 3 },
                {
                  material: 'lever_handle',
                  primitiveType: 2,
                  firstIndex: base.I.length,
                  count: handle.I.length / 3,
                },
              ],
              { joints, weights },
            ),
            bones: [
              { nodeIndex: 1, invRestMatrix: invBase },
              { nodeIndex: 2, invRestMatrix: invHandle },
            ],
            emissiveColor: new Float32Array(3),
            castShadow: 1,
          },
        },
      ],
    }),
  );
  // Handle tilts from −45° to +45° about X.
  const tilt = (frames) => {
    const rot = [];
    for (let k = 0; k < frames; k++) {
      const a = ((-45 + (90 * k) / (frames - 1)) * Math.PI) / 180;
      rot.push(Math.sin(a / 2), 0, 0, Math.cos(a / 2));
    }
    return rot;
  };
  // lever_pull.animation: Grimrock 1 layout (v1), 30 fps, 10 frames, full keys per frame.
  {
    const frames = 10;
    const rot = tilt(frames);
    const pos = [];
    const scl = [];
    for (let k = 0; k < frames; k++) {
      pos.push(0, 0.1, 0);
      scl.push(1, 1, 1);
    }
    save(
      'lever_pull.animation',
      writeAnimation({
        magic: 'ANIM',
        version: 1,
        name: '',
        framesPerSecond: 30,
        numFrames: frames,
        items: [
          {
            nodeName: 'b_handle',
            positions: Float32Array.from(pos),
            rotations: Float32Array.from(rot),
            scales: Float32Array.from(scl),
          },
        ],
      }),
    );
  }
  // lever_push.animation: Grimrock 2 layout (v2), 24 fps, 8 frames; position and scale constant.
  {
    const frames = 8;
    const rot = tilt(frames);
    const back = [];
    for (let k = frames - 1; k >= 0; k--) back.push(...rot.slice(k * 4, k * 4 + 4));
    save(
      'lever_push.animation',
      writeAnimation({
        magic: 'ANIM',
        version: 2,
        name: '',
        framesPerSecond: 24,
        numFrames: frames,
        items: [
          {
            nodeName: 'b_handle',
            positions: Float32Array.of(0, 0.1, 0),
            rotations: Float32Array.from(back),
            scales: Float32Array.of(1, 1, 1),
          },
        ],
      }),
    );
  }
}

console.log(written.join('\n'));
