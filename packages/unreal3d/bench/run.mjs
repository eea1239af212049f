#!/usr/bin/env node
/**
 * Benchmark on a large synthetic mesh written by this package (deterministic): a 126×126 grid
 * (15 876 vertices, 31 250 triangles) with 60 frames of a travelling wave. Measures read, import
 * (all frames and `frames: 'first'`), export (native path) and write; median of 5 runs.
 * Run `npx tsup` first; `pnpm bench` runs it.
 */
import { NodeIO } from '@gltf-transform/core';
import { encodeUnrealPackedArray } from '@gltf-legacy/quantize';
import {
  createDataHeader,
  createPolys,
  exportUnrealModel,
  importUnreal,
  readAniv,
  readData,
  writeAniv,
  writeData,
} from '../dist/index.js';

const N = 126;
const FRAMES = 60;
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
for (let f = 0; f < FRAMES; f++) {
  for (let i = 0; i < nv; i++) {
    const x = (i % N) * 16 - 1000;
    const y = Math.floor(i / N) * 16 - 1000;
    const o = (f * nv + i) * 3;
    xyz[o] = x;
    xyz[o + 1] = y;
    xyz[o + 2] = Math.round(200 * Math.sin(x / 150 + (f / FRAMES) * 2 * Math.PI));
  }
}
const dataBytes = writeData({ header: createDataHeader(tris, nv), polys, trailing: new Uint8Array(0) });
const anivBytes = writeAniv({
  numFrames: FRAMES,
  frameSize: nv * 4,
  layout: 'packed',
  numVertices: nv,
  frameCount: FRAMES,
  packed: encodeUnrealPackedArray(xyz).packed,
  frameExtra: new Uint8Array(0),
  trailing: new Uint8Array(0),
});
const totalMB = (dataBytes.length + anivBytes.length) / 1e6;

function median(fn, runs = 5) {
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(runs / 2)], result };
}
async function medianAsync(fn, runs = 5) {
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(runs / 2)], result };
}

const read = median(() => {
  const data = readData(dataBytes, 'bench_d.3d');
  const aniv = readAniv(anivBytes, 'bench_a.3d', { numVertices: data.header.numVertices });
  return { data, aniv };
});
const files = { ...read.result, name: 'bench', fileBase: 'bench' };
const imp = median(() => importUnreal(files));
const impStatic = median(() => importUnreal(files, { frames: 'first' }));
const exp = await medianAsync(() => exportUnrealModel(imp.result, { name: 'bench' }));
const write = median(() => [writeData(exp.result.data), writeAniv(exp.result.aniv)]);
const io = new NodeIO();
const staticGlb = await medianAsync(async () => {
  const data = readData(dataBytes, 'bench_d.3d');
  const aniv = readAniv(anivBytes, 'bench_a.3d', { numVertices: data.header.numVertices });
  return io.writeBinary(importUnreal({ data, aniv, name: 'bench' }, { frames: 'first' }));
});

const row = (label, ms, mb) =>
  console.log(
    `${label.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms ${(mb / (ms / 1000)).toFixed(1).padStart(8)} MB/s`,
  );
console.log(
  `synthetic mesh: ${nv} vertices, ${tris} triangles, ${FRAMES} frames; _d.3d ${dataBytes.length} B + _a.3d ${anivBytes.length} B`,
);
row('read (_d.3d + _a.3d)', read.ms, totalMB);
row('import, all frames → Document', imp.ms, totalMB);
row("import, frames: 'first'", impStatic.ms, totalMB);
row('export Document → file model', exp.ms, totalMB);
row('write (_d.3d + _a.3d)', write.ms, totalMB);
row(
  'static _d.3d → .glb bytes (read+import+GLB)',
  staticGlb.ms,
  dataBytes.length / 1e6 + anivBytes.length / FRAMES / 1e6,
);
const same =
  Buffer.compare(Buffer.from(write.result[0]), Buffer.from(dataBytes)) === 0 &&
  Buffer.compare(Buffer.from(write.result[1]), Buffer.from(anivBytes)) === 0;
console.log(`round trip byte-identical: ${same}`);
