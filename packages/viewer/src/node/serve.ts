import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { gatherInput } from './files.js';
import { startServer } from './server.js';

/** Options of {@link serveViewer}. */
export interface ServeOptions {
  /** Port on 127.0.0.1 (0 = any free port). */
  port?: number;
  /** Open the page in the system's browser (xdg-open / open / start). */
  open?: boolean;
  /** The folder textures and material files are read from (default: each format's own rule). */
  resourceDir?: string;
}

export const SERVE_DEFAULTS = { port: 0, open: false } as const;

/** A running viewer server. */
export interface ServedViewer {
  /** The page, with the given files opened (`…/?served`). */
  url: string;
  /** Names of the files served (inputs and their companions). */
  files: string[];
  close(): Promise<void>;
}

/**
 * Serves the built viewer on localhost and opens the given files in it (with their companions,
 * found beside each input as the CLI does). Files with the same base name: the last one wins.
 *
 * ```ts
 * const v = await serveViewer(['Jack.mdl'], { port: 5173, open: true });
 * console.log(v.url); // http://127.0.0.1:5173/?served
 * ```
 */
export async function serveViewer(files: string[], options: ServeOptions = {}): Promise<ServedViewer> {
  const server = await startServer(options.port ?? SERVE_DEFAULTS.port);
  try {
    // the inputs first, so the page shows the first input
    const gathered = await Promise.all(
      files.map((f, group) => gatherInput(f, { resourceDir: options.resourceDir, group })),
    );
    for (const set of gathered) for (const [n, b] of set) if (!server.files.has(n)) server.files.set(n, b);
    for (const f of files)
      server.files.set(basename(f), gathered[files.indexOf(f)].get(basename(f)) as Uint8Array);
  } catch (e) {
    await server.close();
    throw e;
  }
  const url = `${server.url}?served`;
  if (options.open ?? SERVE_DEFAULTS.open) openInBrowser(url);
  return { url, files: [...server.files.keys()], close: server.close };
}

/** Best effort: opens `url` with the platform's opener; errors are ignored (the URL is printed anyway). */
export function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no opener: the caller prints the URL
  }
}
