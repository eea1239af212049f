// Issue 29: bytes glTF cannot hold travel as bytes (GLTF_LEGACY_kept_bytes), --lean drops them.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KEPT_BYTES } from '@gltf-legacy/core';
import { beforeEach, describe, expect, it } from 'vitest';

import { triangleModel, ulz4Pak } from './bomb.js';
import { runCli } from './run-cli.js';

const corpus = resolve(import.meta.dirname, '../../..', process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
const AXE = join(
  corpus,
  'textured/grimrock/eob1-waterdeep/mod_assets/plugins/skeleton_warrior_axe/models/rusted_great_axe.model',
);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-kept-'));
});

const run = runCli;

function glbJson(path: string): { json: Record<string, unknown>; jsonBytes: number; bytes: number } {
  const b = readFileSync(path);
  const len = b.readUInt32LE(12);
  return { json: JSON.parse(b.subarray(20, 20 + len).toString()), jsonBytes: len, bytes: b.length };
}

function files(d: string): string[] {
  return readdirSync(d, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(d, f)).isFile());
}

describe('kept bytes in the .glb (issue 29)', () => {
  it('a DDS original travels as bytes in a buffer view; --lean drops it; the export is byte for byte', async () => {
    const full = join(dir, 'full.glb');
    const lean = join(dir, 'lean.glb');
    expect((await run(['convert', AXE, '-o', full, '-q'])).code).toBe(0);
    expect((await run(['convert', AXE, '-o', lean, '-q', '--lean'])).code).toBe(0);
    const f = glbJson(full);
    const l = glbJson(lean);
    expect(f.json.extensionsUsed).toContain(KEPT_BYTES);
    expect((f.json.extensionsRequired as string[] | undefined) ?? []).not.toContain(KEPT_BYTES);
    const text = JSON.stringify(f.json);
    // no base64 of the DDS (its "DDS " magic is "RERTIC" in base64), no arrays of bytes
    expect(text).not.toMatch(/RERTI/);
    expect(f.jsonBytes).toBeLessThan(32 << 10);
    expect(JSON.stringify(l.json)).not.toContain(KEPT_BYTES);
    expect(JSON.stringify(l.json)).not.toMatch(/"gltfLegacySource"/);
    expect(l.bytes).toBeLessThan(f.bytes);
    // back to Grimrock: the textures are the game's files, byte for byte
    const back = join(dir, 'back');
    const r = await run(['convert', full, '--to', 'grimrock', '--out-dir', back, '-q']);
    expect(r.code, r.err).toBe(0);
    const dds = files(back).filter((p) => p.endsWith('.dds'));
    expect(dds.length).toBeGreaterThan(0);
    const root = join(corpus, 'textured/grimrock/eob1-waterdeep');
    for (const p of dds) {
      const rel = p.slice(p.indexOf('mod_assets'));
      expect(Buffer.compare(readFileSync(join(back, p)), readFileSync(join(root, rel))), rel).toBe(0);
    }
  });

  it('a .pak whose model carries 8 MiB of trailing bytes: bytes in the BIN chunk, JSON small, the trailing bytes come back exactly', async () => {
    const mdl = new Uint8Array(triangleModel().length + (8 << 20));
    mdl.set(triangleModel());
    mdl.fill(7, mdl.length - 5);
    const pak = join(dir, 'Data.pak');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(pak, ulz4Pak([['Models/Tri.mdl', mdl]]));
    const out = join(dir, 'out');
    const r = await run(['convert', pak, '--out-dir', out, '-q']);
    expect(r.code, r.err + r.out).toBe(0);
    const glb = files(out).find((p) => p.endsWith('.glb'))!;
    const g = glbJson(join(out, glb));
    expect(g.jsonBytes).toBeLessThan(16 << 10);
    expect(g.bytes).toBeLessThan(mdl.length + (64 << 10));
    const back = join(dir, 'back');
    const b = await run(['convert', join(out, glb), '--to', 'urho3d', '--out-dir', back, '-q']);
    expect(b.code, b.err).toBe(0);
    const written = files(back).find((p) => p.endsWith('.mdl'))!;
    // the trailing bytes come back exactly (the synthetic model's own header is not canonical:
    // its bounds are recomputed, as they were before kept bytes)
    const again = readFileSync(join(back, written));
    expect(again.length).toBe(mdl.length);
    const tail = triangleModel().length;
    expect(Buffer.compare(again.subarray(tail), mdl.subarray(tail))).toBe(0);
  });
});
