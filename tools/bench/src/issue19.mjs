// Owns the issue-19 ratios, each measured whole-process and side by side in one run:
// - start-up: (our CLI − `node -e 0`) ÷ assimp on one small real file (corpus Skull_d.3d, --static);
// - batch: the 13 Unreal corpus meshes in one CLI process (-j 0 --static) ÷ a shell loop of assimp;
// - Unreal all frames (the issue's input: 8100 vertices × 200 frames, 6.5 MB of _a.3d): MB/s of
//   _a.3d, .glb ÷ _a.3d, peak RSS ÷ (input + output), for --compact (issue 19's quantized morph
//   targets, the default until issue 30) with and without --no-frame-normals, and the portable
//   default (float32, sparse where smaller; = --float) with and without.
// Commands run INTERLEAVED (one round = every command once; median over rounds): the load of this
// shared machine swings within seconds, so back-to-back blocks would compare different machines.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unrealModels } from './synth.mjs';
import { median } from './stats.mjs';

const MB = 1 << 20;
const MAXRSS = pathToFileURL(join(import.meta.dirname, 'maxrss.mjs')).href;

/** The issue's targets (tools/bench/README.md): ratios, not timed tests. */
export const ISSUE19_TARGETS = {
  startupVsAssimp: 2, // (ours − node -e 0) ÷ assimp, one small file
  batchVsAssimpLoop: 1, // 13 corpus meshes in one process ÷ a shell loop of assimp
  framesMBps: 100, // MB/s of _a.3d, whole process
  glbVsAniv: 2.5, // .glb ÷ _a.3d
  rssVsData: 3, // peak RSS ÷ (input + output)
};

/** One whole process: wall ms, and peak RSS (MB) when `rss` (Node commands get the preload). */
function run([cmd, args, opts = {}], cwd) {
  const argv = opts.rss ? ['--import', MAXRSS, ...args] : args;
  const t = process.hrtime.bigint();
  const p = spawnSync(cmd, argv, { cwd, encoding: 'utf8', maxBuffer: 16 << 20, shell: opts.shell });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (p.status !== 0 && !opts.mayFail)
    throw new Error(
      `${basename(cmd)} ${args.join(' ').slice(0, 200)} → exit ${p.status}: ${`${p.stdout}\n${p.stderr}`.trim().split('\n').slice(-2).join(' / ')}`,
    );
  const kb = Number(/@@MAXRSS (\d+)/.exec(p.stderr ?? '')?.[1]);
  return { ms, rssMb: kb ? kb / 1024 : undefined };
}

/** Runs `commands` (name → [cmd, args, opts]) interleaved for `rounds`; name → { ms, runs, rssMb }. */
function interleaved(commands, rounds, cwd) {
  const samples = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++)
    for (const [k, c] of Object.entries(commands)) samples[k].push(run(c, cwd));
  return Object.fromEntries(
    Object.entries(samples).map(([k, s]) => [
      k,
      {
        ms: median(s.map((x) => x.ms)),
        min: Math.min(...s.map((x) => x.ms)),
        runs: s.map((x) => Math.round(x.ms)),
        ...(s[0].rssMb ? { rssMb: median(s.map((x) => x.rssMb)) } : {}),
      },
    ]),
  );
}

const ok = (v, target, below = true) => ((below ? v <= target : v >= target) ? 'met' : 'not met');

/**
 * The three issue-19 comparisons. `root` is the repository, `corpus` the shared corpus folder,
 * `dir` a scratch folder, `unreal` the built unreal3d package (for the synthetic input).
 */
