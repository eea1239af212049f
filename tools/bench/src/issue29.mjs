/**
 * Issue 29 ("binary stays binary"), measured in one run against a build of an older checkout
 * (`--issue29-baseline <dir>`: a worktree of the commit before, built with `pnpm build`):
 *
 * - the textured corpus as one batch (`convert corpus/textured --out-dir …`), baseline and ours
 *   interleaved for `rounds` rounds: total `.glb` bytes, JSON share of those bytes, wall time
 *   (median), peak RSS; ours again with `--lean` and without `--compact`; like for like: when ours has `--compact`
 *   (issue 30: quantized vertex animation as a flag), ours runs with it;
 * - `slug.model` → `.glb` bytes (target ≤ 2.6 MB);
 * - a 293 kB Urho3D `.pak` whose model carries 64 MiB of trailing bytes: ours, whole process,
 *   peak RSS against 3 × (input + output) + 80 MB.
 *
 * Targets: bytes ≤ 0.65× the baseline's, time ≤ 0.5×, JSON ≤ 10 % of the bytes.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './stats.mjs';

const MAXRSS = pathToFileURL(join(import.meta.dirname, 'maxrss.mjs')).href;

function glbStats(dir) {
  let files = 0;
  let bytes = 0;
  let json = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.glb')) {
        const b = readFileSync(p);
        files++;
        bytes += b.length;
        json += b.readUInt32LE(12);
      }
    }
  };
  walk(dir);
  return { files, bytes, json, jsonShare: bytes ? json / bytes : 0 };
}

/** One whole CLI process: ms and peak RSS (MB). */
function cli(root, args) {
  const t0 = performance.now();
  const p = spawnSync(
    process.execPath,
    ['--import', MAXRSS, join(root, 'packages/cli/dist/bin.js'), ...args],
    {
      encoding: 'utf8',
      timeout: 900_000,
      maxBuffer: 64 << 20,
    },
  );
  const ms = performance.now() - t0;
  const m = /@@MAXRSS (\d+)/.exec(p.stderr ?? '');
  if (p.status !== 0) throw new Error(`${args.join(' ')}: exit ${p.status}: ${(p.stderr ?? '').slice(-400)}`);
  return { ms, rssMB: m ? Number(m[1]) / 1024 : NaN };
}

function hasFlag(root, flag) {
  const p = spawnSync(process.execPath, [join(root, 'packages/cli/dist/bin.js'), 'convert', '--help'], {
    encoding: 'utf8',
  });
  return (p.stdout ?? '').includes(flag);
}

