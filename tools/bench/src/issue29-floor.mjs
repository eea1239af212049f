/**
 * Issue 29's floor: the CPU the bytes target forces on `corpus/textured`, measured alone in one
 * thread — for each of its 11 DDS, the PNG of the DXT-decoded pixels deflated by fflate (3-byte
 * matches: 5 % smaller than Node's zlib on these images) and the DDS residual (block prediction,
 * XOR, native deflate at level 9) — against the DDS decode the conversion needs in any case.
 *
 *   node tools/bench/src/issue29-floor.mjs [corpus-dir]
 *
 * Prints ms per step (each file converted twice; the second, warm pass is reported, as a batch
 * that has warmed up runs it) and the totals.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../../..');
const corpus = resolve(process.argv[2] ?? join(root, '../shared/corpus'), 'textured');
const tex = await import(pathToFileURL(join(root, 'packages/textures/dist/index.js')).href);

const files = [];
const walk = (d) => {
  for (const e of readdirSync(d)) {
    const p = join(d, e);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.toLowerCase().endsWith('.dds')) files.push(p);
  }
};
walk(corpus);
files.sort();

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const totals = { decode: 0, png: 0, residual: 0, pngBytes: 0, residualBytes: 0 };
for (let pass = 0; pass < 2; pass++)
  for (const f of files) {
    const bytes = new Uint8Array(readFileSync(f));
    let t = cpu();
    const image = tex.decodeDds(bytes, { file: f });
    const decode = cpu() - t;
    t = cpu();
    const blockCompressed = image.info?.pixelFormat.kind === 'bc';
    const png = tex.encodePng(image, { blockCompressed });
    const pngMs = cpu() - t;
    t = cpu();
    const r = blockCompressed ? tex.ddsResidual(bytes, png) : undefined;
    const residual = cpu() - t;
    if (pass === 1) {
      totals.decode += decode;
      totals.png += pngMs;
      totals.residual += residual;
      totals.pngBytes += png.length;
      totals.residualBytes += r?.bytes.length ?? 0;
      console.log(
        `${f.split('/').pop().padEnd(30)} ${image.width}×${image.height} decode ${decode.toFixed(0)} ms, PNG (fflate) ${pngMs.toFixed(0)} ms → ${png.length} B, residual ${residual.toFixed(0)} ms → ${r?.bytes.length ?? '-'} B`,
      );
    }
  }
console.log(
  `total (${files.length} DDS, warm): decode ${totals.decode.toFixed(0)} ms, PNG ${totals.png.toFixed(0)} ms (${totals.pngBytes} B), residual ${totals.residual.toFixed(0)} ms (${totals.residualBytes} B); forced by the bytes target: ${(totals.png + totals.residual).toFixed(0)} ms of CPU`,
);
