/** Issue 22 case 6: no-clobber writes that cannot race, multi-file outputs all together or not at all. */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { outputPath, writeFilesAtomic } from '../src/files.js';

let dir: string;
const roots: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-write-'));
  roots.push(dir);
});
afterAll(() => {
  for (const d of roots) rmSync(d, { recursive: true, force: true });
});

const text = (s: string) => new TextEncoder().encode(s);

function tree(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

describe('writeFilesAtomic', () => {
  it('20 writers racing for one name without --force: exactly one wins, its bytes are the file, the rest get OUTPUT_EXISTS', async () => {
    const target = join(dir, 'out.glb');
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => writeFilesAtomic(new Map([[target, text(`writer ${i}`)]]), false)),
    );
    const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    expect(won).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect((r.reason as { code: string }).code).toBe('OUTPUT_EXISTS');
    expect(readFileSync(target, 'utf8')).toBe(`writer ${won[0]}`);
    expect(tree(dir)).toEqual(['out.glb']); // no temporary left behind
  });

  it('a file that appears after the check is not clobbered (the final name is created exclusively)', async () => {
    // two multi-file writes share one name: whichever places it second must fail and roll back
    const a = new Map([
      [join(dir, 'a.gltf'), text('a json')],
      [join(dir, 'shared.bin'), text('a bin')],
    ]);
    const b = new Map([
      [join(dir, 'b.gltf'), text('b json')],
      [join(dir, 'shared.bin'), text('b bin')],
    ]);
    const [ra, rb] = await Promise.allSettled([writeFilesAtomic(a, false), writeFilesAtomic(b, false)]);
    expect([ra.status, rb.status].sort()).toEqual(['fulfilled', 'rejected']);
    const winner = ra.status === 'fulfilled' ? 'a' : 'b';
    expect(tree(dir)).toEqual([`${winner}.gltf`, 'shared.bin']);
    expect(readFileSync(join(dir, 'shared.bin'), 'utf8')).toBe(`${winner} bin`);
  });

  it('a failure half-way leaves nothing: outputs already moved are removed, created folders too', async () => {
    writeFileSync(join(dir, 'blocker'), 'a file where a folder is needed');
    const files = new Map([
      [join(dir, 'out', 'm.gltf'), text('json')],
      [join(dir, 'out', 'Textures', 'skin.pcx'), text('pcx')],
      [join(dir, 'blocker', 'x.bin'), text('bin')],
    ]);
    await expect(writeFilesAtomic(files, false)).rejects.toMatchObject({
      code: expect.stringMatching(/^(EEXIST|ENOTDIR)$/),
    });
    expect(tree(dir)).toEqual(['blocker']);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('with --force a failure half-way puts the replaced files back', async () => {
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out', 'm.gltf'), 'old json');
    writeFileSync(join(dir, 'out', 'blocker'), 'old');
    const files = new Map([
      [join(dir, 'out', 'm.gltf'), text('new json')],
      [join(dir, 'out', 'blocker', 'x.bin'), text('bin')],
    ]);
    await expect(writeFilesAtomic(files, true)).rejects.toBeDefined();
    expect(tree(dir)).toEqual(['out/blocker', 'out/m.gltf']);
    expect(readFileSync(join(dir, 'out', 'm.gltf'), 'utf8')).toBe('old json');
    // and without a failure, --force replaces
    await writeFilesAtomic(new Map([[join(dir, 'out', 'm.gltf'), text('new json')]]), true);
    expect(readFileSync(join(dir, 'out', 'm.gltf'), 'utf8')).toBe('new json');
  });

  it('existing outputs without --force: OUTPUT_EXISTS listing them, nothing written', async () => {
    writeFileSync(join(dir, 'm.bin'), 'old');
    const files = new Map([
      [join(dir, 'm.gltf'), text('json')],
      [join(dir, 'm.bin'), text('bin')],
    ]);
    await expect(writeFilesAtomic(files, false)).rejects.toMatchObject({ code: 'OUTPUT_EXISTS' });
    expect(tree(dir)).toEqual(['m.bin']);
    expect(readFileSync(join(dir, 'm.bin'), 'utf8')).toBe('old');
  });
});

describe('outputPath', () => {
  it('keeps subfolders and refuses escapes', () => {
    expect(outputPath('/out', 'Textures/Skin.pcx')).toBe('/out/Textures/Skin.pcx');
    expect(outputPath('/out', 'Textures\\Skin.pcx')).toBe('/out/Textures/Skin.pcx');
    expect(outputPath('/out', './a.bin')).toBe('/out/a.bin');
    for (const bad of [
      '../a',
      'a/../../b',
      'a/../b',
      '/etc/x',
      'C:x',
      '\\\\host\\share\\x',
      'http://x/y',
      '',
      '.',
      'a/\u0000',
    ])
      expect(() => outputPath('/out', bad, 'test'), bad).toThrow(
        expect.objectContaining({ code: 'PATH_ESCAPE' }),
      );
  });
});
