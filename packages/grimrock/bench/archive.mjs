/**
 * `.dat` archive bench (issue 27): GRA2 listing (table + every entry inflated + kinds + name
 * recovery) in MB/s of archive, and zlib inflate in MB/s of output, in-process: ours (node's
 * native zlib, bounded at the stated size, + our Adler-32), the browser's path (fflate, forced
 * with `useNativeZlib(false)`), and node's plain `inflateSync` for reference. Inputs: the three real archives of the corpus (when present) and a
 * deterministic synthetic archive (32 MiB unpacked: Lua, DXT-like blocks, a model-sized blob).
 * Run `npx tsup` first; then `node bench/archive.mjs`.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import {
  inflateZlibExact,
  readArchiveTable,
  readGrimrockArchive,
  recoverNames,
  useNativeZlib,
} from '../dist/index.js';

const corpus = resolve(import.meta.dirname, '../../..', process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
const LNR = join(corpus, 'archives/grimrock/LNR');

function fnv(path) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(path)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

/** A synthetic GRA2 archive: 64 Lua scripts, 24 DXT-like textures, 8 model-like blobs. */
function synthetic() {
  let seed = 1;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) & 0xff;
  const entries = [];
  for (let i = 0; i < 64; i++) {
    const lines = [];
    for (let k = 0; k < 400; k++)
      lines.push(
        `defineObject{ name = "thing_${i}_${k}", model = "mod_assets/models/thing_${k % 8}.fbx", editorIcon = ${k} }`,
      );
    entries.push([`mod_assets/scripts/s${i}.lua`, Buffer.from(lines.join('\n'))]);
  }
  for (let i = 0; i < 24; i++) {
    const b = Buffer.alloc(1 << 20);
    for (let k = 0; k < b.length; k += 8) {
      b[k] = rnd();
      b[k + 1] = rnd() & 0x0f;
      b[k + 4] = rnd();
    }
    entries.push([`mod_assets/textures/t${i}.dds`, b]);
  }
  for (let i = 0; i < 8; i++) {
    const b = Buffer.alloc(512 << 10);
    for (let k = 0; k < b.length; k += 4) b.writeFloatLE(Math.sin(k) * (k % 97), k);
    entries.push([`mod_assets/models/thing_${i}.model`, b]);
  }
  const blobs = entries.map(([, d]) => {
    const s = Buffer.alloc(4);
    s.writeUInt32LE(d.length);
    return Buffer.concat([s, deflateSync(d)]);
  });
  const head = Buffer.alloc(8 + 20 * entries.length);
  head.write('GRA2', 0, 'latin1');
  head.writeUInt32LE(entries.length, 4);
  let offset = head.length;
  entries.forEach(([p, d], i) => {
    head.writeUInt32LE(fnv(p), 8 + 20 * i);
    head.writeUInt32LE(offset, 12 + 20 * i);
    head.writeUInt32LE(blobs[i].length, 16 + 20 * i);
    head.writeUInt32LE(d.length, 20 + 20 * i);
    head.writeUInt32LE(1, 24 + 20 * i);
    offset += blobs[i].length;
  });
  return new Uint8Array(Buffer.concat([head, ...blobs]));
}

/** Median of 5: wall ms and CPU ms. */
function median(fn) {
  const wall = [];
  const cpu = [];
  let result;
  for (let i = 0; i < 5; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    result = fn();
    wall.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { ms: wall[2], cpu: cpu[2], result };
}

const inputs = [['synthetic (96 entries)', synthetic()]];
for (const f of ['Fetch Quest.dat', 'IO Dungeon 1.dat', 'LNR Script Framework Alpha Test.dat'])
  if (existsSync(join(LNR, f))) inputs.push([f, new Uint8Array(readFileSync(join(LNR, f)))]);

const rows = [];
const mbps = (bytes, ms) => +(bytes / 1e6 / (ms / 1000)).toFixed(1);
for (const [name, bytes] of inputs) {
  const table = readArchiveTable(bytes, name);
  const unpacked = table.entries.reduce((s, e) => s + e.size, 0);
  const list = median(() => readGrimrockArchive(bytes, name));
  const inflateAll = () => {
    for (const e of table.entries)
      if (e.storage === 'zlib')
        inflateZlibExact(bytes.subarray(e.offset + 4, e.offset + e.compressedSize), e.size, {
          file: name,
          offset: e.offset + 4,
          field: 'bench',
        });
  };
  const ours = median(inflateAll);
  useNativeZlib(false);
  const browser = median(inflateAll);
  useNativeZlib(true);
  const native = median(() => {
    for (const e of table.entries)
      if (e.storage === 'zlib') inflateSync(bytes.subarray(e.offset + 4, e.offset + e.compressedSize));
  });
  const a = list.result;
  const names = median(() =>
    recoverNames({
      hashes: a.entries.map((e) => e.hash),
      texts: a.entries.map((e) => (e.kind === 'lua' || e.kind === 'model' ? e.data : undefined)),
    }),
  );
  rows.push({
    archive: name,
    'MB in': +(bytes.length / 1e6).toFixed(2),
    'MB out': +(unpacked / 1e6).toFixed(2),
    named: `${a.entries.filter((e) => e.path).length}/${a.entries.length}`,
    'list MB/s (in)': mbps(bytes.length, list.ms),
    'list MB/s cpu': mbps(bytes.length, list.cpu),
    'inflate MB/s (out)': mbps(unpacked, ours.ms),
    'inflate MB/s cpu': mbps(unpacked, ours.cpu),
    'fflate MB/s cpu': mbps(unpacked, browser.cpu),
    'node:zlib MB/s cpu': mbps(unpacked, native.cpu),
    'names ms cpu': +names.cpu.toFixed(1),
  });
}
console.log('grimrock .dat bench (median of 5; MB/s of the archive for listing, of the output for inflate)');
console.table(rows);
