// Hand-made quirk files for @gltf-legacy/urho3d (issue 18): bytes written here field by field,
// from nothing else. Run from this folder: `node make.mjs` (deterministic; the test re-runs it
// and compares).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Little-endian byte writer for the few field types a .ani has. */
function bytes(fields) {
  const out = [];
  const f32 = new DataView(new ArrayBuffer(4));
  for (const [type, value] of fields) {
    if (type === 'str') out.push(...new TextEncoder().encode(value), 0);
    else if (type === 'u8') out.push(value);
    else {
      if (type === 'u32') f32.setUint32(0, value, true);
      else f32.setFloat32(0, value, true);
      out.push(...new Uint8Array(f32.buffer));
    }
  }
  return Uint8Array.from(out);
}

/**
 * `short_last_key.ani`: animation "Sway", 1 s, two tracks. "Root": position keys at 0 and 1 s.
 * "Bone": position + rotation keys at 0 and 1 s; the file ends 4 bytes early, inside the last
 * key's rotation (its z, 0 like the previous key's z). Urho3D's Animation::BeginLoad reads keys
 * without checking for the end of the file, so the game loads it.
 */
export function shortLastKey() {
  const full = bytes([
    ['u8', 0x55],
    ['u8', 0x41],
    ['u8', 0x4e],
    ['u8', 0x49], // UANI
    ['str', 'Sway'],
    ['f32', 1],
    ['u32', 2],
    ['str', 'Root'],
    ['u8', 1],
    ['u32', 2],
    ['f32', 0],
    ['f32', 0],
    ['f32', 0],
    ['f32', 0],
    ['f32', 1],
    ['f32', 0],
    ['f32', 0.5],
    ['f32', 0],
    ['str', 'Bone'],
    ['u8', 3],
    ['u32', 2],
    ['f32', 0],
    ['f32', 1],
    ['f32', 2],
    ['f32', 3],
    ['f32', 1],
    ['f32', 0],
    ['f32', 0],
    ['f32', 0],
    ['f32', 1],
    ['f32', 4],
    ['f32', 5],
    ['f32', 6],
    ['f32', 0.6],
    ['f32', 0.8],
    ['f32', 0],
    ['f32', 0],
  ]);
  return full.slice(0, full.length - 4);
}

export const QUIRK_FILES = { 'short_last_key.ani': shortLastKey };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [name, make] of Object.entries(QUIRK_FILES))
    writeFileSync(fileURLToPath(new URL(name, import.meta.url)), make());
}
