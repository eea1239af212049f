// Owns the extraction of runnable blocks from a README: fenced ```sh and ```ts blocks, with the
// `<!-- readme-test: cwd=<dir> -->` and `<!-- readme-test: skip <reason> -->` directives.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One fenced block of a README, as the test runs it. */
export interface ReadmeBlock {
  /** README path relative to the repository root. */
  readme: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: 'sh' | 'ts';
  code: string;
  /** Working directory relative to the repository root (default `.`). */
  cwd: string;
  /** Reason of a `skip` directive. */
  skip?: string;
}

const LANGS: Record<string, 'sh' | 'ts'> = {
  sh: 'sh',
  bash: 'sh',
  shell: 'sh',
  ts: 'ts',
  typescript: 'ts',
};
const DIRECTIVE = /^<!--\s*readme-test:\s*(.*?)\s*-->$/;

/**
 * The sh/ts blocks of one Markdown text, in order.
 *
 * ```ts
 * extractBlocks('README.md', text).filter((b) => !b.skip); // blocks to run
 * ```
 */
export function extractBlocks(readme: string, text: string): ReadmeBlock[] {
  const lines = text.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})\s*([\w-]*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    let end = i + 1;
    while (end < lines.length && lines[end].trim() !== fence) end++;
    const lang = LANGS[info.toLowerCase()];
    if (lang) {
      let prev = i - 1;
      while (prev >= 0 && lines[prev].trim() === '') prev--;
      const directive = prev >= 0 ? DIRECTIVE.exec(lines[prev].trim())?.[1] : undefined;
      const block: ReadmeBlock = {
        readme,
        line: i + 1,
        lang,
        code: lines
          .slice(i + 1, end)
          .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
          .join('\n'),
        cwd: '.',
      };
      if (directive !== undefined) {
        const skip = /^skip\b\s*(.*)$/.exec(directive);
        const cwd = /^cwd=(\S+)$/.exec(directive);
        if (skip) block.skip = skip[1] || '(no reason given)';
        else if (cwd) block.cwd = cwd[1];
        else throw new Error(`${readme}:${prev + 1}: unknown readme-test directive "${directive}"`);
      }
      blocks.push(block);
    }
    i = end;
  }
  return blocks;
}

/** Every README the test covers: the root one, then `packages/*` and `tools/*` (sorted). */
export function listReadmes(root: string): string[] {
  const out = ['README.md'];
  for (const group of ['packages', 'tools'])
    for (const name of readdirSync(join(root, group)).sort())
      if (existsSync(join(root, group, name, 'README.md'))) out.push(`${group}/${name}/README.md`);
  return out;
}

/** The blocks of every README the test covers. */
export function allBlocks(root: string): Map<string, ReadmeBlock[]> {
  return new Map(listReadmes(root).map((r) => [r, extractBlocks(r, readFileSync(join(root, r), 'utf8'))]));
}
