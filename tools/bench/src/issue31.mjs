// Owns the issue-31 ratios (a whole game in one command), each whole-process, interleaved rounds:
// - per input, one process (`-j 0 --static`): the Unreal corpus meshes (_d.3d + _a.3d) copied under
//   distinct names into one folder of 520 / 2 080 (/ 8 320 with `--issue31-big`) files; the cost
//   per mesh of the larger folders ÷ that of 520 (wall, and CPU time: user + system, which a busy
//   shared machine disturbs less than wall time);
// - 260 meshes (the 520-file folder) with every frame and the default workers against a shell
//   loop of `assimp export X_d.3d X.glb -fglb2` (frame 0 only) over the same 260 files.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { median } from './stats.mjs';

/** The issue's targets (tools/bench/README.md). */
export const ISSUE31_TARGETS = {
  perInput4x: 1.15, // per-input cost, folder of 2 080 ÷ folder of 520
  perInput16x: 1.3, // per-input cost, folder of 8 320 ÷ folder of 520
  vsAssimpLoop: 3, // assimp loop ÷ ours (260 meshes, every frame, default workers)
};

const ok = (v, target, below = true) => ((below ? v <= target : v >= target) ? 'met' : 'not met');
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/**
 * A folder of `files` files: the corpus meshes' `_d.3d` and `_a.3d`, copy `c` of mesh `M` named
 * `M{c}_d.3d` / `M{c}_a.3d` (two files a mesh, as the issue measured). Returns the mesh count.
 */
export function meshFolder(corpus, dir, files) {
  const src = join(corpus, 'unreal3d');
  const meshes = readdirSync(src)
    .filter((n) => n.endsWith('_d.3d'))
    .map((n) => n.slice(0, -5))
    .sort();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let n = 0;
  let k = 0;
  for (; n < files; k++) {
    const m = meshes[k % meshes.length];
    const c = Math.floor(k / meshes.length);
    for (const suffix of ['_d.3d', '_a.3d'])
      if (n < files) {
        copyFileSync(join(src, m + suffix), join(dir, `${m}${c}${suffix}`));
        n++;
      }
  }
  return k;
}

/** One whole process under GNU time when present: wall ms and CPU ms (user + system, children included). */
function run(cmd, args, cwd) {
  const t = process.hrtime.bigint();
  const p = TIME
    ? spawnSync(TIME, ['-f', '@@TIME %U %S', cmd, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 })
    : spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (p.status !== 0)
    throw new Error(
      `${basename(cmd)} ${args.slice(0, 6).join(' ')} → exit ${p.status}: ${p.stderr.slice(-300)}`,
    );
  const m = /@@TIME ([\d.]+) ([\d.]+)/.exec(p.stderr ?? '');
  return { ms, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : undefined };
}

function summary(samples) {
  const cpu = samples.map((s) => s.cpuMs).filter((x) => x !== undefined);
  return {
    ms: median(samples.map((s) => s.ms)),
    runs: samples.map((s) => Math.round(s.ms)),
    ...(cpu.length ? { cpuMs: median(cpu), cpuRuns: cpu.map(Math.round) } : {}),
  };
}

/**
 * The issue-31 ratios. `root` is the repository, `corpus` the shared corpus, `dir` a scratch
 * folder; `big` adds the 8 320-file folder (≈ 1 min a round on 2 quiet cores).
 */
