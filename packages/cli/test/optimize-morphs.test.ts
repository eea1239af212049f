// --quantize / --meshopt on a document whose morph targets are already integers (the compact
// Unreal vertex animation, issue 19's default, `--compact` since issue 30): quantize() keeps integer attributes but moves the mesh into
// its quantization volume, so the chain decodes them first. Checked in world space against the
// float32 import: each frame's vertex offsets must stay where they were.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusFiles, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import type { Document } from '@gltf-transform/core';
import { afterAll, describe, expect, it } from 'vitest';
import { convertFile, createCodecNodeIO } from '../src/index.js';

const sporifier = corpusFiles('unreal3d', ['_d.3d']).find((f) => f.endsWith('Sporifier_d.3d'));
const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-optm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** World-space offset of every vertex for morph target `t` of the first morphed mesh. */
function worldDeltas(doc: Document, t: number): Float64Array {
  const node = doc
    .getRoot()
    .listNodes()
    .find((n) => n.getMesh()?.listPrimitives()[0].listTargets().length)!;
  const m = node.getWorldMatrix();
  const out: number[] = [];
  for (const prim of node.getMesh()!.listPrimitives()) {
    const acc = prim.listTargets()[t].getAttribute('POSITION')!;
    const v = [0, 0, 0];
    for (let i = 0; i < acc.getCount(); i++) {
      acc.getElement(i, v); // decodes normalized integers
      for (let r = 0; r < 3; r++) out.push(m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2]);
    }
  }
  return Float64Array.from(out);
}

function lengthsSorted(d: Float64Array): Float64Array {
  const out = new Float64Array(d.length / 3);
  for (let i = 0; i < out.length; i++) out[i] = Math.hypot(d[i * 3], d[i * 3 + 1], d[i * 3 + 2]);
  return out.sort();
}

describe.skipIf(!sporifier)('--quantize / --meshopt keep integer morph targets in place', () => {
  it.each([
    ['quantize', true],
    ['meshopt', true],
    ['quantize', false],
    ['meshopt', false],
  ])('%s (compact: %s): every frame moves the vertices as the float32 import does', async (flag, compact) => {
    const io = await createCodecNodeIO([], {});
    const ref = join(dir, 'float.glb');
    expect((await convertFile(sporifier!, { output: ref, force: true })).status).toBe('ok');
    const output = join(dir, `${flag}.glb`);
    const r = await convertFile(sporifier!, {
      output,
      force: true,
      formatOptions: { compact },
      optimize: { [flag]: true },
    });
    expect(r.status, r.error?.message).toBe('ok');
    const bytes = new Uint8Array(readFileSync(output));
    const v = await validateGlb(bytes);
    expect(v.issues.numErrors, validatorErrors(v)).toBe(0);
    const [a, b] = [await io.readBinary(new Uint8Array(readFileSync(ref))), await io.readBinary(bytes)];
    const frames = a.getRoot().listMeshes()[0].listPrimitives()[0].listTargets().length;
    expect(frames).toBeGreaterThan(10);
    let worst = 0;
    let largest = 0;
    for (const t of [1, frames >> 1, frames - 1]) {
      let [da, db] = [worldDeltas(a, t), worldDeltas(b, t)];
      // meshopt() also reorders vertices for the GPU cache: compare the sorted offset lengths
      if (flag === 'meshopt') [da, db] = [lengthsSorted(da), lengthsSorted(db)];
      expect(db.length).toBe(da.length);
      for (let i = 0; i < da.length; i++) {
        worst = Math.max(worst, Math.abs(da[i] - db[i]));
        largest = Math.max(largest, Math.abs(da[i]));
      }
    }
    // 16-bit (quantize) / meshopt's quantization of the offsets: within 1/1000 of the largest
    // offset; the bug this guards against moved Frame41 by 222 m instead of 1.43 m
    expect(largest).toBeGreaterThan(0);
    expect(worst).toBeLessThan(largest / 1000);
  });
});
