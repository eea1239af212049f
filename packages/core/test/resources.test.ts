import { describe, expect, it } from 'vitest';
import { MemoryResources, ResourceError, resolveReference } from '../src/index.js';

function code(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof ResourceError ? e.code : `other: ${String(e)}`;
  }
  return undefined;
}

describe('resolveReference', () => {
  it('resolves relative paths with backslashes and dot segments inside the root', () => {
    expect(resolveReference('Textures\\Skin.pcx', 'MyPkg')).toBe('MyPkg/Textures/Skin.pcx');
    expect(resolveReference('../Textures/./a.dds', 'Data/Materials')).toBe('Data/Textures/a.dds');
    expect(resolveReference('a%20b.png', 'x', { uri: true })).toBe('x/a b.png');
  });
  it('refuses absolute paths, drive letters, UNC paths and escapes with PATH_ESCAPE', () => {
    for (const ref of [
      '/etc/passwd',
      'C:\\Windows\\win.ini',
      'c:/x',
      '\\\\host\\share\\x',
      '../../../../etc/passwd',
      '..',
      'a/../../../b',
    ])
      expect(
        code(() => resolveReference(ref, 'a')),
        ref,
      ).toBe('PATH_ESCAPE');
    expect(code(() => resolveReference('%2e%2e/%2e%2e/x', 'a', { uri: true }))).toBe('PATH_ESCAPE');
    expect(code(() => resolveReference('x\u0000.png', ''))).toBe('PATH_ESCAPE');
  });
  it('refuses every URI scheme with EXTERNAL_URI and names the referring file', () => {
    for (const ref of ['http://evil.example/x.bin', 'file:///etc/passwd', 'HTTPS://x', 'ftp://x'])
      expect(
        code(() => resolveReference(ref, '', { file: 'm.gltf' })),
        ref,
      ).toBe('EXTERNAL_URI');
    try {
      resolveReference('file:///etc/passwd', '', { file: 'm.gltf' });
    } catch (e) {
      expect((e as ResourceError).message).toContain('m.gltf');
      expect((e as ResourceError).reference).toBe('file:///etc/passwd');
    }
  });
});

describe('MemoryResources', () => {
  it('reads case-insensitively, lists folders and refuses escapes', async () => {
    const r = new MemoryResources([
      ['Textures/Skin.PCX', new Uint8Array([1])],
      ['Textures/Sub/b.dds', new Uint8Array([2])],
      ['Classes/A.uc', new Uint8Array([3])],
    ]);
    expect(await r.read('textures/skin.pcx')).toEqual(new Uint8Array([1]));
    expect(await r.find('TEXTURES/SUB/B.DDS')).toBe('Textures/Sub/b.dds');
    expect(await r.read('Textures/none.pcx')).toBeUndefined();
    expect(await r.list('textures')).toEqual(['Textures/Skin.PCX']);
    expect(await r.list('Textures', { recursive: true })).toEqual([
      'Textures/Skin.PCX',
      'Textures/Sub/b.dds',
    ]);
    await expect(r.read('../x')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
  });
});

describe('chooseResourceRoot', () => {
  it("takes the format's root when it is a proper ancestor, else the file's folder", async () => {
    const { chooseResourceRoot } = await import('../src/index.js');
    const up2 = (p: string) => p.split('/').slice(0, -2).join('/');
    expect(chooseResourceRoot('/mods/Pkg/Models/X_d.3d', up2)).toBe('/mods/Pkg');
    expect(chooseResourceRoot('/mods/Pkg/Models/X_d.3d', () => '/elsewhere')).toBe('/mods/Pkg/Models');
    expect(chooseResourceRoot('/mods/Pkg/Models/X_d.3d', () => '/mods/Pkg/Models/X_d.3d')).toBe(
      '/mods/Pkg/Models',
    );
    expect(chooseResourceRoot('/mods/Pkg/Models/X_d.3d', () => '/mods/Pk')).toBe('/mods/Pkg/Models');
    expect(chooseResourceRoot('/mods/Pkg/Models/X_d.3d', () => '/mods/Pkg/../..')).toBe('/mods/Pkg/Models');
    expect(chooseResourceRoot('/x.mdl', () => '/')).toBe('/');
    expect(
      chooseResourceRoot('/a/b.mdl', () => {
        throw new Error('cannot tell');
      }),
    ).toBe('/a');
    expect(chooseResourceRoot('/a/b.mdl')).toBe('/a');
  });
});
