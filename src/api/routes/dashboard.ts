/**
 * The dashboard's static files (ui/, bundled into dist/ui/ by scripts/build-ui.mjs) at `/ui/` on the server's own
 * port; `/ui` redirects to `/ui/` (a relative Location, so a path prefix added by a reverse proxy is kept).
 * Registered on the uWebSockets.js app before the API's catch-all, so API requests never pass through here.
 *
 * Contract:
 * - Only the files of the assets directory, by exact name, are served (`/ui/` is index.html). The name is never
 *   joined to a filesystem path: the directory is read once into memory, so `..`, encoded separators, NUL bytes
 *   or any other spelling simply finds no entry and answers 404.
 * - Content types by extension; `X-Content-Type-Options: nosniff`; the HTML page carries a Content-Security-Policy
 *   that allows only this origin's scripts, styles and connections (REST, control plane and WebSocket).
 * - Caching: names with a content hash (`app-XXXXXXXX.js`) are immutable for a year; others (index.html) are
 *   revalidated every time (`no-cache`). Every file has a strong ETag (another for its gzip form); If-None-Match
 *   answers 304.
 * - gzip when the client accepts it and it saves bytes (compressed once, at load).
 * - GET and HEAD; other methods fall through to the API's catch-all (404/405 there).
 * Costs: the directory is read on the first request (a few files, ~100 KB); a request is a Map lookup and a write.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8',
  json: 'application/json', svg: 'image/svg+xml', png: 'image/png', ico: 'image/x-icon', txt: 'text/plain; charset=utf-8',
};
/** What the page may load: its own scripts and styles, connections to this origin (REST and WebSocket). */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
  + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** esbuild's `[name]-[hash]` entry names: a dash and eight base-32 characters before the extension. */
const HASHED = /-[A-Z0-9]{8}\.[a-z]+$/;

interface Asset {
  readonly body: Buffer;
  readonly gzip: Buffer | undefined;
  readonly type: string;
  /** Strong ETags of the file as it is and of its gzip form (two representations, two tags). */
  readonly etag: string;
  readonly etagGzip: string;
  readonly cache: string;
  readonly html: boolean;
}

/** The built dashboard of this package: `dist/ui` beside the package.json named ringmatch above this module. */
export function defaultDashboardDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'ringmatch') return join(dir, 'dist', 'ui');
      } catch {
        // Not ours; keep looking upwards.
      }
    }
    const up = dirname(dir);
    if (up === dir) return join(dirname(fileURLToPath(import.meta.url)), 'ui');
    dir = up;
  }
}

/** Reads every plain file of `dir` (not below it) into memory; undefined when `dir` holds no index.html. */
function loadAssets(dir: string): Map<string, Asset> | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const out = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name.startsWith('.') || !statSync(path).isFile()) continue;
    const ext = name.slice(name.lastIndexOf('.') + 1);
    const type = TYPES[ext];
    if (type === undefined) continue;
    const body = readFileSync(path);
    const packed = type.startsWith('image/png') ? undefined : gzipSync(body, { level: 9 });
    const tag = createHash('sha256').update(body).digest('base64url').slice(0, 22);
    out.set(name, {
      body, type, html: ext === 'html',
      gzip: packed !== undefined && packed.length < body.length ? packed : undefined,
      etag: `"${tag}"`, etagGzip: `"${tag}-gz"`,
      cache: HASHED.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  }
  return out;
}

/** Whether an Accept-Encoding value accepts gzip (a `gzip` token without `q=0`). */
export function acceptsGzip(header: string): boolean {
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim());
    if (coding !== 'gzip' && coding !== '*') continue;
    return !params.some((p) => /^q=0(\.0{0,3})?$/.test(p));
  }
  return false;
}

const NOT_BUILT = 'The dashboard is not built here: run `npm run build` (or `npm start`, which builds it).\n';

/**
 * Serves the files of `dir` (default: defaultDashboardDir()) at /ui/ on `app`. A directory without index.html
 * answers 404 with a line saying how to build it, and is looked at again on the next request.
 */
export function registerDashboard(app: TemplatedApp, dir: string = defaultDashboardDir()): void {
  let assets: Map<string, Asset> | undefined;
  /** A plain-text answer (404, 500), the length given for HEAD. */
  const text = (res: HttpResponse, status: string, body: string, head: boolean): void => {
    res.writeStatus(status).writeHeader('Content-Type', 'text/plain; charset=utf-8').writeHeader('X-Content-Type-Options', 'nosniff')
      .writeHeader('Cache-Control', 'no-store');
    finish(res, Buffer.from(body), head);
  };
  const serve = (res: HttpResponse, req: HttpRequest, head: boolean): void => {
    const url = req.getUrl();
    const name = url === '/ui/' ? 'index.html' : url.slice(4);
    const ifNoneMatch = req.getHeader('if-none-match');
    const gzip = acceptsGzip(req.getHeader('accept-encoding'));
    let failure = '';
    try {
      assets ??= loadAssets(dir);
    } catch (e) {
      failure = `Cannot read the dashboard's files in ${dir}: ${e instanceof Error ? e.message : String(e)}\n`;
    }
    const a = assets?.get(name);
    res.cork(() => {
      if (failure !== '') return text(res, '500 Internal Server Error', failure, head);
      if (a === undefined) return text(res, '404 Not Found', assets === undefined ? NOT_BUILT : 'Not found\n', head);
      const zipped = gzip && a.gzip !== undefined;
      const etag = zipped ? a.etagGzip : a.etag;
      const notModified = ifNoneMatch !== '' && ifNoneMatch.split(',').some((t) => t.trim() === etag);
      res.writeStatus(notModified ? '304 Not Modified' : '200 OK');
      res.writeHeader('ETag', etag).writeHeader('Cache-Control', a.cache).writeHeader('X-Content-Type-Options', 'nosniff');
      if (a.html) res.writeHeader('Content-Security-Policy', CSP).writeHeader('Referrer-Policy', 'no-referrer').writeHeader('X-Frame-Options', 'DENY');
      if (a.gzip !== undefined) res.writeHeader('Vary', 'Accept-Encoding');
      if (notModified) {
        res.endWithoutBody();
        return;
      }
      res.writeHeader('Content-Type', a.type);
      if (zipped) res.writeHeader('Content-Encoding', 'gzip');
      finish(res, zipped ? a.gzip : a.body, head);
    });
  };
  const redirect = (res: HttpResponse): void => {
    res.cork(() => {
      res.writeStatus('301 Moved Permanently').writeHeader('Location', 'ui/').writeHeader('Content-Type', 'text/plain; charset=utf-8').end('ui/\n');
    });
  };
  app.get('/ui', redirect);
  app.head('/ui', redirect);
  app.get('/ui/*', (res, req) => serve(res, req, false));
  app.head('/ui/*', (res, req) => serve(res, req, true));
}

/**
 * Ends the answer with `body`, or for HEAD with its length and no body (Content-Length written by hand: this
 * uWebSockets.js build aborts the process when endWithoutBody is given a length).
 */
function finish(res: HttpResponse, body: Buffer, head: boolean): void {
  if (!head) {
    res.end(body);
    return;
  }
  res.writeHeader('Content-Length', String(body.length));
  res.endWithoutBody();
}
