import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { corpusRoot, hasCorpus } from '@gltf-legacy/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clipFileName,
  clipNameFromFile,
  fileSafeName,
  objectName,
  uniqueNames,
  withoutModelPrefix,
} from '../src/index.js';

/** glTF JSON of a .gltf or .glb file. */
function gltfJson(path: string): {
  animations?: { name?: string }[];
  meshes?: { name?: string }[];
  materials?: { name?: string }[];
} {
  const bytes = readFileSync(path);
  if (path.endsWith('.gltf')) return JSON.parse(bytes.toString('utf8'));
  const len = bytes.readUInt32LE(12);
  return JSON.parse(bytes.subarray(20, 20 + len).toString('utf8'));
}

function gltfFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...gltfFiles(p));
    else if (/\.(gltf|glb)$/i.test(e)) out.push(p);
  }
  return out;
}

describe('naming', () => {
  it('names unnamed objects <Kind><index>, trims named ones', () => {
    expect(objectName(undefined, 'Animation', 0)).toBe('Animation0');
    expect(objectName('  ', 'Mesh', 3)).toBe('Mesh3');
    expect(objectName(' Walk ', 'Animation', 0)).toBe('Walk');
  });

  it('clip names come from the file, and go back to the same file without a doubled prefix', () => {
    expect(clipNameFromFile('Data/Models/Kachujin_Walk.ani', 'Kachujin')).toBe('Walk');
    expect(clipFileName('Kachujin', 'Walk', '.ani')).toBe('Kachujin_Walk.ani');
    expect(clipFileName('skel_bl', 'skel_bl_attack', '.ani')).toBe('skel_bl_attack.ani');
    expect(clipNameFromFile('Kachujin.ani', 'Kachujin')).toBe('Kachujin');
    expect(clipNameFromFile('dance.ani', 'Kachujin')).toBe('dance');
  });

  it('a clip name keeps its dots when the model prefix goes (it is not a file name)', () => {
    expect(withoutModelPrefix('fuzz_a b.c', 'fuzz')).toBe('a b.c');
    expect(clipFileName('fuzz', withoutModelPrefix('fuzz_a b.c', 'fuzz'), '.animation')).toBe(
      'fuzz_a b.c.animation',
    );
  });

  it('property: file → clip → file is the identity for file-safe stems', () => {
    const stem = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/);
    fc.assert(
      fc.property(stem, stem, (model, clip) => {
        const file = `${model}_${clip}.ani`;
        expect(clipFileName(model, clipNameFromFile(file, model), '.ani')).toBe(file);
      }),
    );
  });

  it('property: file-safe names hold no separator, no reserved name, and are never empty', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const out = fileSafeName(s, 'Animation0');
        expect(out.length).toBeGreaterThan(0);
        expect(out.length).toBeLessThanOrEqual(101);
        expect(out).not.toMatch(/[/\\:*?"<>|\0]/);
        expect(out).not.toMatch(/^\.|[. ]$/);
        expect(out).not.toMatch(/^(con|prn|aux|nul)$/i);
      }),
    );
  });

  it('a name cut at 100 units ends on neither a dot nor half a surrogate pair, and cleaning is idempotent', () => {
    expect(fileSafeName(`${'a'.repeat(98)}B.cd`, 'X')).toBe(`${'a'.repeat(98)}B`);
    expect(fileSafeName(`${'a'.repeat(99)}𝒜z`, 'X')).toBe('a'.repeat(99)); // 𝒜 is two units
    const part = fc.constantFrom('a', 'B', '.', ' ', '_', '𝒜', 'é', '/', 'x');
    fc.assert(
      fc.property(fc.array(part, { minLength: 80, maxLength: 130 }), (parts) => {
        const once = fileSafeName(parts.join(''), 'Animation0');
        expect(fileSafeName(once, 'Animation0')).toBe(once);
        expect(once).not.toMatch(/[\uD800-\uDBFF]$/);
      }),
    );
  });

  it("clip file names are a fixed point of file → clip → file: one prefix, in the model's case (fuzz f0cbada7)", () => {
    expect(clipFileName('fuzz', 'FUZZ_a', '.animation')).toBe('fuzz_a.animation');
    expect(clipFileName('hero', 'hero_hero_run', '.animation')).toBe('hero_run.animation');
    const name = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.stringMatching(/^(fuzz_|FUZZ_|Fuzz_){0,3}[a-z.]{0,6}$/),
    );
    fc.assert(
      fc.property(name, (clip) => {
        const file = clipFileName('fuzz', clip, '.ani');
        expect(clipFileName('fuzz', clipNameFromFile(file, 'fuzz'), '.ani')).toBe(file);
      }),
    );
  });

  it('unique names are unique case-insensitively and keep the first', () => {
    expect(uniqueNames(['Walk', 'walk', 'Run', 'WALK'])).toEqual(['Walk', 'walk_2', 'Run', 'WALK_3']);
  });

  it.skipIf(!hasCorpus('gltf'))(
    'every animation, mesh and material of the glTF corpus gets a unique, file-safe name',
    () => {
      let files = 0;
      let named = 0;
      for (const path of gltfFiles(join(corpusRoot(), 'gltf'))) {
        const json = gltfJson(path);
        files++;
        for (const [kind, list] of [
          ['Animation', json.animations],
          ['Mesh', json.meshes],
          ['Material', json.materials],
        ] as const) {
          const names = uniqueNames(
            (list ?? []).map((o, i) => fileSafeName(objectName(o.name, kind, i), `${kind}${i}`)),
          );
          expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
          for (const n of names) expect(n).toMatch(/^[\p{L}\p{N}_\- .]+$/u);
          named += names.length;
        }
      }
      expect(files).toBeGreaterThanOrEqual(40);
      expect(named).toBeGreaterThan(100);
    },
  );
});