export async function issue19Bench({ root, corpus, dir, unreal, rounds = 10, notice = console.log }) {
  const node = process.execPath;
  const cli = join(root, 'packages', 'cli', 'dist', 'bin.js');
  const out = { started: new Date().toISOString(), loadAverage: { start: loadavg() }, rounds };
  let assimp;
  try {
    assimp = execFileSync('which', ['assimp'], { encoding: 'utf8' }).trim();
    out.assimpVersion = spawnSync(assimp, ['version'], { encoding: 'utf8' })
      .stdout.split('\n')
      .find((l) => /\d+\.\d+/.test(l))
      ?.trim();
  } catch {
    notice('issue 19: assimp not installed (apt-get install -y assimp-utils): no assimp ratios');
  }
  const nodeStartup = [node, ['-e', '0']];

  // 1. one small real file
  const unrealDir = join(corpus, 'unreal3d');
  const skull = join(unrealDir, 'Skull_d.3d');
  if (existsSync(skull)) {
    console.log(`\n== issue 19: whole process on corpus Skull_d.3d (--static), ${rounds} interleaved rounds`);
    const m = interleaved(
      {
        nodeStartup,
        ours: [node, [cli, 'convert', skull, '-o', join(dir, 'skull.glb'), '--static', '--force', '-q']],
        ...(assimp ? { assimp: [assimp, ['export', skull, join(dir, 'skull-assimp.glb'), '-fglb2']] } : {}),
      },
      rounds,
      dir,
    );
    out.skull = m;
    const above = m.ours.ms - m.nodeStartup.ms;
    console.log(
      `  median (min): node -e 0 ${m.nodeStartup.ms.toFixed(0)} (${m.nodeStartup.min.toFixed(0)}) ms, ours ${m.ours.ms.toFixed(0)} (${m.ours.min.toFixed(0)}) ms = ${above.toFixed(0)} above Node${m.assimp ? `, assimp ${m.assimp.ms.toFixed(1)} (${m.assimp.min.toFixed(1)}) ms` : ''}`,
    );
    if (m.assimp) {
      out.skull.ratio = above / m.assimp.ms;
      console.log(
        `  (ours − node -e 0) ÷ assimp = ${out.skull.ratio.toFixed(1)}× (target ≤ ${ISSUE19_TARGETS.startupVsAssimp}: ${ok(out.skull.ratio, ISSUE19_TARGETS.startupVsAssimp)})`,
      );
    }
  } else notice(`issue 19: ${skull} missing: no small-file ratio`);

  // 2. the Unreal corpus meshes in one batch vs a shell loop of assimp
  const meshes = existsSync(unrealDir)
    ? readdirSync(unrealDir)
        .filter((n) => n.endsWith('_d.3d'))
        .sort()
        .map((n) => join(unrealDir, n))
    : [];
  if (meshes.length) {
    const ourDir = join(dir, 'batch-ours');
    const theirDir = join(dir, 'batch-assimp');
    mkdirSync(theirDir, { recursive: true });
    const loop = meshes
      .map(
        (f) => `${assimp} export '${f}' '${join(theirDir, basename(f, '_d.3d'))}.glb' -fglb2 >/dev/null 2>&1`,
      )
      .join('; ');
    const batchRounds = rounds;
    console.log(
      `\n== issue 19: the ${meshes.length} Unreal corpus meshes, one CLI process vs a shell loop of assimp, ${batchRounds} interleaved rounds`,
    );
    const m = interleaved(
      {
        nodeStartup,
        ours: [
          node,
          [cli, 'convert', ...meshes, '--out-dir', ourDir, '-j', '0', '--static', '--force', '-q'],
          { mayFail: true },
        ],
        ...(assimp ? { assimpLoop: ['sh', ['-c', `${loop}; true`]] } : {}),
      },
      batchRounds,
      dir,
    );
    out.batch = { files: meshes.length, ...m };
    out.batch.oursConverted = existsSync(ourDir)
      ? readdirSync(ourDir).filter((n) => n.endsWith('.glb')).length
      : 0;
    out.batch.assimpConverted = readdirSync(theirDir).filter((n) => n.endsWith('.glb')).length;
    console.log(
      `  median (min): ours ${m.ours.ms.toFixed(0)} (${m.ours.min.toFixed(0)}) ms, ${out.batch.oursConverted}/${meshes.length} converted${m.assimpLoop ? `; assimp loop ${m.assimpLoop.ms.toFixed(0)} (${m.assimpLoop.min.toFixed(0)}) ms, ${out.batch.assimpConverted}/${meshes.length} converted` : ''}`,
    );
    if (m.assimpLoop) {
      out.batch.ratio = m.ours.ms / m.assimpLoop.ms;
      console.log(
        `  ours ÷ assimp loop = ${out.batch.ratio.toFixed(2)}× (target ≤ ${ISSUE19_TARGETS.batchVsAssimpLoop}: ${ok(out.batch.ratio, ISSUE19_TARGETS.batchVsAssimpLoop)})`,
      );
      // the floor: a process that only starts Node and exits
      out.batch.budgetBelowNode = m.assimpLoop.ms * ISSUE19_TARGETS.batchVsAssimpLoop < m.nodeStartup.ms;
      console.log(
        `  budget ${(m.assimpLoop.ms * ISSUE19_TARGETS.batchVsAssimpLoop).toFixed(0)} ms; node -e 0 alone ${m.nodeStartup.ms.toFixed(0)} ms${out.batch.budgetBelowNode ? ': below Node’s own start-up, no Node process can meet it' : ''}`,
      );
    }
  }

  // 3. Unreal all frames: the issue's 8100-vertex × 200-frame input
  out.frames = framesBench({ node, cli, dir, unreal, rounds: Math.max(5, Math.ceil(rounds / 2)) });
  out.loadAverage.end = loadavg();
  console.log(
    `  load average (1 min) ${out.loadAverage.start[0].toFixed(1)} → ${out.loadAverage.end[0].toFixed(1)}`,
  );
  return out;
}

