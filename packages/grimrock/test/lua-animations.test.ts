/**
 * Animations a mod links to a model only through its Lua (`defineObject{ model = …,
 * animations = { idle = "….fbx" } }`, issue 27): attached from a loose mod folder and from a
 * `.dat` archive of it, with the frame times and joints of the real clips; the three real
 * archives hold no animation (their Lua links only base-game models and clips).
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { KeptBytesExtension, MemoryResources } from '@gltf-legacy/core';
import {
  corpusRoot,
  folderResources,
  readBytes,
  validateGlb,
  validatorErrors,
} from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { KHRONOS_EXTENSIONS } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import {
  grimrockArchiveFiles,
  legacyFormat,
  readAnimation,
  readGrimrockArchive,
  readObjectLinks,
} from '../src/index.js';
import { buildArchive } from './archive-builder.js';

const ROOT = join(corpusRoot(), 'textured/grimrock/eob1-waterdeep');
const PLUGIN = 'mod_assets/plugins/skeleton_warrior_axe';
const MODEL = `${PLUGIN}/models/skeleton_warrior_axe.model`;
const io = new NodeIO().registerExtensions([...KHRONOS_EXTENSIONS, KeptBytesExtension]);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** The two clips the mod ships (of the eight its Lua names), read independently of the importer. */
const CLIPS = ['idle', 'walk'].map((k) => {
  const path = `${PLUGIN}/animations/skeleton_warrior_axe_${k}.animation`;
  const a = readAnimation(readBytes(join(ROOT, path)), path);
  return { name: `skeleton_warrior_axe_${k}`, path, seconds: a.numFrames / a.framesPerSecond, a };
});

async function convert(resources: MemoryResources | ReturnType<typeof folderResources>, model: Uint8Array) {
  const files = new Map([['skeleton_warrior_axe.model', model]]);
  return legacyFormat.import(files, { main: 'skeleton_warrior_axe.model', resources, resourcePath: MODEL });
}

function checkWarrior(document: Awaited<ReturnType<typeof convert>>['document']) {
  const clips = document.getRoot().listAnimations();
  expect(clips.map((c) => c.getName()).sort()).toEqual(CLIPS.map((c) => c.name));
  for (const c of CLIPS) {
    const clip = clips.find((x) => x.getName() === c.name)!;
    // the clip lasts numFrames / fps (walk: 55 / 30 s); key k at k / fps
    const input = clip.listSamplers()[0].getInput()!.getArray()!;
    expect(input[input.length - 1]).toBeCloseTo(c.seconds, 5);
    expect(input[1]).toBeCloseTo(1 / c.a.framesPerSecond, 6);
    const targets = new Set(clip.listChannels().map((ch) => ch.getTargetNode()!.getName()));
    expect(targets.size).toBeGreaterThan(20);
  }
  expect(CLIPS[1].seconds).toBeCloseTo(55 / 30, 6);
  const walk = clips.find((c) => c.getName() === 'skeleton_warrior_axe_walk')!;
  expect((walk.getExtras() as { grimrock: { lua: { keys: string[] } } }).grimrock.lua.keys).toEqual([
    'moveForward',
  ]);
  const skins = document.getRoot().listSkins();
  // the warrior's two skinned meshes: 24 + 1 joints
  expect(skins.map((s) => s.listJoints().length).sort((x, y) => x - y)).toEqual([1, 24]);
}

