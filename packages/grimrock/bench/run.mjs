/**
 * Benchmark on a large synthetic skinned model + animation made by this package's writer
 * (deterministic). Run `npx tsup` first; then `pnpm bench` (or `node bench/run.mjs`).
 * Prints median-of-5 ms and MB/s for read, import, export and write.
 */
import {
  emptyVertexArray,
  exportGrimrock,
  importGrimrock,
  makeVertexArray,
  readAnimation,
  readModel,
  writeAnimation,
  writeModel,
} from '../dist/index.js';

const GRID = 400; // GRID × GRID vertices
const BONES = 32;
const FRAMES = 300;

function synthetic() {
  const n = GRID * GRID;
  const P = new Float32Array(n * 3);
  const N = new Float32Array(n * 3);
  const T = new Float32Array(n * 3);
  const B = new Float32Array(n * 3);
  const UV = new Float32Array(n * 2);
  const J = new Int32Array(n * 4);
  const W = new Float32Array(n * 4);
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const v = y * GRID + x;
      P.set([x / GRID - 0.5, (y / GRID) * 2, Math.sin(x * 0.1) * 0.05], v * 3);
      N.set([0, 0, 1], v * 3);
      T.set([1, 0, 0], v * 3);
      B.set([0, -1, 0], v * 3);
      UV.set([x / GRID, y / GRID], v * 2);
      const b = Math.min(BONES - 2, Math.floor((y / GRID) * (BONES - 1)));
      const f = ((y / GRID) * (BONES - 1)) % 1;
      J.set([b, b + 1, 0, 0], v * 4);
      W.set([1 - f, f, 0, 0], v * 4);
    }
  }
  const I = new Int32Array((GRID - 1) * (GRID - 1) * 6);
  let k = 0;
  for (let y = 0; y < GRID - 1; y++) {
    for (let x = 0; x < GRID - 1; x++) {
      const a = y * GRID + x;
      I.set([a, a + GRID, a + 1, a + 1, a + GRID, a + GRID + 1], k);
      k += 6;
    }
  }
  const arrays = Array.from({ length: 15 }, () => emptyVertexArray());
  arrays[0] = makeVertexArray(P, n, 3, 3);
  arrays[1] = makeVertexArray(N, n, 3, 3);
  arrays[2] = makeVertexArray(T, n, 3, 3);
  arrays[3] = makeVertexArray(B, n, 3, 3);
  arrays[5] = makeVertexArray(UV, n, 3, 2);
  arrays[13] = makeVertexArray(J, n, 2, 4);
  arrays[14] = makeVertexArray(W, n, 3, 4);
  const nodes = [
    {
      name: 'RootNode',
      localToParent: Float32Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0),
      parent: -1,
      type: -1,
    },
  ];
  const boneNodes = [];
  for (let b = 0; b < BONES; b++) {
    boneNodes.push(nodes.length);
    nodes.push({
      name: `bone${b}`,
      localToParent: Float32Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, b === 0 ? 0 : 2 / BONES, 0),
      parent: b === 0 ? 0 : nodes.length - 1,
      type: -1,
    });
  }
  nodes.push({
    name: 'mesh',
    localToParent: Float32Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0),
    parent: 0,
    type: 0,
    meshEntity: {
      mesh: {
        magic: 'MESH',
        version: 2,
        numVertices: n,
        arrays,
        indices: I,
        segments: [{ material: 'bench', primitiveType: 2, firstIndex: 0, count: I.length / 3 }],
        boundCenter: Float32Array.of(0, 1, 0),
        boundRadius: 1.2,
        boundMin: Float32Array.of(-0.5, 0, -0.05),
        boundMax: Float32Array.of(0.5, 2, 0.05),
      },
      bones: boneNodes.map((ni, b) => ({
        nodeIndex: ni,
        invRestMatrix: Float32Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, -(b * 2) / BONES, 0),
      })),
      emissiveColor: new Float32Array(3),
      castShadow: 1,
    },
  });
  const model = writeModel({ magic: 'MDL1', version: 2, nodes });
  const items = [];
  for (let b = 0; b < BONES; b++) {
    const pos = new Float32Array(FRAMES * 3);
    const rot = new Float32Array(FRAMES * 4);
    const scl = new Float32Array(FRAMES * 3).fill(1);
    for (let f = 0; f < FRAMES; f++) {
      const a = Math.sin((f / FRAMES) * Math.PI * 2) * 0.2;
      pos.set([0, b === 0 ? 0 : 2 / BONES, 0], f * 3);
      rot.set([Math.sin(a / 2), 0, 0, Math.cos(a / 2)], f * 4);
    }
    items.push({ nodeName: `bone${b}`, positions: pos, rotations: rot, scales: scl });
  }
  const anim = writeAnimation({
    magic: 'ANIM',
    version: 1,
    name: '',
    framesPerSecond: 30,
    numFrames: FRAMES,
    items,
  });
  return { model, anim };
}

/** Median of 5 runs: wall-clock ms and CPU ms (user + system; less sensitive to a busy machine). */
async function median(fn) {
  const times = [];
  const cpus = [];
  let result;
  for (let i = 0; i < 5; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    result = await fn();
    times.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpus.push((d.user + d.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  return { ms: times[2], cpu: cpus[2], result };
}

const { model, anim } = synthetic();
const bytes = model.length + anim.length;
const mb = bytes / 1e6;
const files = new Map([
  ['bench.model', model],
  ['bench_wave.animation', anim],
]);
const rows = [];
const row = (step, r) =>
  rows.push({
    step,
    ms: +r.ms.toFixed(1),
    'MB/s': +(mb / (r.ms / 1000)).toFixed(1),
    'cpu ms': +r.cpu.toFixed(1),
    'MB/s (cpu)': +(mb / (r.cpu / 1000)).toFixed(1),
  });

const read = await median(() => [readModel(model), readAnimation(anim)]);
row('read (file model)', read);
const imp = await median(() => importGrimrock(files, { main: 'bench.model' }).document);
row('import (→ Document)', imp);
const exp = await median(async () => (await exportGrimrock(imp.result, { name: 'bench' })).files);
row('export (Document → files)', exp);
const [m, a] = read.result;
const wr = await median(() => [writeModel(m), writeAnimation(a)]);
row('write (file model)', wr);
const same = exp.result.get('bench.model').length === model.length;

console.log(
  `grimrock bench: ${GRID * GRID} vertices, ${(GRID - 1) ** 2 * 2} triangles, ${BONES} bones, ${FRAMES} frames; ${mb.toFixed(2)} MB (model ${(model.length / 1e6).toFixed(2)} MB + animation ${(anim.length / 1e6).toFixed(2)} MB); export size matches: ${same}`,
);
console.table(rows);
