#!/usr/bin/env node
// pnpm bench [--json out.json] [--format id[,id]] [--quick] [--runs 5] [--no-peers] [--no-package-benches]
//            [--only-peers] [--only-issue19] [--only-issue31] [--issue31-big]
// Per format: synthetic large input (deterministic) → parse / import / export / write, median
// of N runs, peak RSS; NodeIO baseline in the same process; assimp vs our CLI whole-process on
// the Unreal file. Each format runs in its own child process so peak RSS is per format.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    json: { type: 'string' },
    format: { type: 'string', multiple: true },
    quick: { type: 'boolean' },
    runs: { type: 'string' },
    'no-peers': { type: 'boolean' },
    'only-peers': { type: 'boolean' },
    'only-issue19': { type: 'boolean' },
    'only-issue29': { type: 'boolean' },
    'issue29-baseline': { type: 'string' },
    'only-issue31': { type: 'boolean' },
    'issue31-big': { type: 'boolean' },
    'no-package-benches': { type: 'boolean' },
    'no-cli': { type: 'boolean' },
    child: { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

/** Input sizes per format (issue 9). `--quick` divides them by 10 for smoke runs. */
export const PLANS = {
  urho3d: {
    label: '1M vertices, 64 bones, 1 morph, 64 tracks × 60 keys',
    doc: { vertices: 1_000_000, bones: 64, morphs: 1, keys: 60 },
  },
  unigine: {
    label: '~500k corners (84k vertices), 64-bone skin',
    doc: { vertices: 84_700, bones: 64, keys: 60 },
  },
  grimrock: {
    label: '500k vertices, 64 bones, 64 tracks × 60 keys',
    doc: { vertices: 500_000, bones: 64, keys: 60 },
  },
  tso: { label: '200k vertices, 64 bones', doc: { vertices: 200_000, bones: 64, keys: 60 } },
  // compact: the quantized morph targets these numbers measured since issue 19 (the portable
  // default of issue 30 is float32: twice the .glb, see src/issue19.mjs for both modes)
  unreal3d: {
    label: '16k vertices × 1000 frames (packed aniv), --compact',
    unreal: { vertices: 16_000, frames: 1000 },
    importOptions: { compact: true },
  },
};

/**
 * Packages that are not formats but have a benchmark of their own (`packages/<id>/bench/run.mjs`),
 * run with the package benches: always without `--format`, or when `--format` names them.
 */
export const LIBRARY_BENCHES = ['textures'];

if (values.help) {
  console.log(
    'usage: pnpm bench [--json out.json] [--format id] [--quick] [--runs N] [--no-peers] [--no-package-benches] [--only-peers] [--only-issue19] [--only-issue31] [--issue31-big] [--issue29-baseline dir [--only-issue29]]',
  );
  process.exit(0);
}

if (values.child) {
  const { benchFormat } = await import('./src/measure.mjs');
  const r = await benchFormat(values.child, PLANS[values.child], {
    quick: values.quick,
    runs: Number(values.runs ?? 5),
    out: values.out,
  });
  process.stdout.write(`\n@@RESULT ${JSON.stringify(r)}\n`);
  process.exit(0);
}

if (values['issue29-baseline']) {
  // issue 29: the textured corpus as one batch against a build of an older checkout, slug.model,
  // the 64 MiB-trailing-bytes .pak (src/issue29.mjs)
  const { issue29Bench, printIssue29 } = await import('./src/issue29.mjs');
  const os29 = await import('node:os');
  console.log(`\n== issue 29: binary stays binary [load ${os29.loadavg()[0].toFixed(1)}]`);
  const r29 = await issue29Bench({
    root: ROOT,
    baseline: resolve(values['issue29-baseline']),
    corpus: resolve(ROOT, process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus'),
    dir: mkdtempSync(join(tmpdir(), 'gltf-legacy-bench29-')),
    rounds: Number(values.runs ?? 3),
  });
  printIssue29(r29);
  if (values.json && values['only-issue29'])
    (await import('node:fs')).writeFileSync(values.json, JSON.stringify({ issue29: r29 }, null, 2));
  if (values['only-issue29']) process.exit(0);
}

const ids =
  values['only-issue19'] || values['only-issue31']
    ? ['unreal3d']
    : (values.format?.flatMap((f) => f.split(',')) ?? Object.keys(PLANS));
const onlyPeers = values['only-peers'] || values['only-issue19'] || values['only-issue31'];
const benchIds = onlyPeers ? [] : ids;
const os = await import('node:os');
const results = {
  started: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  loadAverageAtStart: os.loadavg(),
  quick: !!values.quick,
  formats: {},
  notices: [],
};
const notice = (s) => {
  results.notices.push(s);
  console.log(`notice: ${s}`);
};
const work = mkdtempSync(join(tmpdir(), 'gltf-legacy-bench-'));

for (const id of benchIds) {
  if (LIBRARY_BENCHES.includes(id)) continue;
  if (!PLANS[id]) {
    notice(`unknown format ${id}`);
    continue;
  }
  if (!existsSync(join(ROOT, 'packages', id, 'dist', 'index.js'))) {
    notice(`${id}: skipped, packages/${id}/dist is missing (build broken or not run)`);
    continue;
  }
  console.log(
    `\n== ${id}: ${PLANS[id].label}${values.quick ? ' (quick: ÷10)' : ''} [load ${os.loadavg()[0].toFixed(1)}]`,
  );
  const args = [
    '--expose-gc',
    join(import.meta.dirname, 'run.mjs'),
    '--child',
    id,
    '--runs',
    String(values.runs ?? 5),
  ];
  if (values.quick) args.push('--quick');
  const dir = id === 'unreal3d' ? work : join(work, id);
  mkdirSync(dir, { recursive: true });
  args.push('--out', dir);
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 << 20, cwd: ROOT });
  const line = child.stdout.split('\n').find((l) => l.startsWith('@@RESULT '));
  if (!line) {
    notice(
      `${id}: benchmark failed (exit ${child.status}): ${(child.stderr || child.stdout).trim().split('\n').slice(-3).join(' / ')}`,
    );
    continue;
  }
  const r = JSON.parse(line.slice(9));
  results.formats[id] = r;
  for (const n of r.notices ?? []) notice(`${id}: ${n}`);
  printFormat(r);
  if (!values['no-cli']) {
    try {
      r.cli = cliRoundTrip(id, dir, r);
    } catch (e) {
      notice(`${id}: CLI whole-process run failed: ${e.message}`);
    }
  }
}

