import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LegacyError } from '@gltf-legacy/core';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
};

/**
 * The built page (`dist/web`): next to the bundled node entry (`dist/node` → `dist/web`) or, when
 * running from sources, `../../dist/web`. Throws VIEWER_NOT_BUILT when it is missing.
 */
export function webRoot(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  for (const c of [join(here, '../web'), join(here, '../../dist/web')])
    if (existsSync(join(c, 'index.html'))) return resolve(c);
  throw new LegacyError(
    'VIEWER_NOT_BUILT',
    'the viewer page is not built: run `pnpm --filter @gltf-legacy/viewer build` (vite build → packages/viewer/dist/web)',
  );
}

/** A localhost server for the page and the files it should open (`/__files/…`). */
export interface ViewerServer {
  url: string;
  /** Files the page can fetch by base name; replace the contents between models. */
  files: Map<string, Uint8Array>;
  close(): Promise<void>;
}

/**
 * True when a request's `Host` header names the address and port the server listens on, or
 * `localhost` with that port. Anything else (`evil.example`, a missing Host) is what a
 * DNS-rebinding page sends: such a page runs in the user's browser, resolves its own name to
 * 127.0.0.1 and would otherwise read the served models.
 *
 * ```ts
 * allowedHost('127.0.0.1:5173', '127.0.0.1', 5173); // true
 * allowedHost('evil.example:5173', '127.0.0.1', 5173); // false
 * ```
 */
export function allowedHost(header: string | undefined, host: string, port: number): boolean {
  if (!header) return false;
  const h = header.trim().toLowerCase();
  const bare = host.includes(':') ? `[${host}]` : host;
  return h === `${bare}:${port}` || h === `localhost:${port}`;
}

/**
 * Starts the static server on 127.0.0.1 (`port` 0 = any free port). It answers only requests
 * whose `Host` is that address and port (or `localhost` and the port), 403 otherwise, sends no
 * CORS header (so other origins cannot read its answers), and serves nothing outside the built
 * page and the files it was given.
 */
export async function startServer(port = 0, host = '127.0.0.1'): Promise<ViewerServer> {
  const root = webRoot();
  const files = new Map<string, Uint8Array>();
  let listening = port;
  const server: Server = createServer(async (req, res) => {
    try {
      if (!allowedHost(req.headers.host, host, listening)) {
        res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('forbidden: this viewer answers only requests for its own address (Host header)');
        return;
      }
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (path === '/__files/index.json') {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify([...files.keys()]));
        return;
      }
      if (path.startsWith('/__files/')) {
        const b = files.get(path.slice('/__files/'.length));
        res.writeHead(b ? 200 : 404, {
          'content-type': 'application/octet-stream',
          'cache-control': 'no-store',
        });
        res.end(b ?? 'not found');
        return;
      }
      const file = normalize(join(root, path === '/' ? 'index.html' : path));
      if (!file.startsWith(root + sep) || !existsSync(file)) {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(await readFile(file));
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  const addr = server.address() as AddressInfo;
  listening = addr.port;
  return {
    url: `http://${host}:${addr.port}/`,
    files,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
