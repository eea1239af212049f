#!/usr/bin/env node
/**
 * Image-layer benchmark on deterministic synthetic images: decode and encode MB/s of a 2048²
 * DXT5 (BC3) and a 1024² 8-bit PCX (exact ≤256-colour palette, and a many-colour image that needs
 * quantization), PNG encode/decode of 2048². MB/s are of the RGBA pixels (width × height × 4
 * bytes, 1 MB = 2^20 bytes), whichever direction, from the median wall time and the median CPU
 * time (user + system of this process; closer to an idle machine's figure when others load the
 * cores). Median of 5 runs after one warm-up (3 runs for steps slower than 2 s). Run `pnpm turbo run build --filter @gltf-legacy/textures` first;
 * `pnpm bench` runs it. `--json FILE` also writes the numbers.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { decodeDds, decodePcx, decodePng, encodeDds, encodePcx, encodePng } from '../dist/index.js';

const { values } = parseArgs({ options: { json: { type: 'string' }, runs: { type: 'string' } } });
const RUNS = Number(values.runs ?? 5);

/** Smooth colour field with some detail and an alpha ramp, deterministic. */
function synth(size, { alpha = true, levels = 0 } = {}) {
  const data = new Uint8Array(size * size * 4);
  let seed = 1;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 16) & 255;
  };
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const o = (y * size + x) * 4;
      let r = 128 + 100 * Math.sin(x / 37) * Math.cos(y / 53) + (rnd() & 15);
      let g = 128 + 90 * Math.sin((x + y) / 71) + (rnd() & 15);
      let b = 128 + 110 * Math.cos((x - y) / 29);
      if (levels) {
        const q = 256 / levels;
        r = Math.floor(r / q) * q;
        g = Math.floor(g / q) * q;
        b = Math.floor(b / q) * q;
      }
      data[o] = Math.max(0, Math.min(255, r));
      data[o + 1] = Math.max(0, Math.min(255, g));
      data[o + 2] = Math.max(0, Math.min(255, b));
      data[o + 3] = alpha ? (x * 255) / (size - 1) : 255;
    }
  }
  return { width: size, height: size, data };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** CPU milliseconds (user + system) of this process: less sensitive than wall time to other load. */
function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function measure(name, pixelsBytes, fn) {
  const t0 = performance.now();
  let out = fn();
  const first = performance.now() - t0;
  const runs = first > 2000 ? 3 : RUNS;
  const wall = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const c = cpuMs();
    out = fn();
    cpu.push(cpuMs() - c);
    wall.push(performance.now() - t);
  }
  const ms = median(wall);
  const cms = median(cpu);
  const mb = pixelsBytes / 2 ** 20;
  return {
    name,
    ms: Number(ms.toFixed(2)),
    mbPerS: Number((mb / (ms / 1000)).toFixed(1)),
    cpuMs: Number(cms.toFixed(2)),
    cpuMbPerS: Number((mb / (cms / 1000)).toFixed(1)),
    samples: wall.map((s) => Number(s.toFixed(2))),
    out,
  };
}

const results = {
  started: new Date().toISOString(),
  node: process.version,
  loadAverage: loadavg(),
  steps: [],
};
const rows = [];
function add(r, fileBytes) {
  rows.push([
    r.name,
    `${r.ms} ms`,
    `${r.mbPerS} MB/s`,
    `${r.cpuMbPerS} MB/s`,
    `${(fileBytes / 2 ** 20).toFixed(2)} MiB`,
  ]);
  const { out: _out, ...numbers } = r;
  results.steps.push({ ...numbers, fileBytes });
}

const big = synth(2048);
const bigBytes = big.data.length;
const dxt5 = measure('DXT5 2048² encode (mip 0 only)', bigBytes, () =>
  encodeDds(big, { format: 'bc3', mipmaps: false }),
);
add(dxt5, dxt5.out.length);
const dxt5mips = measure('DXT5 2048² encode + full mip chain', bigBytes, () =>
  encodeDds(big, { format: 'bc3' }),
);
add(dxt5mips, dxt5mips.out.length);
add(
  measure('DXT5 2048² decode (mip 0)', bigBytes, () => decodeDds(dxt5.out)),
  dxt5.out.length,
);
const opaque = synth(2048, { alpha: false });
const dxt1 = measure('DXT1 2048² encode (mip 0 only)', bigBytes, () =>
  encodeDds(opaque, { format: 'bc1', mipmaps: false }),
);
add(dxt1, dxt1.out.length);
add(
  measure('DXT1 2048² decode (mip 0)', bigBytes, () => decodeDds(dxt1.out)),
  dxt1.out.length,
);

const skin = synth(1024, { alpha: false, levels: 6 }); // ≤ 216 colours: the exact-palette path
const skinBytes = skin.data.length;
const pcx = measure('PCX 1024² encode (≤256 colours, exact palette)', skinBytes, () => encodePcx(skin));
add(pcx, pcx.out.length);
add(
  measure('PCX 1024² decode', skinBytes, () => decodePcx(pcx.out)),
  pcx.out.length,
);
const photo = synth(1024, { alpha: false });
const pcxq = measure('PCX 1024² encode (many colours, NeuQuant)', skinBytes, () => encodePcx(photo));
add(pcxq, pcxq.out.length);

const png = measure('PNG 2048² encode (RGBA)', bigBytes, () => encodePng(big));
add(png, png.out.length);
add(
  measure('PNG 2048² decode', bigBytes, () => decodePng(png.out)),
  png.out.length,
);

results.finished = new Date().toISOString();
results.loadAverageAtEnd = loadavg();
const width = Math.max(...rows.map((r) => r[0].length));
console.log(
  `textures bench (node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')})`,
);
console.log(
  `${'step'.padEnd(width)}  ${'wall'.padStart(11)}  ${'MB/s wall'.padStart(12)}  ${'MB/s CPU'.padStart(12)}  file`,
);
for (const r of rows) {
  console.log(
    `${r[0].padEnd(width)}  ${r[1].padStart(11)}  ${r[2].padStart(12)}  ${r[3].padStart(12)}  ${r[4]}`,
  );
}
if (values.json) writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
