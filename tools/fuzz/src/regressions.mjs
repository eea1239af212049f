// Regression files of the fuzz campaigns: writing a finding as `<format>/<hash>.json` (+ its
// input, or a patch of a seed) under test-assets/fuzz-regressions/, and loading every note back
// as a replayable job.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusRoot, ROOT } from './formats.mjs';
import { makePatch, noteInput, rebuild } from './stored-input.mjs';

/** Where regression files live. */
export const REGRESSION_DIR =
  process.env.GLTF_LEGACY_FUZZ_REGRESSIONS ?? join(ROOT, 'test-assets', 'fuzz-regressions');

function sha(bytes) {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

/** Writes a finding as `<format>/<hash>.bin` + `<hash>.json`. Returns the note. */
export function writeRegression(format, job, finding, extra) {
  const dir = join(REGRESSION_DIR, format);
  mkdirSync(dir, { recursive: true });
  const bytes = job.bytes;
  const hash = sha(
    extra.mainRef ? Buffer.concat([bytes, ...(job.companions ?? []).map(([, b]) => b)]) : bytes,
  );
  const note = {
    format,
    direction: job.kind === 'gltf' ? 'gltf-to-legacy' : 'legacy-to-gltf',
    name: job.name ?? (job.source === 'gen' ? 'generated.glb' : 'mutated.glb'),
    input: extra.mainRef || extra.sources?.length ? undefined : `${hash}.bin`,
    inputRef: extra.mainRef,
    inputPatch: !extra.mainRef && extra.sources?.length ? makePatch(bytes, extra.sources) : undefined,
    companions: [],
    allPairs: job.allPairs || undefined,
    kind: finding.kind,
    stage: finding.stage,
    error: finding.error
      ? {
          name: finding.error.name,
          code: finding.error.code,
          message: finding.error.message,
          stack: finding.error.stack?.slice(0, 4),
        }
      : undefined,
    detail: finding.detail,
    signature: extra.signature,
    status: 'open',
    ...extra.meta,
  };
  (job.companions ?? []).forEach(([n, b], i) => {
    if (extra.companionPaths?.[n] && i !== job.target)
      note.companions.push({ name: n, corpus: extra.companionPaths[n] });
    else if (extra.sources?.length) note.companions.push({ name: n, patch: makePatch(b, extra.sources) });
    else {
      writeFileSync(join(dir, `${hash}.${i}.bin`), b);
      note.companions.push({ name: n, file: `${hash}.${i}.bin` });
    }
  });
  if (note.input) writeFileSync(join(dir, note.input), bytes);
  writeFileSync(join(dir, `${hash}.json`), `${JSON.stringify(note, null, 2)}\n`);
  return { ...note, hash, path: join(dir, `${hash}.json`) };
}

/**
 * Every regression note: `{ note, job, path }`. Inputs stored as patches are rebuilt from their
 * seeds; companions from the corpus are re-read.
 */
export async function loadRegressions(only) {
  const out = [];
  const cache = new Map();
  let io;
  const getIO = async () => {
    if (!io) {
      const { makeIO } = await import('./pipeline.mjs');
      io = await codecIO(await makeIO());
    }
    return io;
  };
  if (!existsSync(REGRESSION_DIR)) return out;
  for (const format of readdirSync(REGRESSION_DIR)) {
    if (only && !only.includes(format)) continue;
    const dir = join(REGRESSION_DIR, format);
    if (!existsSync(dir) || format.includes('.')) continue;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
      const note = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const where = `${format}/${f}`;
      const bytes = await noteInput(note, dir, where, getIO, cache);
      const companions = [];
      for (const c of note.companions) {
        companions.push([
          c.name,
          c.patch
            ? await rebuild(c.patch, `${where} companion ${c.name}`, cache, getIO)
            : new Uint8Array(readFileSync(c.file ? join(dir, c.file) : join(corpusRoot(), c.corpus))),
        ]);
      }
      const job =
        note.direction === 'gltf-to-legacy'
          ? { kind: 'gltf', format, source: note.replay === 'gen' ? 'gen' : 'glb', seed: note.genSeed, bytes }
          : {
              kind: 'legacy',
              format,
              name: note.name,
              bytes,
              companions,
              allPairs: note.allPairs,
              // a fast-tier finding replays the file-model stage only (what the fast tier ran)
              fileModelOnly: note.tier === 'fast' || undefined,
            };
      out.push({ note, job, path: join(dir, f) });
    }
  }
  return out;
}

/** The codec-aware NodeIO of the CLI (Draco, meshopt) when it loads, else `io`. */
export async function codecIO(io) {
  try {
    const cli = await import('@gltf-legacy/cli');
    if (typeof cli.createCodecNodeIO === 'function')
      return await cli.createCodecNodeIO(undefined, { draco: true });
  } catch {
    // fall through
  }
  return io;
}
