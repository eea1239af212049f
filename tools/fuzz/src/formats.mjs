// Which formats exist (BUILT packages only), their file-model read/write pairs, and the seed
// files the fuzzer starts from.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Repository root (/work/main). */
export const ROOT = resolve(import.meta.dirname, '../../..');

/** The format packages, in the CLI's order. */
export const FORMAT_IDS = ['urho3d', 'grimrock', 'unigine', 'tso', 'unreal3d'];

/** Corpus folders per format (the Urho3D corpus folder is `urho`). */
export const CORPUS_DIRS = {
  urho3d: ['urho', 'urho3d'],
  grimrock: ['grimrock', 'archives/grimrock'],
  unigine: ['unigine'],
  tso: ['tso', 'archives/tso'],
  unreal3d: ['unreal3d', 'archives/unreal'],
};

/**
 * File-model layer per format: which exported `read*`/`write*` pair handles which file suffix.
 * Pairs missing from a build are skipped (reported by `loadFormats`).
 */
export const FILE_MODELS = {
  urho3d: [
    { suffix: '.mdl', read: 'readMdl', write: 'writeMdl' },
    { suffix: '.ani', read: 'readAni', write: 'writeAni' },
    { suffix: '.pak', read: 'readPak', write: 'writePak' },
  ],
  grimrock: [
    { suffix: '.model', read: 'readModel', write: 'writeModel' },
    { suffix: '.animation', read: 'readAnimation', write: 'writeAnimation' },
    { suffix: '.dat', read: 'readDat', write: 'writeDat' },
  ],
  unigine: [
    { suffix: '.mesh', read: 'readMesh', write: 'writeMesh' },
    { suffix: '.anim', read: 'readAnim', write: 'writeAnim' },
  ],
  tso: [
    { suffix: '.mesh', read: 'readMesh', write: 'writeMesh' },
    { suffix: '.anim', read: 'readAnimation', write: 'writeAnimation' },
    { suffix: '.skel', read: 'readSkeleton', write: 'writeSkeleton' },
    // FAR archives (issue 27): FAR1/FAR3 tables; entries decompress in the container step
    { suffix: '.dat', read: 'readFar', write: 'writeFar' },
    { suffix: '.far', read: 'readFar', write: 'writeFar' },
  ],
  unreal3d: [
    { suffix: '_d.3d', read: 'readData', write: 'writeData' },
    { suffix: '_a.3d', read: 'readAniv', write: 'writeAniv' },
    // UE1 packages (issue 28): no writer; writePackageModel returns the bytes read, so this pair
    // checks the reader (tables, meshes, textures) only
    { suffix: '.u', read: 'readPackageModel', write: 'writePackageModel' },
    { suffix: '.utx', read: 'readPackageModel', write: 'writePackageModel' },
    { suffix: '.unr', read: 'readPackageModel', write: 'writePackageModel' },
  ],
};

/**
 * Corpus root: GLTF_LEGACY_CORPUS or ../shared/corpus, both relative to the repository root (as
 * in test-utils): `.ci/run` sets `../shared/corpus`, and tests run with their package as cwd.
 */
export function corpusRoot() {
  return resolve(ROOT, process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
}

function newestMtime(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * Imports every built format package. Returns `{ formats, notices }`: formats is a map id →
 * `{ id, module, legacy, pairs }` (legacy may be undefined when the package does not export
 * `legacyFormat` yet); notices say what was skipped and why. Never skips silently.
 */
export async function loadFormats(only) {
  const formats = new Map();
  const notices = [];
  let cliFormats;
  try {
    const cli = await import('@gltf-legacy/cli');
    cliFormats = cli.FORMATS;
  } catch (e) {
    notices.push(
      `@gltf-legacy/cli is not built or fails to load (${firstLine(e)}); using the format packages directly`,
    );
  }
  for (const id of FORMAT_IDS) {
    if (only && !only.includes(id)) continue;
    const dist = join(ROOT, 'packages', id, 'dist', 'index.js');
    if (!existsSync(dist)) {
      notices.push(`${id}: skipped, packages/${id}/dist/index.js is missing (build broken or not run)`);
      continue;
    }
    if (newestMtime(join(ROOT, 'packages', id, 'src')) > statSync(dist).mtimeMs + 1000) {
      notices.push(
        `${id}: dist is older than src (last build failed or was not run): fuzzing the stale build`,
      );
    }
    let module;
    try {
      module = await import(pathToFileURL(dist).href);
    } catch (e) {
      notices.push(`${id}: skipped, dist fails to load (${firstLine(e)})`);
      continue;
    }
    const legacy = cliFormats?.find((f) => f.id === id) ?? module.legacyFormat;
    if (!legacy) notices.push(`${id}: no legacyFormat export yet: fuzzing the file-model layer only`);
    else if (cliFormats && !cliFormats.some((f) => f.id === id))
      notices.push(`${id}: not registered in the CLI's FORMATS; using the package's legacyFormat`);
    const pairs = [];
    for (const p of FILE_MODELS[id]) {
      if (typeof module[p.read] === 'function' && typeof module[p.write] === 'function')
        pairs.push({ ...p, readFn: module[p.read], writeFn: module[p.write] });
      else notices.push(`${id}: ${p.read}/${p.write} not exported: no file-model fuzzing of ${p.suffix}`);
    }
    formats.set(id, { id, module, legacy, pairs });
  }
  return { formats, notices };
}

function firstLine(e) {
  return String(e?.message ?? e).split('\n')[0];
}

/** The file-model pair for a file name (longest matching suffix), or undefined. */
export function pairFor(pairs, name) {
  const lower = name.toLowerCase();
  let best;
  for (const p of pairs)
    if (lower.endsWith(p.suffix) && (!best || p.suffix.length > best.suffix.length)) best = p;
  return best;
}

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else if (!/\.(md|txt|json)$/i.test(e.name) && e.name !== 'SHA256SUMS') out.push(p);
  }
  return out;
}

/**
 * Seed files for a format: every file of its corpus folder(s) and of test-assets/<id>/.
 * Each seed: `{ name, path, bytes, dir, siblings }` (siblings: other file names in its folder).
 */
export function formatSeeds(id) {
  const dirs = [...CORPUS_DIRS[id].map((d) => join(corpusRoot(), d)), join(ROOT, 'test-assets', id)];
  const seeds = [];
  for (const dir of dirs) {
    const files = listFiles(dir);
    for (const path of files) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      const folder = path.slice(0, path.lastIndexOf('/'));
      const siblings = files
        .filter((p) => p !== path && p.slice(0, p.lastIndexOf('/')) === folder)
        .map((p) => p.slice(p.lastIndexOf('/') + 1));
      seeds.push({ name, path, dir: folder, bytes: new Uint8Array(readFileSync(path)), siblings });
    }
  }
  return seeds;
}

/** glTF corpus entries: `.glb` files and `.gltf` files (folders hold one .gltf + resources). */
export function gltfCorpusPaths() {
  return listFiles(join(corpusRoot(), 'gltf')).filter((p) => /\.(glb|gltf)$/i.test(p));
}
