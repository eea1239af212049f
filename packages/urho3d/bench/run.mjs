// Benchmark on a large synthetic model made by this package's writer (deterministic).
// Run `npx tsup` first; `pnpm bench` runs this against dist/.
import { performance } from 'node:perf_hooks';
import {
  createPak,
  exportUrhoModel,
  extractPak,
  importUrho,
  readAni,
  readMdl,
  readPak,
  writeAni,
  writeMdl,
  writePak,
} from '../dist/index.js';

const GRID = 400; // 400 × 400 vertices = 160 000 vertices, 318 402 triangles
const BONES = 64;

function syntheticModel() {
  const n = GRID * GRID;
  const elementMask = 0x1 | 0x2 | 0x8 | 0x80 | 0x100 | 0x200; // pos, normal, uv, tangent, weights, indices
  const stride = 12 + 12 + 8 + 16 + 16 + 4;
  const data = new Uint8Array(n * stride);
  const f = new Float32Array(data.buffer);
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const v = y * GRID + x;
      const o = (v * stride) / 4;
      f.set(
        [
          x / 10,
          Math.sin(x / 7) * Math.cos(y / 9),
          y / 10,
          0,
          1,
          0,
          x / GRID,
          y / GRID,
          1,
          0,
          0,
          1,
          0.7,
          0.3,
          0,
          0,
        ],
        o,
      );
      const b = v * stride + 64;
      const bone = Math.floor((x / GRID) * BONES);
      data[b] = bone;
      data[b + 1] = bone === BONES - 1 ? bone - 1 : bone + 1;
    }
  }
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
  const bones = Array.from({ length: BONES }, (_, i) => ({
    name: `bone${i}`,
    parent: i === 0 ? 0 : i - 1,
    position: new Float32Array([i === 0 ? 0 : GRID / 10 / BONES, 0, 0]),
    rotation: new Float32Array([1, 0, 0, 0]),
    scale: new Float32Array([1, 1, 1]),
    offsetMatrix: new Float32Array([1, 0, 0, (-i * GRID) / 10 / BONES, 0, 1, 0, 0, 0, 0, 1, 0]),
    collisionMask: 0,
    radius: 0,
    box: null,
  }));
  return {
    magic: 'UMDL',
    vertexBuffers: [
      {
        vertexCount: n,
        elementMask,
        descriptors: null,
        elements: [],
        stride,
        morphRangeStart: 0,
        morphRangeCount: 0,
        data,
      },
    ],
    indexBuffers: [{ indexCount: idx.length, indexSize: 4, data: new Uint8Array(idx.buffer) }],
    geometries: [
      {
        boneMapping: new Uint32Array(0),
        lods: [
          {
            distance: 0,
            primitiveType: 0,
            vertexBuffer: 0,
            indexBuffer: 0,
            indexStart: 0,
            indexCount: idx.length,
          },
        ],
      },
    ],
    morphs: [],
    bones,
    bounds: new Float32Array([0, -1, 0, GRID / 10, 1, GRID / 10]),
    geometryCenters: new Float32Array([GRID / 20, 0, GRID / 20]),
    trailing: new Uint8Array(0),
  };
}

function syntheticAni() {
  const keys = 2000;
  return {
    name: 'Bench',
    length: keys / 30,
    tracks: Array.from({ length: BONES }, (_, b) => {
      const times = Float32Array.from({ length: keys }, (_, k) => k / 30);
      const rotations = new Float32Array(keys * 4);
      for (let k = 0; k < keys; k++) {
        const a = Math.sin(k / 10 + b) * 0.3;
        rotations.set([Math.cos(a), 0, Math.sin(a), 0], k * 4);
      }
      return {
        name: `bone${b}`,
        channelMask: 3,
        keyCount: keys,
        times,
        positions: new Float32Array(keys * 3),
        rotations,
        scales: null,
      };
    }),
  };
}

function median(fn) {
  const times = [];
  let result;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    result = fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return [times[2], result];
}

/** {@link median} of an async step (export runs the shared stage first). */
async function medianAsync(fn) {
  const times = [];
  let result;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    result = await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return [times[2], result];
}

const mdlBytes = writeMdl(syntheticModel());
const aniBytes = writeAni(syntheticAni());
const mb = (mdlBytes.length + aniBytes.length) / 1e6;
const rows = [];
const [tRead, parsed] = median(() => [readMdl(mdlBytes), readAni(aniBytes)]);
rows.push(['read .mdl + .ani', tRead]);
const [tImport, imported] = median(() =>
  importUrho(parsed[0], [{ fileName: 'bench_Bench', animation: parsed[1] }], { name: 'bench' }),
);
rows.push(['import → Document', tImport]);
const [tExport, exported] = await medianAsync(() => exportUrhoModel(imported.document, { name: 'bench' }));
rows.push(['export Document → file model', tExport]);
const [tWrite, written] = median(() => [
  writeMdl(exported.model),
  writeAni(exported.animations[0].animation),
]);
rows.push(['write .mdl + .ani', tWrite]);
const exact = written[0].length === mdlBytes.length && written[0].every((b, i) => b === mdlBytes[i]);

const pakFiles = new Map([
  ['Models/bench.mdl', mdlBytes],
  ['Models/bench_Bench.ani', aniBytes],
]);
const [tPak, pakBytes] = median(() => writePak(createPak(pakFiles, { compress: true })));
const [tUnpak] = median(() => extractPak(readPak(pakBytes)));

console.log(
  `urho3d bench: ${(mdlBytes.length / 1e6).toFixed(1)} MB .mdl (${GRID * GRID} vertices, ${BONES} bones) + ${(aniBytes.length / 1e6).toFixed(1)} MB .ani; median of 5`,
);
for (const [label, ms] of rows)
  console.log(
    `${label.padEnd(32)} ${ms.toFixed(1).padStart(8)} ms  ${(mb / (ms / 1000)).toFixed(1).padStart(8)} MB/s`,
  );
console.log(
  `${'ULZ4 pack (compress + write)'.padEnd(32)} ${tPak.toFixed(1).padStart(8)} ms  ${(mb / (tPak / 1000)).toFixed(1).padStart(8)} MB/s  (ratio ${(pakBytes.length / (mb * 1e6)).toFixed(2)})`,
);
console.log(
  `${'ULZ4 unpack (read + decompress)'.padEnd(32)} ${tUnpak.toFixed(1).padStart(8)} ms  ${(mb / (tUnpak / 1000)).toFixed(1).padStart(8)} MB/s`,
);
console.log(`round trip .mdl byte-identical: ${exact}`);
if (!exact) {
  const a = readMdl(mdlBytes);
  const b = exported.model;
  let d = 0;
  while (d < mdlBytes.length && written[0][d] === mdlBytes[d]) d++;
  console.log(
    'first diff at',
    d,
    'of',
    mdlBytes.length,
    written[0].length,
    'vb data len',
    a.vertexBuffers[0].data.length,
    b.vertexBuffers[0].data.length,
  );
}
