/**
 * Runs the `gltf-legacy` command in-process and collects what it prints.
 *
 * ```ts
 * const { code, out, err } = await runCli(['extract', 'Data.pak', '--out-dir', dir]);
 * ```
 */
import { main } from '../src/index.js';

export async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['node', 'gltf-legacy', ...args], {
    out: (s) => out.push(s),
    err: (s) => err.push(s),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
