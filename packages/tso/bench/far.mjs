// FAR benchmark (issue 27), in-process: RefPack decompression (MB/s of output), FAR3 listing
// (manifest parse, MB/s of archive and entries/s) and RefPack compression, on the corpus' two real
// FAR3 archives and on a synthetic archive made by our writer (4 000 entries of mesh-like data,
// deterministic). Median of 5 runs after a warm-up; wall and CPU time (user + system of this
// process: closer to an idle machine's figure when others load the cores). Run `npx tsup` first;
// `node bench/far.mjs [--far-json FILE]`; `node bench/run.mjs` runs it too.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createFar3, readFar3, readFar3Entry, refpackCompress, writeFar3 } from '../dist/index.js';

const { values } = parseArgs({
  options: { 'far-json': { type: 'string' }, runs: { type: 'string' } },
  strict: false,
});
const RUNS = Number(values.runs ?? 5);
const corpus = resolve(import.meta.dirname, '../../..', process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
const MB = 1e6;

function measure(fn) {
  fn();
  const walls = [];
  const cpusMs = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    walls.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpusMs.push((c.user + c.system) / 1000);
  }
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  return { ms: med(walls), cpu: med(cpusMs) };
}

/** Mesh-like bytes: float triples on a smooth surface, u16 indices, a little noise. */
function meshLike(n, seed) {
  const f = new Float32Array(n * 3);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    f[i * 3] = Math.round(Math.sin(i / 50) * 1000) / 1000;
    f[i * 3 + 1] = Math.round((i % 97) * 10) / 1000;
    f[i * 3 + 2] = (s >>> 24) / 256;
  }
  return new Uint8Array(f.buffer);
}

const archives = {};
for (const name of ['cpanel.dat', 'personselection.dat'])
  archives[name] = new Uint8Array(readFileSync(resolve(corpus, 'archives/tso/FreeSO-Bob', name)));
const files = Array.from({ length: 4000 }, (_, i) => ({
  name: `part-${i}.mesh`,
  typeId: 9,
  fileId: 0x10000 + i,
  data: meshLike(200 + (i % 50) * 20, i + 1),
}));
archives['synthetic 4000 entries (our writer)'] = writeFar3(createFar3(files, { compression: 'refpack' }));

const rows = [];
for (const [name, bytes] of Object.entries(archives)) {
  const far = readFar3(bytes, name);
  let out = 0;
  for (const e of far.entries) out += e.size;
  const list = measure(() => readFar3(bytes, name));
  const unpack = measure(() => {
    for (const e of far.entries) readFar3Entry(far, e, name);
  });
  const data = far.entries.map((e) => readFar3Entry(far, e, name));
  const pack = measure(() => {
    for (const d of data) refpackCompress(d);
  });
  let ours = 0;
  for (const d of data) ours += refpackCompress(d).length;
  const stored = far.entries.reduce((s, e) => s + e.packedSize, 0);
  rows.push({
    archive: name,
    bytes: bytes.length,
    entries: far.entries.length,
    unpackedBytes: out,
    listing: {
      ...list,
      mbPerS: bytes.length / MB / (list.ms / 1000),
      entriesPerS: far.entries.length / (list.ms / 1000),
    },
    decompress: {
      ...unpack,
      mbPerS: out / MB / (unpack.ms / 1000),
      cpuMbPerS: out / MB / (unpack.cpu / 1000),
    },
    compress: {
      ...pack,
      mbPerS: out / MB / (pack.ms / 1000),
      cpuMbPerS: out / MB / (pack.cpu / 1000),
      ratio: ours / out,
      storedRatio: stored / out,
    },
  });
}

console.log(
  `FAR bench (median of ${RUNS}; load ${loadavg()[0].toFixed(1)} on ${cpus().length} cores; MB = 10^6 bytes)`,
);
console.log(
  `${'archive'.padEnd(38)} ${'entries'.padStart(7)} ${'list MB/s wall/CPU'.padStart(19)} ${'unpack MB/s wall/CPU'.padStart(21)} ${'pack MB/s wall/CPU'.padStart(19)} ${'ratio ours/stored'.padStart(18)}`,
);
for (const r of rows)
  console.log(
    `${r.archive.padEnd(38)} ${String(r.entries).padStart(7)} ${`${r.listing.mbPerS.toFixed(0)} / ${r.listing.cpuMbPerS.toFixed(0)}`.padStart(19)} ${`${r.decompress.mbPerS.toFixed(0)} / ${r.decompress.cpuMbPerS.toFixed(0)}`.padStart(21)} ${`${r.compress.mbPerS.toFixed(1)} / ${r.compress.cpuMbPerS.toFixed(1)}`.padStart(19)} ${`${r.compress.ratio.toFixed(3)} / ${r.compress.storedRatio.toFixed(3)}`.padStart(18)}`,
  );
if (values.json)
  writeFileSync(
    values.json,
    JSON.stringify({ date: new Date().toISOString(), load: loadavg()[0], rows }, null, 2),
  );
