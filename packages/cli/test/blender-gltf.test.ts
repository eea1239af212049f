// Issue 29: a glTF written by Blender's own exporter (test-assets/blender/crate_blender.glb, how it
// was made in test-assets/blender/README.md) keeps its look through every format with the CLI's
// DEFAULT options: each export writes the texture (Urho3D material XML + Textures/, TSO outfit
// .apr/.bnd + texture, …) and converting the written files back gives the same pixels.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type RgbaImage, fromGltfImage } from '@gltf-legacy/textures';
import { TEST_ASSETS, readBytes, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/index.js';

const INPUT = join(TEST_ASSETS, 'blender/crate_blender.glb');
const io = new NodeIO().registerExtensions(KHRONOS_EXTENSIONS);

async function run(...args: string[]) {
  const err: string[] = [];
  const code = await main(['node', 'gltf-legacy', ...args], { out: () => {}, err: (s) => err.push(s) });
  return { code, err: err.join('\n') };
}

/** Every file below `dir`, as `/`-separated relative paths, sorted. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** The decoded base colour textures of a .glb's materials, and its validator error count. */
async function baseColours(glb: string): Promise<{ images: RgbaImage[]; errors: number; report: string }> {
  const bytes = readBytes(glb);
  const report = await validateGlb(bytes);
  const doc = await io.readBinary(bytes);
  const images = doc
    .getRoot()
    .listMaterials()
    .map((m) => m.getBaseColorTexture())
    .filter((t) => !!t?.getImage())
    .map((t) => fromGltfImage(t!.getImage()!, t!.getMimeType()));
  return { images, errors: report.issues.numErrors, report: validatorErrors(report) };
}

/** Largest difference of any channel of any pixel (images of the same size). */
function maxChannelDiff(a: RgbaImage, b: RgbaImage): number {
  let max = 0;
  for (let i = 0; i < a.data.length; i++) max = Math.max(max, Math.abs(a.data[i] - b.data[i]));
  return max;
}

// What each format writes by default for the Blender glTF (beside what it always writes), and the
// main file to convert back. Tolerance 0 everywhere, though PCX (Unreal) stores an 8-bit palette
// and DDS (Grimrock, Unigine) BC1 blocks: the texture (checked below) has 16 colours, all exactly
// representable in RGB565, one per 4×4 block, so the palette holds every colour and each BC1 block
// is its colour at both endpoints — neither quantization step loses anything on this image.
const FORMATS: { id: string; texture: RegExp; material: RegExp | null; back: RegExp; extra?: string[] }[] = [
  {
    id: 'urho3d',
    texture: /^Textures\/crate_paint\.png$/,
    material: /^Materials\/crate_paint\.xml$/,
    back: /^Objects\/crate_blender\.xml$/,
  },
  {
    id: 'tso',
    texture: /^Textures\/crate_paint\.[0-9a-f]{8}00000014\.png$/,
    material: /^(Appearances\/crate_blender\.[0-9a-f]{16}\.apr|Bindings\/crate_mesh\.[0-9a-f]{16}\.bnd)$/,
    back: /^Appearances\/.*\.apr$/,
  },
  {
    id: 'unreal3d',
    texture: /^Textures\/crate_paint\.pcx$/,
    material: /^crate_blender\.uc$/,
    back: /_d\.3d$/,
  },
  {
    id: 'grimrock',
    texture: /^mod_assets\/textures\/crate_blender\/crate_paint\.dds$/,
    material: /^crate_blender_materials\.lua$/,
    back: /\.model$/,
  },
  {
    id: 'unigine',
    texture: /^textures\/crate_paint\.dds$/,
    material: /^crate_blender\.mat$/,
    back: /\.mesh$/,
  },
];

describe('a Blender-exported textured glTF keeps its texture through every format (defaults)', () => {
  let source: RgbaImage;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-blender-'));
    const { images, errors, report } = await baseColours(INPUT);
    expect(errors, report).toBe(0);
    expect(images.length).toBe(1);
    source = images[0];
  });

  it('is what the README says: Blender made it, a 64×64 texture of 16 RGB565 colours, one per 8×8 cell', () => {
    const json = JSON.parse(new TextDecoder().decode(glbJson(readBytes(INPUT))));
    expect(json.asset.generator).toMatch(/^Khronos glTF Blender I\/O v3\.4/);
    expect(json.extras).toBeUndefined(); // nothing of ours left in it
    expect([source.width, source.height]).toEqual([64, 64]);
    const colours = new Set<number>();
    for (let y = 0; y < 64; y++)
      for (let x = 0; x < 64; x++) {
        const i = (y * 64 + x) * 4;
        const c = (source.data[i] << 16) | (source.data[i + 1] << 8) | source.data[i + 2];
        const j = (((y >> 3) << 3) * 64 + ((x >> 3) << 3)) * 4; // the cell's first pixel
        expect(c).toBe((source.data[j] << 16) | (source.data[j + 1] << 8) | source.data[j + 2]);
        const [r, g, b] = [source.data[i], source.data[i + 1], source.data[i + 2]];
        expect([r, g, b]).toEqual([
          ((r >> 3) << 3) | (r >> 5),
          ((g >> 2) << 2) | (g >> 6),
          ((b >> 3) << 3) | (b >> 5),
        ]);
        expect(source.data[i + 3]).toBe(255);
        colours.add(c);
      }
    expect(colours.size).toBe(16);
  });

  for (const f of FORMATS)
    it(`${f.id}: the default export writes the texture and its material file; back: the same pixels, 0 validator errors`, async () => {
      const out = join(dir, f.id);
      const exported = await run('convert', INPUT, '--to', f.id, '--out-dir', out);
      expect(exported.code, exported.err).toBe(0);
      expect(exported.err).not.toMatch(/TEXTURE_DROPPED|MATERIAL_DROPPED/);
      const files = tree(out);
      expect(files.filter((p) => f.texture.test(p)).length, files.join(' ')).toBe(1);
      if (f.material)
        expect(
          files.some((p) => f.material!.test(p)),
          files.join(' '),
        ).toBe(true);
      const main = files.find((p) => f.back.test(p));
      expect(main, files.join(' ')).toBeDefined();
      const glb = join(dir, `${f.id}-back.glb`);
      const back = await run('convert', join(out, main!), '-o', glb);
      expect(back.code, back.err).toBe(0);
      const { images, errors, report } = await baseColours(glb);
      expect(errors, report).toBe(0);
      expect(images.length).toBe(1);
      expect([images[0].width, images[0].height]).toEqual([64, 64]);
      expect(maxChannelDiff(images[0], source)).toBe(0);
    });

  it('turning the material files off drops the texture again (urho3d materials=false, tso outfit=never)', async () => {
    const out = join(dir, 'off');
    const u = await run('convert', INPUT, '--to', 'urho3d', '--out-dir', out, '--option', 'materials=false');
    expect(u.code, u.err).toBe(0);
    expect(u.err).toMatch(/TEXTURE_DROPPED/);
    const t = await run('convert', INPUT, '--to', 'tso', '--out-dir', out, '--option', 'outfit=never');
    expect(t.code, t.err).toBe(0);
    expect(t.err).toMatch(/TEXTURE_DROPPED/);
    expect(tree(out)).toEqual(['crate_blender.mdl', 'crate_blender.mesh', 'crate_blender.skel']);
  });
});

/** The JSON chunk of a .glb. */
function glbJson(glb: Uint8Array): Uint8Array {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  return glb.subarray(20, 20 + view.getUint32(12, true));
}
