/**
 * Writes test-assets/grimrock/crate_mod/: a tiny Grimrock mod folder laid out like a real one,
 * for the material import/export tests and CLI checks (deterministic: no randomness, no clock).
 * Run after `pnpm turbo run build --filter @gltf-legacy/grimrock...` and make-test-assets.mjs:
 *   node packages/grimrock/scripts/make-textured-assets.mjs
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeTexture } from '@gltf-legacy/textures';

const here = dirname(fileURLToPath(import.meta.url));
const assets = join(here, '../../../test-assets/grimrock');
const mod = join(assets, 'crate_mod/mod_assets');
for (const d of ['models', 'scripts', 'textures']) mkdirSync(join(mod, d), { recursive: true });

copyFileSync(join(assets, 'crate.model'), join(mod, 'models/crate.model'));

/** A 64×64 image from a function of (x, y) → [r, g, b, a]. */
function image(f) {
  const data = new Uint8Array(64 * 64 * 4);
  for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) data.set(f(x, y), (y * 64 + x) * 4);
  return { width: 64, height: 64, data };
}

// Planks: brown boards 16 px wide with dark seams and a darker frame (no alpha → BC1).
const planks = image((x, y) => {
  const frame = x < 4 || y < 4 || x > 59 || y > 59;
  const seam = x % 16 === 0;
  const grain = ((x * 7 + y * 3) % 11) * 3;
  if (frame) return [70, 45, 25, 255];
  if (seam) return [50, 32, 18, 255];
  return [150 + grain, 105 + grain, 60, 255];
});
// Specular: bright frame (metal bands), dull wood.
const spec = image((x, y) => (x < 4 || y < 4 || x > 59 || y > 59 ? [200, 200, 200, 255] : [30, 30, 30, 255]));

writeFileSync(join(mod, 'textures/crate_dif.dds'), encodeTexture(planks, 'dds', { ddsFormat: 'bc1' }));
writeFileSync(join(mod, 'textures/crate_spec.dds'), encodeTexture(spec, 'dds', { ddsFormat: 'bc1' }));

writeFileSync(
  join(mod, 'scripts/materials.lua'),
  `-- Materials of the crate test mod (written by make-textured-assets.mjs)

defineObject{
\tname = "test_crate",
\tclass = "Blockage",
\tmodel = "mod_assets/models/crate.fbx",
}

-- the crate: diffuse and specular shipped, the normal map is a base-game file the mod does not ship
defineMaterial{
\tname = "crate",
\tdiffuseMap = "mod_assets/textures/crate_dif.tga",
\tspecularMap = "mod_assets/textures/crate_spec.tga",
\tnormalMap = "assets/textures/common/crate_normal.tga",
\tdoubleSided = false,
\tlighting = true,
\talphaTest = false,
\tblendMode = "Opaque",
\ttextureAddressMode = "Wrap",
\tglossiness = 20,
\tdepthBias = 0,
}

-- not used by crate.model
defineMaterial{
\tname = "crate_glow",
\temissiveMap = "mod_assets/textures/crate_dif.tga",
\tblendMode = "Additive",
\tlighting = false,
}
`,
);
