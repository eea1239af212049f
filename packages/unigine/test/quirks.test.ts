/**
 * Quirks the engine tolerates (issue 18.1), on the hand-made files of test-assets/unigine/quirks
 * (made by its make.mjs from this package's own test assets): a tolerant import reads them with a
 * warning naming file, offset/place and count and the values of the well-formed file; `strict`
 * refuses them with the FormatError code; .mesh/.anim → .glb → .mesh/.anim gives the quirky bytes
 * back (the quirk travels in extras).
 */
import { readFileSync } from 'node:fs';
import { type Document, NodeIO } from '@gltf-transform/core';
import {
  FormatError,
  getKeptBytes,
  KEPT_BYTES,
  KeptBytesExtension,
  removeKeptBytes,
} from '@gltf-legacy/core';
import { describe, expect, it } from 'vitest';
import { exportUnigine, importUnigine, readAnim, readMesh, WARNING_CODES } from '../src/index.js';

const asset = (f: string) =>
  new Uint8Array(readFileSync(new URL(`../../../test-assets/unigine/${f}`, import.meta.url)));
const io = new NodeIO().registerExtensions([KeptBytesExtension]);

async function viaGlb(document: Document): Promise<Document> {
  return io.readBinary(await io.writeBinary(document));
}

function positionsOf(document: Document): number[][] {
  return document
    .getRoot()
    .listMeshes()
    .flatMap((m) => m.listPrimitives())
    .map((p) => Array.from(p.getAttribute('POSITION')!.getArray()!));
}

function strictCode(files: Map<string, Uint8Array>, main: string): string | undefined {
  try {
    importUnigine(files, { main, strict: true });
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return (e as FormatError).code;
  }
  return undefined;
}

describe('quirks the engine tolerates', () => {
  it('trailing_pad.mesh: 5 bytes after the closing "ms11" are kept and written back', async () => {
    const bytes = asset('quirks/trailing_pad.mesh');
    const clean = asset('two_surfaces.mesh');
    const files = new Map([['trailing_pad.mesh', bytes]]);
    const { document, warnings } = importUnigine(files, { main: 'trailing_pad.mesh' });
    const w = warnings.find((x) => x.code === 'TRAILING_DATA');
    expect(w?.count).toBe(5);
    expect(w?.message).toContain('trailing_pad.mesh');
    expect(w?.message).toContain(`offset ${clean.length}`);
    // the values are those of the well-formed file
    const ref = importUnigine(new Map([['two_surfaces.mesh', clean]]), {
      main: 'two_surfaces.mesh',
    }).document;
    expect(positionsOf(document)).toEqual(positionsOf(ref));
    // the file model readers stay strict unless asked
    expect(() => readMesh(bytes)).toThrow(expect.objectContaining({ code: 'TRAILING_DATA' }));
    expect(Array.from(readMesh(bytes, 'x', { keepTrailing: true }).trailing ?? [])).toEqual([
      0, 0, 0, 13, 10,
    ]);
    expect(strictCode(files, 'trailing_pad.mesh')).toBe('TRAILING_DATA');
    const out = await exportUnigine(await viaGlb(document), { name: 'trailing_pad' });
    expect(out.files.get('trailing_pad.mesh')).toEqual(bytes);
  });

  it('trailing_pad.anim: 1 byte after the closing "an10" is kept and written back', async () => {
    const bytes = asset('quirks/trailing_pad.anim');
    const files = new Map([['trailing_pad.anim', bytes]]);
    const { document, warnings } = importUnigine(files, { main: 'trailing_pad.anim' });
    const w = warnings.find((x) => x.code === 'TRAILING_DATA');
    expect(w?.count).toBe(1);
    expect(w?.message).toContain(`offset ${bytes.length - 1}`);
    expect(readAnim(bytes, 'x', { keepTrailing: true }).animations[0].numFrames).toBe(31);
    expect(strictCode(files, 'trailing_pad.anim')).toBe('TRAILING_DATA');
    const out = await exportUnigine(await viaGlb(document), { name: 'trailing_pad' });
    expect(out.files.get('trailing_pad.anim')).toEqual(bytes);
  });

  it('trailing bytes are kept bytes of the root (issue 29); a .glb written before (hex in extras) still exports', async () => {
    for (const name of ['trailing_pad.mesh', 'trailing_pad.anim']) {
      const bytes = asset(`quirks/${name}`);
      const { document } = importUnigine(new Map([[name, bytes]]), { main: name });
      const root = document.getRoot();
      const kept = getKeptBytes(root, `trailing:${name}`)!;
      expect(kept.length, name).toBe(name.endsWith('.mesh') ? 5 : 1);
      const glb = await io.writeBinary(document);
      expect(new TextDecoder().decode(glb), name).not.toContain('"trailing":"');
      // the old shape: the bytes as hex in extras.unigine, no extension
      const x = root.getExtras().unigine as {
        mesh?: { trailing?: string };
        animFiles: { trailing?: string }[];
      };
      const hex = Array.from(kept, (b) => b.toString(16).padStart(2, '0')).join('');
      if (name.endsWith('.mesh')) x.mesh!.trailing = hex;
      else x.animFiles[0].trailing = hex;
      removeKeptBytes(root, `trailing:${name}`);
      const old = await new NodeIO().writeBinary(document);
      expect(new TextDecoder().decode(old), name).not.toContain(KEPT_BYTES);
      const out = await exportUnigine(await io.readBinary(old), { name: 'trailing_pad' });
      expect(out.files.get(name), name).toEqual(bytes);
    }
  });

  it('index_count_plus_one.mesh: 4 indices on a triangle surface; the extra one is kept', async () => {
    const bytes = asset('quirks/index_count_plus_one.mesh');
    const files = new Map([['index_count_plus_one.mesh', bytes]]);
    const { document, warnings } = importUnigine(files, { main: 'index_count_plus_one.mesh' });
    const w = warnings.find((x) => x.code === 'INDICES_NOT_TRIANGLES');
    expect(w?.count).toBe(1);
    expect(w?.message).toContain('surfaces[1]');
    // one triangle, as in the well-formed file
    const prim = document.getRoot().listMeshes()[0].listPrimitives()[1];
    expect(prim.getIndices()?.getCount()).toBe(3);
    expect(strictCode(files, 'index_count_plus_one.mesh')).toBe('INDICES_NOT_TRIANGLES');
    const out = await exportUnigine(await viaGlb(document), { name: 'index_count_plus_one' });
    expect(out.files.get('index_count_plus_one.mesh')).toEqual(bytes);
    expect(readMesh(out.files.get('index_count_plus_one.mesh')!).surfaces[1].triIndices.length).toBe(4);
  });

  it('every code import emits for a quirk is listed', () => {
    expect(WARNING_CODES.TRAILING_DATA).toBeDefined();
    expect(WARNING_CODES.INDICES_NOT_TRIANGLES).toBeDefined();
  });
});
