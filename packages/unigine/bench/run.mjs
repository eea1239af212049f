// Benchmark on a large synthetic UNIGINE model written by this package (deterministic).
// Run `npx tsup` first; `pnpm bench` runs this against dist/.
import { performance } from 'node:perf_hooks';
import { NodeIO } from '@gltf-transform/core';
import { prepare } from '@gltf-legacy/prepare';
import {
  UNIGINE_LIMITS,
  exportUnigine,
  importUnigine,
  readAnim,
  readMesh,
  writeAnim,
  writeMesh,
} from '../dist/index.js';

const GRID = 320; // 320 × 320 = 102 400 vertices, 203 522 triangles (int32 triangle indices)
const BONES = 64;
const FRAMES = 300;

function syntheticMesh() {
  const n = GRID * GRID;
  const pos = new Float32Array(n * 3);
  const tangents = new Int16Array(n * 4);
  const uv0 = new Float32Array(n * 2);
  const counts = new Uint8Array(n).fill(2);
  const starts = new Uint32Array(n + 1);
  const wb = new Int16Array(n * 2);
  const wv = new Uint16Array(n * 2);
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const v = y * GRID + x;
      pos.set([x / 10, y / 10, Math.sin(x / 7) * Math.cos(y / 9)], v * 3);
      tangents.set([0, 0, 0, 32767], v * 4);
      uv0.set([x / GRID, y / GRID], v * 2);
      starts[v] = v * 2;
      const bone = Math.floor((x / GRID) * BONES);
      wb.set([bone, Math.min(BONES - 1, bone + 1)], v * 2);
      wv.set([45875, 19660], v * 2);
    }
  }
  starts[n] = n * 2;
  const tris = (GRID - 1) * (GRID - 1) * 2;
  const idx = new Uint32Array(tris * 3);
  let k = 0;
  for (let y = 0; y + 1 < GRID; y++) {
    for (let x = 0; x + 1 < GRID; x++) {
      const a = y * GRID + x;
      idx.set([a, a + 1, a + GRID, a + 1, a + GRID + 1, a + GRID], k);
      k += 6;
    }
  }
  const bindPose = new Float32Array(BONES * 10);
  for (let i = 0; i < BONES; i++)
    bindPose.set([i === 0 ? 0 : GRID / 10 / BONES, 0, 0, 0, 0, 0, 1, 1, 1, 1], i * 10);
  // Bounds as the writer computes them: box, box centre, farthest vertex.
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < pos.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], pos[i]);
    hi[i % 3] = Math.max(hi[i % 3], pos[i]);
  }
  const c = [0, 1, 2].map((k) => Math.fround((lo[k] + hi[k]) / 2));
  let r2 = 0;
  for (let i = 0; i < pos.length; i += 3)
    r2 = Math.max(r2, (pos[i] - c[0]) ** 2 + (pos[i + 1] - c[1]) ** 2 + (pos[i + 2] - c[2]) ** 2);
  const bounds = Float32Array.from([...lo, ...hi, ...c, Math.sqrt(r2)]);
  return {
    magic: 'ms11',
    encoding: 'utf8',
    bounds,
    bones: Array.from({ length: BONES }, (_, i) => ({ name: `bone${i}`, parent: i - 1 })),
    animationNames: [],
    animations: [],
    bindPose,
    surfaces: [
      {
        name: 'terrain',
        bounds: bounds.slice(),
        targetNames: [''],
        targets: [pos],
        tangents,
        weightCounts: counts,
        weightStarts: starts,
        weightBones: wb,
        weightValues: wv,
        uv0,
        uv1: new Float32Array(0),
        colors: new Uint8Array(0),
        coordIndices: idx,
        triIndices: idx,
      },
    ],
  };
}

