// Per-format dictionaries for the mutator: magic numbers, chunk and section names, version
// words and typical counts, read from ../shared/formats/*.md and the corpus headers. The
// `dict` operator writes one token over (or into) the input, biased to the header.

/** Counts and sizes that sit on a parser's edges (empty, one, byte/short limits, typical bones). */
const COUNTS = [0, 1, 2, 3, 4, 8, 16, 32, 64, 127, 128, 255, 256, 1000, 4096, 65535, 65536];

const ascii = (s) => new TextEncoder().encode(s);

/**
 * Dictionary per format: `words` (raw byte tokens: magics, names, version words) and `le`
 * (true: counts are little-endian; TSO is big-endian).
 */
export const DICTIONARIES = {
  urho3d: {
    le: true,
    // UMDL/UMD2/UMD3 models, UANI/UAN2 animations, UPAK/ULZ4 packages; vertex element masks
    words: ['UMDL', 'UMD2', 'UMD3', 'UANI', 'UAN2', 'UPAK', 'ULZ4', 'Bip01', 'Armature', '\0'].map(ascii),
  },
  grimrock: {
    le: true,
    // MDL1 models (version 2), ANIM animations (versions 1 and 2), MESH entities, node names;
    // .dat archives (GRA2/GRAR, a zlib header, path strings the name recovery reads)
    words: [
      'MDL1',
      'ANIM',
      'MESH',
      'RootNode',
      'Armature',
      'hand_r',
      'arm_r',
      '\0\0\0\0',
      'GRA2',
      'GRAR',
      'x^', // 0x78 0x5e: a zlib header
      'mod_assets/',
      '.fbx"',
      '../',
    ].map(ascii),
  },
  unigine: {
    le: true,
    // mesh versions ms10–ms15, animation versions an10–an12, skinned-mesh sk10
    words: ['ms10', 'ms11', 'ms12', 'ms13', 'ms14', 'ms15', 'an10', 'an11', 'an12', 'sk10', '\0'].map(ascii),
  },
  tso: {
    le: false,
    // big-endian version words (mesh 2, skeleton/animation 1), pascal-string names, NULL/ROOT bones
    words: [
      new Uint8Array([0, 0, 0, 2]),
      new Uint8Array([0, 0, 0, 1]),
      new Uint8Array([0, 0, 0, 0]),
      new Uint8Array([4, 0x4e, 0x55, 0x4c, 0x4c]),
      new Uint8Array([4, 0x52, 0x4f, 0x4f, 0x54]),
      new Uint8Array([0xff]),
      ascii('xevt'),
      ascii('PELVIS'),
      // FAR archives: signature, versions 1 and 3 (little-endian), RefPack's 10 FB and 0x80 type
      ascii('FAR!byAZ'),
      new Uint8Array([3, 0, 0, 0]),
      new Uint8Array([1, 0, 0, 0]),
      new Uint8Array([0x10, 0xfb]),
      new Uint8Array([0x80]),
    ],
  },
  unreal3d: {
    le: true,
    // _d.3d header (numPolys u16, numVerts u16), poly types and flags; _a.3d (numFrames, frameSize)
    words: [
      new Uint8Array([0, 0, 0, 0]),
      new Uint8Array([1, 0]),
      new Uint8Array([0x08]),
      new Uint8Array([0x10]),
      new Uint8Array([0x20]),
      new Uint8Array([0x40]),
      new Uint8Array([0xff, 0x07, 0, 0]),
      new Uint8Array([0x80]),
      // packages: the tag, version 69, compact indices of 1–5 bytes, property info bytes
      new Uint8Array([0xc1, 0x83, 0x2a, 0x9e]),
      new Uint8Array([0x45, 0, 0, 0]),
      new Uint8Array([0x40, 0x80, 0x80, 0x80, 0x08]),
      new Uint8Array([0xc0, 0x01]),
      new Uint8Array([0x05]),
      new Uint8Array([0x3a]),
      new Uint8Array([0xa2]),
    ],
  },
};

function countBytes(value, width, le) {
  const out = new Uint8Array(width);
  const v = new DataView(out.buffer);
  if (width === 1) out[0] = value & 0xff;
  else if (width === 2) v.setUint16(0, value & 0xffff, le);
  else v.setUint32(0, value >>> 0, le);
  return out;
}

/** Every token of a format's dictionary: its words plus the typical counts as u8/u16/u32. */
export function dictionaryTokens(format) {
  const d = DICTIONARIES[format];
  if (!d) return [];
  const out = [...d.words];
  for (const c of COUNTS) for (const w of [1, 2, 4]) if (w > 1 || c < 256) out.push(countBytes(c, w, d.le));
  return out;
}

/**
 * Writes one dictionary token of `tokens` into `bytes` (new array): over existing bytes at an
 * offset biased to the first 256 bytes (and 4-aligned half of the time), or inserted.
 *
 * ```js
 * const out = dictMutate(bytes, rng, dictionaryTokens('urho3d'));
 * ```
 */
export function dictMutate(bytes, rng, tokens) {
  if (!tokens.length) return bytes.slice();
  const tok = tokens[rng.int(tokens.length)];
  const limit = rng.chance(0.7) ? Math.min(bytes.length, 256) : bytes.length;
  let at = rng.int(limit + 1);
  if (rng.chance(0.5)) at -= at % 4;
  if (rng.chance(0.2) || bytes.length < tok.length) {
    const out = new Uint8Array(bytes.length + tok.length);
    out.set(bytes.subarray(0, at), 0);
    out.set(tok, at);
    out.set(bytes.subarray(at), at + tok.length);
    return out;
  }
  const out = bytes.slice();
  at = Math.min(at, out.length - tok.length);
  out.set(tok, at);
  return out;
}
