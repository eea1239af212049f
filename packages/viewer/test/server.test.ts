import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allowedHost, startServer, type ViewerServer } from '../src/node/server.js';

/** A GET with a chosen Host header (fetch does not let a caller set Host; a rebinding page's browser does). */
function get(
  url: string,
  host: string | undefined,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const u = new URL(url);
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'GET',
        headers: host === undefined ? {} : { host },
        setHost: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

let server: ViewerServer;
let port: number;

beforeAll(async () => {
  server = await startServer(0);
  port = Number(new URL(server.url).port);
  server.files.set('Secret.glb', new TextEncoder().encode('model bytes'));
});
afterAll(() => server.close());

describe('view server: DNS rebinding and traversal', () => {
  test('answers its own address and localhost with that port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      const r = await get(`${server.url}__files/index.json`, host);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toEqual(['Secret.glb']);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect((await get(`${server.url}__files/Secret.glb`, `127.0.0.1:${port}`)).body).toBe('model bytes');
    expect((await get(server.url, `127.0.0.1:${port}`)).status).toBe(200);
  });

  test('a foreign Host (a DNS-rebinding page), another port or no Host at all: 403, no file list, no CORS header', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      `localhost`,
      '',
      undefined,
    ]) {
      for (const path of ['__files/index.json', '__files/Secret.glb', '']) {
        const r = await get(`${server.url}${path}`, host);
        // (Node's HTTP server itself answers a request without Host with 400)
        expect(r.status, `${host} ${path}`).toBe(host === undefined ? 400 : 403);
        expect(r.body).not.toContain('Secret');
        expect(r.body).not.toContain('model bytes');
        expect(r.headers['access-control-allow-origin']).toBeUndefined();
      }
    }
  });

  test('binds 127.0.0.1 only, and still refuses paths out of the page (404)', async () => {
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    for (const path of ['/../../../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fpackage.json']) {
      const r = await get(`http://127.0.0.1:${port}${path}`, `127.0.0.1:${port}`);
      expect(r.status, path).toBe(404);
      expect(r.body).not.toContain('root:');
    }
  });

  test('allowedHost', () => {
    expect(allowedHost('127.0.0.1:80', '127.0.0.1', 80)).toBe(true);
    expect(allowedHost('localhost:80', '127.0.0.1', 80)).toBe(true);
    expect(allowedHost('[::1]:80', '::1', 80)).toBe(true);
    expect(allowedHost('127.0.0.1', '127.0.0.1', 80)).toBe(false);
    expect(allowedHost('127.0.0.1:80.evil.example', '127.0.0.1', 80)).toBe(false);
    expect(allowedHost(undefined, '127.0.0.1', 80)).toBe(false);
  });
});