if (!values['no-peers'] && !values['only-issue19'] && !values['only-issue31'] && ids.includes('unreal3d'))
  results.peers = await peers(work);
if (!values['no-peers'] && !values['only-issue31'] && ids.includes('unreal3d')) {
  // issue 19: start-up and batch against assimp, Unreal all-frames size/speed/memory ratios
  const { issue19Bench } = await import('./src/issue19.mjs');
  try {
    results.issue19 = await issue19Bench({
      root: ROOT,
      corpus: resolve(ROOT, process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus'),
      dir: work,
      unreal: await import(pathToFileURL(join(ROOT, 'packages', 'unreal3d', 'dist', 'index.js')).href),
      rounds: Math.max(10, Number(values.runs ?? 10)),
      notice,
    });
  } catch (e) {
    notice(`issue 19 ratios failed: ${e.message}`);
  }
}

if (!values['no-peers'] && !values['only-issue19'] && ids.includes('unreal3d')) {
  // issue 31: cost per input as the folder grows; 260 meshes against a shell loop of assimp
  const { issue31Bench } = await import('./src/issue31.mjs');
  try {
    results.issue31 = issue31Bench({
      root: ROOT,
      corpus: resolve(ROOT, process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus'),
      dir: work,
      rounds: Math.max(3, Number(values.runs ?? 3)),
      big: values['issue31-big'],
      notice,
    });
    const { issue31Floor } = await import('./src/issue31-floor.mjs');
    results.issue31.floor = await issue31Floor({
      corpus: resolve(ROOT, process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus'),
      unreal: await import(pathToFileURL(join(ROOT, 'packages', 'unreal3d', 'dist', 'index.js')).href),
      vsAssimp: results.issue31.vsAssimp,
    });
  } catch (e) {
    notice(`issue 31 ratios failed: ${e.message}`);
  }
}

if (!values.format && !onlyPeers) {
  // issue 15: the whole conversion of the textured game folders (models + textures + material files)
  const { texturedBench, printTextured } = await import('./src/textured.mjs');
  const corpus = resolve(ROOT, process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
  const textured = texturedBench(ROOT, corpus, work);
  if (textured) {
    console.log(
      `\n== textured game folders (corpus/textured), whole process [load ${os.loadavg()[0].toFixed(1)}]`,
    );
    printTextured(textured);
    results.textured = textured;
  } else notice('textured sets: no corpus/textured beside the repository');
}

if (!values['no-package-benches'] && !onlyPeers) {
  const libraries = LIBRARY_BENCHES.filter((id) => !values.format || ids.includes(id));
  for (const id of [...ids.filter((id) => !LIBRARY_BENCHES.includes(id)), ...libraries]) {
    const script = join(ROOT, 'packages', id, 'bench', 'run.mjs');
    if (!existsSync(script)) continue;
    console.log(`\n== packages/${id}/bench/run.mjs (the package's own benchmark)`);
    const p = spawnSync(process.execPath, [script], {
      encoding: 'utf8',
      cwd: join(ROOT, 'packages', id),
      timeout: 300_000,
      maxBuffer: 16 << 20,
    });
    const out = `${p.stdout ?? ''}${p.stderr ?? ''}`.trim();
    console.log(out.split('\n').slice(-25).join('\n'));
    (results.packageBenches ??= {})[id] = { exit: p.status, output: out.split('\n').slice(-60) };
  }
}

rmSync(work, { recursive: true, force: true });
results.finished = new Date().toISOString();
results.loadAverageAtEnd = os.loadavg();
console.log(
  `\nload average (1/5/15 min) at start ${results.loadAverageAtStart.map((l) => l.toFixed(1)).join('/')}, at end ${results.loadAverageAtEnd.map((l) => l.toFixed(1)).join('/')} on ${results.cpus} cores`,
);
if (values.json) {
  writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${values.json}`);
}

function fmtOp(o) {
  if (!o) return '—';
  return `${o.ms.toFixed(1)} ms${o.mbps ? ` (${o.mbps.toFixed(0)} MB/s)` : ''}`;
}

function printFormat(r) {
  const mb = (b) => (b / (1 << 20)).toFixed(1);
  console.log(
    `  files: ${Object.entries(r.files)
      .map(([n, s]) => `${n} ${mb(s)} MB`)
      .join(', ')}; glb ${mb(r.glbBytes)} MB`,
  );
  for (const op of ['parse', 'write', 'import', 'export', 'nodeioWrite', 'nodeioRead'])
    console.log(`  ${op.padEnd(12)} ${fmtOp(r.ops[op])}`);
  const q = r.ratios;
  console.log(
    `  import / NodeIO.writeBinary = ${q.importVsWrite?.toFixed(2)}×; export / NodeIO.readBinary = ${q.exportVsRead?.toFixed(2)}×; (import+export) / writeBinary = ${q.roundTripVsWrite?.toFixed(2)}×`,
  );
  console.log(`  peak RSS ${r.peakRssMb} MB = ${r.rssVsData?.toFixed(2)}× (input + output)`);
}

/** Runs a command under the peak-RSS preload: `{ ms, maxRssMb }`. */
function measured(args, cwd) {
  const preload = pathToFileURL(join(import.meta.dirname, 'src', 'maxrss.mjs')).href;
  const t = process.hrtime.bigint();
  const p = spawnSync(process.execPath, ['--import', preload, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (p.status !== 0)
    throw new Error(
      `exit ${p.status}: ${`${p.stdout}\n${p.stderr.replace(/@@MAXRSS \d+/, '')}`.trim().split('\n').slice(-3).join(' / ')}`,
    );
  const kb = Number(/@@MAXRSS (\d+)/.exec(p.stderr)?.[1]);
  return { ms, maxRssMb: Math.round(kb / 1024) };
}

/**
 * The user's view (issue 9, peak RSS ≤ 3 × (input + output)): the CLI converting the synthetic
 * files to .glb and that .glb back, each a whole process; peak RSS ÷ (legacy bytes + .glb bytes).
 */
function cliRoundTrip(id, dir, r) {
  const cli = join(ROOT, 'packages', 'cli', 'dist', 'bin.js');
  if (!existsSync(cli)) throw new Error('packages/cli/dist is missing');
  const legacyBytes = r.inputBytes;
  const glbPath = join(dir, 'cli.glb');
  const flags = PLANS[id]?.importOptions?.compact ? ['--compact'] : [];
  const toGlb = measured([cli, 'convert', join(dir, r.main), '-o', glbPath, '--force', ...flags], dir);
  const glbBytes = statSync(glbPath).size;
  const back = join(dir, 'back');
  mkdirSync(back, { recursive: true });
  const ext = r.main.slice(r.main.lastIndexOf('.'));
  const main = id === 'unreal3d' ? 'bench_d.3d' : `bench${ext}`;
  const toLegacy = measured([cli, 'convert', glbPath, '--to', id, '-o', join(back, main), '--force'], dir);
  const backBytes = readdirSync(back).reduce((s, n) => s + statSync(join(back, n)).size, 0);
  // what Node and the CLI's modules cost before any data: reported apart from the data's share
  const idle = measured([cli, '--version'], dir);
  const MB = 1 << 20;
  const ratios = (m, data) => ({
    rssVsData: (m.maxRssMb * MB) / data,
    rssAboveIdleVsData: ((m.maxRssMb - idle.maxRssMb) * MB) / data,
  });
  const out = {
    idleRssMb: idle.maxRssMb,
    toGlb: { ...toGlb, ...ratios(toGlb, legacyBytes + glbBytes), glbBytes },
    toLegacy: { ...toLegacy, ...ratios(toLegacy, glbBytes + backBytes), backBytes },
  };
  const show = (m) =>
    `${m.ms.toFixed(0)} ms, peak RSS ${m.maxRssMb} MB = ${m.rssVsData.toFixed(2)}× (in + out), ${m.rssAboveIdleVsData.toFixed(2)}× above idle`;
  console.log(
    `  CLI whole process (idle CLI ${idle.maxRssMb} MB): → .glb ${show(out.toGlb)}; .glb → ${id} ${show(out.toLegacy)}`,
  );
  return out;
}

function median(a) {
  const s = [...a].sort((x, y) => x - y);
  return s[s.length >> 1];
}

function wall(cmd, args, cwd) {
  const t = process.hrtime.bigint();
  const p = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 16 << 20 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (p.status !== 0)
    throw new Error(
      `${cmd} ${args.join(' ')} → exit ${p.status}: ${(p.stderr || p.stdout).trim().split('\n').slice(-2).join(' / ')}`,
    );
  return ms;
}

/**
 * assimp vs our CLI, whole process, on the same Unreal files. The commands run INTERLEAVED
 * (one round = ours, ours --version, node -e 0, assimp; at least 5 rounds, median): on this shared
 * machine the load swings within seconds, and three runs of ours followed by three of assimp
 * compared two different machines. assimp reads
 * the aniv `frameSize` as a SIGNED i16, so files over 8191 vertices fail in assimp ("Unexpected
 * aniv file length"): the peer input is 90 × 90 = 8100 vertices × 1000 frames.
 */
async function peers(dir) {
  const out = { input: '90 × 90 grid = 8100 vertices, 15 842 triangles, 1000 frames (packed)' };
  const { unrealModels } = await import('./src/synth.mjs');
  const unreal = await import(pathToFileURL(join(ROOT, 'packages', 'unreal3d', 'dist', 'index.js')).href);
  const { data, aniv } = unrealModels(unreal, { vertices: 8100, frames: 1000 });
  writeFileSync(join(dir, 'peer_d.3d'), unreal.writeData(data));
  writeFileSync(join(dir, 'peer_a.3d'), unreal.writeAniv(aniv));
  out.files = {
    'peer_d.3d': statSync(join(dir, 'peer_d.3d')).size,
    'peer_a.3d': statSync(join(dir, 'peer_a.3d')).size,
  };
  const main = join(dir, 'peer_d.3d');
  const cli = join(ROOT, 'packages', 'cli', 'dist', 'bin.js');
  console.log(`\n== whole process on peer_d.3d + peer_a.3d (${out.input})`);
  let assimp;
  try {
    assimp = execFileSync('which', ['assimp'], { encoding: 'utf8' }).trim();
  } catch {
    notice('assimp not installed (apt-get install -y assimp-utils): no peer comparison');
  }
  const commands = {
    cli: [process.execPath, [cli, 'convert', main, '-o', join(dir, 'ours.glb'), '--static', '--force']],
    // how much of that is starting Node and loading the CLI's modules
    cliStartup: [process.execPath, [cli, '--version']],
    nodeStartup: [process.execPath, ['-e', '0']],
    ...(assimp ? { assimp: [assimp, ['export', main, join(dir, 'assimp.glb'), '-fglb2']] } : {}),
  };
  const runs = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  const failed = {};
  const rounds = Math.max(5, Number(values.runs ?? 5));
  out.loadAverage = { start: os.loadavg() };
  for (let r = 0; r < rounds; r++)
    for (const [k, [cmd, args]] of Object.entries(commands)) {
      if (failed[k]) continue;
      try {
        runs[k].push(wall(cmd, args, dir));
      } catch (e) {
        failed[k] = e;
        notice(`${k === 'assimp' ? 'assimp' : 'our CLI'} failed: ${e.message}`);
      }
    }
  out.loadAverage.end = os.loadavg();
  const summary = (k, command) => ({ ms: median(runs[k]), runs: runs[k], command });
  if (!failed.cli) {
    out.cli = {
      ...summary('cli', 'node packages/cli/dist/bin.js convert peer_d.3d -o ours.glb --static --force'),
      outBytes: statSync(join(dir, 'ours.glb')).size,
    };
    console.log(`  our CLI  ${out.cli.ms.toFixed(0)} ms (${runs.cli.map((m) => m.toFixed(0)).join(', ')})`);
  }
  if (!failed.cliStartup) {
    out.cliStartup = summary('cliStartup', 'node packages/cli/dist/bin.js --version');
    console.log(`  our CLI startup only (--version) ${out.cliStartup.ms.toFixed(0)} ms`);
  }
  if (!failed.nodeStartup) {
    out.nodeStartup = summary('nodeStartup', 'node -e 0');
    console.log(`  node -e 0 (Node's own start-up) ${out.nodeStartup.ms.toFixed(0)} ms`);
  }
  if (assimp && !failed.assimp) {
    out.assimp = {
      ...summary('assimp', 'assimp export peer_d.3d assimp.glb -fglb2'),
      outBytes: statSync(join(dir, 'assimp.glb')).size,
      version: spawnSync(assimp, ['version'], { encoding: 'utf8' })
        .stdout.split('\n')
        .find((l) => /\d+\.\d+/.test(l))
        ?.trim(),
    };
    console.log(
      `  assimp   ${out.assimp.ms.toFixed(0)} ms (${runs.assimp.map((m) => m.toFixed(0)).join(', ')})`,
    );
  }
  console.log(
    `  ${rounds} interleaved rounds; load average ${out.loadAverage.start[0].toFixed(1)} → ${out.loadAverage.end[0].toFixed(1)}`,
  );
  if (out.cli && out.assimp) {
    out.ratio = out.cli.ms / out.assimp.ms;
    console.log(
      `  ours / assimp = ${out.ratio.toFixed(2)}× (${out.ratio < 1 ? 'faster' : 'slower'} than assimp)`,
    );
  }
  return out;
}
