// Benchmark of @gltf-legacy/tso on a large synthetic mesh + skeleton made by our own writer
// (deterministic). Run `npx tsup` first; `pnpm bench` runs this file against dist/.
import { cpus, loadavg } from 'node:os';
import { NodeIO } from '@gltf-transform/core';
import { legacyFormat, readMesh, writeMesh, writeSkeleton } from '../dist/index.js';

const BONES = 24;
const REAL = 201_600; // divisible by BONES
const BLEND = 40_320;
const FACES = 380_000;

function lcg(seed) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

function makeSkeleton() {
  const rnd = lcg(7);
  const bones = [];
  for (let i = 0; i < BONES; i++) {
    const a = rnd() * Math.PI;
    bones.push({
      unknown: 0,
      name: i === 0 ? 'ROOT' : `B${i}`,
      parentName: i === 0 ? 'NULL' : i === 1 ? 'ROOT' : `B${Math.max(1, Math.floor(i / 2))}`,
      hasProps: 0,
      props: [],
      translation: new Float32Array([rnd() - 0.5, rnd(), rnd() - 0.5]),
      rotation: new Float32Array([0, Math.sin(a / 2), 0, Math.cos(a / 2)]),
      canTranslate: 1,
      canRotate: 1,
      canBlend: 1,
      wiggleValue: 0,
      wigglePower: 0,
    });
  }
  return { version: 1, name: 'bench', bones, trailing: new Uint8Array(0) };
}

function makeMesh(skel) {
  const rnd = lcg(11);
  const per = REAL / BONES;
  const blendPer = BLEND / BONES;
  const bindings = [];
  for (let b = 0; b < BONES; b++) {
    bindings.push({
      boneIndex: b,
      firstRealVertex: b * per,
      realVertexCount: per,
      firstBlendVertex: b * blendPer,
      blendVertexCount: blendPer,
    });
  }
  const indices = new Uint32Array(FACES * 3);
  for (let i = 0; i < indices.length; i++) indices[i] = Math.floor(rnd() * REAL);
  const uvs = new Float32Array(REAL * 2).map(() => rnd());
  const real = new Float32Array(REAL * 6);
  for (let v = 0; v < REAL; v++) {
    for (let c = 0; c < 3; c++) real[v * 6 + c] = rnd() - 0.5;
    real[v * 6 + 4] = 3; // FreeSO-style normal of length 3
  }
  const blendData = new Uint32Array(BLEND * 2);
  for (let j = 0; j < BLEND; j++) {
    blendData[j * 2] = 1 + Math.floor(rnd() * 0x4000);
    blendData[j * 2 + 1] = j * 5; // distinct targets
  }
  const blendVertices = new Float32Array(BLEND * 6).map(() => rnd() - 0.5);
  return {
    version: 2,
    boneNames: skel.bones.map((b) => b.name),
    indices,
    bindings,
    uvs,
    blendData,
    vertexCount2: REAL,
    realVertices: real,
    blendVertices,
    trailing: new Uint8Array(0),
  };
}

const skel = makeSkeleton();
const meshBytes = writeMesh(makeMesh(skel));
const skelBytes = writeSkeleton(skel);
const files = new Map([
  ['bench.mesh', meshBytes],
  ['bench.skel', skelBytes],
]);
const mb = meshBytes.length / 1e6;

/** Median of 5 runs: wall ms and CPU ms of this process (the CPU time is less sensitive to load). */
async function time(fn) {
  const wall = [];
  const cpu = [];
  let out;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    out = await fn();
    const d = process.cpuUsage(c);
    wall.push(performance.now() - t);
    cpu.push((d.user + d.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { ms: wall[2], cpu: cpu[2], out };
}

const read = await time(() => readMesh(meshBytes));
const imp = await time(() => legacyFormat.import(files, { main: 'bench.mesh' }));
const exp = await time(() => legacyFormat.export(imp.out.document, { name: 'bench' }));
const write = await time(() => writeMesh(read.out));
const io = new NodeIO();
const glb = await time(() => io.writeBinary(imp.out.document));
console.log(
  `tso bench: ${REAL} real + ${BLEND} blend vertices, ${FACES} faces, ${BONES} bones; .mesh ${mb.toFixed(2)} MB, .glb ${(glb.out.length / 1e6).toFixed(2)} MB (median of 5; load ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
);
console.log(
  `${'step'.padEnd(22)} ${'wall ms'.padStart(8)} ${'MB/s'.padStart(8)} ${'CPU ms'.padStart(8)} ${'MB/s'.padStart(8)}`,
);
for (const [name, r] of [
  ['read', read],
  ['import (read + skin)', imp],
  ['export (+ write)', exp],
  ['write', write],
  ['NodeIO.writeBinary', glb],
]) {
  console.log(
    `${name.padEnd(22)} ${r.ms.toFixed(1).padStart(8)} ${(mb / (r.ms / 1000)).toFixed(1).padStart(8)} ${r.cpu.toFixed(1).padStart(8)} ${(mb / (r.cpu / 1000)).toFixed(1).padStart(8)}`,
  );
}
console.log(
  `(import + export) / NodeIO.writeBinary: wall ${((imp.ms + exp.ms) / glb.ms).toFixed(2)}×, CPU ${((imp.cpu + exp.cpu) / glb.cpu).toFixed(2)}×; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
);

// FAR archives: RefPack and FAR3 listing (issue 27)
await import('./far.mjs');
