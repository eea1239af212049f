/** Issue 31: one listing per folder per batch, one staging folder per batch folder. */
import type * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runBatch } from '../src/batch.js';
import { WriteSession } from '../src/files.js';
import { FolderIndex, FolderListing } from '../src/folder-index.js';
import { FolderResources } from '../src/folder-resources.js';
import { fakeBytes, fakeFormat } from './fake-format.js';

// every readdir(2) the sources make, by folder (the spy wraps the real call)
const reads = new Map<string, number>();
const mkdirs: string[] = [];
vi.mock('node:fs', async (load) => {
  const real = await load<typeof import('node:fs')>();
  return {
    ...real,
    readdirSync: (path: fs.PathLike, ...rest: unknown[]) => {
      const key = resolve(String(path));
      reads.set(key, (reads.get(key) ?? 0) + 1);
      return (real.readdirSync as (...a: unknown[]) => unknown)(path, ...rest);
    },
    mkdirSync: (path: fs.PathLike, ...rest: unknown[]) => {
      mkdirs.push(String(path));
      return (real.mkdirSync as (...a: unknown[]) => unknown)(path, ...rest);
    },
  };
});

const roots: string[] = [];
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-index-'));
  roots.push(dir);
  reads.clear();
  mkdirs.length = 0;
});
afterAll(() => {
  for (const d of roots) rmSync(d, { recursive: true, force: true });
});

/** `n` fake models with a companion note each in `dir/models`; the item list of a batch. */
function models(n: number): { input: string; rel: string }[] {
  const m = join(dir, 'models');
  mkdirSync(m, { recursive: true });
  const items = [];
  for (let i = 0; i < n; i++) {
    writeFileSync(join(m, `m${i}.fake`), fakeBytes([i, 0, 0, 0, i, 0, 0, 0, i]));
    writeFileSync(join(m, `m${i}.note`), 'note');
    items.push({ input: join(m, `m${i}.fake`), rel: '' });
  }
  return items;
}

function tree(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[]).map(String).sort();
}

