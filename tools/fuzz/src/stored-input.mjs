// Regression inputs as stored in test-assets/fuzz-regressions: bytes, a reference to a seed file,
// or a patch over seed files (src/patch.mjs), so that no corpus bytes land in the repository.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { corpusRoot, ROOT } from './formats.mjs';
import { applyPatch, diff, sha256 } from './patch.mjs';

/** One glTF corpus file as the GLB the campaign mutates (several buffers merged into one). */
export async function gltfSeedGlb(io, path) {
  const doc = await io.read(path);
  const [first, ...rest] = doc.getRoot().listBuffers();
  if (rest.length) {
    for (const a of doc.getRoot().listAccessors()) a.setBuffer(first);
    for (const b of rest) b.dispose();
  }
  return io.writeBinary(doc);
}

/** Where a seed file lives: `{ repo }` (test-assets, ours) or `{ corpus }` (../shared/corpus). */
export function refOf(path) {
  const inRepo = !relative(ROOT, path).startsWith('..');
  return inRepo ? { repo: relative(ROOT, path) } : { corpus: relative(corpusRoot(), path) };
}

/**
 * Describes `bytes` as a patch over candidate seeds `[{ ref, bytes }]`: only the seeds it copies
 * from are named (with their sha256), the rest of the bytes are stored as literals.
 */
export function makePatch(bytes, sources) {
  const ops = diff(
    bytes,
    sources.map((s) => s.bytes),
  );
  const used = [...new Set(ops.filter((op) => typeof op !== 'string').map((op) => op[0]))];
  const remap = new Map(used.map((si, k) => [si, k]));
  return {
    sources: used.map((si) => ({ ...sources[si].ref, sha256: sha256(sources[si].bytes) })),
    ops: ops.map((op) => (typeof op === 'string' ? op : [remap.get(op[0]), op[1], op[2]])),
    length: bytes.length,
    sha256: sha256(bytes),
  };
}

/**
 * Reads a seed reference (`{ corpus }`, `{ repo }` or `{ gltf }`), cached in `cache` (a Map).
 * `getIO()` gives the NodeIO that turns a corpus glTF into its GLB (only called for `{ gltf }`).
 */
export async function readRef(ref, cache, getIO) {
  const key = JSON.stringify([ref.corpus, ref.repo, ref.gltf]);
  if (!cache.has(key)) {
    cache.set(
      key,
      (async () => {
        if (ref.gltf)
          return new Uint8Array(await gltfSeedGlb(await getIO(), join(corpusRoot(), 'gltf', ref.gltf)));
        return new Uint8Array(readFileSync(ref.repo ? join(ROOT, ref.repo) : join(corpusRoot(), ref.corpus)));
      })(),
    );
  }
  return cache.get(key);
}

/** Rebuilds a patched input; a seed that changed since the note was written is a clear error. */
export async function rebuild(patch, where, cache, getIO) {
  const sources = [];
  for (const ref of patch.sources) {
    let bytes;
    try {
      bytes = await readRef(ref, cache, getIO);
    } catch (e) {
      throw new Error(
        `${where}: its input is a patch over ${ref.corpus ?? ref.repo ?? `gltf/${ref.gltf}`}, which cannot be read (corpus root ${corpusRoot()}; set GLTF_LEGACY_CORPUS): ${e.message}`,
      );
    }
    if (sha256(bytes) !== ref.sha256)
      throw new Error(
        `${where}: seed ${ref.corpus ?? ref.repo ?? `gltf/${ref.gltf}`} is not the file the note was written from (sha256 differs); the input cannot be rebuilt`,
      );
    sources.push(bytes);
  }
  const out = applyPatch(patch.ops, sources);
  if (out.length !== patch.length || sha256(out) !== patch.sha256)
    throw new Error(`${where}: rebuilt input does not match its sha256`);
  return out;
}

/**
 * The main input of one regression note, rebuilt (for package tests that replay a finding):
 *
 * ```js
 * const glb = await storedInput('tso', '2584729f709982cb', () => io);
 * ```
 */
export async function storedInput(dir, hash, getIO, cache = new Map()) {
  const note = JSON.parse(readFileSync(join(dir, `${hash}.json`), 'utf8'));
  return noteInput(note, dir, `${hash}.json`, getIO, cache);
}

/** The main input of a parsed note in `dir` (see {@link storedInput}). */
export async function noteInput(note, dir, where, getIO, cache = new Map()) {
  if (note.inputPatch) return rebuild(note.inputPatch, where, cache, getIO);
  if (note.input) return new Uint8Array(readFileSync(join(dir, note.input)));
  return readRef(note.inputRef, cache, getIO);
}
