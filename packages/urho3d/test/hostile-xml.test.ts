import { join } from 'node:path';
import { FormatError, LegacyError, MemoryResources } from '@gltf-legacy/core';
import { corpusRoot, folderResources, hasCorpus } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { legacyFormat, readMaterialXml, readPrefabXml, writeMaterialXml, writeXml } from '../src/index.js';

const BIN = join(corpusRoot(), 'textured/urho/Urho3D/bin');

/** xorshift32: reproducible mutations. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

const SNIPPETS = [
  '<',
  '>',
  '/>',
  '"',
  '&amp;',
  '&#0;',
  '<node>',
  '</node>',
  '../',
  '/etc/',
  ';',
  '\u0000',
  'http://x/',
];

function mutate(bytes: Uint8Array, r: () => number): Uint8Array {
  const text = new TextDecoder().decode(bytes);
  const at = Math.floor(r() * text.length);
  const kind = Math.floor(r() * 4);
  if (kind === 0) return new TextEncoder().encode(text.slice(0, at)); // truncation
  if (kind === 1) {
    const b = bytes.slice();
    b[at % b.length] = Math.floor(r() * 256); // byte flip (may break UTF-8)
    return b;
  }
  const snip = SNIPPETS[Math.floor(r() * SNIPPETS.length)];
  if (kind === 2) return new TextEncoder().encode(text.slice(0, at) + snip + text.slice(at));
  return new TextEncoder().encode(text.slice(0, at) + text.slice(at + Math.floor(r() * 40)));
}

function expectTyped(e: unknown): void {
  expect(e, String(e)).toBeInstanceOf(LegacyError); // FormatError or ResourceError, nothing else
}

describe.skipIf(!hasCorpus('textured/urho'))('mutated material and prefab XML', () => {
  it('parsing: 600 mutations of a material and a prefab → a model that writes back, or FormatError', async () => {
    const res = folderResources(BIN);
    const mat = (await res.read('Data/Models/Kachujin/Materials/Kachujin.xml'))!;
    const pre = (await res.read('Data/Objects/Ninja.xml'))!;
    const r = rng(2718);
    let ok = 0;
    for (let i = 0; i < 300; i++) {
      const m = mutate(mat, r);
      const p = mutate(pre, r);
      const parse = <T>(f: () => T): T | null => {
        try {
          return f();
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
          return null;
        }
      };
      const xm = parse(() => readMaterialXml(m));
      if (xm)
        expect(Buffer.from(writeMaterialXml(xm)).equals(Buffer.from(m)), `material mutation ${i}`).toBe(true);
      const xp = parse(() => readPrefabXml(p));
      if (xp) expect(Buffer.from(writeXml(xp.xml)).equals(Buffer.from(p)), `prefab mutation ${i}`).toBe(true);
      ok += (xm ? 1 : 0) + (xp ? 1 : 0);
    }
    expect(ok).toBeGreaterThan(50);
  });

  it('importing and exporting: 60 mutated prefabs and materials → documents and files, or a typed error', async () => {
    const res = folderResources(BIN);
    const entries: [string, Uint8Array][] = [];
    for (const p of await res.list('', { recursive: true })) entries.push([p, (await res.read(p))!]);
    const r = rng(31337);
    const pre = (await res.read('Data/Objects/Ninja.xml'))!;
    const mat = (await res.read('Data/Materials/NinjaSnowWar/Ninja.xml'))!;
    let imported = 0;
    for (let i = 0; i < 60; i++) {
      const p = i % 2 ? pre : mutate(pre, r);
      const m = i % 2 ? mutate(mat, r) : mat;
      const files = new Map(entries);
      files.set('Data/Objects/Ninja.xml', p);
      files.set('Data/Materials/NinjaSnowWar/Ninja.xml', m);
      const resources = new MemoryResources(files);
      try {
        const { document } = await legacyFormat.import(new Map([['Data/Objects/Ninja.xml', p]]), {
          main: 'Data/Objects/Ninja.xml',
          resources,
          resourcePath: 'Data/Objects/Ninja.xml',
        });
        expect(document.getRoot().listScenes().length).toBeLessThanOrEqual(1);
        imported++;
        const out = await legacyFormat.export!(document, {}); // and back: files, or a typed error
        for (const k of out.files.keys()) expect(k.split('/')).not.toContain('..');
      } catch (e) {
        expectTyped(e);
      }
    }
    expect(imported).toBeGreaterThan(10);
  }, 120_000);
});
