// Issue 27's "done when": an outfit resolved through a FAR3 archive that our writer made from the
// corpus' loose FreeSO outfit files converts to the same glTF as from the loose files — the
// archive alone (every part inside it), and a loose appearance whose parts live in an archive
// elsewhere under the resource root (found by id, as the game finds them).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryResources } from '@gltf-legacy/core';
import { corpusRoot, hasCorpus } from '@gltf-legacy/test-utils';
import { type Document, NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import {
  buildIdIndex,
  contentIdTag,
  createFar3,
  farModels,
  legacyFormat,
  parseContentName,
  readFar3,
  unpackFar,
  writeFar3,
} from '../src/index.js';

const AVATAR = 'textured/tso/FreeSO/TSOClient/FSO.Content.TSO/Content/Avatar';
const avatarDir = join(corpusRoot(), AVATAR);
const FOLDERS = ['Appearances', 'Bindings', 'Meshes', 'Textures'];
const io = new NodeIO();

/** The loose outfit files: root-relative path → bytes. */
function looseTree(): Map<string, Uint8Array> {
  const tree = new Map<string, Uint8Array>();
  for (const folder of FOLDERS)
    for (const name of readdirSync(join(avatarDir, folder)).sort())
      tree.set(`${folder}/${name}`, new Uint8Array(readFileSync(join(avatarDir, folder, name))));
  return tree;
}

/** A RefPack FAR3 archive of `paths` as the game names entries: `NAME.ext`, ids in the manifest. */
function archiveOf(tree: Map<string, Uint8Array>, paths: string[]): Uint8Array {
  return writeFar3(
    createFar3(
      paths.map((p) => {
        const id = parseContentName(p)!;
        return {
          name: `${id.name}.${p.slice(p.lastIndexOf('.') + 1)}`,
          typeId: id.typeId,
          fileId: id.fileId,
          data: tree.get(p)!,
        };
      }),
      { compression: 'refpack' },
    ),
  );
}

async function importFrom(resources: MemoryResources, path: string) {
  const bytes = (await resources.read(path))!;
  const name = path.slice(path.lastIndexOf('/') + 1);
  return legacyFormat.import(new Map([[name, bytes]]), { main: name, resources, resourcePath: path });
}

/**
 * The glTF as the CLI writes it: the JSON with the file paths the import records (they name where
 * each part was found: `Meshes/…` loose, `data/avatar.dat/…` in an archive — the one thing that
 * must differ) set to their base names, and the binary chunk, which must be byte-identical.
 */
async function glb(doc: Document): Promise<{ json: unknown; bin: Buffer }> {
  const bytes = await io.writeBinary(doc);
  const jsonLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [
          k,
          typeof x === 'string' && /^(file|meshFile|textureFile|source)$/.test(k)
            ? x.replace(/^.*\//, '')
            : strip(x),
        ]),
      );
    return v;
  };
  return { json: strip(json), bin: Buffer.from(bytes.subarray(28 + jsonLength)) };
}

describe.skipIf(!hasCorpus(AVATAR))('FAR3 outfits made by our writer from the loose FreeSO files', () => {
  const tree = looseTree();
  const loose = new MemoryResources(tree, 'Avatar');
  const appearances = [...tree.keys()].filter((p) => p.endsWith('.apr'));
  // every loose file in one RefPack archive, made once (compressing is the slow part)
  let made: Uint8Array | undefined;
  const archive = () => (made ??= archiveOf(tree, [...tree.keys()]));

  it('every appearance converts from the archive alone to the same glTF as from the loose files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-far-'));
    writeFileSync(join(dir, 'avatar.dat'), archive());
    const bytes = new Uint8Array(readFileSync(join(dir, 'avatar.dat')));
    expect(readFar3(bytes).entries.every((e) => e.dataType === 0x80)).toBe(true);
    const entries = unpackFar(bytes, 'avatar.dat');
    // the archive's models: its 7 appearances and the one mesh none of them uses
    const models = farModels(entries);
    expect(models.filter((m) => m.endsWith('.apr'))).toHaveLength(7);
    expect(models.filter((m) => m.endsWith('.mesh'))).toEqual(['fso-heart-mark.4ca65c6500000009.mesh']);
    const inArchive = new MemoryResources(entries, 'avatar.dat');
    expect(appearances).toHaveLength(7);
    for (const path of appearances) {
      const a = await importFrom(loose, path);
      const b = await importFrom(inArchive, path.slice(path.indexOf('/') + 1));
      expect(b.warnings).toEqual(a.warnings);
      const [ga, gb] = [await glb(a.document), await glb(b.document)];
      expect(gb.json, path).toEqual(ga.json);
      expect(gb.bin.equals(ga.bin), path).toBe(true);
      expect(gb.bin.length).toBeGreaterThan(1000); // geometry and a texture
    }
  });

  it('a loose appearance finds its binding, mesh and texture by id inside an archive elsewhere under the root', async () => {
    // the appearances loose in Appearances/, every part only in data/avatar.dat
    const mixed = new Map<string, Uint8Array>([
      ...appearances.map((p) => [p, tree.get(p)!] as [string, Uint8Array]),
      ['data/avatar.dat', archive()],
    ]);
    const resources = new MemoryResources(mixed, 'game');
    const index = await buildIdIndex(resources);
    expect(index.get(contentIdTag(0xf5c2c184, 9))?.path).toBe(
      'data/avatar.dat/woodaxe.f5c2c18400000009.mesh',
    );
    for (const path of appearances) {
      const a = await importFrom(loose, path);
      const b = await importFrom(resources, path);
      expect(b.warnings).toEqual(a.warnings);
      const [ga, gb] = [await glb(a.document), await glb(b.document)];
      expect(gb.json, path).toEqual(ga.json);
      expect(gb.bin.equals(ga.bin), path).toBe(true);
    }
  });
});
