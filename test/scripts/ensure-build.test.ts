// scripts/ensure-build.mjs: dist/ holds the JavaScript of the sources and the built dashboard (dist/ui/), rebuilt
// only when a source changes (a file under ui/ included), with no file left from a source that is gone; a syntax
// error fails the build. And the product runs from it: the simulator started as `npm start` does (`node
// dist/src/cli.js start`, the demo on the threaded runner with its shard worker) answers spot and futures routes
// and serves the dashboard at /ui/.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = resolve('scripts/ensure-build.mjs');
const root = mkdtempSync(join(tmpdir(), 'ringmatch-build-'));
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

/** Runs the script in `dir`. */
const ensure = (dir: string): { status: number | null; stderr: string } => {
  const r = spawnSync(process.execPath, [SCRIPT], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
};

function scratch(name: string): string {
  const dir = join(root, name);
  for (const d of ['src', 'bench', 'soak', 'test/support', 'ui']) cpSync(resolve(d), join(dir, d), { recursive: true });
  for (const f of ['tsconfig.json', 'package-lock.json', 'package.json']) cpSync(resolve(f), join(dir, f));
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  return dir;
}

const freePort = (): Promise<number> => new Promise((done, fail) => {
  const s = createServer();
  s.once('error', fail);
  s.listen(0, '127.0.0.1', () => { const a = s.address(); s.close(() => done(typeof a === 'object' && a !== null ? a.port : 0)); });
});

describe('scripts/ensure-build.mjs', () => {
  const dir = scratch('pkg');

  it('transpiles src, bench and soak once, and again only after a change', () => {
    const first = ensure(dir);
    expect(first.status).toBe(0);
    expect(first.stderr).toContain('transpiled');
    expect(existsSync(join(dir, 'dist/src/cli.js'))).toBe(true);
    expect(existsSync(join(dir, 'dist/src/engine/shard/market-shard.worker.js'))).toBe(true);
    expect(existsSync(join(dir, 'dist/bench/api/sim-server.js'))).toBe(true);
    expect(first.stderr).toContain('built the dashboard');
    expect(readFileSync(join(dir, 'dist/ui/index.html'), 'utf8')).toMatch(/src="app-[A-Z0-9]{8}\.js"/);
    const again = ensure(dir);
    expect(again).toEqual({ status: 0, stderr: '' });
    // An edit (new modification time) rebuilds, of a TypeScript source or of any file of the dashboard.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'src/cli-usage.ts'), later, later);
    expect(ensure(dir).stderr).toContain('transpiled');
    utimesSync(join(dir, 'ui/src/styles.css'), later, later);
    expect(ensure(dir).stderr).toContain('built the dashboard');
    expect(ensure(dir)).toEqual({ status: 0, stderr: '' });
  });

  it('drops the output of a removed source and fails on a syntax error', () => {
    writeFileSync(join(dir, 'src/extra-file.ts'), 'export const extra = 1;\n');
    expect(ensure(dir).status).toBe(0);
    expect(existsSync(join(dir, 'dist/src/extra-file.js'))).toBe(true);
    rmSync(join(dir, 'src/extra-file.ts'));
    expect(ensure(dir).status).toBe(0);
    expect(existsSync(join(dir, 'dist/src/extra-file.js'))).toBe(false);
    writeFileSync(join(dir, 'src/broken.ts'), 'export const = ;\n');
    const bad = ensure(dir);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('failed');
    rmSync(join(dir, 'src/broken.ts'));
    expect(ensure(dir).status).toBe(0);
    writeFileSync(join(dir, 'ui/src/broken.tsx'), 'export const x = <div>;\n');
    writeFileSync(join(dir, 'ui/src/main.tsx'), `import './broken';\n${readFileSync(join(dir, 'ui/src/main.tsx'), 'utf8')}`);
    const badUi = ensure(dir);
    expect(badUi.status).toBe(1);
    expect(badUi.stderr).toContain('building the dashboard');
    cpSync(resolve('ui/src/main.tsx'), join(dir, 'ui/src/main.tsx'));
    rmSync(join(dir, 'ui/src/broken.tsx'));
    expect(ensure(dir).status).toBe(0);
  });

  it('the simulator runs from dist/ on the demo (threaded runner)', async () => {
    const port = await freePort();
    // The threaded runner on any machine, so its shard worker is loaded from dist/ too.
    writeFileSync(join(dir, 'threaded.json'), JSON.stringify({ extends: 'demo', engine: { runner: 'threaded' } }));
    child = spawn(process.execPath, ['dist/src/cli.js', 'start', '--config', 'threaded.json', '--host', '127.0.0.1', '--port', String(port)],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
    const deadline = Date.now() + 30_000;
    while (!out.includes('threaded runner') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(out).toContain(`http://127.0.0.1:${port}/api/v4`);
    const pairs = await (await fetch(`http://127.0.0.1:${port}/api/v4/spot/currency_pairs`)).json() as { id: string }[];
    expect(pairs.map((p) => p.id)).toContain('BTC_USDT');
    const book = await (await fetch(`http://127.0.0.1:${port}/api/v4/futures/usdt/order_book?contract=BTC_USDT`)).json() as { bids: unknown[] };
    expect(book.bids.length).toBeGreaterThan(0);
    const page = await fetch(`http://127.0.0.1:${port}/ui/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(readFileSync(join(dir, 'dist/ui/index.html'), 'utf8'));
    child.kill('SIGTERM');
    await new Promise((r) => child!.once('close', r));
    child = undefined;
    expect(readFileSync(join(dir, 'dist/.ringmatch-build'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  }, 60_000);
});
