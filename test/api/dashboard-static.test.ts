// The dashboard's static files at /ui/ (src/api/routes/dashboard.ts), served by the real server from a build of
// ui/: content types, caching (immutable hashed assets, a revalidated page, ETags and 304), gzip, HEAD, the
// redirect from /ui, and hostile paths sent as raw bytes (no client normalises them): traversal in every
// spelling only ever finds 404, never a file outside the build. Without a build the page says how to make one;
// `dashboard: false` leaves /ui/ to the API. API routes are unaffected.
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import { acceptsGzip, defaultDashboardDir } from '../../src/api/routes/dashboard.js';
import { type Simulator, startSimulator } from '../../src/main.js';
import { builtDashboard } from '../support/dashboard.js';
import { TEST_CONFIG } from './http-helpers.js';

let sim: Simulator;
let dir: string;
let files: string[];
let port: number;

beforeAll(async () => {
  dir = await builtDashboard();
  files = readdirSync(dir);
  sim = await startSimulator(TEST_CONFIG, { host: '127.0.0.1', port: 0, dashboard: dir });
  port = sim.server.port;
});
afterAll(async () => { await sim.close(); });

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`http://127.0.0.1:${port}${path}`, { method, headers, redirect: 'manual' });

interface Raw { status: number; headers: string; body: Buffer }

/** Sends `path` byte for byte (no URL normalisation) with `headers` (raw lines) and reads the whole answer. */
function raw(path: string, method = 'GET', headers = ''): Promise<Raw> {
  return new Promise((done, fail) => {
    const s = connect(port, '127.0.0.1', () => s.end(Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`, 'latin1')));
    const chunks: Buffer[] = [];
    s.setTimeout(5000, () => { s.destroy(); fail(new Error(`no answer to ${path}`)); });
    s.on('data', (d: Buffer) => chunks.push(d));
    s.on('error', fail);
    s.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, end).toString('latin1');
      done({ status: Number(/^HTTP\/1\.1 ([0-9]{3})/.exec(head)?.[1] ?? 0), headers: head, body: all.subarray(end + 4) });
    });
  });
}

describe('GET /ui/', () => {
  it('serves the page with its type, a CSP, no-cache and an ETag, naming the hashed assets', async () => {
    const res = await get('/ui/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{22}(-gz)?"$/);
    const html = await res.text();
    expect(html).toBe(readFileSync(join(dir, 'index.html'), 'utf8'));
    expect(html).toContain('<title>ringmatch dashboard</title>');
    const js = files.find((f) => /^app-[A-Z0-9]{8}\.js$/.test(f))!;
    const css = files.find((f) => /^app-[A-Z0-9]{8}\.css$/.test(f))!;
    expect(html).toContain(`src="${js}"`);
    expect(html).toContain(`href="${css}"`);
    expect(await (await get('/ui/index.html')).text()).toBe(html);
  });

  it('serves the hashed assets with their types, cached for a year', async () => {
    for (const [ext, type] of [['js', 'text/javascript; charset=utf-8'], ['css', 'text/css; charset=utf-8']] as const) {
      const name = files.find((f) => f.endsWith(`.${ext}`))!;
      const res = await get(`/ui/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-security-policy')).toBeNull();
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(dir, name)))).toBe(true);
    }
  });

  it('answers 304 to a matching If-None-Match and the body again to a stale one', async () => {
    const first = await get('/ui/');
    const etag = first.headers.get('etag')!;
    const again = await get('/ui/', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await get('/ui/', { 'If-None-Match': `"stale", ${etag}` })).status).toBe(304);
    expect((await get('/ui/', { 'If-None-Match': '"stale"' })).status).toBe(200);
  });

  it('sends gzip only to clients that accept it, the same bytes once unpacked', async () => {
    const name = files.find((f) => f.endsWith('.js'))!;
    // Without Accept-Encoding (a raw request sends none): the file as it is.
    const plain = await raw(`/ui/${name}`);
    expect(plain.headers).not.toMatch(/content-encoding/i);
    expect(plain.body.equals(readFileSync(join(dir, name)))).toBe(true);
    const packed = await raw(`/ui/${name}`, 'GET', 'Accept-Encoding: br, gzip\r\n');
    expect(packed.headers).toMatch(/content-encoding: gzip/i);
    expect(packed.headers).toMatch(/vary: accept-encoding/i);
    // Two representations, two strong ETags.
    const plainTag = /etag: ("[^"]+")/i.exec(plain.headers)![1]!;
    const gzipTag = /etag: ("[^"]+")/i.exec(packed.headers)![1]!;
    expect(gzipTag).not.toBe(plainTag);
    expect((await raw(`/ui/${name}`, 'GET', `Accept-Encoding: gzip\r\nIf-None-Match: ${gzipTag}\r\n`)).status).toBe(304);
    expect((await raw(`/ui/${name}`, 'GET', `Accept-Encoding: gzip\r\nIf-None-Match: ${plainTag}\r\n`)).status).toBe(200);
    expect(gunzipSync(packed.body).equals(readFileSync(join(dir, name)))).toBe(true);
    expect(packed.body.length).toBeLessThan(readFileSync(join(dir, name)).length);
  });

  it('reads Accept-Encoding as HTTP does', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip;q=0.000')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip('xgzip')).toBe(false);
  });

  it('answers HEAD with the headers and no body', async () => {
    const r = await raw('/ui/', 'HEAD');
    expect(r.status).toBe(200);
    expect(r.headers).toMatch(/content-type: text\/html; charset=utf-8/i);
    expect(r.headers).toMatch(new RegExp(`content-length: ${readFileSync(join(dir, 'index.html')).length}`, 'i'));
    expect(r.body.length).toBe(0);
  });

  it('redirects /ui to ui/ (relative, so a proxy\'s path prefix is kept)', async () => {
    const res = await get('/ui');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('ui/');
  });
});

