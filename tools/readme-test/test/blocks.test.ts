// The block extraction the README test relies on: languages, directives, indentation, order.
import { expect, test } from 'vitest';
import { extractBlocks } from '../src/blocks.js';

test('sh/bash/ts blocks in order with their line, directives applied, other fences ignored', () => {
  const md = [
    '# T',
    '```sh',
    'echo one',
    '```',
    '<!-- readme-test: skip needs a browser -->',
    '',
    '```bash',
    'echo two',
    '```',
    '```jsonc',
    '{ "a": 1 }',
    '```',
    '<!-- readme-test: cwd=packages/cli -->',
    '- item:',
    '  ```ts',
    '  const x = 1;',
    '  ```',
  ].join('\n');
  const blocks = extractBlocks('R.md', md);
  expect(blocks.map((b) => [b.line, b.lang, b.code, b.cwd, b.skip])).toEqual([
    [2, 'sh', 'echo one', '.', undefined],
    [7, 'sh', 'echo two', '.', 'needs a browser'],
    [15, 'ts', 'const x = 1;', '.', undefined],
  ]);
  const cwd = extractBlocks('R.md', '<!-- readme-test: cwd=packages/cli -->\n```sh\npwd\n```');
  expect(cwd[0].cwd).toBe('packages/cli');
  expect(() => extractBlocks('R.md', '<!-- readme-test: run-twice -->\n```sh\npwd\n```')).toThrow(
    /R\.md:1: unknown readme-test directive "run-twice"/,
  );
});