function syntheticAnim() {
  const entries = FRAMES * BONES;
  const flags = new Uint8Array(entries);
  const positions = new Uint16Array(entries * 3);
  const rotations = new Int16Array(entries * 4);
  const scales = new Uint16Array(entries * 3);
  for (let f = 0; f < FRAMES; f++) {
    for (let b = 0; b < BONES; b++) {
      const e = f * BONES + b;
      flags[e] = f === 0 ? 0x0f : 0x08;
      if (f === 0) positions.set([32768, 0, 0], e * 3);
      const a = 0.3 * Math.sin(f / 10 + b / 5);
      rotations.set([0, 0, Math.round(Math.sin(a / 2) * 32767), Math.round(Math.cos(a / 2) * 32767)], e * 4);
    }
  }
  return {
    magic: 'an10',
    encoding: 'utf8',
    bounds: Float32Array.from([1e9, 1e9, 1e9, -1e9, -1e9, -1e9, 0, 0, 0, -1]),
    bones: Array.from({ length: BONES }, (_, i) => ({ name: `bone${i}`, parent: i - 1 })),
    animationNames: ['wave'],
    bindPose: syntheticMesh().bindPose,
    animations: [
      {
        bones: Int16Array.from({ length: BONES }, (_, i) => i),
        boxes: Float32Array.from([0, 0, 0, 1, 1, 1, 1e9, 1e9, 1e9, -2e9, -2e9, -2e9]),
        componentMask: 0x0f,
        numFrames: FRAMES,
        flags,
        positions,
        rotations,
        scales,
      },
    ],
  };
}

/** Median wall-clock and CPU time of `runs` calls (CPU time is steadier on a shared machine). */
async function median(fn, runs = 5) {
  const times = [];
  const cpus = [];
  let out;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    out = await fn();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  return { ms: times[Math.floor(runs / 2)], cpu: cpus[Math.floor(runs / 2)], out };
}

const meshBytes = writeMesh(syntheticMesh());
const animBytes = writeAnim(syntheticAnim());
const files = new Map([
  ['bench.mesh', meshBytes],
  ['bench_wave.anim', animBytes],
]);
const mb = (meshBytes.length + animBytes.length) / 1e6;
const model = { mesh: readMesh(meshBytes), anim: readAnim(animBytes) };
const rows = [];
const report = (step, m) =>
  rows.push({
    step,
    ms: Number(m.ms.toFixed(1)),
    'cpu ms': Number(m.cpu.toFixed(1)),
    'MB/s (cpu)': Number((mb / (m.cpu / 1000)).toFixed(1)),
  });

report('read (.mesh + .anim → file model)', await median(() => [readMesh(meshBytes), readAnim(animBytes)]));
report('write (file model → bytes)', await median(() => [writeMesh(model.mesh), writeAnim(model.anim)]));
const imp = await median(() => importUnigine(files, { main: 'bench.mesh' }));
report('import (bytes → glTF Document)', imp);
const exp = await median(() => exportUnigine(imp.out.document, { name: 'bench' }));
report('export (Document → bytes)', exp);
// The shared stage's check on a document that needs no step (every document our importer makes).
const anyKeys = { ...UNIGINE_LIMITS, animation: { ...UNIGINE_LIMITS.animation, sampling: 'any' } };
report('  of which prepare() check', await median(() => prepare(imp.out.document, anyKeys)));
const io = new NodeIO();
const glb = await median(() => io.writeBinary(imp.out.document));
report('NodeIO.writeBinary (baseline)', glb);
const diff = [...files].filter(([n, b]) => {
  const o = exp.out.files.get(n);
  return !(o && o.length === b.length && o.every((x, i) => x === b[i]));
});
const same = diff.length === 0 ? true : `false (${diff.map(([n]) => n).join(', ')})`;
console.log(
  `synthetic input: ${GRID * GRID} vertices, ${(GRID - 1) * (GRID - 1) * 2} triangles, ${BONES} bones, ${FRAMES} frames; ${mb.toFixed(2)} MB (.mesh ${meshBytes.length} B + .anim ${animBytes.length} B); round trip byte-exact: ${same}`,
);
console.table(rows);
const ratio = (imp.cpu + exp.cpu) / glb.cpu;
const rssMb = process.resourceUsage().maxRSS / 1024;
console.log(
  `(import + export) / NodeIO.writeBinary = ${ratio.toFixed(2)} (CPU time); peak RSS ${rssMb.toFixed(0)} MB = ${((rssMb * 1e6) / (meshBytes.length + animBytes.length + glb.out.length)).toFixed(1)} × (input + glb); load average ${(
    await import('node:os')
  )
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
