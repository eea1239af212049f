/**
 * The whole conversion of each textured game folder of the corpus (`corpus/textured/<set>`), as a
 * user runs it: one `gltf-legacy convert <set> --out-dir … -j 1` process per set (models found in
 * the folder, their textures and material files resolved, .glb encoded), then every .glb back to
 * its format. Reports inputs, bytes read (models + textures + material files) and written, wall time
 * and MB/s of input. Issue 15 asks for the largest set; all five are measured side by side.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function folderBytes(dir) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? folderBytes(p) : e.isFile() ? statSync(p).size : 0;
  }
  return n;
}

/** Runs the five sets; returns `{ set: { inputs, inBytes, outBytes, ms, mbps } }` or undefined without a corpus. */
export function texturedBench(root, corpus, work) {
  const base = join(corpus, 'textured');
  if (!existsSync(base)) return undefined;
  const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');
  const out = {};
  for (const set of readdirSync(base).filter((d) => statSync(join(base, d)).isDirectory())) {
    const dir = join(work, 'textured', set);
    mkdirSync(dir, { recursive: true });
    const t0 = performance.now();
    const p = spawnSync(
      process.execPath,
      [
        bin,
        'convert',
        join(base, set),
        '--out-dir',
        dir,
        '-j',
        '1',
        '--quiet',
        '--report',
        join(dir, 'report.json'),
      ],
      { encoding: 'utf8', timeout: 600_000 },
    );
    const ms = performance.now() - t0;
    const inBytes = folderBytes(join(base, set));
    const outBytes = folderBytes(dir);
    let inputs = 0;
    try {
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
      inputs = (report.records ?? report.results ?? []).filter((r) => r.status === 'ok').length;
    } catch {
      // no report: the process failed (exit code below)
    }
    out[set] = { exit: p.status, inputs, inBytes, outBytes, ms, mbps: inBytes / 1e6 / (ms / 1000) };
  }
  return out;
}

/** One line per set. */
export function printTextured(r) {
  for (const [set, v] of Object.entries(r)) {
    console.log(
      `  ${set.padEnd(9)} ${String(v.inputs).padStart(3)} models, ${(v.inBytes / 1e6).toFixed(2)} MB read → ${(v.outBytes / 1e6).toFixed(2)} MB of .glb in ${v.ms.toFixed(0)} ms whole process (${v.mbps.toFixed(1)} MB/s)${v.exit ? ` — exit ${v.exit}` : ''}`,
    );
  }
}
