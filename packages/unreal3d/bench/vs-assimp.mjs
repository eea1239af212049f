#!/usr/bin/env node
/**
 * Static conversion of a large mesh, whole process: ours (`node bench/convert-static.mjs`) vs
 * `assimp export X_d.3d out.glb -fglb2` (if installed). Median of 5. Run `npx tsup` first.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeUnrealPackedArray } from '@gltf-legacy/quantize';
import { createDataHeader, createPolys, writeAniv, writeData } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const N = Number(process.argv[3] ?? 90); // assimp reads frameSize as a signed i16: ≤ 8191 vertices
const FRAMES = Number(process.argv[2] ?? 30);
const nv = N * N;
const tris = (N - 1) * (N - 1) * 2;
const polys = createPolys(tris);
let t = 0;
for (let y = 0; y < N - 1; y++) {
  for (let x = 0; x < N - 1; x++) {
    const a = y * N + x;
    for (const tri of [
      [a, a + 1, a + N + 1],
      [a, a + N + 1, a + N],
    ]) {
      polys.vertices.set(tri, t * 3);
      for (let c = 0; c < 3; c++) {
        polys.uvs[t * 6 + c * 2] = ((tri[c] % N) * 255) / (N - 1);
        polys.uvs[t * 6 + c * 2 + 1] = (Math.floor(tri[c] / N) * 255) / (N - 1);
      }
      t++;
    }
  }
}
const xyz = new Float64Array(FRAMES * nv * 3);
for (let f = 0; f < FRAMES; f++)
  for (let i = 0; i < nv; i++) {
    const o = (f * nv + i) * 3;
    xyz[o] = (i % N) * 16 - 1000;
    xyz[o + 1] = Math.floor(i / N) * 16 - 1000;
    xyz[o + 2] = Math.round(200 * Math.sin(xyz[o] / 150 + f / 5));
  }
const dir = mkdtempSync(join(tmpdir(), 'u3bench-'));
writeFileSync(
  join(dir, 'big_d.3d'),
  writeData({ header: createDataHeader(tris, nv), polys, trailing: new Uint8Array(0) }),
);
writeFileSync(
  join(dir, 'big_a.3d'),
  writeAniv({
    numFrames: FRAMES,
    frameSize: nv * 4,
    layout: 'packed',
    numVertices: nv,
    frameCount: FRAMES,
    packed: encodeUnrealPackedArray(xyz).packed,
    frameExtra: new Uint8Array(0),
    trailing: new Uint8Array(0),
  }),
);

function median(cmd, args) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    execFileSync(cmd, args, { stdio: 'ignore' });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[2];
}
console.log(`mesh: ${nv} vertices, ${tris} triangles, ${FRAMES} frames`);
console.log(
  `ours   (node, whole process): ${median('node', [join(here, 'convert-static.mjs'), join(dir, 'big_d.3d'), join(dir, 'ours.glb')]).toFixed(0)} ms`,
);
try {
  console.log(
    `assimp (whole process):       ${median('assimp', ['export', join(dir, 'big_d.3d'), join(dir, 'assimp.glb'), '-fglb2']).toFixed(0)} ms`,
  );
} catch (e) {
  console.log(`assimp not available: ${e.message.split('\n')[0]}`);
}
