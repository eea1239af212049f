// Issue 29: a long triangle order (`runs`, kept bytes of the mesh), vertices no rendered triangle uses (their raw X, Y, Z in every frame) and per-triangle
// colours travel as bytes (GLTF_LEGACY_kept_bytes `orphanIndices` / `orphanFrames` of the mesh,
// `colors` of a primitive), not as JSON number arrays in extras; a .glb written before (the
// arrays in extras) still exports byte for byte.
import { KEPT_BYTES, KeptBytesExtension, getKeptBytes, removeKeptBytes } from '@gltf-legacy/core';
import * as quantize from '@gltf-legacy/quantize';
import { firstByteDiff } from '@gltf-legacy/test-utils';
import type { Document } from '@gltf-transform/core';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without types
import { makeAssets } from '../scripts/make-test-assets.mjs';
import * as lib from '../src/index.js';

const generated: Map<string, Uint8Array> = makeAssets({ ...lib, ...quantize });
const blade = new Map([...generated].filter(([k]) => k.startsWith('blade')));
const io = new NodeIO().registerExtensions([KeptBytesExtension]);
const plainIO = new NodeIO();

function jsonText(glb: Uint8Array): string {
  return new TextDecoder().decode(
    glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true)),
  );
}

/** blade_d.3d with two triangles of its first primitive given other colours (mixed colours). */
function bladeMixedColors(): Map<string, Uint8Array> {
  const files = new Map(blade);
  const data = lib.readData(files.get('blade_d.3d')!, 'blade_d.3d');
  data.polys.colors[0] = 7;
  data.polys.colors[1] = 200;
  files.set('blade_d.3d', lib.writeData(data));
  return files;
}

async function exportsBack(document: Document, files: Map<string, Uint8Array>, viaPlain = false) {
  const glb = await (viaPlain ? plainIO : io).writeBinary(document);
  const out = await lib.exportUnreal(await io.readBinary(glb), { name: 'blade' });
  for (const [k, v] of files) expect(firstByteDiff(out.files.get(k) as Uint8Array, v), k).toBe(-1);
  return jsonText(glb);
}

describe('unreal3d kept orphans and colours', () => {
  it('blade: orphan vertices and mixed colours are bytes, not JSON; byte-exact back', async () => {
    const files = bladeMixedColors();
    const { document } = await lib.importUnrealFiles(files, { main: 'blade_d.3d' });
    const mesh = document.getRoot().listMeshes()[0];
    const x = (mesh.getExtras() as { unreal3d: { orphanCount?: number; orphans?: unknown } }).unreal3d;
    expect(x.orphans).toBeUndefined();
    expect(x.orphanCount).toBe(3);
    expect(getKeptBytes(mesh, 'orphanIndices')!.byteLength).toBe(3 * 4);
    expect(getKeptBytes(mesh, 'orphanFrames')!.byteLength % (3 * 12)).toBe(0);
    expect(mesh.listPrimitives().some((p) => getKeptBytes(p, 'colors'))).toBe(true);
    const text = await exportsBack(document, files);
    expect(text).not.toMatch(/"orphans"|"colors":\[/);
    expect(text).toContain(KEPT_BYTES);
  });

  it('a .glb written the old way (orphans and colours as JSON arrays, no extension) still exports byte for byte', async () => {
    const files = bladeMixedColors();
    const { document } = await lib.importUnrealFiles(files, { main: 'blade_d.3d' });
    const mesh = document.getRoot().listMeshes()[0];
    const ex = mesh.getExtras() as { unreal3d: Record<string, unknown> };
    const resolved = lib.withKeptOrphans(mesh, ex.unreal3d as never);
    ex.unreal3d.orphans = resolved.orphans;
    delete ex.unreal3d.orphanCount;
    removeKeptBytes(mesh, 'orphanIndices');
    removeKeptBytes(mesh, 'orphanFrames');
    for (const p of mesh.listPrimitives()) {
      const c = getKeptBytes(p, 'colors');
      if (!c) continue;
      (p.getExtras() as { unreal3d: Record<string, unknown> }).unreal3d.colors = Array.from(c);
      removeKeptBytes(p, 'colors');
    }
    const text = await exportsBack(document, files, true);
    expect(text).toMatch(/"orphans":\{"indices":\[/);
    expect(text).toMatch(/"colors":\[/);
    expect(text).not.toContain(KEPT_BYTES);
  });

  it('cube with its two skins alternating triangle by triangle: the long triangle order is bytes (runs), byte-exact back', async () => {
    const files = new Map([...generated].filter(([k]) => k.startsWith('cube')));
    const data = lib.readData(files.get('cube_d.3d')!, 'cube_d.3d');
    const { polys } = data;
    // the two skins' triangles alternate: one run per triangle
    const t0 = polys.textures[0];
    const t1 = polys.textures.find((t) => t !== t0)!;
    polys.textures.forEach((_, k) => {
      polys.textures[k] = k % 2 ? t1 : t0;
    });
    expect(polys.textures.length * 2).toBeGreaterThan(lib.RUNS_JSON_MAX);
    files.set('cube_d.3d', lib.writeData(data));
    const { document } = await lib.importUnrealFiles(files, { main: 'cube_d.3d' });
    const mesh = document.getRoot().listMeshes()[0];
    expect((mesh.getExtras() as { unreal3d: { runs?: unknown } }).unreal3d.runs).toBeUndefined();
    expect(getKeptBytes(mesh, 'runs')!.byteLength).toBeGreaterThan(lib.RUNS_JSON_MAX * 4);
    const glb = await io.writeBinary(document);
    const out = await lib.exportUnreal(await io.readBinary(glb), { name: 'cube' });
    for (const [k, v] of files) expect(firstByteDiff(out.files.get(k) as Uint8Array, v), k).toBe(-1);
  });
});
