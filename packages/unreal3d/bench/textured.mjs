#!/usr/bin/env node
/**
 * Whole conversion of the textured UT99 package `corpus/textured/unreal3d/MushMatch` (5 meshes,
 * 4 Classes/*.uc, 5 PCX skins): import with skins (Classes/ search, PCX → PNG) → GLB bytes → read
 * back → export (original PCX bytes). Median of 5 runs per model. Run `npx tsup` (and build
 * @gltf-legacy/textures) first: `node bench/textured.mjs`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MemoryResources } from '@gltf-legacy/core';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { exportUnreal, importUnrealFiles } from '../dist/index.js';

const repo = resolve(import.meta.dirname, '../../..');
const pkg = join(
  resolve(repo, process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus'),
  'textured/unreal3d/MushMatch',
);
const bytes = (p) => {
  const b = readFileSync(p);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
};
const all = [];
const walk = (d, rel) => {
  for (const n of readdirSync(d)) {
    const p = join(d, n);
    const r = rel ? `${rel}/${n}` : n;
    if (statSync(p).isDirectory()) walk(p, r);
    else all.push([r, bytes(p)]);
  }
};
walk(pkg, '');
const resources = new MemoryResources(all, pkg);
const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log('| model | input KB (3d + uc + pcx) | import ms | GLB write ms | read + export ms | .glb KB |');
console.log('|---|---|---|---|---|---|');
for (const main of readdirSync(join(pkg, 'Models')).filter((f) => f.endsWith('_d.3d'))) {
  const base = main.replace(/_d\.3d$/, '');
  const files = new Map([
    [main, bytes(join(pkg, 'Models', main))],
    [`${base}_a.3d`, bytes(join(pkg, 'Models', `${base}_a.3d`))],
  ]);
  const t = { imp: [], write: [], exp: [] };
  let glb;
  let inputBytes = 0;
  for (let run = 0; run < 5; run++) {
    let t0 = performance.now();
    const { document } = await importUnrealFiles(files, { main, resources, resourcePath: `Models/${main}` });
    t.imp.push(performance.now() - t0);
    t0 = performance.now();
    glb = await io.writeBinary(document);
    t.write.push(performance.now() - t0);
    t0 = performance.now();
    const { files: out } = await exportUnreal(await io.readBinary(glb));
    t.exp.push(performance.now() - t0);
    inputBytes = [...out.values()].reduce((n, b) => n + b.length, 0);
  }
  console.log(
    `| ${base} | ${(inputBytes / 1024).toFixed(0)} | ${median(t.imp).toFixed(0)} | ${median(t.write).toFixed(0)} | ${median(t.exp).toFixed(0)} | ${(glb.length / 1024).toFixed(0)} |`,
  );
}