export function issue31Bench({ root, corpus, dir, rounds = 3, big = false, notice = console.log }) {
  const node = process.execPath;
  const cli = join(root, 'packages', 'cli', 'dist', 'bin.js');
  const out = { started: new Date().toISOString(), loadAverage: { start: loadavg() }, rounds };
  if (!existsSync(join(corpus, 'unreal3d'))) {
    notice('issue 31: no corpus/unreal3d beside the repository');
    return out;
  }
  const base = join(dir, 'issue31');
  const sizes = big ? [520, 2080, 8320] : [520, 2080];
  const folders = Object.fromEntries(
    sizes.map((n) => [n, { dir: join(base, `f${n}`), meshes: meshFolder(corpus, join(base, `f${n}`), n) }]),
  );

  console.log(
    `\n== issue 31: per mesh, one process (-j 0 --static), folders of ${sizes.join(' / ')} files, ${rounds} interleaved rounds`,
  );
  const samples = Object.fromEntries(sizes.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++)
    for (const n of sizes) {
      const o = join(base, `out${n}`);
      rmSync(o, { recursive: true, force: true });
      samples[n].push(
        run(node, [cli, 'convert', folders[n].dir, '--out-dir', o, '-j', '0', '--static', '-q'], base),
      );
      const converted = readdirSync(o).length;
      if (converted !== folders[n].meshes)
        notice(`issue 31: ${converted}/${folders[n].meshes} converted in f${n}`);
      rmSync(o, { recursive: true, force: true });
    }
  out.perInput = {};
  for (const n of sizes) {
    const s = summary(samples[n]);
    const meshes = folders[n].meshes;
    out.perInput[n] = {
      files: n,
      meshes,
      ...s,
      msPerMesh: s.ms / meshes,
      ...(s.cpuMs ? { cpuMsPerMesh: s.cpuMs / meshes } : {}),
    };
    console.log(
      `  ${String(n).padStart(5)} files, ${meshes} meshes: ${(s.ms / 1000).toFixed(2)} s = ${(s.ms / meshes).toFixed(2)} ms a mesh${s.cpuMs ? `; CPU ${(s.cpuMs / meshes).toFixed(2)} ms a mesh` : ''} (runs ${s.runs.join(', ')} ms)`,
    );
  }
  const ratio = (n, key) => out.perInput[n][key] / out.perInput[520][key];
  for (const [n, target, name] of [
    [2080, ISSUE31_TARGETS.perInput4x, 'perInput4x'],
    [8320, ISSUE31_TARGETS.perInput16x, 'perInput16x'],
  ]) {
    if (!out.perInput[n]) continue;
    out[name] = {
      wall: ratio(n, 'msPerMesh'),
      cpu: out.perInput[n].cpuMsPerMesh ? ratio(n, 'cpuMsPerMesh') : undefined,
    };
    console.log(
      `  per mesh, ${n} ÷ 520 files: wall ${out[name].wall.toFixed(2)}× (target ≤ ${target}: ${ok(out[name].wall, target)})${out[name].cpu ? `, CPU ${out[name].cpu.toFixed(2)}× (${ok(out[name].cpu, target)})` : ''}`,
    );
  }

  let assimp;
  try {
    assimp = execFileSync('which', ['assimp'], { encoding: 'utf8' }).trim();
  } catch {
    notice('issue 31: assimp not installed (apt-get install -y assimp-utils): no assimp ratio');
  }
  if (assimp) {
    const f = folders[520];
    const mains = readdirSync(f.dir)
      .filter((n) => n.endsWith('_d.3d'))
      .sort();
    const theirs = join(base, 'assimp');
    const loop = mains
      .map(
        (m) =>
          `${assimp} export '${join(f.dir, m)}' '${join(theirs, basename(m, '_d.3d'))}.glb' -fglb2 >/dev/null 2>&1`,
      )
      .join('; ');
    console.log(
      `\n== issue 31: ${mains.length} meshes, every frame, default workers vs a shell loop of assimp (frame 0), ${rounds} interleaved rounds`,
    );
    const s = { ours: [], oursStatic: [], version: [], single: [], pair: [], assimpLoop: [] };
    for (let r = 0; r < rounds; r++) {
      const o = join(base, 'out-all');
      rmSync(o, { recursive: true, force: true });
      s.ours.push(run(node, [cli, 'convert', f.dir, '--out-dir', o, '-q'], base));
      out.oursConverted = readdirSync(o).length;
      // frame 0 only, assimp's work: how far ahead the same work is, without the frames
      rmSync(o, { recursive: true, force: true });
      s.oursStatic.push(run(node, [cli, 'convert', f.dir, '--out-dir', o, '-q', '--static'], base));
      rmSync(o, { recursive: true, force: true });
      s.version.push(run(node, [cli, '--version'], base)); // Node's start and the CLI's modules
      // what 2 cores give this work: one -j 0 process alone, then two at once
      const one = (k) => [cli, 'convert', f.dir, '--out-dir', join(base, `out-pair${k}`), '-q', '-j', '0'];
      s.single.push(run(node, one(0), base));
      rmSync(join(base, 'out-pair0'), { recursive: true, force: true });
      const q = (a) => a.map((x) => `'${x}'`).join(' ');
      s.pair.push(run('sh', ['-c', `${q([node, ...one(1)])} & ${q([node, ...one(2)])}; wait`], base));
      for (const k of [1, 2]) rmSync(join(base, `out-pair${k}`), { recursive: true, force: true });
      rmSync(theirs, { recursive: true, force: true });
      mkdirSync(theirs, { recursive: true });
      s.assimpLoop.push(run('sh', ['-c', `${loop}; true`], base));
      out.assimpConverted = readdirSync(theirs).length;
    }
    out.vsAssimp = {
      files: mains.length,
      ours: summary(s.ours),
      oursStatic: summary(s.oursStatic),
      version: summary(s.version),
      single: summary(s.single),
      pair: summary(s.pair),
      assimpLoop: summary(s.assimpLoop),
    };
    out.vsAssimp.ratio = out.vsAssimp.assimpLoop.ms / out.vsAssimp.ours.ms;
    out.vsAssimp.throughput2 = (2 * out.vsAssimp.single.ms) / out.vsAssimp.pair.ms;
    out.vsAssimp.staticRatio = out.vsAssimp.assimpLoop.ms / out.vsAssimp.oursStatic.ms;
    if (out.vsAssimp.ours.cpuMs)
      out.vsAssimp.cpuRatio = out.vsAssimp.assimpLoop.cpuMs / out.vsAssimp.ours.cpuMs;
    const v = out.vsAssimp;
    console.log(
      `  ours ${(v.ours.ms / 1000).toFixed(2)} s (CPU ${((v.ours.cpuMs ?? 0) / 1000).toFixed(2)} s), ${out.oursConverted}/${mains.length} converted; assimp loop ${(v.assimpLoop.ms / 1000).toFixed(2)} s (CPU ${((v.assimpLoop.cpuMs ?? 0) / 1000).toFixed(2)} s), ${out.assimpConverted}/${mains.length} converted`,
    );
    console.log(
      `  assimp loop ÷ ours = ${v.ratio.toFixed(2)}× wall (target ≥ ${ISSUE31_TARGETS.vsAssimpLoop}: ${ok(v.ratio, ISSUE31_TARGETS.vsAssimpLoop, false)})${v.cpuRatio ? `, ${v.cpuRatio.toFixed(2)}× CPU` : ''}`,
    );
    console.log(
      `  frame 0 only (--static, assimp's work): ours ${(v.oursStatic.ms / 1000).toFixed(2)} s, assimp loop ÷ ours = ${v.staticRatio.toFixed(2)}×`,
    );
    console.log(
      `  2 cores: two -j 0 conversions at once ${(v.pair.ms / 1000).toFixed(2)} s, one alone ${(v.single.ms / 1000).toFixed(2)} s: ${v.throughput2.toFixed(2)}× the work per second of one; --version (start-up) ${v.version.ms.toFixed(0)} ms`,
    );
  }
  rmSync(base, { recursive: true, force: true });
  out.loadAverage.end = loadavg();
  console.log(
    `  load average (1 min) ${out.loadAverage.start[0].toFixed(1)} → ${out.loadAverage.end[0].toFixed(1)}`,
  );
  return out;
}