/**
 * Unreal all frames → glTF morph animation: --compact (the quantized mode issue 19 measured as
 * the default), --compact --no-frame-normals, the portable default (issue 30; was --float) and
 * --no-frame-normals.
 */
function framesBench({ node, cli, dir, unreal, rounds }) {
  const fdir = join(dir, 'frames');
  rmSync(fdir, { recursive: true, force: true });
  mkdirSync(fdir, { recursive: true });
  const { data, aniv } = unrealModels(unreal, { vertices: 8100, frames: 200 });
  writeFileSync(join(fdir, 'frames_d.3d'), unreal.writeData(data));
  writeFileSync(join(fdir, 'frames_a.3d'), unreal.writeAniv(aniv));
  const dBytes = statSync(join(fdir, 'frames_d.3d')).size;
  const aBytes = statSync(join(fdir, 'frames_a.3d')).size;
  const variants = {
    compact: ['--compact'],
    compactNoFrameNormals: ['--compact', '--no-frame-normals'],
    portable: [],
    portableNoFrameNormals: ['--no-frame-normals'],
  };
  const main = join(fdir, 'frames_d.3d');
  // node -e 0 twice: its time plain, its peak RSS with the preload (as ours are measured)
  const commands = { nodeStartup: [node, ['-e', '0']], nodeRss: [node, ['-e', '0'], { rss: true }] };
  for (const [k, flags] of Object.entries(variants))
    commands[k] = [
      node,
      [cli, 'convert', main, '-o', join(fdir, `${k}.glb`), '--force', '-q', ...flags],
      { rss: true },
    ];
  console.log(
    `\n== issue 19: Unreal all frames, 90 × 90 grid = 8100 vertices × 200 frames (_a.3d ${(aBytes / MB).toFixed(2)} MB), ${rounds} interleaved rounds`,
  );
  const m = interleaved(commands, rounds, fdir);
  const res = {
    input: { vertices: 8100, frames: 200, dBytes, aBytes },
    nodeStartupMs: m.nodeStartup.ms,
    nodeStartupRssMb: m.nodeRss.rssMb,
    // whole-process budgets of the targets against a process that only starts Node and exits
    msBudget: (aBytes / MB / ISSUE19_TARGETS.framesMBps) * 1000,
  };
  for (const k of Object.keys(variants)) {
    const glbBytes = statSync(join(fdir, `${k}.glb`)).size;
    const r = {
      ms: m[k].ms,
      runs: m[k].runs,
      glbBytes,
      peakRssMb: m[k].rssMb,
      mbps: aBytes / MB / (m[k].ms / 1000),
      mbpsAboveNode: aBytes / MB / ((m[k].ms - m.nodeStartup.ms) / 1000),
      glbVsAniv: glbBytes / aBytes,
      rssVsData: (m[k].rssMb * MB) / (dBytes + aBytes + glbBytes),
      rssBudgetMb: (ISSUE19_TARGETS.rssVsData * (dBytes + aBytes + glbBytes)) / MB,
    };
    res[k] = r;
    const T = ISSUE19_TARGETS;
    console.log(
      `  ${k.padEnd(22)} ${r.ms.toFixed(0)} ms = ${r.mbps.toFixed(0)} MB/s of _a.3d (${ok(r.mbps, T.framesMBps, false)}; ${r.mbpsAboveNode.toFixed(0)} MB/s above node -e 0), .glb ${(glbBytes / MB).toFixed(2)} MB = ${r.glbVsAniv.toFixed(2)}× _a.3d (${ok(r.glbVsAniv, T.glbVsAniv)}), peak RSS ${r.peakRssMb.toFixed(0)} MB = ${r.rssVsData.toFixed(2)}× (in + out) (${ok(r.rssVsData, T.rssVsData)})`,
    );
  }
  console.log(
    `  budgets: ${ISSUE19_TARGETS.framesMBps} MB/s = ${res.msBudget.toFixed(0)} ms whole process against node -e 0 alone ${m.nodeStartup.ms.toFixed(0)} ms${res.msBudget < m.nodeStartup.ms ? ' (below Node’s own start-up: no Node process can meet it)' : ''}; peak RSS ≤ ${ISSUE19_TARGETS.rssVsData}× (in + out) = ${Object.keys(
      variants,
    )
      .map((k) => `${res[k].rssBudgetMb.toFixed(0)} MB (${k})`)
      .join(', ')} against node -e 0 alone ${m.nodeRss.rssMb.toFixed(0)} MB`,
  );
  return res;
}
