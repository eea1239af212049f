#!/usr/bin/env node
/**
 * Benchmark on a large synthetic mesh written by this package (deterministic): a 126×126 grid
 * (15 876 vertices, 31 250 triangles) with 60 frames of a travelling wave. Measures read, import
 * (all frames and `frames: 'first'`), export (native path) and write; median of 5 runs.
 * Then (issue 19) all frames → .glb as a whole process (`bench/frames-glb.mjs`, one child process
 * per run, so peak RSS is its own) in four morph modes — `compact: true` (issue 19's quantized
 * encoding, the default until issue 30) with and without frame normals, and the portable default
 * (float32, sparse where smaller) with and without — on the same grid with `--frames` frames (default 1000: 63.5 MB of
 * `_a.3d`) and on the repository bench's input (tools/bench/src/synth.mjs: 8 100 vertices × 200
 * frames, a random UV per corner, so ~6 glTF vertices per file vertex); `--runs` (default 3),
 * median. Prints .glb ÷ _a.3d, MB/s of _a.3d (wall, and CPU time of the process: user + system,
 * steadier on a shared machine) and peak RSS ÷ (input + output).
 * Run `npx tsup` first; `pnpm bench` runs it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
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

const { values: argv } = parseArgs({
  options: { frames: { type: 'string', default: '1000' }, runs: { type: 'string', default: '3' } },
});
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
/** The grid's `_a.3d`: a travelling wave over `frames` frames. */
function gridAniv(frames) {
  const xyz = new Float64Array(frames * nv * 3);
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < nv; i++) {
      const x = (i % N) * 16 - 1000;
      const y = Math.floor(i / N) * 16 - 1000;
      const o = (f * nv + i) * 3;
      xyz[o] = x;
      xyz[o + 1] = y;
      xyz[o + 2] = Math.round(200 * Math.sin(x / 150 + (f / frames) * 2 * Math.PI));
    }
  }
  return writeAniv({
    numFrames: frames,
    frameSize: nv * 4,
    layout: 'packed',
    numVertices: nv,
    frameCount: frames,
    packed: encodeUnrealPackedArray(xyz).packed,
    frameExtra: new Uint8Array(0),
    trailing: new Uint8Array(0),
  });
}
const dataBytes = writeData({ header: createDataHeader(tris, nv), polys, trailing: new Uint8Array(0) });
const anivBytes = gridAniv(FRAMES);
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

// ---- issues 19 and 30: all frames → .glb, whole process, compact and portable morph modes
const MB = 1e6;
const work = mkdtempSync(join(tmpdir(), 'unreal3d-bench-'));
const MODES = {
  'compact: true': ['--compact'],
  'compact, no normals': ['--compact', '--no-frame-normals'],
  'default (portable)': [],
  'frameNormals: false': ['--no-frame-normals'],
};
const script = new URL('./frames-glb.mjs', import.meta.url).pathname;
const runs = Number(argv.runs);

/** Whole-process runs of each mode on `<base>_d.3d`: median ms, .glb bytes, peak RSS. */
function framesModes(base) {
  const out = {};
  for (const [mode, flags] of Object.entries(MODES)) {
    const samples = [];
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      const p = spawnSync(process.execPath, [script, `${base}_d.3d`, join(work, 'out.glb'), ...flags], {
        encoding: 'utf8',
      });
      const ms = performance.now() - t0;
      if (p.status !== 0) throw new Error(`${mode}: ${p.stderr}`);
      samples.push({ ms, ...JSON.parse(p.stdout.trim().split('\n').pop()) });
    }
    // Each figure its own median (peak RSS swings with GC timing on a loaded machine).
    const med = (k) => samples.map((x) => x[k]).sort((a, b) => a - b)[samples.length >> 1];
    out[mode] = { ms: med('ms'), cpuMs: med('cpuMs'), maxRss: med('maxRss'), glbBytes: med('glbBytes') };
  }
  return out;
}

function printModes(label, base) {
  const d = statSync(`${base}_d.3d`).size;
  const a = statSync(`${base}_a.3d`).size;
  console.log(
    `\n${label}: _a.3d ${(a / MB).toFixed(1)} MB (+ _d.3d ${(d / MB).toFixed(2)} MB), median of ${runs}`,
  );
  console.log(
    `${'mode'.padEnd(22)} ${'.glb MB'.padStart(9)} ${'÷ _a.3d'.padStart(8)} ${'wall s'.padStart(7)} ${'MB/s'.padStart(7)} ${'CPU s'.padStart(7)} ${'MB/s'.padStart(7)} ${'RSS MB'.padStart(8)} ${'÷ (in+out)'.padStart(10)}`,
  );
  const res = framesModes(base);
  for (const [mode, r] of Object.entries(res)) {
    console.log(
      `${mode.padEnd(22)} ${(r.glbBytes / MB).toFixed(1).padStart(9)} ${(r.glbBytes / a).toFixed(2).padStart(8)} ${(r.ms / 1000).toFixed(2).padStart(7)} ${(a / MB / (r.ms / 1000)).toFixed(1).padStart(7)} ${(r.cpuMs / 1000).toFixed(2).padStart(7)} ${(a / MB / (r.cpuMs / 1000)).toFixed(1).padStart(7)} ${(r.maxRss / MB).toFixed(0).padStart(8)} ${(r.maxRss / (d + a + r.glbBytes)).toFixed(2).padStart(10)}`,
    );
  }
}

const load0 = loadavg()[0];
const frames = Number(argv.frames);
writeFileSync(join(work, 'grid_d.3d'), dataBytes);
writeFileSync(join(work, 'grid_a.3d'), gridAniv(frames));
printModes(
  `issue 19, all frames → .glb (whole process): ${N}×${N} grid, ${nv} vertices × ${frames} frames`,
  join(work, 'grid'),
);
rmSync(join(work, 'grid_a.3d'));
const unreal = await import('../dist/index.js');
const { unrealModels } = await import('../../../tools/bench/src/synth.mjs');
const synth = unrealModels(unreal, { vertices: 8100, frames: 200 });
writeFileSync(join(work, 'synth_d.3d'), unreal.writeData(synth.data));
writeFileSync(join(work, 'synth_a.3d'), unreal.writeAniv(synth.aniv));
printModes(
  'repository bench input (tools/bench/src/synth.mjs): 8100 vertices × 200 frames, random UV per corner',
  join(work, 'synth'),
);
console.log(`load average (1 min) ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
rmSync(work, { recursive: true, force: true });
// issue 28: UE1 packages — listing exports, package vs sources conversion (bench/package.mjs)
console.log('\nissue 28, UE1 packages (bench/package.mjs, CPU time):');
spawnSync(process.execPath, [join(import.meta.dirname, 'package.mjs')], { stdio: 'inherit' });
