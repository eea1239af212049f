import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { dedup, prune, weld } from '@gltf-transform/functions';
import { documentStats } from '@gltf-legacy/core';
import { corpusFiles, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { FORMATS, LegacyIO } from '../src/index.js';
import { fakeBytes, fakeFormat } from './fake-format.js';

let dir: string;
const dirs: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-io-'));
  dirs.push(dir);
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('LegacyIO (fake format)', () => {
  const io = () => new LegacyIO({ formats: [fakeFormat] });

  it('read(path) sniffs the format and finds companions; warnings are kept', async () => {
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    writeFileSync(join(dir, 'tri.note'), 'x');
    const legacy = io();
    const r = await legacy.readDetailed(join(dir, 'tri.fake'));
    expect(r.format).toBe('fake');
    expect(r.files).toEqual(['tri.fake', 'tri.note']);
    expect(r.warnings).toEqual([{ code: 'NOTE_SEEN', message: 'companion tri.note read', count: 1 }]);
    expect(legacy.lastWarnings).toEqual(r.warnings);
    const pos = r.document.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!;
    expect(Array.from(pos.getArray()!)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  });

  it('readFiles(fileSet) picks the main file by sniffing; write() by extension or { format }', async () => {
    const legacy = io();
    const doc = await legacy.readFiles(
      new Map([
        ['a.note', new Uint8Array([1])],
        ['a.fake', fakeBytes([1, 2, 3])],
      ]),
    );
    expect(legacy.lastWarnings[0].message).toBe('companion a.note read');
    expect(await legacy.write(join(dir, 'out', 'a.glb'), doc)).toEqual([join(dir, 'out', 'a.glb')]);
    const back = await new NodeIO().read(join(dir, 'out', 'a.glb'));
    expect(Array.from(back.getRoot().listAccessors()[0].getArray()!)).toEqual([1, 2, 3]);
    const written = await legacy.write(join(dir, 'out', 'B.fake'), back);
    expect(written.map((p) => basename(p)).sort()).toEqual(['B.fake', 'B.note']);
    expect(new Uint8Array(readFileSync(join(dir, 'out', 'B.fake')))).toEqual(fakeBytes([1, 2, 3]));
    expect(legacy.lastWarnings[0].code).toBe('FAKE_EXPORT');
    await legacy.write(join(dir, 'out', 'c.gltf'), back);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['B.fake', 'B.note', 'a.glb', 'c.bin', 'c.gltf']);
    // a glTF read from a file set, with its resources
    const gltf = await legacy.readFiles(
      new Map([
        ['c.gltf', new Uint8Array(readFileSync(join(dir, 'out', 'c.gltf')))],
        ['c.bin', new Uint8Array(readFileSync(join(dir, 'out', 'c.bin')))],
      ]),
    );
    expect(documentStats(gltf).vertices).toBe(1);
  });

  it('errors have stable codes: unknown format, no main file, unknown target', async () => {
    writeFileSync(join(dir, 'x.bin'), 'hello');
    await expect(io().read(join(dir, 'x.bin'))).rejects.toMatchObject({ code: 'UNKNOWN_FORMAT' });
    await expect(io().readFiles(new Map([['a.note', new Uint8Array([1])]]))).rejects.toMatchObject({
      code: 'NO_MAIN_FILE',
    });
    const doc = await io().readFiles(new Map([['a.fake', fakeBytes([1, 2, 3])]]));
    await expect(io().write(join(dir, 'a.xyz'), doc)).rejects.toMatchObject({ code: 'UNKNOWN_TARGET' });
    expect(existsSync(join(dir, 'a.xyz'))).toBe(false);
  });

  it('listFormats() lists the legacy formats and glTF', () => {
    const ids = io()
      .listFormats()
      .map((f) => f.id);
    expect(ids).toEqual(['fake', 'glb', 'gltf']);
  });

  it('plugs into a glTF-Transform pipeline (the README example)', async () => {
    writeFileSync(join(dir, 'quad.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0]));
    const legacy = io();
    const document = await legacy.read(join(dir, 'quad.fake'));
    await document.transform(dedup(), weld(), prune());
    await legacy.write(join(dir, 'quad.glb'), document);
    const glb = new Uint8Array(readFileSync(join(dir, 'quad.glb')));
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
    // weld merged the two shared corners: 6 → 4 vertices, still 2 triangles
    expect(documentStats(await new NodeIO().readBinary(glb))).toMatchObject({ vertices: 4, triangles: 2 });
  });
});

/** One corpus sample per format (used only when that format's package exports `legacyFormat`). */
const SAMPLES: Record<string, [string, string]> = {
  unreal3d: ['unreal3d', 'Skull_d.3d'],
  urho3d: ['urho', 'Jack.mdl'],
  grimrock: ['grimrock', 'log2_rc_lever.model'],
  tso: ['tso', 'woodaxe.f5c2c18400000009.mesh'],
  unigine: ['unigine', 'arm.mesh'],
};

describe('LegacyIO on the real corpus (formats that are registered)', () => {
  for (const [id, [folder, file]] of Object.entries(SAMPLES)) {
    const format = FORMATS.find((f) => f.id === id);
    it.skipIf(!format)(
      `${id}: read ${file} (+ companions) → .glb with 0 validator errors → back to ${id}`,
      async () => {
        const path = corpusFiles(folder, [file]).find((p) => basename(p) === file)!;
        expect(path, `${folder}/${file} in the corpus`).toBeDefined();
        const legacy = new LegacyIO();
        const r = await legacy.readDetailed(path);
        expect(r.format).toBe(id);
        // companions found beside the main file (animations, _a.3d + .uc)
        if (id !== 'tso') expect(r.files.length, r.files.join(', ')).toBeGreaterThan(1);
        const stats = documentStats(r.document);
        expect(stats.vertices).toBeGreaterThan(0);
        await legacy.write(join(dir, 'model.glb'), r.document);
        const report = await validateGlb(new Uint8Array(readFileSync(join(dir, 'model.glb'))));
        expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
        const again = await legacy.read(join(dir, 'model.glb'));
        expect(documentStats(again).vertices).toBe(stats.vertices);
        if (format?.export) {
          const written = await legacy.write(join(dir, 'back', `model${format.mainExtension}`), again, {
            format: id,
          });
          expect(written.length).toBeGreaterThan(0);
          const reread = await legacy.read(written.find((p) => p.endsWith(format.mainExtension))!);
          expect(documentStats(reread).triangles).toBe(stats.triangles);
        }
      },
    );
  }
});

describe.skipIf(!FORMATS.some((f) => f.id === 'urho3d'))('LegacyIO containers (urho3d .pak)', () => {
  it('readContainer() gives one document per model; read() of a package says to use it', async () => {
    // (corpusFiles matches name endings: CoreData_299299.pak, a package without models, ends the same)
    const pak = corpusFiles('urho', ['.pak']).find((p) => basename(p) === 'Data_299299.pak')!;
    expect(pak).toBeDefined();
    const legacy = new LegacyIO();
    const docs = await legacy.readContainer(pak);
    expect([...docs.keys()]).toEqual([
      'Models/rabbit_base.mdl',
      'Models/rabbit_eye_close_L.mdl',
      'Models/rabbit_eye_close_R.mdl',
      'Models/rabbit_mouse_open.mdl',
    ]);
    for (const d of docs.values()) expect(documentStats(d).vertices).toBeGreaterThan(0);
    await expect(legacy.read(pak)).rejects.toMatchObject({ code: 'CONTAINER_INPUT' });
    await expect(
      legacy.readContainer(corpusFiles('urho', ['.mdl']).find((p) => basename(p) === 'Box.mdl')!),
    ).rejects.toMatchObject({ code: 'NOT_A_CONTAINER' });
  });
});
