/**
 * The shared export stage in the Unreal exporter (issue 17): on every file of corpus/gltf the
 * export reports exactly the stage codes `prepare(document, UNREAL3D_LIMITS)` reports (the Unreal
 * slice of tools/export-matrix), a strip comes out as the same triangles, a mirrored static node is
 * baked by the stage with its winding kept, and every code the package emits is listed once (core's
 * shared table or the package's own).
 */
import { join } from 'node:path';
import { Document, Primitive } from '@gltf-transform/core';
import { SHARED_WARNING_CODES } from '@gltf-legacy/core';
import { prepare } from '@gltf-legacy/prepare';
import { TEST_ASSETS, emittedWarningCodes, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  anivFrame,
  exportUnreal,
  importUnrealFiles,
  legacyFormat,
  readAniv,
  readData,
  UNREAL3D_LIMITS,
  UNREAL3D_NATIVE_LIMITS,
  WARNING_CODES,
} from '../src/index.js';

/** A static quad as a triangle strip, under a node with `scale`. */
function stripDoc(scale: [number, number, number]): { doc: Document; strip: Primitive } {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc
    .createAccessor()
    .setType('VEC3')
    .setBuffer(buffer)
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]));
  const strip = doc.createPrimitive().setMode(Primitive.Mode.TRIANGLE_STRIP).setAttribute('POSITION', pos);
  const node = doc.createNode('quad').setMesh(doc.createMesh('quad').addPrimitive(strip)).setScale(scale);
  doc.createScene().addChild(node);
  return { doc, strip };
}

/** Triangles of an export as sets of glTF-axis positions (X, Z, Y back from Unreal X, Y, Z), winding kept. */
function exportedTriangles(files: Map<string, Uint8Array>): string[] {
  const data = readData(files.get('q_d.3d')!);
  const aniv = readAniv(files.get('q_a.3d')!, 'q_a.3d', { numVertices: data.header.numVertices });
  const uc = new TextDecoder().decode(files.get('q.uc'));
  const scale = /MESHMAP SCALE[^\n]*X=([-\d.e]+) Y=([-\d.e]+) Z=([-\d.e]+)/.exec(uc)!.slice(1).map(Number);
  const origin = /MESH ORIGIN[^\n]*X=([-\d.e]+) Y=([-\d.e]+) Z=([-\d.e]+)/.exec(uc)!.slice(1).map(Number);
  const raw = anivFrame(aniv, 0);
  const at = (v: number) => {
    const w = [0, 1, 2].map((c) => Math.round(scale[c] * (raw[v * 3 + c] - origin[c]) * 100) / 100);
    return `${w[0]},${w[2]},${w[1]}`;
  };
  const out: string[] = [];
  for (let t = 0; t < data.header.numPolys; t++) {
    // Unreal corners 0, 2, 1 are glTF's 0, 1, 2; rotate so the triangle starts at its least corner.
    const c = [0, 2, 1].map((k) => at(data.polys.vertices[t * 3 + k]));
    const i = c.indexOf([...c].sort()[0]);
    out.push([0, 1, 2].map((k) => c[(i + k) % 3]).join(' '));
  }
  return out.sort();
}

describe('shared export stage', () => {
  it('legacyFormat declares UNREAL3D_LIMITS', () => {
    expect(legacyFormat.limits).toBe(UNREAL3D_LIMITS);
    expect(UNREAL3D_LIMITS.modes).toEqual([Primitive.Mode.TRIANGLES]);
    expect(UNREAL3D_LIMITS.maxInfluences).toBe(8);
    expect(UNREAL3D_LIMITS.nodeTree).toBe(false);
    expect(UNREAL3D_LIMITS.animation).toEqual({ sampling: 'grid', fps: 30, interpolations: ['LINEAR'] });
  });

  it('exportLimits: the grid at the fps option for a foreign document, the native limits for an imported one', async () => {
    const { doc } = stripDoc([1, 1, 1]);
    expect(legacyFormat.exportLimits?.(doc, {})).toEqual(UNREAL3D_LIMITS);
    expect(legacyFormat.exportLimits?.(doc, { fps: 15 })?.animation?.fps).toBe(15);
    const dir = join(TEST_ASSETS, 'unreal3d');
    const files = new Map(
      ['cube_d.3d', 'cube_a.3d', 'cube.uc'].map((n) => [n, readBytes(join(dir, n))] as const),
    );
    const { document } = await importUnrealFiles(files, { main: 'cube_d.3d' });
    expect(legacyFormat.exportLimits?.(document, {})).toBe(UNREAL3D_NATIVE_LIMITS);
    expect((await prepare(document, UNREAL3D_NATIVE_LIMITS)).changed).toBe(false);
  });

  it('the package lists only codes core does not, and every code it emits', () => {
    for (const code of Object.keys(WARNING_CODES))
      expect(Object.keys(SHARED_WARNING_CODES), code).not.toContain(code);
    const emitted = emittedWarningCodes(new URL('../src/', import.meta.url));
    expect(emitted.size).toBeGreaterThan(20);
    for (const code of emitted)
      expect(code in WARNING_CODES || code in SHARED_WARNING_CODES, code).toBe(true);
    for (const retired of ['PRIMITIVE_CONVERTED', 'PRIMITIVE_SKIPPED', 'COMPANION_UNUSED'])
      expect(emitted.has(retired), retired).toBe(false);
  });

  it('a triangle strip becomes the same triangles (PRIMITIVE_TRIANGULATED, from the stage)', async () => {
    const { doc, strip } = stripDoc([1, 1, 1]);
    const { files, warnings } = await exportUnreal(doc, { name: 'q', weld: false, scale: 1, axes: 'swap' });
    expect(warnings.map((w) => w.code)).toContain('PRIMITIVE_TRIANGULATED');
    // glTF strip (0 1 2) (2 1 3) → the triangles (0,0,0 1,0,0 0,1,0) and (0,1,0 1,0,0 1,1,0).
    expect(exportedTriangles(files)).toEqual(['0,0,0 1,0,0 0,1,0', '0,1,0 1,0,0 1,1,0']);
    expect(strip.getMode()).toBe(Primitive.Mode.TRIANGLE_STRIP); // the caller's document is untouched
  });

  it('a mirrored static node is baked by the stage (TRANSFORMS_BAKED), its faces still facing out', async () => {
    const { doc } = stripDoc([-1, 1, 1]);
    const { files, warnings } = await exportUnreal(doc, { name: 'q', weld: false, scale: 1, axes: 'swap' });
    expect(warnings.map((w) => w.code)).toContain('TRANSFORMS_BAKED');
    // Mirrored in X, each triangle's winding flips so it still faces +Z: (0,0,0 0,1,0 -1,0,0) …
    expect(exportedTriangles(files)).toEqual(
      ['-1,0,0 0,0,0 0,1,0', '-1,0,0 0,1,0 -1,1,0']
        .map((t) => {
          const c = t.split(' ');
          const i = c.indexOf([...c].sort()[0]);
          return [0, 1, 2].map((k) => c[(i + k) % 3]).join(' ');
        })
        .sort(),
    );
  });
  // Every corpus/gltf file against prepare(limits): tools/export-matrix, for all five formats at once.
});
