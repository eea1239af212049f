import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderResources, inputResources } from '../src/folder-resources.js';

const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-res-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const root = join(dir, 'Game');
mkdirSync(join(root, 'Models', 'Sub'), { recursive: true });
mkdirSync(join(root, 'Textures'), { recursive: true });
writeFileSync(join(root, 'Textures', 'Skin.PCX'), 'skin');
writeFileSync(join(root, 'Models', 'Sub', 'a.mdl'), 'a');
writeFileSync(join(dir, 'secret.txt'), 'secret');
mkdirSync(join(dir, 'elsewhere'));
writeFileSync(join(dir, 'elsewhere', 'x.pcx'), 'x');
symlinkSync(join(dir, 'secret.txt'), join(root, 'Textures', 'out.pcx'));
symlinkSync(join(dir, 'elsewhere'), join(root, 'LinkedDir'));
symlinkSync(join(root, 'Textures', 'Skin.PCX'), join(root, 'Textures', 'in.pcx'));
writeFileSync(join(root, 'big.bin'), new Uint8Array(2048));
symlinkSync(join(root, 'Textures', 'gone.pcx'), join(root, 'Textures', 'dangling.pcx'));
symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));

describe('FolderResources', () => {
  const r = new FolderResources(root, { maxBytes: 1024 });
  const bytes = async (p: string) => new TextDecoder().decode((await r.read(p))!);

  it('reads root-relative paths, exact first then case-insensitively per segment', async () => {
    expect(await bytes('Textures/Skin.PCX')).toBe('skin');
    expect(await bytes('textures/skin.pcx')).toBe('skin');
    expect(await bytes('TEXTURES\\SKIN.pcx')).toBe('skin');
    expect(await r.find('textures/skin.pcx')).toBe('Textures/Skin.PCX');
    expect(await r.find('models/sub/A.MDL')).toBe('Models/Sub/a.mdl');
    expect(await r.read('Textures/none.pcx')).toBeUndefined();
    expect(await r.read('Textures')).toBeUndefined(); // a folder is not a file
  });

  it('refuses escapes: .., absolute, schemes, and symbolic links out of the root', async () => {
    for (const [p, code] of [
      ['../secret.txt', 'PATH_ESCAPE'],
      ['/etc/passwd', 'PATH_ESCAPE'],
      ['file:///etc/passwd', 'EXTERNAL_URI'],
      ['Textures/out.pcx', 'PATH_ESCAPE'],
      ['LinkedDir/x.pcx', 'PATH_ESCAPE'],
      ['linkeddir/X.PCX', 'PATH_ESCAPE'],
    ])
      await expect(r.read(p), p).rejects.toMatchObject({ code });
    await expect(r.find('Textures/out.pcx')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    // a link that stays inside is fine
    expect(await bytes('Textures/in.pcx')).toBe('skin');
  });

  it('a dangling link is a missing file; a link loop is refused, never an internal error', async () => {
    expect(await r.read('Textures/dangling.pcx')).toBeUndefined();
    expect(await r.find('textures/DANGLING.pcx')).toBeUndefined();
    await expect(r.read('loop-a')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
  });

  it('refuses files above the size limit (RESOURCE_TOO_LARGE)', async () => {
    await expect(r.read('big.bin')).rejects.toMatchObject({ code: 'RESOURCE_TOO_LARGE' });
  });

  it('lists files, never through links out of the root', async () => {
    expect(await r.list('textures')).toEqual(['Textures/Skin.PCX', 'Textures/in.pcx']);
    expect(await r.list('', { recursive: true })).toEqual([
      'Models/Sub/a.mdl',
      'Textures/Skin.PCX',
      'Textures/in.pcx',
      'big.bin',
    ]);
    expect(await r.list('LinkedDir')).toEqual([]);
  });
});

describe('inputResources', () => {
  const input = join(root, 'Models', 'Sub', 'a.mdl');
  const upToGame = { resourceRoot: (p: string) => p.split('/').slice(0, -3).join('/') };
  it('--resource-dir, else the format root when it is an ancestor, else the input folder', () => {
    expect(inputResources(input, upToGame)).toMatchObject({ root, resourcePath: 'Models/Sub/a.mdl' });
    expect(inputResources(input, { resourceRoot: () => join(dir, 'elsewhere') })).toMatchObject({
      root: join(root, 'Models', 'Sub'),
      resourcePath: 'a.mdl',
    });
    expect(inputResources(input, { resourceRoot: () => input })).toMatchObject({ resourcePath: 'a.mdl' });
    expect(inputResources(input)).toMatchObject({ root: join(root, 'Models', 'Sub'), resourcePath: 'a.mdl' });
    expect(inputResources(input, upToGame, dir)).toMatchObject({
      root: dir,
      resourcePath: 'Game/Models/Sub/a.mdl',
    });
    // an input outside --resource-dir sits at its root by name
    expect(inputResources(input, upToGame, join(dir, 'elsewhere'))).toMatchObject({ resourcePath: 'a.mdl' });
  });
});
