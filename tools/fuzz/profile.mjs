// Where the fuzz pipeline spends its time, per format and stage, in this process (no workers):
// `node tools/fuzz/profile.mjs [format] [inputs]` — every seed once, then mutated copies.
import { loadFormats, formatSeeds } from './src/formats.mjs';
import { makeIO, runJob } from './src/pipeline.mjs';
import { mutate } from './src/mutate.mjs';
import { Rng } from './src/rng.mjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
const only = process.argv[2] ? [process.argv[2]] : undefined;
const count = Number(process.argv[3] ?? 400);
const { formats } = await loadFormats(only);
const io = await makeIO();
for (const [id, fmt] of formats) {
  const seeds = formatSeeds(id);
  const rng = new Rng(3);
  const acc = new Map();
  let cur, t;
  let n = 0;
  const ctx = {
    formats,
    io,
    fixedPoint: () => 'first',
    glbTrip: true,
    progress: (s) => {
      const now = performance.now();
      if (cur) acc.set(cur, (acc.get(cur) ?? 0) + now - t);
      cur = s;
      t = now;
    },
  };
  const perSeed = new Map();
  const T0 = performance.now();
  for (let i = 0; i < count; i++) {
    const seed = seeds[rng.int(seeds.length)];
    let comps = [];
    try {
      comps = (fmt.legacy.companions?.(seed.name, seed.siblings) ?? [])
        .slice(0, 8)
        .map((c) => [c, new Uint8Array(readFileSync(join(seed.dir, c)))]);
    } catch {}
    const m =
      i < seeds.length ? { bytes: seed.bytes } : mutate(seed.bytes, rng, seeds[rng.int(seeds.length)].bytes);
    const t1 = performance.now();
    cur = undefined;
    await runJob(ctx, { kind: 'legacy', format: id, name: seed.name, bytes: m.bytes, companions: comps });
    const now = performance.now();
    if (cur) acc.set(cur, (acc.get(cur) ?? 0) + now - t);
    cur = undefined;
    const k = `${seed.name} (${seed.bytes.length})`;
    perSeed.set(k, (perSeed.get(k) ?? 0) + now - t1);
    n++;
  }
  const tot = performance.now() - T0;
  console.log(`== ${id}: ${n} inputs ${tot.toFixed(0)} ms → ${((n / tot) * 1000).toFixed(0)}/s`);
  console.log(
    [...acc]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', '),
  );
  console.log(
    'slowest seeds:',
    [...perSeed]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, v]) => `${k} ${v.toFixed(0)}ms`)
      .join(', '),
  );
}
