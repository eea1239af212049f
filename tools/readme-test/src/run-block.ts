// Owns running one README block: sh with bash (`set -e`), ts transpiled by TypeScript and run as an
// ES module from the tarball-installed project folder, both with the repository root (or the
// block's `cwd=`) as working directory.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import type { ReadmeBlock } from './blocks.js';

/** What a block printed and how it ended. */
export interface BlockResult {
  status: number | null;
  output: string;
  ms: number;
}

/** Options of {@link runBlock}. */
export interface RunBlockOptions {
  root: string;
  /** Folder where the tarballs are installed; ts blocks are written and imported from there. */
  app: string;
  timeoutMs?: number;
}

export const RUN_BLOCK_DEFAULTS = { timeoutMs: 120_000 };

/**
 * The command under GNU `timeout`, which runs it in a process group of its own and signals the
 * whole group when time is up (a block's children — pnpm, node workers — never outlive it).
 */
function bounded(timeoutMs: number, command: string[]): [string, string[]] {
  return ['timeout', ['-k', '5', `${Math.ceil(timeoutMs / 1000)}`, ...command]];
}

/**
 * Runs a block and returns its exit status and combined output.
 *
 * ```ts
 * const r = runBlock(block, { root, app });
 * if (r.status !== 0) console.log(r.output);
 * ```
 */
export function runBlock(block: ReadmeBlock, options: RunBlockOptions): BlockResult {
  const { root, app, timeoutMs } = { ...RUN_BLOCK_DEFAULTS, ...options };
  const cwd = resolve(root, block.cwd);
  const env = { ...process.env, GLTF_LEGACY_CORPUS: process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus' };
  const t = performance.now();
  let r: ReturnType<typeof spawnSync>;
  if (block.lang === 'sh') {
    const [cmd, args] = bounded(timeoutMs, ['bash', '-e', '-c', block.code]);
    r = spawnSync(cmd, args, { cwd, env, timeout: timeoutMs + 10_000, encoding: 'utf8' });
  } else {
    const js = ts.transpileModule(block.code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const file = join(app, `${block.readme.replace(/[^\w]+/g, '_')}_${block.line}.mjs`);
    // an import of nothing still makes the file a module (top-level await)
    writeFileSync(file, `${js}\nexport {};\n`);
    const [cmd, args] = bounded(timeoutMs, [process.execPath, file]);
    r = spawnSync(cmd, args, { cwd, env, timeout: timeoutMs + 10_000, encoding: 'utf8' });
  }
  const late = r.status === 124 ? `\n(stopped: the block ran longer than ${timeoutMs / 1000} s)` : '';
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}${late}`;
  return { status: r.status, output, ms: performance.now() - t };
}
