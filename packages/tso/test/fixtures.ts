/**
 * Deterministic synthetic TSO files made with our own writer (no real .skel/.anim exist in the
 * corpus). Shared by the tests and by test/assets.test.ts, which writes them to test-assets/tso.
 */
import type { TsoAnimation, TsoMesh, TsoSkeleton } from '../src/index.js';

const S = Math.SQRT1_2;

/**
 * Two bones in raw TSO space: ROOT at (1, 2, 0); ARM under it at (0, 1, 0) turned 90° about Z
 * (raw quaternion (0, 0, √½, √½)). ROOT carries one property pair.
 */
export function twoBoneSkeleton(): TsoSkeleton {
  return {
    version: 1,
    name: 'twobone',
    bones: [
      {
        unknown: 0,
        name: 'ROOT',
        parentName: 'NULL',
        hasProps: 1,
        props: [[['type', 'root']]],
        translation: new Float32Array([1, 2, 0]),
        rotation: new Float32Array([0, 0, 0, 1]),
        canTranslate: 1,
        canRotate: 1,
        canBlend: 0,
        wiggleValue: 0,
        wigglePower: 0,
      },
      {
        unknown: 7,
        name: 'ARM',
        parentName: 'ROOT',
        hasProps: 0,
        props: [],
        translation: new Float32Array([0, 1, 0]),
        rotation: new Float32Array([0, 0, S, S]),
        canTranslate: 0,
        canRotate: 1,
        canBlend: 1,
        wiggleValue: 0.25,
        wigglePower: 2,
      },
    ],
    trailing: new Uint8Array(0),
  };
}

/**
 * Four real vertices (two per bone) and one blend vertex (ARM, weight 0x4000 = 0.5) pulling on
 * vertex 1. Raw positions are in bone space; the blend vertex sits at the same rest position as
 * vertex 1 (so glTF skinning matches TSO's blend exactly when animated).
 */
export function twoBoneMesh(): TsoMesh {
  return {
    version: 2,
    boneNames: ['ROOT', 'ARM'],
    indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    bindings: [
      {
        boneIndex: 0,
        firstRealVertex: 0,
        realVertexCount: 2,
        firstBlendVertex: 0xffffffff,
        blendVertexCount: 0,
      },
      { boneIndex: 1, firstRealVertex: 2, realVertexCount: 2, firstBlendVertex: 0, blendVertexCount: 1 },
    ],
    uvs: new Float32Array([0, 0, 1, 0, 1, 1, 0, 1]),
    blendData: new Uint32Array([0x4000, 1]),
    vertexCount2: 4,
    // x, y, z, nx, ny, nz
    realVertices: new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1]),
    blendVertices: new Float32Array([1, 0, 1, 0, 0, 1]),
    trailing: new Uint8Array(0),
  };
}

/**
 * Three frames over 1000 ms (3 fps): ROOT slides along raw +X (1→2→3), ARM turns 0°, 90°, 180°
 * about raw Z. ARM carries a time property (an `xevt` at frame 1).
 */
export function twoBoneAnimation(): TsoAnimation {
  return {
    version: 2,
    name: 'wave',
    duration: 1000,
    distance: 0,
    isMoving: 1,
    translations: new Float32Array([1, 2, 0, 2, 2, 0, 3, 2, 0]),
    rotations: new Float32Array([0, 0, 0, 1, 0, 0, S, S, 0, 0, 1, 0]),
    motions: [
      {
        unknown: 0,
        boneName: 'ROOT',
        frameCount: 3,
        duration: 1000,
        hasTranslation: 1,
        hasRotation: 0,
        firstTranslation: 0,
        firstRotation: -1,
        hasProps: 0,
        props: [],
        hasTimeProps: 0,
        timeProps: [],
      },
      {
        unknown: 0,
        boneName: 'ARM',
        frameCount: 3,
        duration: 1000,
        hasTranslation: 0,
        hasRotation: 1,
        firstTranslation: -1,
        firstRotation: 0,
        hasProps: 1,
        props: [[[['loop', '1']]]],
        hasTimeProps: 1,
        timeProps: [[{ id: 1, props: [[['xevt', 'wave_sound']]] }]],
      },
    ],
    trailing: new Uint8Array(0),
  };
}

