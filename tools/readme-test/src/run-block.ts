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

export const RUN_BLOCK_DEFAULTS = { timeoutMs: 170_000 };

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
    r = spawnSync('bash', ['-e', '-c', block.code], { cwd, env, timeout: timeoutMs, encoding: 'utf8' });
  } else {
    const js = ts.transpileModule(block.code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const file = join(app, `${block.readme.replace(/[^\w]+/g, '_')}_${block.line}.mjs`);
    // an import of nothing still makes the file a module (top-level await)
    writeFileSync(file, `${js}\nexport {};\n`);
    r = spawnSync(process.execPath, [file], { cwd, env, timeout: timeoutMs, encoding: 'utf8' });
  }
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}`;
  return { status: r.status, output, ms: performance.now() - t };
}
