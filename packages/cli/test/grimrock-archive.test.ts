/**
 * Issue 27 (Grimrock half) through the CLI: a `.dat` mod archive converts every model in it from
 * the archive alone (the same .glb as from the mod's loose folder), a batch over a mod folder that
 * holds both converts each model once, and the archive's errors reach the user.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { readDat, writeDat } from '@gltf-legacy/grimrock';
import { validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { beforeEach, describe, expect, it } from 'vitest';
import type { BatchReport } from '../src/index.js';
import { runCli } from './run-cli.js';

const REPO = resolve(import.meta.dirname, '../../..');
const CRATE_MOD = join(REPO, 'test-assets/grimrock/crate_mod');
const corpus = resolve(REPO, process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
const FETCH = join(corpus, 'archives/grimrock/LNR/Fetch Quest.dat');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-dat-'));
});

const run = runCli;

/** The loose crate_mod's crate.model converted to `<dir>/b/crate.glb`, the archive tests' reference. */
async function convertLooseCrate(): Promise<void> {
  const b = await run([
    'convert',
    join(CRATE_MOD, 'mod_assets/models/crate.model'),
    '--out-dir',
    join(dir, 'b'),
  ]);
  expect(b.code, b.err).toBe(0);
}

describe('grimrock .dat archives in the CLI', () => {
  it('crate_mod.dat converts to the same .glb as the loose crate_mod folder, byte for byte', async () => {
    const a = await run(['convert', join(CRATE_MOD, 'crate_mod.dat'), '--out-dir', join(dir, 'a')]);
    expect(a.code, a.err).toBe(0);
    await convertLooseCrate();
    const fromArchive = readFileSync(join(dir, 'a/crate_mod/mod_assets/models/crate.glb'));
    expect(fromArchive.equals(readFileSync(join(dir, 'b/crate.glb')))).toBe(true);
    const report = await validateGlb(new Uint8Array(fromArchive));
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
  });

  it('a .dat given alone takes what it lacks (the textures) from the mod folder around it, never outside', async () => {
    const mod = join(dir, 'mod');
    cpSync(CRATE_MOD, mod, { recursive: true });
    // the archive without its two DDS textures, beside the loose mod_assets/ that has them
    const dat = readDat(new Uint8Array(readFileSync(join(CRATE_MOD, 'crate_mod.dat'))), 'crate_mod.dat');
    const keep = dat.entries.filter((_, i) => dat.archive.entries[i].kind !== 'dds');
    expect(keep.length).toBe(dat.entries.length - 2);
    writeFileSync(join(mod, 'lean.dat'), writeDat({ layout: dat.layout, entries: keep }));
    const a = await run(['convert', join(mod, 'lean.dat'), '--out-dir', join(dir, 'a')]);
    expect(a.code, a.err).toBe(0);
    await convertLooseCrate();
    const fromArchive = readFileSync(join(dir, 'a/lean/mod_assets/models/crate.glb'));
    expect(fromArchive.equals(readFileSync(join(dir, 'b/crate.glb')))).toBe(true);
    // alone in a folder without them: the textures are missing (nothing above the root is read)
    const lone = join(dir, 'lone', 'mod');
    cpSync(join(mod, 'lean.dat'), join(lone, 'lean.dat'), { recursive: true });
    cpSync(join(CRATE_MOD, 'mod_assets/textures'), join(dir, 'lone/mod_assets/textures'), {
      recursive: true,
    });
    const c = await run(['convert', join(lone, 'lean.dat'), '--out-dir', join(dir, 'c')]);
    expect(c.code, c.err).toBe(0);
    expect(`${c.out}${c.err}`).toContain('TEXTURE_MISSING');
  });

  it('a batch over a mod folder with the .dat and the loose files converts the model once', async () => {
    const mod = join(dir, 'mod');
    cpSync(CRATE_MOD, mod, { recursive: true });
    const report = join(dir, 'report.json');
    const r = await run(['convert', mod, '--out-dir', join(dir, 'out'), '--jobs', '0', '--report', report]);
    expect(r.code, r.err).toBe(0);
    const { records } = JSON.parse(readFileSync(report, 'utf8')) as BatchReport;
    const byInput = new Map(records.map((x) => [x.input.slice(mod.length + 1), x]));
    expect([...byInput.keys()].sort()).toEqual(['crate_mod.dat', 'mod_assets/models/crate.model']);
    // the loose file's record holds the one output; the archive's says where the model came from
    const outputs = byInput.get('mod_assets/models/crate.model')!.outputs.map((o) => resolve(o));
    expect(outputs).toEqual([join(dir, 'out/mod_assets/models/crate.glb')]);
    const dat = byInput.get('crate_mod.dat')!;
    expect(dat.outputs).toEqual([]);
    const loose = dat.warnings.find((w) => w.code === 'CONTAINER_ENTRY_LOOSE');
    expect(loose?.message).toContain(join(mod, 'mod_assets/models/crate.model'));
    expect(existsSync(join(dir, 'out/crate_mod'))).toBe(false);
  });

  it.skipIf(!existsSync(FETCH))(
    'convert "Fetch Quest.dat" --out-dir writes its model, textured',
    async () => {
      const r = await run(['convert', FETCH, '--out-dir', join(dir, 'fq')]);
      expect(r.code, r.err).toBe(0);
      const glb = new Uint8Array(
        readFileSync(join(dir, 'fq/Fetch Quest/mod_assets/grim_bed/models/env/grim_bed.glb')),
      );
      const report = await validateGlb(glb);
      expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
      // base colour, normal and specular (KHR_materials_specular), all three from the archive's DDS
      const json = JSON.parse(
        Buffer.from(glb.subarray(20, 20 + new DataView(glb.buffer).getUint32(12, true))).toString(),
      );
      expect(json.textures).toHaveLength(3);
      expect(json.materials[0].name).toBe('grim_bed');
      const inspect = await run(['inspect', FETCH]);
      expect(inspect.out).toContain('0aee7979  mod_assets/grim_bed/models/env/grim_bed.model');
      expect(inspect.out).toMatch(/f5d9c5df +unnamed +modinfo/);
    },
    120_000,
  );

  const WARRIOR = join(
    corpus,
    'textured/grimrock/eob1-waterdeep/mod_assets/plugins/skeleton_warrior_axe/models/skeleton_warrior_axe.model',
  );
  it.skipIf(!existsSync(WARRIOR))(
    'a loose model gets the animations its mod links only through Lua (another folder, no NAME_ prefix rule)',
    async () => {
      const r = await run(['convert', WARRIOR, '--out-dir', join(dir, 'w')]);
      expect(r.code, r.err).toBe(0);
      const glb = new Uint8Array(readFileSync(join(dir, 'w/skeleton_warrior_axe.glb')));
      const json = JSON.parse(
        Buffer.from(glb.subarray(20, 20 + new DataView(glb.buffer).getUint32(12, true))).toString(),
      );
      // idle and walk ship in mod_assets/plugins/…/animations/; the other six clips the Lua names do not
      expect(json.animations.map((a: { name: string }) => a.name).sort()).toEqual([
        'skeleton_warrior_axe_idle',
        'skeleton_warrior_axe_walk',
      ]);
      expect(`${r.out}${r.err}`).toContain('ANIMATION_LINK_MISSING ×6');
    },
    120_000,
  );

  it('an encrypted entry is ENCRYPTED_ENTRY, an entry above --max-unpacked is UNPACKED_TOO_LARGE', async () => {
    const lua = Buffer.from('-- init');
    const z = deflateSync(lua);
    const head = Buffer.alloc(28);
    head.write('GRA2', 0, 'latin1');
    head.writeUInt32LE(1, 4);
    head.writeUInt32LE(0xe5d6d449, 8); // mod_assets/scripts/init.lua
    head.writeUInt32LE(28, 12);
    head.writeUInt32LE(z.length + 4, 16);
    head.writeUInt32LE(lua.length, 20);
    const size = Buffer.alloc(4);
    size.writeUInt32LE(lua.length);
    const encrypted = Buffer.concat([head, size, z]);
    encrypted.writeUInt32LE(3, 24);
    writeFileSync(join(dir, 'base.dat'), encrypted);
    const e = await run(['convert', join(dir, 'base.dat'), '--out-dir', join(dir, 'o')]);
    expect(e.code).not.toBe(0);
    expect(e.err).toContain('ENCRYPTED_ENTRY');
    const big = await run([
      'convert',
      join(CRATE_MOD, 'crate_mod.dat'),
      '--out-dir',
      join(dir, 'o2'),
      '--max-unpacked',
      '1K',
    ]);
    expect(big.code).not.toBe(0);
    expect(big.err).toContain('UNPACKED_TOO_LARGE');
  });
});
