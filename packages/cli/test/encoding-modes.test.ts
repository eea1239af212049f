// Issue 30: every corpus model with vertex animation the source quantized (Unreal morph targets,
// Unigine rotation tracks; no corpus Urho3D model has morphs) converted in both encodings, as a
// user runs `convert`: the default (portable) lists nothing in extensionsRequired; --compact is
// the default of before issue 30 (compact-baseline.json: size and SHA-256 of the .glb written by
// commit a8abca7's CLI with no flag, and its accessor fingerprint): the same accessors, byte for
// byte, everywhere; the same whole file where the model has no texture (issue 29 changed how
// textures are kept: indexed PNG from PCX, original DDS as bytes, so textured files differ there
// and only there); both go back to the game files byte for byte.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { readMdl } from '@gltf-legacy/urho3d';
import { corpusFiles, corpusRoot, firstByteDiff, hasCorpus } from '@gltf-legacy/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { convertFile } from '../src/index.js';
import { accessorFingerprint } from './accessor-fingerprint.js';

const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-modes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SHORT = 5122;

interface GlbJson {
  extensionsRequired?: string[];
  extensionsUsed?: string[];
  accessors?: { componentType: number }[];
  animations?: { samplers: { output: number }[] }[];
}

function glbJson(bytes: Uint8Array): GlbJson {
  const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + len)));
}

/** Integer vertex-animation data in a compact .glb: quantized morph targets or SHORT tracks. */
function quantizedAnimation(json: GlbJson): boolean {
  if (json.extensionsRequired?.includes('KHR_mesh_quantization')) return true;
  return (json.animations ?? []).some((a) =>
    a.samplers.some((s) => json.accessors?.[s.output].componentType === SHORT),
  );
}

async function toGlb(
  input: string,
  name: string,
  formatOptions: Record<string, unknown>,
): Promise<Uint8Array> {
  const output = join(dir, name);
  const r = await convertFile(input, { output, force: true, formatOptions });
  expect(r.status, r.error?.message).toBe('ok');
  return new Uint8Array(readFileSync(output));
}

/** Writes `glb` back as `format` and compares every written game file with the input's sibling. */
async function expectSameFilesBack(glb: Uint8Array, input: string, mode: string, animFile: RegExp) {
  const back = join(dir, `back-${mode}`);
  const src = join(dir, `${mode}.glb`);
  writeFileSync(src, glb);
  const main = basename(input);
  const to = main.endsWith('_d.3d') ? 'unreal3d' : 'unigine';
  const r = await convertFile(src, { output: join(back, main), to, force: true });
  expect(r.status, r.error?.message).toBe('ok');
  const compared: string[] = [];
  for (const out of r.outputs) {
    const name = basename(out);
    const original = join(dirname(input), name);
    if (!/\.(3d|mesh|anim)$/i.test(name) || !existsSync(original)) continue;
    const a = new Uint8Array(readFileSync(out));
    const b = new Uint8Array(readFileSync(original));
    expect(firstByteDiff(a, b), `${mode}: ${name}`).toBe(-1);
    compared.push(name);
  }
  expect(compared, mode).toContain(main);
  expect(
    compared.some((n) => animFile.test(n)),
    `${mode}: an animation file compared (${compared})`,
  ).toBe(true);
}

const root = corpusRoot();
const rel = (p: string) => relative(root, p).split('\\').join('/');
const models = [
  ...corpusFiles('unreal3d', ['_d.3d']),
  ...corpusFiles('textured/unreal3d/MushMatch/Models', ['_d.3d']),
  ...corpusFiles('unigine', ['.mesh']).filter((p) => /^ms11/.test(readFileSync(p).subarray(0, 4).toString())),
  ...corpusFiles('textured/unigine/Unigine_FPS_Demo1/source/meshes/first_person', ['.mesh']),
];
interface Baseline {
  bytes: number;
  sha256: string;
  accessors: number;
  dataBytes: number;
  accessorSha256: string;
  extensionsRequired: string[];
}
const expected: Record<string, Baseline> = JSON.parse(
  readFileSync(join(import.meta.dirname, 'compact-baseline.json'), 'utf8'),
);

describe.skipIf(!hasCorpus('unreal3d'))(
  'portable and compact vertex animation on the corpus (issue 30)',
  () => {
    it('the corpus models with quantized vertex animation are the baseline list (none skipped)', async () => {
      const found: string[] = [];
      for (const m of models) {
        const json = glbJson(await toGlb(m, 'probe.glb', { compact: true }));
        if (quantizedAnimation(json)) found.push(rel(m));
      }
      expect(found.sort()).toEqual(Object.keys(expected).sort());
      // Urho3D: no corpus model has morph targets (its morphs are float in the file: one
      // encoding, tested on synthetic models in packages/urho3d/test/morphs.test.ts)
      const mdls = corpusFiles('urho', ['.mdl']);
      expect(mdls.length).toBeGreaterThan(10);
      for (const m of mdls) expect(readMdl(new Uint8Array(readFileSync(m)), m).morphs.length, m).toBe(0);
    }, 120_000);

    for (const [path, want] of Object.entries(expected)) {
      const input = join(root, path);
      const animFile = path.endsWith('_d.3d') ? /_a\.3d$/ : /\.anim$/;
      it(`${path}: default requires nothing, --compact is the old default (${want.bytes} B, ${want.dataBytes} B of accessors), both export back byte for byte`, async () => {
        const portable = await toGlb(input, 'portable.glb', {});
        const pj = glbJson(portable);
        expect(pj.extensionsRequired ?? []).toEqual([]);
        expect(pj.extensionsUsed ?? []).not.toContain('KHR_mesh_quantization');
        expect(quantizedAnimation(pj)).toBe(false);
        // --float is the portable mode's old name: the same bytes
        expect(firstByteDiff(await toGlb(input, 'float.glb', { float: true }), portable)).toBe(-1);

        const compact = await toGlb(input, 'compact.glb', { compact: true });
        const print = accessorFingerprint(compact);
        expect(print.extensionsRequired).toEqual(want.extensionsRequired);
        expect(print.accessors).toBe(want.accessors);
        expect(print.dataBytes).toBe(want.dataBytes);
        expect(print.sha256).toBe(want.accessorSha256);
        if (!path.startsWith('textured/')) {
          expect(compact.length).toBe(want.bytes);
          expect(createHash('sha256').update(compact).digest('hex')).toBe(want.sha256);
        }
        expect(compact.length).toBeLessThan(portable.length);

        await expectSameFilesBack(portable, input, 'portable', animFile);
        await expectSameFilesBack(compact, input, 'compact', animFile);
      }, 60_000);
    }
  },
);
