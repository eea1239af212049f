// The resources of an archive given as input (issue 27): its entries at its folder below the
// resource root, then the root's files; the archive file itself hidden; nothing above the root.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { archiveResources } from '../src/archive-resources.js';
import { inputResources } from '../src/folder-resources.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);

describe('archiveResources', () => {
  const root = mkdtempSync(join(tmpdir(), 'gltf-legacy-archive-res-'));
  mkdirSync(join(root, 'game', 'data', 'textures'), { recursive: true });
  writeFileSync(join(root, 'game', 'data', 'pack.dat'), 'ARCHIVE');
  writeFileSync(join(root, 'game', 'data', 'textures', 'a.png'), 'loose a');
  writeFileSync(join(root, 'game', 'data', 'textures', 'b.png'), 'loose b');
  writeFileSync(join(root, 'secret.txt'), 'above the root');
  const around = inputResources(join(root, 'game', 'data', 'pack.dat'), {
    resourceRoot: (p) => p.slice(0, p.lastIndexOf('/data/')),
  });
  const entries = new Map([
    ['Textures/A.png', bytes('entry a')],
    ['model.x', bytes('model')],
  ]);
  const { resources, mount } = archiveResources(entries, 'pack.dat', around.resources, around.resourcePath);

  it('places the entries at the archive’s folder below the root, over the root’s files', async () => {
    expect(around.resourcePath).toBe('data/pack.dat');
    expect(mount).toBe('data');
    expect(text(await resources.read('data/model.x'))).toBe('model');
    // an entry wins over the loose file of the same path (any case)
    expect(text(await resources.read('data/textures/a.png'))).toBe('entry a');
    expect(await resources.find('data/textures/a.png')).toBe('data/Textures/A.png');
    // what the archive lacks comes from around it
    expect(text(await resources.read('data/textures/b.png'))).toBe('loose b');
  });

  it('lists the union once per path (the entry’s spelling first), without the archive itself', async () => {
    expect(await resources.list('', { recursive: true })).toEqual([
      'data/Textures/A.png',
      'data/model.x',
      'data/textures/b.png',
    ]);
    expect(await resources.read('data/pack.dat')).toBeUndefined();
  });

  it('reads nothing above the root', async () => {
    await expect(resources.read('../secret.txt')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    expect(await resources.read('secret.txt')).toBeUndefined();
  });
});
