import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_ASSETS } from '@gltf-legacy/test-utils';
import { afterAll, describe, expect, test } from 'vitest';
import { addToPool, type FilePool, listModels } from '../src/convert.js';
import { gatherInput, resourceRootOf } from '../src/node/files.js';
import { isResourceKey, poolResources, resourceKey } from '../src/resource-pool.js';

const tmp = mkdtempSync(join(tmpdir(), 'viewer-res-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('resources sent with a model to the page', () => {
  test('resourceRootOf: --resource-dir, else the format rule when it is an ancestor, else the folder', () => {
    const model = join(tmp, 'Pkg', 'Models', 'X_d.3d');
    const up2 = (p: string) => p.split('/').slice(0, -2).join('/');
    expect(resourceRootOf(model, up2)).toBe(join(tmp, 'Pkg'));
    expect(resourceRootOf(model, () => '/somewhere/else')).toBe(join(tmp, 'Pkg', 'Models'));
    expect(resourceRootOf(model, undefined)).toBe(join(tmp, 'Pkg', 'Models'));
    expect(resourceRootOf(model, up2, join(tmp, 'R'))).toBe(join(tmp, 'R'));
  });

  test('poolResources finds the group of the main file and its path; resource keys are not models', async () => {
    const main = new Uint8Array([1, 2, 3]);
    const pool: FilePool = new Map();
    addToPool(pool, [
      ['X.bin', main],
      [resourceKey(0, 'Models/X.bin'), main],
      [resourceKey(0, 'Textures/Skin.pcx'), new Uint8Array([9])],
      [resourceKey(1, 'Other/X.bin'), new Uint8Array([7])],
    ]);
    expect([...pool.keys()].filter(isResourceKey)).toHaveLength(3);
    expect(listModels(pool).some((m) => isResourceKey(m.name))).toBe(false);
    const { resources, resourcePath } = poolResources(pool, 'X.bin');
    expect(resourcePath).toBe('Models/X.bin');
    expect(await resources!.read('textures/skin.PCX')).toEqual(new Uint8Array([9]));
    expect(await resources!.read('Other/X.bin')).toBeUndefined();
    await expect(resources!.read('../x')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    // files dropped by hand: the pool itself, main at the root
    const loose: FilePool = new Map([['Y.bin', new Uint8Array([5])]]);
    expect(poolResources(loose, 'Y.bin').resourcePath).toBe('Y.bin');
  });

  test('gatherInput refuses glTF buffer URIs that leave the folder', async () => {
    const gltf = join(tmp, 'evil.gltf');
    writeFileSync(
      gltf,
      JSON.stringify({
        asset: { version: '2.0' },
        buffers: [{ uri: '../../../../etc/passwd', byteLength: 4 }],
      }),
    );
    await expect(gatherInput(gltf)).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    writeFileSync(
      gltf,
      JSON.stringify({ asset: { version: '2.0' }, buffers: [{ uri: 'file:///etc/passwd', byteLength: 4 }] }),
    );
    await expect(gatherInput(gltf)).rejects.toMatchObject({ code: 'EXTERNAL_URI' });
  });

  test('gatherInput sends texture files below the root and follows no symbolic link', async () => {
    const dir = join(tmp, 'flat');
    mkdirSync(join(dir, 'Textures'), { recursive: true });
    writeFileSync(join(dir, 'Textures', 'a.png'), new Uint8Array([1]));
    writeFileSync(join(dir, 'notes.txt'), 'not a resource');
    const outside = join(tmp, 'outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'secret.png'), new Uint8Array([2]));
    symlinkSync(outside, join(dir, 'link'));
    // a legacy model (our own test asset) gathers the tree below its folder, never through the link
    copyFileSync(join(TEST_ASSETS, 'unreal3d', 'cube_d.3d'), join(dir, 'cube_d.3d'));
    copyFileSync(join(TEST_ASSETS, 'unreal3d', 'cube_a.3d'), join(dir, 'cube_a.3d'));
    const files = await gatherInput(join(dir, 'cube_d.3d'));
    expect(files.has('cube_a.3d')).toBe(true);
    const res = [...files.keys()].filter(isResourceKey).sort();
    expect(res).toEqual([
      resourceKey(0, 'Textures/a.png'),
      resourceKey(0, 'cube_a.3d'),
      resourceKey(0, 'cube_d.3d'),
    ]);
    expect(poolResources(addToPoolAndReturn(files), 'cube_d.3d').resourcePath).toBe('cube_d.3d');
  });
});

function addToPoolAndReturn(files: Map<string, Uint8Array>): FilePool {
  const pool: FilePool = new Map();
  addToPool(pool, files);
  return pool;
}
