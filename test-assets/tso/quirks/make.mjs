// Makes the TSO quirk samples of this folder from the hand-made files one folder up (never from
// corpus bytes): `node test-assets/tso/quirks/make.mjs` from the repository root. Deterministic.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const here = new URL('./', import.meta.url);
const read = (name) => new Uint8Array(readFileSync(new URL(`../${name}`, here)));
const write = (name, bytes) => writeFileSync(new URL(name, here), bytes);
const be32 = (b, o) => ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
const setBe32 = (b, o, v) => {
  b[o] = v >>> 24;
  b[o + 1] = (v >>> 16) & 0xff;
  b[o + 2] = (v >>> 8) & 0xff;
  b[o + 3] = v & 0xff;
};
const concat = (a, b) => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

// 1. Trailing pad (tolerated: TRAILING_BYTES): bytes after the last record of each kind.
write('twobone-pad.mesh', concat(read('twobone.mesh'), Uint8Array.of(0, 0, 0)));
write('twobone-pad.skel', concat(read('twobone.skel'), Uint8Array.of(0xcd, 0xcd)));
write('twobone-wave-pad.anim', concat(read('twobone-wave.anim'), Uint8Array.of(0, 0, 0, 0)));

// 2. Index one past the end (refused: BAD_INDEX): the first triangle's first index = realVertexCount.
{
  const b = read('twobone.mesh');
  let o = 4; // version
  const bones = be32(b, o);
  o += 4;
  for (let i = 0; i < bones; i++) o += 1 + b[o]; // u8-length Pascal names
  const faces = be32(b, o);
  o += 4;
  const indicesAt = o;
  o += faces * 12;
  o += 4 + be32(b, o) * 20; // bindings
  const realCount = be32(b, o);
  setBe32(b, indicesAt, realCount);
  write('twobone-index-past-end.mesh', b);
}

// 3. Short last frame (refused: BAD_INDEX): the translation pool lacks the last key of the last motion.
{
  const b = read('twobone-wave.anim');
  const nameLength = (b[4] << 8) | b[5]; // u16 big-endian Pascal name
  const countAt = 4 + 2 + nameLength + 4 + 4 + 1; // version, name, duration, distance, isMoving
  const count = be32(b, countAt);
  const end = countAt + 4 + count * 12;
  const out = concat(b.subarray(0, end - 12), b.subarray(end));
  setBe32(out, countAt, count - 1);
  write('twobone-wave-short.anim', out);
}

// 4. Trailing pad in an outfit (tolerated: TRAILING_BYTES): the hand-made outfit of ../outfit with
// its .apr, .bnd and .mesh padded; the texture copied as it is.
{
  const files = {
    'Appearances/hand-cube.00c0be040000000c.apr': Uint8Array.of(0, 0),
    'Bindings/hand-cube.00c0be030000000b.bnd': Uint8Array.of(0),
    'Meshes/hand-cube.00c0be0100000009.mesh': Uint8Array.of(0, 0, 0, 0, 0),
    'Textures/hand-cube.00c0be0200000014.bmp': new Uint8Array(0),
  };
  for (const [path, pad] of Object.entries(files)) {
    const folder = new URL(`outfit-pad/${path.split('/')[0]}/`, here);
    mkdirSync(folder, { recursive: true });
    write(`outfit-pad/${path}`, concat(read(`outfit/${path}`), pad));
  }
}
