// Measures the --jobs speed-up of a batch: the legacy folders of the corpus (every format,
// companions included) converted to .glb with --jobs 1 and --jobs 2, median wall time of 3 runs
// each, through the built CLI (`pnpm build` first). Usage: node bench/jobs.mjs [corpus-dir]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const here = import.meta.dirname;
const bin = resolve(here, '../dist/bin.js');
// GLTF_LEGACY_CORPUS is relative to the repository root, as everywhere else (.ci/run: ../shared/corpus)
const corpus = process.argv[2]
  ? resolve(process.argv[2])
  : resolve(here, '../../..', process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
const folders = ['unreal3d', 'urho', 'grimrock', 'tso', 'unigine']
  .map((f) => join(corpus, f))
  .filter((d) => existsSync(d));
if (!existsSync(bin)) throw new Error(`${bin} is missing: run pnpm build first`);
if (!folders.length) {
  console.log(`no corpus folders under ${corpus}: nothing to measure (set GLTF_LEGACY_CORPUS)`);
  process.exit(0);
}

function once(jobs) {
  const out = mkdtempSync(join(tmpdir(), 'gltf-legacy-jobs-'));
  const report = join(out, 'report.json');
  const t0 = performance.now();
  try {
    execFileSync(
      process.execPath,
      [bin, 'convert', ...folders, '--out-dir', out, '--jobs', String(jobs), '--report', report, '-q'],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } catch {
    // exit 1 when some input failed: still a valid timing
  }
  const ms = performance.now() - t0;
  if (!existsSync(report))
    throw new Error(`--jobs ${jobs}: the batch did not run (no report); is dist/ built?`);
  const { summary } = JSON.parse(readFileSync(report, 'utf8'));
  inputs = `${summary.total} inputs (${summary.ok} ok, ${summary.failed} failed, ${summary.skipped} companions skipped)`;
  rmSync(out, { recursive: true, force: true });
  return ms;
}

let inputs = '';
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = {};
for (const jobs of [1, 2]) results[jobs] = median([once(jobs), once(jobs), once(jobs)]);
console.log(inputs);
console.log(
  `cores: ${availableParallelism()}, load average before: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log(`--jobs 1: ${(results[1] / 1000).toFixed(2)} s`);
console.log(`--jobs 2: ${(results[2] / 1000).toFixed(2)} s`);
console.log(`speed-up: ${(results[1] / results[2]).toFixed(2)}×`);
