// Running a block: exit status and output; a block past its time is stopped with its children.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { runBlock } from '../src/run-block.js';

const root = resolve(import.meta.dirname, '../../..');
const app = mkdtempSync(join(tmpdir(), 'readme-test-run-'));
const block = (lang: 'sh' | 'ts', code: string) => ({ readme: 'T.md', line: 1, lang, code, cwd: '.' });

test('sh runs with set -e from the repository root; ts runs as a module with top-level await', () => {
  expect(runBlock(block('sh', 'test -f pnpm-workspace.yaml && echo here'), { root, app })).toMatchObject({
    status: 0,
    output: 'here\n',
  });
  expect(runBlock(block('sh', 'false\necho not reached'), { root, app }).status).toBe(1);
  const ts = runBlock(
    block('ts', 'const n: number = await Promise.resolve(6 * 7);\nconsole.log(n, process.cwd());'),
    {
      root,
      app,
    },
  );
  expect(ts).toMatchObject({ status: 0, output: `42 ${root}\n` });
});

test('a block past its time limit is stopped, its child processes too', () => {
  const t = performance.now();
  const r = runBlock(block('sh', 'sleep 30 & sleep 30; echo never'), { root, app, timeoutMs: 1000 });
  expect(r.status).toBe(124);
  expect(r.output).toContain('stopped: the block ran longer than 1 s');
  expect(performance.now() - t).toBeLessThan(8000);
});
