// Sizes of the .glb our import writes for each corpus model with its .animation companions and
// each lone .animation, the bytes its animation accessors take, and how many of those are tracks
// that hold one value on every frame (the file stores them per frame too; issue 19).
// Run `npx tsup` first (it uses dist/):
//   node packages/grimrock/scripts/glb-sizes.mjs [corpus folder, default ../shared/corpus/grimrock]
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { grimrockCompanions, importGrimrock } from '../dist/index.js';

const dir = resolve(process.argv[2] ?? join(import.meta.dirname, '../../../../shared/corpus/grimrock'));
const names = readdirSync(dir).sort();
const read = (n) => new Uint8Array(readFileSync(join(dir, n)));
const sets = [];
for (const n of names) {
  if (n.endsWith('.model')) {
    const companions = grimrockCompanions(n, names);
    if (companions.length) sets.push([n, new Map([[n, read(n)], ...companions.map((c) => [c, read(c)])])]);
  } else if (n.endsWith('.animation')) sets.push([n, new Map([[n, read(n)]])]);
}
const io = new NodeIO();
console.log('| input | input bytes | .glb | animation accessors | of which constant per-frame tracks |');
console.log('|---|---|---|---|---|');
for (const [n, files] of sets) {
  const inBytes = [...files.values()].reduce((s, b) => s + b.length, 0);
  const { document } = importGrimrock(files, { main: n });
  const glb = await io.writeBinary(document);
  const seen = new Set();
  let animBytes = 0;
  let constBytes = 0;
  for (const a of document.getRoot().listAnimations())
    for (const s of a.listSamplers())
      for (const acc of [s.getInput(), s.getOutput()]) {
        if (seen.has(acc)) continue;
        seen.add(acc);
        const arr = acc.getArray();
        animBytes += arr.byteLength;
        if (acc === s.getOutput() && acc.getCount() > 1) {
          const size = acc.getElementSize();
          const bits = new Uint32Array(arr.buffer, arr.byteOffset, arr.length);
          let same = true;
          for (let i = size; i < bits.length && same; i++) if (bits[i] !== bits[i % size]) same = false;
          if (same) constBytes += arr.byteLength - size * 4;
        }
      }
  console.log(
    `| ${[...files.keys()].join(' + ')} | ${inBytes} | ${glb.length} | ${animBytes} | ${constBytes} |`,
  );
}
