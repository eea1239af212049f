// Writes the Grimrock quirk samples of this folder from the hand-made files one level up
// (../lever.model, ../lever_pull.animation, ../crate.model) plus hand-written bytes; no corpus
// bytes, no randomness. Run from the repository root: `node test-assets/grimrock/quirks/make.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const here = new URL('./', import.meta.url);
const read = (name) => new Uint8Array(readFileSync(new URL(`../${name}`, here)));
const write = (name, bytes) => writeFileSync(new URL(name, here), bytes);
const concat = (a, b) => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
};

// 1. Trailing pad after the last node: four zero bytes (an exporter padding to 4/16 bytes).
write('lever_pad.model', concat(read('lever.model'), Uint8Array.of(0, 0, 0, 0)));

// 2. Trailing bytes after the last item: a CR LF a text-mode copy would append.
write('lever_pad_pull.animation', concat(read('lever_pull.animation'), Uint8Array.of(0x0d, 0x0a)));

// 3. A segment count one too high: crate.model's one segment draws 12 triangles; 13 runs past
//    the 36 indices. The file ends with the segment's count, the bounds (40 bytes), numBones (4),
//    no bones, emissiveColor (12) and castShadow (1): the count is the int32 61 bytes from the end.
const crate = read('crate.model').slice();
const dv = new DataView(crate.buffer);
const at = crate.length - 61;
if (dv.getInt32(at, true) !== 12) throw new Error(`crate.model: expected count 12 at ${at}`);
dv.setInt32(at, 13, true);
write('crate_count_plus_one.model', crate);