describe('hostile paths', () => {
  const outside = ['"name": "ringmatch"', 'root:x:0:0', 'export function', 'import '];
  const expectNotFound = (r: Raw, path: string): void => {
    expect(r.status, path).toBe(404);
    const body = r.body.toString('latin1');
    for (const o of outside) expect(body, path).not.toContain(o);
  };

  it('never leaves the build: traversal in every spelling is 404', async () => {
    const paths = [
      '/ui/../package.json', '/ui/../../../../etc/passwd', '/ui/%2e%2e/package.json', '/ui/%2E%2E%2Fpackage.json', '/ui/..%2fpackage.json',
      '/ui/..%5cpackage.json', '/ui/..\\package.json', '/ui/%252e%252e%252fpackage.json', '/ui/./index.html/../../package.json',
      '/ui//etc/passwd', '/ui/%2fetc%2fpasswd', '/ui/index.html%00.js', '/ui/.ringmatch-build', '/ui/.',
      '/ui/..', '/ui/...', '/ui/~', '/ui/app.js', '/ui/index.htm', '/ui/INDEX.HTML', '/ui/src/main.tsx', '/ui/../src/api/server.ts',
      `/ui/${'../'.repeat(200)}etc/passwd`, `/ui/${'a'.repeat(4000)}`, '/ui/%', '/ui/%zz', '/ui/\u00ff\u00fe',
    ];
    for (const p of paths) expectNotFound(await raw(p), p);
    for (const p of paths.slice(0, 8)) expectNotFound(await raw(p, 'HEAD'), `HEAD ${p}`);
    // A raw NUL in the request line: uWebSockets.js's parser refuses the request before any handler.
    const nul = await raw('/ui/index.html\u0000');
    expect(nul.status).toBeGreaterThanOrEqual(400);
    expect(nul.body.toString('latin1')).not.toContain('<title>');
  });

  it('answers random paths under /ui/ with 404 or exactly one built file (seeded)', async () => {
    const r = new Prng(20261128);
    const parts = ['..', '.', '%2e', '%2e%2e', '%2f', '%5c', '/', '\\', '%00', 'index.html', 'etc', 'passwd', 'package.json', '~', '%252e', ...files];
    const bodies = new Map(files.map((f) => [f, readFileSync(join(dir, f))]));
    for (let i = 0; i < 300; i++) {
      const n = 1 + (r.nextU32() % 5);
      const path = `/ui/${Array.from({ length: n }, () => parts[r.nextU32() % parts.length]!).join(r.nextU32() % 2 === 0 ? '/' : '')}`;
      const res = await raw(path);
      const name = path.slice(4);
      if (res.status === 200) {
        const file = name === '' ? 'index.html' : name;
        expect(bodies.has(file), path).toBe(true);
        expect(res.body.equals(bodies.get(file)!), path).toBe(true);
      } else {
        expectNotFound(res, path);
      }
    }
  });

  it('leaves other methods to the API (a Gate error, no file)', async () => {
    const r = await raw('/ui/', 'POST');
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body.toString('utf8'))).toMatchObject({ label: 'NOT_FOUND' });
  });
});

describe('alongside the API', () => {
  it('keeps the API and the control plane answering', async () => {
    expect((await get('/api/v4/spot/currency_pairs')).status).toBe(200);
    expect((await get('/sim/health')).status).toBe(200);
    expect((await get('/uix')).status).toBe(404);
  });

  it('says how to build the dashboard where it is not built, and keeps serving the API', async () => {
    const bare = await startSimulator(TEST_CONFIG, { host: '127.0.0.1', port: 0, dashboard: join(dir, 'nowhere') });
    try {
      const res = await fetch(`http://127.0.0.1:${bare.server.port}/ui/`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('npm run build');
      expect((await fetch(`http://127.0.0.1:${bare.server.port}/api/v4/spot/time`)).status).toBe(200);
    } finally {
      await bare.close();
    }
  });

  it('serves nothing at /ui/ with dashboard: false (the API answers NOT_FOUND)', async () => {
    const off = await startSimulator(TEST_CONFIG, { host: '127.0.0.1', port: 0, dashboard: false });
    try {
      const res = await fetch(`http://127.0.0.1:${off.server.port}/ui/`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ label: 'NOT_FOUND' });
    } finally {
      await off.close();
    }
  });

  it('finds the package\'s own dist/ui by default', () => {
    expect(defaultDashboardDir()).toBe(resolve('dist/ui'));
  });
});
