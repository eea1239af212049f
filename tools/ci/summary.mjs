// Prints one closing line over every package's Vitest JSON results:
// "Tests: N passed, N failed" (and skipped), so CI logs end with a total.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const group of ['packages', 'tools']) {
  for (const name of readdirSync(join(root, group))) {
    const dir = join(root, group, name);
    const pkg = join(dir, 'package.json');
    if (!existsSync(pkg) || !JSON.parse(readFileSync(pkg, 'utf8')).scripts?.test) continue;
    const file = join(dir, 'test-results.json');
    if (!existsSync(file)) {
      missing.push(`${group}/${name}`);
      continue;
    }
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  }
}
if (missing.length) {
  console.log(`no test results for: ${missing.join(', ')}`);
  failed += missing.length;
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed ? 1 : 0;
