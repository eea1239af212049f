#!/usr/bin/env node
// pnpm fuzz [--iterations N] [--format id[,id]] [--seed S] [--workers N] [--json out.json]
//           [--deadline ms] [--memory-mb MB] [--gltf-share 0.25] [--glb-share 0.25] [--no-minimise] [--no-write]
//           [--replay] [--preset test] [--minutes M]
//           [--tier fast|chain] [--sample-every N] [--no-coverage] [--no-guide] [--no-corpus]
// Mutation fuzzer over every built gltf-legacy format. See tools/fuzz/README.md.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import {
  CAMPAIGN_DEFAULTS,
  replayRegressions,
  runCampaign,
  summaryLine,
  CI_CAMPAIGN,
  TEST_CAMPAIGN,
} from './src/campaign.mjs';
import { FAST_CI, fastSummary, runFast } from './src/fast.mjs';
import { POOL_DEFAULTS } from './src/pool.mjs';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string' },
    format: { type: 'string', multiple: true },
    seed: { type: 'string' },
    workers: { type: 'string' },
    json: { type: 'string' },
    deadline: { type: 'string' },
    'memory-mb': { type: 'string' },
    'gltf-share': { type: 'string' },
    'glb-share': { type: 'string' },
    'no-minimise': { type: 'boolean' },
    'no-write': { type: 'boolean' },
    replay: { type: 'boolean' },
    preset: { type: 'string' },
    minutes: { type: 'string' },
    report: { type: 'boolean' },
    tier: { type: 'string' },
    'sample-every': { type: 'string' },
    'no-coverage': { type: 'boolean' },
    'no-guide': { type: 'boolean' },
    'no-corpus': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  console.log(
    'usage: pnpm fuzz [--tier fast|chain] [--sample-every N] [--no-coverage] [--no-guide] [--no-corpus] [--iterations N] [--format id] [--seed S] [--workers N] [--json out.json] [--deadline ms] [--memory-mb MB] [--gltf-share F] [--glb-share F] [--no-minimise] [--no-write] [--replay] [--preset test|ci] [--minutes M]',
  );
  process.exit(0);
}

const formats = values.format?.flatMap((f) => f.split(',')).filter(Boolean);
const pool = {
  ...(values.deadline ? { deadlineMs: Number(values.deadline) } : {}),
  ...(values['memory-mb'] ? { memoryMb: Number(values['memory-mb']) } : {}),
};
const started = new Date();

