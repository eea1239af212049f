// Hand-made quirk files for @gltf-legacy/unigine (issue 18.1), each from a test-assets file of
// this folder's parent, changed by hand-written bytes. Deterministic; run from this folder after
// building the package: `node make.mjs` (reads ../*.mesh|anim, writes ./*).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMesh, writeMesh } from '../../../packages/unigine/dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const src = (f) => new Uint8Array(readFileSync(join(here, '..', f)));
const out = (f, b) => writeFileSync(join(here, f), b);
const concat = (a, b) => {
  const c = new Uint8Array(a.length + b.length);
  c.set(a);
  c.set(b, a.length);
  return c;
};

// 1. A trailing pad: three zero bytes and "\r\n" after the closing "ms11" (a tool that pads or
//    a transfer that appends a line end).
out('trailing_pad.mesh', concat(src('two_surfaces.mesh'), Uint8Array.from([0, 0, 0, 0x0d, 0x0a])));

// 2. The same after the closing "an10" of an animation file: one zero byte.
out('trailing_pad.anim', concat(src('strip_wave.anim'), Uint8Array.from([0])));

// 3. An index count one too high: surface 1 of two_surfaces.mesh (a triangle, 3 corners) gets a
//    fourth corner pair (coordinate 0, triangle vertex 0), so 4 indices are no whole triangles.
const mesh = readMesh(src('two_surfaces.mesh'));
const s = mesh.surfaces[1];
s.coordIndices = Uint32Array.from([...s.coordIndices, 0]);
s.triIndices = Uint32Array.from([...s.triIndices, 0]);
out('index_count_plus_one.mesh', writeMesh(mesh));
