// The quick-start demo: converts every legacy sample in test-assets/ to .glb under out/,
// validates each with the Khronos glTF-Validator and prints a table. Exit 1 if anything failed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { convertFile, FORMATS, formatBytes, mainFormatOf, renderTable, validateFile } from '@gltf-legacy/cli';

const root = resolve(import.meta.dirname, '../..');
const assets = join(root, 'test-assets');
const outRoot = join(root, 'out');

function walk(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
}

// Main files and containers only (companions are loaded by their main file); no glTF, no
// fuzz regressions (those are broken on purpose).
const inputs = walk(assets).filter((p) => {
  if (relative(assets, p).startsWith('fuzz-regressions')) return false;
  return typeof mainFormatOf(readFileSync(p), p, FORMATS) === 'object';
});

const rows = [];
let failed = 0;
for (const input of inputs) {
  const rel = relative(assets, input);
  const outDir = join(outRoot, relative(assets, join(input, '..')));
  const r = await convertFile(input, { outDir, force: true });
  if (r.status === 'error') {
    failed++;
    rows.push([rel, r.format, '-', '-', '-', '-', '-', `${r.error.code}: ${r.error.message}`]);
    continue;
  }
  // a container (.pak) gives one .glb per model inside: validate them all
  const glbs = r.outputs.filter((o) => o.endsWith('.glb'));
  let errors = 0;
  for (const glb of glbs) errors += (await validateFile(glb)).errors;
  if (errors || !glbs.length) failed++;
  const size = glbs.reduce((n, g) => n + statSync(g).size, 0);
  const label = glbs.length > 1 ? `${formatBytes(size)} (${glbs.length} files)` : formatBytes(size);
  rows.push([
    rel,
    r.format,
    r.stats.vertices,
    r.stats.triangles,
    r.stats.joints,
    r.stats.animations,
    label,
    errors,
  ]);
}

console.log(
  renderTable(
    ['input', 'format', 'vertices', 'triangles', 'joints', 'animations', 'output size', 'validator errors'],
    rows,
  ),
);
console.log(
  `\n${inputs.length - failed} of ${inputs.length} samples converted to ${relative(process.cwd(), outRoot) || outRoot}/ with 0 validator errors${failed ? `; ${failed} failed` : ''}.`,
);
if (!inputs.length) {
  console.error('no samples found in test-assets/');
  process.exitCode = 1;
}
process.exitCode = failed ? 1 : process.exitCode;