describe('FolderListing and FolderIndex', () => {
  it('exact and case-folded lookups, files only in files(), each folder read once', () => {
    const read = vi.fn((d: string) =>
      d === '/g'
        ? [
            { name: 'Skull_a.3d', kind: 'file' as const },
            { name: 'skull_A.3D', kind: 'file' as const },
            { name: 'Textures', kind: 'dir' as const },
            { name: 'link.pcx', kind: 'link' as const },
          ]
        : undefined,
    );
    const index = new FolderIndex({ read });
    const l = index.listing('/g')!;
    expect(l.find('Skull_a.3d')).toBe('Skull_a.3d');
    expect(l.find('skull_A.3D')).toBe('skull_A.3D');
    // the first in code-unit order wins a case-insensitive match
    expect(l.find('SKULL_A.3D')).toBe('Skull_a.3d');
    expect(l.find('textures')).toBe('Textures');
    expect(l.find('none')).toBeUndefined();
    expect(l.files()).toEqual(['Skull_a.3d', 'skull_A.3D']);
    expect(l.kind('link.pcx')).toBe('link');
    expect(() => (l.files() as string[]).push('x')).toThrow(TypeError);
    index.listing('/g');
    expect(index.listing('/missing')).toBeUndefined();
    expect(index.listing('/missing')).toBeUndefined();
    expect(read).toHaveBeenCalledTimes(2);
    expect(index.reads).toBe(2);
  });

  it('lookup(): by case-folded name, extension and prefix, files only, each list sorted', () => {
    const l = new FolderListing(
      ['Skull_d.3d', 'skull_A.3D', 'Skull_a.3d', 'Skull.uc', 'Other.UC', 'Skullcap_d.3d', 'sub'].map(
        (name) => ({
          name,
          kind: name === 'sub' ? ('dir' as const) : ('file' as const),
        }),
      ),
    );
    const f = l.lookup();
    expect(f.named('SKULL_A.3D')).toEqual(['Skull_a.3d', 'skull_A.3D']);
    expect(f.named('none')).toEqual([]);
    expect(f.withExtension('.uc')).toEqual(['Other.UC', 'Skull.uc']);
    expect(f.withPrefix('skull_')).toEqual(['Skull_a.3d', 'Skull_d.3d', 'skull_A.3D']);
    expect(f.withPrefix('SKULL')).toHaveLength(5);
    expect(f.withPrefix('su')).toEqual([]); // a folder is not a file
    expect(l.lookup()).toBe(f);
  });

  it('an archive tree fed once (fromPaths) answers like a folder on disk, without reading', () => {
    const index = FolderIndex.fromPaths([
      'Models/x.mdl',
      'Textures/Skin.DDS',
      'Textures\\Sub\\a.png',
      'top.txt',
    ]);
    expect(index.listing('')!.entries).toEqual([
      { name: 'Models', kind: 'dir' },
      { name: 'Textures', kind: 'dir' },
      { name: 'top.txt', kind: 'file' },
    ]);
    expect(index.listing('Textures')!.find('skin.dds')).toBe('Skin.DDS');
    expect(index.listing('Textures/Sub')!.files()).toEqual(['a.png']);
    expect(index.listing('Nowhere')).toBeUndefined();
    expect(index.reads).toBe(1); // the unlisted folder: asked once, nothing on disk
    expect(
      new FolderListing([
        { name: 'b', kind: 'file' },
        { name: 'a', kind: 'file' },
      ]).files(),
    ).toEqual(['a', 'b']);
  });

  it('FolderResources with a shared index: many readers, one readdir per folder', async () => {
    mkdirSync(join(dir, 'Textures'));
    writeFileSync(join(dir, 'Textures', 'Skin.PCX'), 'skin');
    const index = new FolderIndex();
    for (let i = 0; i < 20; i++) {
      const r = new FolderResources(dir, { index });
      expect(new TextDecoder().decode((await r.read('textures/skin.pcx'))!)).toBe('skin');
    }
    expect(reads.get(resolve(dir))).toBe(1);
    expect(reads.get(join(resolve(dir), 'Textures'))).toBe(1);
  });
});

describe('a batch lists each folder once and stages in one folder', () => {
  it('40 inputs in one folder (in this thread): the folder is read once, every companion is found', async () => {
    const items = models(40);
    const records = await runBatch(items, { jobs: 0, formats: [fakeFormat], outDir: join(dir, 'out') });
    expect(records.map((r) => r.status)).toEqual(items.map(() => 'ok'));
    // each input read its own note (the fake format warns NOTE_SEEN per companion read)
    for (const [k, r] of records.entries())
      expect(r.warnings.find((w) => w.code === 'NOTE_SEEN')?.message).toBe(`companion m${k}.note read`);
    expect(reads.get(join(resolve(dir), 'models'))).toBe(1);
    expect(tree(join(dir, 'out'))).toEqual(items.map((_, k) => `m${k}.glb`).sort());
  });

  it('multi-file outputs of 40 inputs: one staging folder for the batch, none left; single-file outputs: none', async () => {
    const items = models(40);
    const session = new WriteSession();
    const out = join(dir, 'out');
    const records = await runBatch(items, {
      jobs: 0,
      formats: [fakeFormat],
      outDir: out,
      to: 'fake',
      writeSession: session,
    });
    expect(records.every((r) => r.status === 'ok')).toBe(true);
    expect(session.stagesCreated).toBe(1);
    session.close();
    expect(tree(out)).toEqual(items.flatMap((_, k) => [`m${k}.fake`, `m${k}.note`]).sort());
    expect(mkdirs.filter((p) => p.includes('.gltf-legacy-tmp-'))).toHaveLength(1);

    mkdirs.length = 0;
    const glb = join(dir, 'glb');
    await runBatch(items, { jobs: 0, formats: [fakeFormat], outDir: glb });
    expect(mkdirs.filter((p) => p.includes('.gltf-legacy-tmp-'))).toHaveLength(0);
    expect(tree(glb)).toHaveLength(40);
  });
});