if (values.report) {
  // markdown table of every regression note (for READMEs and reports)
  const { loadRegressions } = await import('./src/campaign.mjs');
  console.log('| format | file | direction | kind at stage | error / detail | from |');
  console.log('|---|---|---|---|---|---|');
  for (const { note, path } of await loadRegressions(formats)) {
    const what = (
      note.error
        ? `${note.error.name}${note.error.code ? ` ${note.error.code}` : ''}: ${note.error.message}`
        : (note.detail ?? '')
    )
      .replace(/\|/g, '\\|')
      .slice(0, 160);
    const where = note.error?.stack
      ?.find((l) => l.includes('/packages/'))
      ?.replace(/^at /, '')
      .replace(/\(?file:\/\/\S*\/packages\//, 'packages/')
      .replace(/\)$/, '');
    const from =
      note.replay === 'gen'
        ? `fast-check doc, gen seed ${note.genSeed}`
        : `${note.seedFile ?? ''} ${(note.ops ?? []).join('+')}`;
    console.log(
      `| ${note.format} | ${path.split('/').pop()} | ${note.direction === 'gltf-to-legacy' ? 'glTF→' : '→glTF'} | ${note.kind} at ${note.stage}${note.status === 'fixed' ? ' (fixed)' : ''} | ${what}${where ? ` (${where})` : ''} | ${from.trim()} |`,
    );
  }
  process.exit(0);
}

if (values.replay) {
  const results = await replayRegressions({ formats, pool });
  let bad = 0;
  for (const r of results) {
    const state = r.out.finding
      ? r.reproduces
        ? 'still reproduces'
        : `now fails differently: ${r.out.finding.kind} ${r.out.finding.error?.message ?? r.out.finding.detail ?? ''}`
      : 'fixed';
    if (r.out.finding && r.note.status === 'fixed') bad++;
    console.log(`${r.note.format}/${r.path.split('/').pop()} [${r.note.status}] ${r.note.kind}: ${state}`);
  }
  console.log(`${results.length} regression files replayed`);
  process.exit(bad ? 1 : 0);
}

// the fast tier (issue 20): file-model read/write in-process, coverage-guided; `--preset ci`
// runs its short fixed-seed part before the whole-chain campaign
const tier = values.tier ?? 'chain';
if (!['fast', 'chain'].includes(tier)) throw new Error(`unknown tier ${tier} (known: fast, chain)`);
if (tier === 'fast' || values.preset === 'ci') {
  const fastOptions = {
    ...(values.preset === 'ci' ? FAST_CI : {}),
    ...(values.iterations && tier === 'fast' ? { iterations: Number(values.iterations) } : {}),
    ...(values.seed ? { seed: Number(values.seed) } : {}),
    ...(values['sample-every'] ? { sampleEvery: Number(values['sample-every']) } : {}),
    ...(values['no-coverage'] ? { coverage: false } : {}),
    ...(values['no-guide'] ? { guide: false } : {}),
    ...(values.minutes && tier === 'fast' ? { minutes: Number(values.minutes) } : {}),
    ...(values['no-write'] ? { write: false } : {}),
    ...(values['no-corpus'] ? { writeCorpus: false } : {}),
    ...(values['no-minimise'] ? { minimise: false } : {}),
    formats,
    log: (line) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`),
  };
  const t0 = Date.now();
  const load0 = loadavg()[0];
  const fast = await runFast(fastOptions);
  const load1 = loadavg()[0];
  console.log('\nfast tier summary');
  for (const [id, st] of Object.entries(fast.stats)) console.log(`  ${id.padEnd(9)} ${fastSummary(st)}`);
  console.log(
    `load average ${load0.toFixed(1)} → ${load1.toFixed(1)}, ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  console.log(`${fast.findings.length} new distinct finding(s)`);
  for (const f of fast.findings) {
    console.log(`  ${f.signature}`);
    if (f.note) console.log(`    → ${relative(process.cwd(), f.note.path)}`);
  }
  if (values.json && tier === 'fast')
    writeFileSync(
      values.json,
      `${JSON.stringify({ started: started.toISOString(), finished: new Date().toISOString(), load: [load0, load1], options: { ...fastOptions, log: undefined }, stats: fast.stats, findings: fast.findings.map(({ note, ...f }) => ({ ...f, regression: note ? `${f.format}/${note.hash}.json` : undefined })) }, null, 2)}\n`,
    );
  if (tier === 'fast') process.exit(0);
  if (fast.findings.some((f) => f.finding.kind !== 'TIMEOUT')) {
    console.log('\nFAIL: the fast tier found something new; reproduce with pnpm fuzz --preset ci');
    process.exit(1);
  }
}

const PRESETS = { test: TEST_CAMPAIGN, ci: CI_CAMPAIGN };
const preset = values.preset ? PRESETS[values.preset] : {};
if (!preset) throw new Error(`unknown preset ${values.preset} (known: ${Object.keys(PRESETS).join(', ')})`);
const options = {
  ...CAMPAIGN_DEFAULTS,
  ...preset,
  ...(values.iterations ? { iterations: Number(values.iterations) } : {}),
  ...(values.seed ? { seed: Number(values.seed) } : {}),
  // --minutes without --iterations: as many inputs as fit in the time
  ...(values.minutes
    ? {
        minutes: Number(values.minutes),
        ...(values.iterations ? {} : { iterations: Number.MAX_SAFE_INTEGER }),
      }
    : {}),
  ...(values.workers
    ? { workers: Number(values.workers) }
    : { workers: preset.workers ?? POOL_DEFAULTS.workers }),
  ...(values['gltf-share'] ? { gltfShare: Number(values['gltf-share']) } : {}),
  ...(values['glb-share'] ? { glbShare: Number(values['glb-share']) } : {}),
  // regression files are minimised even for the test preset (the test itself does not minimise)
  // (the ci preset writes nothing: CI runs on a clean clone)
  minimise: !values['no-minimise'] && values.preset !== 'ci',
  write: !values['no-write'] && values.preset !== 'ci',
  formats,
  pool,
  log: (line) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`),
};
console.log(
  `fuzz: seed ${options.seed}, ${options.iterations === Number.MAX_SAFE_INTEGER ? 'unbounded' : options.iterations} mutated inputs per format${options.minutes ? ` within ${options.minutes} min` : ''}, ${options.workers} worker(s)`,
);
const jsonOf = (stats, findings, notices, done) => ({
  started: started.toISOString(),
  [done ? 'finished' : 'checkpoint']: new Date().toISOString(),
  options: { ...options, log: undefined, checkpoint: undefined },
  notices,
  stats,
  findings: findings.map((f) => ({
    format: f.format,
    signature: f.signature,
    finding: f.finding,
    regression: f.note ? `${f.format}/${f.note.hash}.json` : undefined,
  })),
});
// long campaigns: the counts so far are written every 30 s, so a stopped run still has them
if (values.json)
  options.checkpoint = (stats, findings, notices) =>
    writeFileSync(values.json, `${JSON.stringify(jsonOf(stats, findings, notices, false), null, 2)}\n`);
const { stats, findings, notices } = await runCampaign(options);

console.log('\nsummary');
for (const [id, st] of Object.entries(stats)) console.log(`  ${id.padEnd(9)} ${summaryLine(st)}`);
console.log(`\n${findings.length} new distinct finding(s)`);
for (const f of findings) {
  console.log(`  ${f.signature}`);
  if (f.note) console.log(`    → ${relative(process.cwd(), f.note.path)}`);
}
if (values.json) {
  const data = jsonOf(stats, findings, notices, true);
  writeFileSync(values.json, `${JSON.stringify(data, null, 2)}\n`);
  console.log(`wrote ${values.json}`);
}

// the CI preset fails on a new finding (a TIMEOUT is printed only: a deadline is wall-clock time)
if (values.preset === 'ci') {
  const failing = findings.filter((f) => f.finding.kind !== 'TIMEOUT');
  if (failing.length) {
    console.log(
      `\nFAIL: ${failing.length} new finding(s); reproduce with pnpm fuzz --preset ci (writes no files) or --seed ${options.seed} --iterations ${options.iterations}`,
    );
    process.exit(1);
  }
  console.log('\nci campaign: no new finding');
}