const ADULT: [string, string][] = [
  ['ROOT', 'NULL'],
  ['PELVIS', 'ROOT'],
  ['SPINE', 'PELVIS'],
  ['SPINE1', 'SPINE'],
  ['SPINE2', 'SPINE1'],
  ['NECK', 'SPINE2'],
  ['HEAD', 'NECK'],
  ['L_ARM', 'SPINE2'],
  ['L_ARM1', 'L_ARM'],
  ['L_ARM2', 'L_ARM1'],
  ['L_HAND', 'L_ARM2'],
  ['R_ARM', 'SPINE2'],
  ['R_ARM1', 'R_ARM'],
  ['R_ARM2', 'R_ARM1'],
  ['R_HAND', 'R_ARM2'],
  ['L_LEG', 'PELVIS'],
  ['L_LEG1', 'L_LEG'],
  ['L_FOOT', 'L_LEG1'],
  ['L_TOE0', 'L_FOOT'],
  ['R_LEG', 'PELVIS'],
  ['R_LEG1', 'R_LEG'],
  ['R_FOOT', 'R_LEG1'],
  ['R_TOE0', 'R_FOOT'],
];

/**
 * A made-up adult-like skeleton (NOT the game's adult.skel) holding every bone name the corpus
 * meshes use, with deterministic non-trivial translations (≤ 1 unit) and rotations.
 */
export function syntheticAdultSkeleton(): TsoSkeleton {
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  return {
    version: 1,
    name: 'synthetic-adult',
    bones: ADULT.map(([name, parentName]) => {
      const axis = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
      const len = Math.hypot(...axis);
      const angle = rnd() * Math.PI;
      const s = Math.sin(angle / 2) / len;
      return {
        unknown: 0,
        name,
        parentName,
        hasProps: 0,
        props: [],
        translation: new Float32Array([rnd() - 0.5, rnd(), rnd() - 0.5]),
        rotation: new Float32Array([axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)]),
        canTranslate: name === 'ROOT' ? 1 : 0,
        canRotate: 1,
        canBlend: 1,
        wiggleValue: 0,
        wigglePower: 0,
      };
    }),
    trailing: new Uint8Array(0),
  };
}

/**
 * A unit cube (24 vertices, 12 triangles, normals of length 1) bound to R_HAND, like a hand-held
 * accessory. Raw TSO space: counter-clockwise around the outward normals.
 */
export function handCube(): TsoMesh {
  const faces: [number[], number[], number[]][] = [
    // normal, u axis, v axis
    [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    [
      [-1, 0, 0],
      [0, 0, 1],
      [0, 1, 0],
    ],
    [
      [0, 1, 0],
      [0, 0, 1],
      [1, 0, 0],
    ],
    [
      [0, -1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ],
    [
      [0, 0, 1],
      [1, 0, 0],
      [0, 1, 0],
    ],
    [
      [0, 0, -1],
      [0, 1, 0],
      [1, 0, 0],
    ],
  ];
  const verts: number[] = [];
  const uvs: number[] = [];
  const idx: number[] = [];
  for (const [n, u, v] of faces) {
    const base = verts.length / 6;
    for (const [a, b] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ]) {
      for (let c = 0; c < 3; c++) verts.push((n[c] + a * u[c] + b * v[c]) * 0.05);
      verts.push(...n);
      uvs.push((a + 1) / 2, (1 - b) / 2);
    }
    idx.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  return {
    version: 2,
    boneNames: ['R_HAND'],
    indices: Uint32Array.from(idx),
    bindings: [
      {
        boneIndex: 0,
        firstRealVertex: 0,
        realVertexCount: 24,
        firstBlendVertex: 0xffffffff,
        blendVertexCount: 0,
      },
    ],
    uvs: Float32Array.from(uvs),
    blendData: new Uint32Array(0),
    vertexCount2: 24,
    realVertices: Float32Array.from(verts),
    blendVertices: new Float32Array(0),
    trailing: new Uint8Array(0),
  };
}
