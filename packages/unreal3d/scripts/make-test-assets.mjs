#!/usr/bin/env node
/**
 * Writes the sample Unreal meshes of test-assets/unreal3d with this package's own writers
 * (deterministic: no randomness, no dates). Run `npx tsup` first, then
 * `node scripts/make-test-assets.mjs`. The golden test imports `makeAssets` with the sources.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Builds every sample file: name → bytes. `lib` is this package's module (dist or src). */
export function makeAssets(lib) {
  const files = new Map();
  const text = (s) => new TextEncoder().encode(s);

  // cube: 8 shared vertices, 12 triangles on two skins, 9 frames ("Still" + an 8-frame "Pulse").
  {
    const corners = [];
    for (let i = 0; i < 8; i++) corners.push(i & 1 ? 200 : -200, i & 2 ? 200 : -200, i & 4 ? 100 : -100);
    const faces = [
      [0, 2, 3, 1],
      [4, 5, 7, 6],
      [0, 1, 5, 4],
      [2, 6, 7, 3],
      [0, 4, 6, 2],
      [1, 3, 7, 5],
    ];
    const polys = lib.createPolys(12);
    faces.forEach((f, i) => {
      const quad = [
        [f[0], f[1], f[2]],
        [f[0], f[2], f[3]],
      ];
      const uv = [
        [0, 0, 255, 0, 255, 255],
        [0, 0, 255, 255, 0, 255],
      ];
      quad.forEach((tri, k) => {
        const t = i * 2 + k;
        polys.vertices.set(tri, t * 3);
        polys.uvs.set(uv[k], t * 6);
        polys.textures[t] = i < 2 ? 1 : 0;
        polys.types[t] = i < 2 ? 1 : 0; // top/bottom two-sided on skin 1
      });
    });
    const frames = [];
    for (let f = 0; f < 9; f++) {
      const s = f === 0 ? 1 : 1 + 0.25 * Math.sin(((f - 1) / 8) * 2 * Math.PI);
      for (let i = 0; i < 24; i++) frames.push(Math.round(corners[i] * s));
    }
    const data = { header: lib.createDataHeader(12, 8), polys, trailing: new Uint8Array(0) };
    const aniv = {
      numFrames: 9,
      frameSize: 32,
      layout: 'packed',
      numVertices: 8,
      frameCount: 9,
      packed: lib.encodeUnrealPackedArray ? lib.encodeUnrealPackedArray(frames).packed : undefined,
      frameExtra: new Uint8Array(0),
      trailing: new Uint8Array(0),
    };
    files.set('cube_d.3d', lib.writeData(data));
    files.set('cube_a.3d', lib.writeAniv(aniv));
    files.set(
      'cube.uc',
      text(
        lib.writeUc(
          {
            name: 'cube',
            unmirror: false,
            zeroTex: false,
            origin: { x: 0, y: 0, z: -100, pitch: 0, yaw: 0, roll: 0 },
            scale: [0.1, 0.1, 0.2],
            sequences: [
              { name: 'Still', startFrame: 0, numFrames: 1, rate: 1, notifies: [] },
              {
                name: 'Pulse',
                startFrame: 1,
                numFrames: 8,
                rate: 10,
                notifies: [{ time: 0.5, function: 'Beat' }],
              },
            ],
            textures: [
              { num: 0, name: 'CubeSides', file: 'cube_sides.pcx' },
              { num: 1, name: 'CubeCaps', file: 'cube_caps.pcx' },
            ],
            directives: [],
          },
          { fileBase: 'cube' },
        ),
      ),
    );
  }

  // blade: Deus Ex 16-bit layout, masked + unlit translucent styles and a weapon triangle,
  // 6 frames of a swing about the vertical axis.
  {
    const base = [
      [0, -400, 0],
      [6000, -400, 0],
      [6000, 400, 0],
      [0, 400, 0], // blade quad (masked)
      [0, -1200, -300],
      [0, 1200, -300],
      [-1500, 0, -300], // guard (translucent, unlit)
      [-1000, 0, 0],
      [-800, 150, 0],
      [-600, 0, 0], // weapon triangle
    ];
    const polys = lib.createPolys(4);
    const tris = [
      [0, 1, 2],
      [0, 2, 3],
      [4, 5, 6],
      [7, 8, 9],
    ];
    const types = [3, 3, 0x12, 8];
    tris.forEach((t, i) => {
      polys.vertices.set(t, i * 3);
      polys.types[i] = types[i];
      polys.textures[i] = i < 2 ? 0 : 1;
      polys.uvs.set(i < 2 ? [0, 128, 255, 128, 255, 0] : [10, 10, 200, 10, 100, 200], i * 6);
    });
    const xyz = [];
    for (let f = 0; f < 6; f++) {
      const a = (f / 6) * Math.PI * 0.5;
      for (const [x, y, z] of base)
        xyz.push(
          Math.round(x * Math.cos(a) - y * Math.sin(a)),
          Math.round(x * Math.sin(a) + y * Math.cos(a)),
          z,
        );
    }
    const words = lib.encodeDeusExArray(xyz).words;
    const data = { header: lib.createDataHeader(4, 10), polys, trailing: new Uint8Array(0) };
    const aniv = {
      numFrames: 6,
      frameSize: 80,
      layout: 'deusex',
      numVertices: 10,
      frameCount: 6,
      words,
      frameExtra: new Uint8Array(0),
      trailing: new Uint8Array(0),
    };
    files.set('blade_d.3d', lib.writeData(data));
    files.set('blade_a.3d', lib.writeAniv(aniv));
    files.set(
      'blade.uc',
      text(
        lib.writeUc(
          {
            name: 'blade',
            unmirror: false,
            zeroTex: false,
            origin: { x: 0, y: 0, z: 0, pitch: 0, yaw: 0, roll: 0 },
            scale: [0.003125, 0.003125, 0.003125],
            sequences: [{ name: 'Swing', startFrame: 0, numFrames: 6, rate: 12, notifies: [] }],
            textures: [
              { num: 0, name: 'BladeSkin', file: 'blade.pcx' },
              { num: 1, name: 'GuardGlow', file: 'glow.pcx' },
            ],
            directives: [],
          },
          { fileBase: 'blade' },
        ),
      ),
    );
  }
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const here = dirname(fileURLToPath(import.meta.url));
  const lib = await import('../dist/index.js');
  const q = await import('@gltf-legacy/quantize');
  const out = join(here, '../../../test-assets/unreal3d');
  mkdirSync(out, { recursive: true });
  for (const [name, bytes] of makeAssets({ ...lib, ...q })) {
    writeFileSync(join(out, name), bytes);
    console.log(`${name}: ${bytes.length} bytes`);
  }
}
