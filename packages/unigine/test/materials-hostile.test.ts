import { join } from 'node:path';
import { LegacyError, MemoryResources } from '@gltf-legacy/core';
import { corpusRoot, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { legacyFormat, readMaterialLibrary, writeMaterialLibrary } from '../src/index.js';

const ROOT = join(corpusRoot(), 'textured/unigine/Unigine_FPS_Demo1');
const MESH = 'source/meshes/first_person/QBZ95_long.mesh';
const QBZ_MAT = 'source/material/qbz95.mat';
const BASE_MAT = 'data/core/materials/default/unigine_mesh.mat';
const FILES = [
  QBZ_MAT,
  BASE_MAT,
  'data/core/textures/mesh_base_diffuse.dds',
  'data/core/textures/mesh_base_normal.dds',
  'data/core/textures/mesh_base_specular.dds',
];

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SNIPPETS = [
  '<',
  '>',
  '"',
  '/>',
  '</material>',
  '<material name="x" parent="x"/>',
  'parent="Material #0"',
  '<texture name="diffuse">../../../../etc/passwd</texture>',
  '<texture name="normal">/etc/passwd</texture>',
  '&#0;',
  '&#x110000;',
  '<!--',
  '<![CDATA[',
  '<!DOCTYPE x [<!ENTITY a "b">]>',
  '\u0000',
];

function mutate(text: string, r: () => number): string {
  let s = text;
  const n = 1 + Math.floor(r() * 3);
  for (let k = 0; k < n; k++) {
    const at = Math.floor(r() * (s.length + 1));
    const kind = Math.floor(r() * 4);
    if (kind === 0) s = s.slice(0, at) + SNIPPETS[Math.floor(r() * SNIPPETS.length)] + s.slice(at);
    else if (kind === 1) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(r() * 40));
    else if (kind === 2) {
      const len = Math.floor(r() * 200);
      s = s.slice(0, at) + s.slice(at, at + len) + s.slice(at);
    } else s = s.slice(0, at) + String.fromCharCode(Math.floor(r() * 128)) + s.slice(at + 1);
  }
  return s;
}

describe('hostile .mat libraries (mutations of the corpus ones)', () => {
  const base = new Map(FILES.map((p) => [p, readBytes(join(ROOT, p))]));
  const mesh = new Map([['QBZ95_long.mesh', readBytes(join(ROOT, MESH))]]);

  it.each([
    [QBZ_MAT, 150, 1],
    [BASE_MAT, 80, 2],
  ])('%s: %i mutations import or fail with a typed error only', async (target, runs, seed) => {
    const r = rng(seed);
    const original = new TextDecoder().decode(base.get(target));
    let imported = 0;
    let typed = 0;
    let skipped = 0;
    for (let i = 0; i < runs; i++) {
      const text = mutate(original, r);
      // the file model alone: read → write is the same text when it reads
      try {
        expect(writeMaterialLibrary(readMaterialLibrary(text, target))).toBe(text);
      } catch (e) {
        if (!(e instanceof LegacyError)) throw e;
      }
      const files = new Map(base);
      files.set(target, new TextEncoder().encode(text));
      try {
        const { document, warnings } = await legacyFormat.import(mesh, {
          main: 'QBZ95_long.mesh',
          resources: new MemoryResources(files, 'mutated'),
          resourcePath: MESH,
        });
        expect(document.getRoot().listMaterials().length).toBe(1);
        imported++;
        // an unreadable library is skipped with a warning naming it
        if (warnings.some((w) => w.code === 'MATERIAL_FILE_INVALID' && w.message.includes(target))) skipped++;
      } catch (e) {
        if (!(e instanceof LegacyError)) throw new Error(`mutation ${i}: ${String(e)}`);
        typed++;
      }
    }
    expect(imported + typed).toBe(runs);
    expect(imported).toBeGreaterThan(0);
    expect(skipped).toBeGreaterThan(0);
  });
});
