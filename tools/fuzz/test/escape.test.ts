import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module without type declarations
import { ESCAPES, escapePath, mutate, OPERATORS, padEscape } from '../src/mutate.mjs';
// @ts-expect-error plain ES module without type declarations
import { tripwireResources } from '../src/pipeline.mjs';
// @ts-expect-error plain ES module without type declarations
import { Rng } from '../src/rng.mjs';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder('latin1').decode(b);

describe('escape mutator', () => {
  const uc = enc('#exec TEXTURE IMPORT NAME=Skin FILE=Textures\\Skin.pcx GROUP=Skins FLAGS=2\n');
  const xml = enc('<material><texture unit="diffuse" name="Textures/Mushroom.dds"/></material>');
  const gltf = enc('{"buffers":[{"uri":"model.bin","byteLength":36}],"images":[{"uri":"tex/a.png"}]}');

  it('is one of the stacked operators', () => {
    expect(Object.keys(OPERATORS)).toContain('escape');
    const rng = new Rng(5);
    const ops = new Set<string>();
    for (let i = 0; i < 400; i++) for (const op of mutate(xml, rng).ops) ops.add(op);
    expect(ops.has('escape')).toBe(true);
  });

  it('rewrites the path a file names (.uc FILE=, material XML, glTF uri) into an escape', () => {
    const rng = new Rng(11);
    for (const [input, original] of [
      [uc, 'Textures\\Skin.pcx'],
      [xml, 'Textures/Mushroom.dds'],
      [gltf, 'model.bin'],
    ] as const) {
      let hits = 0;
      for (let i = 0; i < 60; i++) {
        const out = dec(escapePath(input, rng));
        if (!out.includes(original)) hits++;
        const escaped = ESCAPES.some((e: string) => out.includes(e.slice(-8)));
        expect(escaped, out).toBe(true);
      }
      expect(hits).toBeGreaterThan(10);
    }
  });

  it('keeps the length when it pads, and padding keeps the kind of escape', () => {
    for (const e of ESCAPES as string[]) {
      const p = padEscape(e, e.length + 9);
      expect(p.length).toBe(e.length + 9);
      if (/^[a-z][a-z0-9+.-]+:\/\//i.test(e)) expect(p.startsWith(e.slice(0, e.indexOf(':') + 3))).toBe(true);
      if (e.startsWith('/')) expect(p.startsWith('/')).toBe(true);
      if (e.includes('..')) expect(p.includes('..')).toBe(true);
    }
    const rng = new Rng(2);
    let same = 0;
    for (let i = 0; i < 50; i++) if (escapePath(xml, rng).length === xml.length) same++;
    expect(same).toBeGreaterThan(10);
  });
});

describe('tripwire resources', () => {
  const files = new Map([
    ['Models/a.mdl', enc('model')],
    ['Textures/t.png', enc('png')],
  ]);
  it('reads resolved paths like MemoryResources (case-insensitive)', async () => {
    const r = tripwireResources(files);
    expect(dec(await r.read('textures/T.PNG'))).toBe('png');
    expect(await r.list('Textures')).toEqual(['Textures/t.png']);
  });
  it('an unresolved absolute path, scheme or NUL is a RESOURCE_ESCAPE finding; ../ is a typed PATH_ESCAPE', async () => {
    const r = tripwireResources(files);
    for (const p of ['/etc/passwd', '\\\\host\\x', 'C:\\x', 'file:///etc/passwd', 'http://x/y', 'a\u0000b'])
      await expect(r.read(p), p).rejects.toMatchObject({ kind: 'RESOURCE_ESCAPE' });
    await expect(r.read('../../etc/passwd')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
  });
});
