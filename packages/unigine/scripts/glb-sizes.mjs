// Sizes of the .glb our import writes for each corpus model (with its .anim companions) and each
// lone .anim, compact (default: rotations as normalized SHORT where the file's int16 codes fit
// exactly) vs `float: true`, and how many rotation outputs are SHORT (issue 19).
// Run `npx tsup` first (it uses dist/):
//   node packages/unigine/scripts/glb-sizes.mjs [corpus folder, default ../shared/corpus/unigine]
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { animCompanions, legacyFormat } from '../dist/index.js';

const dir = resolve(process.argv[2] ?? join(import.meta.dirname, '../../../../shared/corpus/unigine'));
const names = readdirSync(dir).sort();
const io = new NodeIO();
const sets = [];
for (const n of names) {
  const bytes = new Uint8Array(readFileSync(join(dir, n)));
  const magic = new TextDecoder('latin1').decode(bytes.subarray(0, 4));
  if (magic === 'ms11') {
    const files = new Map([[n, bytes]]);
    for (const c of animCompanions(n, names)) files.set(c, new Uint8Array(readFileSync(join(dir, c))));
    if (files.size > 1) sets.push([n, files]);
  } else if (magic === 'an10') sets.push([n, new Map([[n, bytes]])]);
}
let totalFloat = 0;
let totalCompact = 0;
console.log('| input | input bytes | .glb float | .glb compact | rotation outputs SHORT |');
console.log('|---|---|---|---|---|');
for (const [n, files] of sets) {
  const inBytes = [...files.values()].reduce((s, b) => s + b.length, 0);
  const size = async (float) => {
    const { document } = await legacyFormat.import(files, { main: n, float });
    let short = 0;
    let rot = 0;
    for (const a of document.getRoot().listAnimations())
      for (const c of a.listChannels())
        if (c.getTargetPath() === 'rotation') {
          rot++;
          if (c.getSampler()?.getOutput()?.getComponentType() === 5122) short++;
        }
    return { bytes: (await io.writeBinary(document)).length, short, rot };
  };
  const f = await size(true);
  const c = await size(false);
  totalFloat += f.bytes;
  totalCompact += c.bytes;
  console.log(
    `| ${[...files.keys()].join(' + ')} | ${inBytes} | ${f.bytes} | ${c.bytes} | ${c.short} of ${c.rot} |`,
  );
}
console.log(
  `| total | | ${totalFloat} | ${totalCompact} (${((100 * (totalCompact - totalFloat)) / totalFloat).toFixed(1)} %) | |`,
);
