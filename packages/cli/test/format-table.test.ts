import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { corpusFiles } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { FORMAT_TABLE, FORMATS, formatsFor, loadAllFormats, sniffFormat } from '../src/index.js';

const ids = (formats: readonly { id: string }[]) => formats.map((f) => f.id);
const read = (p: string) => new Uint8Array(readFileSync(p));

describe('format table (formats loaded on demand)', () => {
  it('matches every package: ids in sniffing order, extensions, main extension, export', async () => {
    expect(ids(FORMAT_TABLE)).toEqual(ids(FORMATS));
    for (const [i, f] of FORMATS.entries()) {
      const e = FORMAT_TABLE[i];
      expect([...e.extensions], f.id).toEqual(f.extensions);
      expect(e.mainExtension, f.id).toBe(f.mainExtension);
      expect(e.export, f.id).toBe(!!f.export);
      expect(await e.load(), f.id).toBe(f);
    }
    expect(await loadAllFormats()).toEqual(FORMATS);
  });

  it('an input loads only the formats claiming its extension, plus the target', async () => {
    const d3d = corpusFiles('unreal3d', ['_d.3d'])[0];
    const bytes = read(d3d);
    expect(ids(await formatsFor(bytes, basename(d3d)))).toEqual(['unreal3d']);
    expect(ids(await formatsFor(bytes, d3d, { output: 'out/x.mdl' }))).toEqual(['urho3d', 'unreal3d']);
    expect(ids(await formatsFor(bytes, d3d, { to: 'grimrock' }))).toEqual(['grimrock', 'unreal3d']);
    expect(ids(await formatsFor(bytes, d3d, { to: 'glb', output: 'x.mdl' }))).toEqual(['unreal3d']);
    // an unknown target's error lists every id: load them all
    expect(ids(await formatsFor(bytes, d3d, { to: 'nope' }))).toEqual(ids(FORMATS));
    expect(ids(await formatsFor(bytes, d3d, { output: 'x.unknown' }))).toEqual(ids(FORMATS));
  });

  it('falls back to every format for glTF, unknown extensions and bytes no candidate claims', async () => {
    const mdl = corpusFiles('urho', ['.mdl'])[0];
    const bytes = read(mdl);
    expect(ids(await formatsFor(bytes, 'Jack.mdl'))).toEqual(['urho3d']);
    // named like another format's file: sniffed by bytes among all formats, as before
    const renamed = await formatsFor(bytes, 'Jack.model');
    expect(ids(renamed)).toEqual(ids(FORMATS));
    expect((sniffFormat(bytes, 'Jack.model', renamed) as { id: string }).id).toBe('urho3d');
    expect(ids(await formatsFor(bytes, 'Jack.bin'))).toEqual(ids(FORMATS));
    const glb = corpusFiles('gltf', ['.glb'])[0];
    expect(ids(await formatsFor(read(glb), glb))).toEqual(ids(FORMATS));
  });

  it('a container (.pak) loads every format: its entries may be of any', async () => {
    const pak = corpusFiles('urho', ['.pak'])[0];
    expect(pak).toBeDefined();
    expect(ids(await formatsFor(read(pak), pak))).toEqual(ids(FORMATS));
  });
});
