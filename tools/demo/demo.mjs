// The quick-start demo: converts every legacy sample in test-assets/ to .glb under out/,
// validates each with the Khronos glTF-Validator and prints a table. Exit 1 if anything failed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { convertFile, FORMATS, formatBytes, renderTable, sniffFormat, validateFile } from '@gltf-legacy/cli';

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

// Main files only: a legacy format claims the bytes and the name ends with its main extension.
const inputs = walk(assets).filter((p) => {
  const f = sniffFormat(readFileSync(p), p, FORMATS);
  return typeof f === 'object' && !f.capabilities.container && p.toLowerCase().endsWith(f.mainExtension.toLowerCase());
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
  const glb = r.outputs.find((o) => o.endsWith('.glb'));
  const v = await validateFile(glb);
  if (v.errors) failed++;
  rows.push([rel, r.format, r.stats.vertices, r.stats.triangles, r.stats.joints, r.stats.animations, formatBytes(statSync(glb).size), v.errors]);
}

console.log(renderTable(['input', 'format', 'vertices', 'triangles', 'joints', 'animations', 'output size', 'validator errors'], rows));
console.log(`\n${inputs.length - failed} of ${inputs.length} samples converted to ${relative(process.cwd(), outRoot) || outRoot}/ with 0 validator errors${failed ? `; ${failed} failed` : ''}.`);
if (!inputs.length) {
  console.error('no samples found in test-assets/');
  process.exitCode = 1;
}
process.exitCode = failed ? 1 : process.exitCode;