describe('the real eob1-waterdeep mod: skeleton_warrior_axe linked to its clips through Lua', () => {
  let loose: ReturnType<typeof convert> | undefined;
  const fromFolder = () => (loose ??= convert(folderResources(ROOT), readBytes(join(ROOT, MODEL))));
  const lua = readObjectLinks(readBytes(join(ROOT, PLUGIN, 'skeleton_warrior_axe.lua')), 'x.lua');

  it('reads the defineObject links (model + 12 animation keys naming 8 clips)', () => {
    const monster = lua.find((o) => o.name === 'leki_skeleton_warrior_axe')!;
    expect(monster.models).toEqual([`${PLUGIN}/models/skeleton_warrior_axe.fbx`]);
    expect(monster.animations).toHaveLength(12);
    expect(new Set(monster.animations.map((a) => a.path)).size).toBe(8);
  });

  it('a loose mod folder: the two clips it ships are attached, the six it lacks warned', async () => {
    const { document, warnings } = await fromFolder();
    checkWarrior(document);
    const missing = warnings.filter((w) => w.code === 'ANIMATION_LINK_MISSING');
    expect(missing).toHaveLength(6);
    expect(missing.some((w) => w.message.includes('skeleton_warrior_axe_turn_left.animation'))).toBe(true);
    const glb = await io.writeBinary(document);
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, validatorErrors(report)).toBe(0);
  });

  it('a .dat archive of the folder: names recovered (.fbx → .animation), the same clips, the same .glb', async () => {
    const paths = walk(ROOT).map((p) => relative(ROOT, p).split('\\').join('/'));
    const dat = buildArchive(paths.map((p) => ({ path: p, data: readBytes(join(ROOT, p)) })));
    const archive = readGrimrockArchive(dat, 'eob.dat');
    for (const c of CLIPS) {
      const e = archive.entries.find((x) => x.path === c.path)!;
      expect([e.kind, e.source]).toEqual(['animation', 'renamed']);
    }
    const files = grimrockArchiveFiles(dat, 'eob.dat');
    const fromDat = await convert(new MemoryResources(files, 'eob.dat'), files.get(MODEL)!);
    checkWarrior(fromDat.document);
    const a = await io.writeBinary(fromDat.document);
    const b = await io.writeBinary((await fromFolder()).document);
    expect(Buffer.compare(Buffer.from(a), Buffer.from(b))).toBe(0);
  });

  it('luaAnimations: false leaves the clips out', async () => {
    const files = new Map([['skeleton_warrior_axe.model', readBytes(join(ROOT, MODEL))]]);
    const { document } = await legacyFormat.import(files, {
      main: 'skeleton_warrior_axe.model',
      resources: folderResources(ROOT),
      resourcePath: MODEL,
      luaAnimations: false,
    });
    expect(document.getRoot().listAnimations()).toHaveLength(0);
  });
});

describe('Grimrock 2 components and hostile links', () => {
  it('reads model and animations from an object’s components', () => {
    const [o] = readObjectLinks(`defineObject{
      name = "x",
      components = {
        { class = "Model", model = "mod_assets/models/x.fbx" },
        { class = "Animation", animations = { idle = "mod_assets/animations/x_idle.fbx" } },
      },
    }`);
    expect(o.models).toEqual(['mod_assets/models/x.fbx']);
    expect(o.animations).toEqual([{ key: 'idle', path: 'mod_assets/animations/x_idle.fbx' }]);
  });

  it('an animation path leaving the root is never read (ANIMATION_LINK_REFUSED)', async () => {
    const model = readBytes(join(ROOT, MODEL));
    const lua = `defineObject{ model = "${MODEL.replace('.model', '.fbx')}", animations = { idle = "../../../etc/passwd.fbx" } }`;
    const files = new Map<string, Uint8Array>([
      [MODEL, model],
      ['mod_assets/scripts/objects.lua', new TextEncoder().encode(lua)],
    ]);
    const { document, warnings } = await convert(new MemoryResources(files, 'x.dat'), model);
    expect(document.getRoot().listAnimations()).toHaveLength(0);
    expect(warnings.map((w) => w.code)).toContain('ANIMATION_LINK_REFUSED');
  });
});

describe('the three real archives hold no animation', () => {
  const DIR = join(corpusRoot(), 'archives/grimrock/LNR');
  it.each(['Fetch Quest.dat', 'IO Dungeon 1.dat', 'LNR Script Framework Alpha Test.dat'])(
    '%s: no .animation entry; every clip its Lua links belongs to a base-game model',
    (file) => {
      const archive = readGrimrockArchive(readBytes(join(DIR, file)), file);
      expect(archive.entries.filter((e) => e.kind === 'animation')).toEqual([]);
      for (const e of archive.entries) {
        if (e.kind !== 'lua') continue;
        for (const o of readObjectLinks(e.data!, e.path ?? String(e.hash)))
          if (o.animations.length) for (const m of o.models) expect(m).toMatch(/^assets\//);
      }
    },
  );
});
