import { readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { exportUnigine, importUnigine, readMesh } from '../src/index.js';
import { unigineCorpus } from './helpers.js';

const { supported } = unigineCorpus();

describe('documents edited after import', () => {
  it('moving a vertex rebuilds coordinate vertices; changing normals rebuilds tangent frames', async () => {
    const path = supported.find((f) => f.endsWith('sphere_00.mesh')) as string;
    const original = readMesh(readBytes(path));
    const { document } = importUnigine(new Map([['sphere_00.mesh', readBytes(path)]]), {
      main: 'sphere_00.mesh',
    });
    const prim = document.getRoot().listMeshes()[0].listPrimitives()[0];
    const pos = prim.getAttribute('POSITION');
    const nrm = prim.getAttribute('NORMAL');
    if (!pos || !nrm) throw new Error('missing attributes');
    // Move a glTF vertex that shares its coordinate vertex with another one up by 1 (glTF +Y =
    // UNIGINE +Z), and flip every normal.
    const coord = prim.getAttribute('_UNIGINE_COORD')?.getArray() as Uint16Array;
    const seen = new Map<number, number>();
    let moved = -1;
    for (let v = 0; v < coord.length && moved < 0; v++) {
      if (seen.has(coord[v])) moved = v;
      seen.set(coord[v], v);
    }
    expect(moved).toBeGreaterThanOrEqual(0);
    const p = pos.getElement(moved, []);
    pos.setElement(moved, [p[0], p[1] + 1, p[2]]);
    for (let v = 0; v < nrm.getCount(); v++)
      nrm.setElement(
        v,
        nrm.getElement(v, []).map((x) => -x),
      );
    const out = await exportUnigine(document, { name: 'sphere_00' });
    const codes = out.warnings.map((w) => w.code);
    expect(codes).toContain('COORDINATES_REBUILT');
    expect(codes).toContain('TANGENT_FRAMES_REBUILT');
    const s = out.mesh?.surfaces[0];
    if (!s) throw new Error('no surface');
    // The moved vertex got its own coordinate vertex with the new height, and the box grew.
    expect(s.targets[0].length / 3).toBe(original.surfaces[0].targets[0].length / 3 + 1);
    const movedZ = Math.fround(p[1] + 1); // glTF y is UNIGINE z
    expect(s.bounds[5]).toBe(Math.max(original.surfaces[0].bounds[5], movedZ));
    let found = false;
    for (let c = 2; c < s.targets[0].length; c += 3) if (s.targets[0][c] === movedZ) found = true;
    expect(found).toBe(true);
    // Flipped normals: the new tangent quaternions rotate Z onto −(old normal).
    expect(Array.from(s.tangents.subarray(0, 8))).not.toEqual(
      Array.from(original.surfaces[0].tangents.subarray(0, 8)),
    );
  });
});