/** Runs the issue-29 measurements; returns every number (printed as it goes). */
export async function issue29Bench({ root, baseline, corpus, dir, rounds = 3, notice = console.log }) {
  const textured = join(corpus, 'textured');
  const extra = hasFlag(root, '--compact') ? ['--compact'] : [];
  if (extra.length)
    notice('issue 29: ours runs with --compact (quantized vertex animation, like the baseline)');
  const sides = { baseline: { root: baseline, args: [] }, ours: { root, args: extra } };
  const out = {};
  for (const name of Object.keys(sides)) out[name] = { ms: [], rssMB: [] };
  for (let r = 0; r < rounds; r++) {
    for (const [name, side] of Object.entries(sides)) {
      const o = join(dir, `issue29-${name}`);
      rmSync(o, { recursive: true, force: true });
      const m = cli(side.root, ['convert', textured, '--out-dir', o, '-q', ...side.args]);
      out[name].ms.push(m.ms);
      out[name].rssMB.push(m.rssMB);
      if (r === 0) Object.assign(out[name], glbStats(o));
    }
  }
  for (const name of Object.keys(sides)) {
    out[name].medianMs = median(out[name].ms);
    out[name].medianRssMB = median(out[name].rssMB);
  }
  const leanDir = join(dir, 'issue29-lean');
  rmSync(leanDir, { recursive: true, force: true });
  cli(root, ['convert', textured, '--out-dir', leanDir, '-q', '--lean', ...extra]);
  out.lean = glbStats(leanDir);
  // ours without --compact (float vertex animation, the default since issue 30), for the record
  const defaultDir = join(dir, 'issue29-default');
  rmSync(defaultDir, { recursive: true, force: true });
  cli(root, ['convert', textured, '--out-dir', defaultDir, '-q']);
  out.oursDefault = glbStats(defaultDir);

  const slugModel = join(textured, 'grimrock/eob1-waterdeep/mod_assets/models/monsters/slug.model');
  out.slug = {};
  for (const [name, side] of Object.entries(sides)) {
    const target = join(dir, `issue29-slug-${name}.glb`);
    rmSync(target, { force: true });
    const m = cli(side.root, ['convert', slugModel, '-o', target, '-q', ...side.args]);
    out.slug[name] = { bytes: statSync(target).size, ms: m.ms };
  }

  // the 64 MiB-trailing-bytes .pak, ours
  const urho = await import(pathToFileURL(join(root, 'packages/urho3d/dist/index.js')).href);
  const { triangleMdl } = await import('./issue29-model.mjs');
  const head = triangleMdl();
  const mdl = new Uint8Array(head.length + (64 << 20));
  mdl.set(head);
  const pakPath = join(dir, 'issue29-trailing.pak');
  writeFileSync(
    pakPath,
    urho.writePak(urho.createPak(new Map([['Models/Tri.mdl', mdl]]), { compress: true })),
  );
  const pakOut = join(dir, 'issue29-pak');
  rmSync(pakOut, { recursive: true, force: true });
  mkdirSync(pakOut, { recursive: true });
  const pm = cli(root, ['convert', pakPath, '--out-dir', pakOut, '-q']);
  const pg = glbStats(pakOut);
  const inMB = statSync(pakPath).size / 2 ** 20;
  const outMB = pg.bytes / 2 ** 20;
  out.pak = {
    inBytes: statSync(pakPath).size,
    outBytes: pg.bytes,
    ms: pm.ms,
    rssMB: pm.rssMB,
    budgetMB: 3 * (inMB + outMB) + 80,
  };

  const b = out.baseline;
  const o = out.ours;
  out.ratios = { bytes: o.bytes / b.bytes, time: o.medianMs / b.medianMs, lean: out.lean.bytes / b.bytes };
  return out;
}

/** The report lines. */
export function printIssue29(r) {
  const mb = (n) => (n / 1e6).toFixed(2);
  const pct = (x) => `${(100 * x).toFixed(1)} %`;
  for (const name of ['baseline', 'ours']) {
    const s = r[name];
    console.log(
      `  ${name.padEnd(8)} ${s.files} .glb, ${mb(s.bytes)} MB, JSON ${pct(s.jsonShare)}, ${(s.medianMs / 1000).toFixed(2)} s (median of ${s.ms.length}), peak ${s.medianRssMB.toFixed(0)} MB`,
    );
  }
  console.log(`  --lean   ${r.lean.files} .glb, ${mb(r.lean.bytes)} MB, JSON ${pct(r.lean.jsonShare)}`);
  if (r.oursDefault)
    console.log(
      `  ours without --compact: ${r.oursDefault.files} .glb, ${mb(r.oursDefault.bytes)} MB (${(r.oursDefault.bytes / r.baseline.bytes).toFixed(3)}×), JSON ${pct(r.oursDefault.jsonShare)}`,
    );
  console.log(
    `  ratios: bytes ${r.ratios.bytes.toFixed(3)} (target ≤ 0.65), time ${r.ratios.time.toFixed(3)} (≤ 0.5), JSON ${pct(r.ours.jsonShare)} (≤ 10 %), --lean ${r.ratios.lean.toFixed(3)}`,
  );
  console.log(
    `  slug.model → .glb: baseline ${mb(r.slug.baseline.bytes)} MB, ours ${mb(r.slug.ours.bytes)} MB (target ≤ 2.6 MB)`,
  );
  console.log(
    `  .pak with 64 MiB of trailing bytes: ${(r.pak.inBytes / 1e3).toFixed(0)} kB → ${mb(r.pak.outBytes)} MB .glb in ${(r.pak.ms / 1000).toFixed(1)} s, peak ${r.pak.rssMB.toFixed(0)} MB (budget 3 × (in + out) + 80 = ${r.pak.budgetMB.toFixed(0)} MB)`,
  );
}
