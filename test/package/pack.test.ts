// The package as a bot author installs it: `npm pack` in a fresh copy of the checkout (its `prepare` builds the
// JavaScript, the dashboard and the type declarations from nothing) gives a tarball; installed into a scratch
// project, its `ringmatch` bin answers --help on every command and `ringmatch start` serves HTTP and the dashboard
// from the package's own files; `import … from 'ringmatch'` and 'ringmatch/testing' work from plain JavaScript;
// README's embedded example and docs/testing.md's vitest and jest examples run as written, each with its own test
// runner (jest with node --experimental-vm-modules, as jest's ESM support asks); and a TypeScript file using the
// package, and the vitest example (written by the test before), type-check against the shipped declarations.
// Tests run in order and share the scratch project.
//
// Offline install: npm cannot fetch the dependencies here, so the scratch project is laid out as npm would lay
// it: the tarball's contents at node_modules/ringmatch, each of its declared `dependencies` linked from this
// checkout's node_modules (only those: an import of an undeclared package fails), and its `bin` linked into
// node_modules/.bin. Bounded: every child process is killed after 120 s at most.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks } from '../support/markdown.js';

const root = mkdtempSync(join(tmpdir(), 'ringmatch-pack-'));
const project = join(root, 'bot');
const installed = join(project, 'node_modules/ringmatch');
const running: ChildProcess[] = [];
afterAll(() => {
  for (const c of running) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

interface Ran { code: number | null; stdout: string; stderr: string }

/** Runs `cmd args` in `cwd`; with `until`, resolves (and stops it with SIGTERM) once stdout matches. */
function run(cmd: string, args: readonly string[], cwd: string, until?: RegExp, limitMs = 120_000): Promise<Ran & { match?: RegExpMatchArray }> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
    running.push(child);
    let stdout = '';
    let stderr = '';
    let match: RegExpMatchArray | undefined;
    const timer = setTimeout(() => { child.kill('SIGKILL'); fail(new Error(`${cmd} ${args.join(' ')}: still running after ${limitMs} ms\n${stdout}\n${stderr}`)); }, limitMs);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (until !== undefined && match === undefined) {
        const m = until.exec(stdout);
        if (m !== null) { match = m; done({ code: null, stdout, stderr, match }); }
      }
    });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', fail);
    child.on('close', (code) => { clearTimeout(timer); if (match === undefined) done({ code, stdout, stderr }); });
  });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/**
 * A fresh copy of the checkout (what a clone holds, node_modules linked, no dist/), so packing builds from nothing
 * as an install from git does, and never touches this checkout's dist/, which other tests' processes run from.
 */
function checkout(): string {
  const dir = join(root, 'checkout');
  for (const d of ['src', 'bench', 'soak', 'scripts', 'docs', 'schemas', 'ui']) cpSync(resolve(d), join(dir, d), { recursive: true });
  for (const f of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md']) cpSync(resolve(f), join(dir, f));
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  return dir;
}

beforeAll(async () => {
  const packed = await run(npm, ['pack', '--pack-destination', root], checkout());
  expect(packed.code, packed.stderr).toBe(0);
  const tarball = readdirSync(root).find((f) => f.endsWith('.tgz'));
  expect(tarball).toBeDefined();
  mkdirSync(installed, { recursive: true });
  const untar = await run('tar', ['xzf', join(root, tarball!), '-C', installed, '--strip-components=1'], root);
  expect(untar.code, untar.stderr).toBe(0);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; bin: Record<string, string> };
  // The package's dependencies, and the bot's own: its clients and Node's types.
  for (const dep of [...Object.keys(manifest.dependencies), '@types/node', 'ccxt', 'gate-api', 'vitest', 'jest']) {
    const link = join(project, 'node_modules', dep);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(resolve('node_modules', dep), link);
  }
  mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
  for (const [name, file] of Object.entries(manifest.bin)) symlinkSync(join('..', 'ringmatch', file), join(project, 'node_modules/.bin', name));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bot', version: '1.0.0', private: true, type: 'module', dependencies: { ringmatch: '0.1.0' } }));
}, 180_000);

describe('the packed package', () => {
  it('ships the JavaScript, the declarations, the schema and the built dashboard, not the sources or tests', () => {
    const files = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' });
    const shipped = files(installed);
    expect(shipped).toContain('dist/src/index.js');
    expect(shipped).toContain('dist/src/index.d.ts');
    expect(shipped).toContain('dist/src/testing/index.d.ts');
    expect(shipped).toContain('dist/src/cli.js');
    expect(shipped).toContain('dist/src/engine/shard/market-shard.worker.js');
    expect(shipped).toContain('schemas/config.schema.json');
    expect(shipped).toContain('dist/ui/index.html');
    const ui = shipped.filter((f) => f.startsWith('dist/ui/')).map((f) => f.replace(/-[A-Z0-9]{8}\./, '-HASH.')).sort();
    expect(ui).toEqual(['dist/ui/app-HASH.css', 'dist/ui/app-HASH.js', 'dist/ui/index.html']);
    expect(shipped.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('ui/') || f.endsWith('.tsx')
      || f.endsWith('.ts') && !f.endsWith('.d.ts'))).toBe(false);
    expect((JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { private?: boolean }).private).toBeUndefined();
    expect(readFileSync(join(installed, 'dist/src/cli.js'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it.each([
    [['--help'], 'ringmatch bench NAME'],
    [['start', '--help'], '--config FILE.json'],
    [['replay', '--help'], '--format journal --journal FILE'],
    [['sweep-worker', '--help'], '--queue nats://HOST:PORT'],
    [['start', '--replay', '--help'], '--speed X'],
    [['bench', '--help'], 'handler'],
    [['bench', 'ring', '--help'], '--quick'],
  ])('npx ringmatch %j prints its usage and exits 0', async (args, part) => {
    const r = await run(npx, ['--no-install', 'ringmatch', ...args], project);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(part);
  });

  it('ringmatch start serves Gate\'s REST API and the dashboard on the port it prints', async () => {
    const r = await run(join(project, 'node_modules/.bin/ringmatch'), ['start', '--port', '0'], project, /http:\/\/127\.0\.0\.1:([0-9]+)\/api\/v4/, 60_000);
    const port = Number(r.match![1]);
    expect(r.stdout).toContain(`dashboard: http://127.0.0.1:${port}/ui/`);
    const pairs = await fetch(`http://127.0.0.1:${port}/api/v4/spot/currency_pairs`);
    expect(pairs.status).toBe(200);
    expect(((await pairs.json()) as { id: string }[]).map((p) => p.id)).toContain('BTC_USDT');
    // The dashboard from the package's own dist/ui: the page, and the script it names.
    const page = await fetch(`http://127.0.0.1:${port}/ui/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toBe(readFileSync(join(installed, 'dist/ui/index.html'), 'utf8'));
    const script = /src="(app-[A-Z0-9]{8}\.js)"/.exec(html)![1]!;
    const js = await fetch(`http://127.0.0.1:${port}/ui/${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe(readFileSync(join(installed, 'dist/ui', script), 'utf8'));
    const child = running.at(-1)!;
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('imports from plain JavaScript: the embedded exchange, the server starter and the fixture', async () => {
    writeFileSync(join(project, 'use.mjs'), `
      import { EmbeddedExchange, startSimulator, validateConfig, DEMO_CONFIG, replayJournal } from 'ringmatch';
      import { startExchange } from 'ringmatch/testing';
      import { createRequire } from 'node:module';
      const schema = createRequire(import.meta.url)('ringmatch/config.schema.json');
      const ex = EmbeddedExchange.create({ currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 4 }],
        users: [{ uid: 1, balances: { spot: { USDT: '1000' } } }] });
      const order = ex.createOrder(1, { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '60000' });
      validateConfig(DEMO_CONFIG);
      const fx = await startExchange();
      const ticker = await (await fetch(fx.restUrl + '/spot/tickers?currency_pair=BTC_USDT')).json();
      const hash = await fx.stateHash();
      await fx.stop();
      console.log(JSON.stringify({ status: order.status, left: order.left, start: typeof startSimulator, replay: typeof replayJournal,
        ticker: ticker[0].currency_pair, hash: hash.length > 0, schema: schema.$schema !== undefined }));
    `);
    const r = await run(process.execPath, ['use.mjs'], project);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ status: 'open', left: '0.01', start: 'function', replay: 'function', ticker: 'BTC_USDT', hash: true, schema: true });
  });

  it('runs README\'s embedded example as written, importing the package by name', async () => {
    const example = blocks('README.md').find((b) => b.lang === 'ts' && b.code.includes('EmbeddedExchange.create'))!;
    expect(example.code).toContain("from 'ringmatch'");
    writeFileSync(join(project, 'readme.mjs'), `${example.code}\nconsole.log(JSON.stringify({ status: buy.status, avg: buy.avg_deal_price, fee: buy.fee, book: ex.orderBook('BTC_USDT').asks }));\n`);
    const r = await run(process.execPath, ['readme.mjs'], project);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ status: 'closed', avg: '60000', fee: '0.0004', book: [['60000', '0.2']] });
  });

  it('runs docs/testing.md\'s jest example with jest against the installed fixture, as written', async () => {
    const md = blocks('docs/testing.md');
    const example = md.find((b) => b.lang === 'js' && b.code.includes("from 'ringmatch/testing'"))!;
    const config = md.find((b) => b.lang === 'js' && b.code.startsWith('// jest.config.js'))!;
    const dir = join(project, 'jest-bot');
    mkdirSync(dir);
    writeFileSync(join(dir, 'jest.config.js'), config.code);
    writeFileSync(join(dir, 'bot.test.js'), example.code);
    const r = await run(process.execPath, ['--experimental-vm-modules', join(project, 'node_modules/jest/bin/jest.js'), '--verbose', '--ci'], dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // jest reports on stderr.
    expect(r.stderr).toMatch(/✓ gate-api reads the bot's balance/);
    expect(r.stderr).toMatch(/✓ ccxt\.pro watches the book/);
    expect(r.stderr).toMatch(/Tests: +2 passed, 2 total/);
  });

  it('runs docs/testing.md\'s vitest example with vitest against the installed fixture', async () => {
    const example = blocks('docs/testing.md').find((b) => b.lang === 'ts' && b.code.includes("from 'vitest'"))!;
    writeFileSync(join(project, 'bot.test.ts'), example.code);
    writeFileSync(join(project, 'vitest.config.mjs'), "export default { test: { include: ['bot.test.ts'], testTimeout: 30000 } };\n");
    const r = await run(process.execPath, [resolve('node_modules/vitest/vitest.mjs'), 'run', '--reporter=verbose'], project);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('places a bid below the market and sees it open');
    expect(r.stdout).toContain('2 passed');
  });

  it('type-checks a TypeScript user of the package and the vitest example against the shipped declarations', async () => {
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
      include: ['bot.ts', 'bot.test.ts'],
    }));
    writeFileSync(join(project, 'bot.ts'), `
      import { EmbeddedExchange, type GateOrder, type SimulatorConfig, startSimulator } from 'ringmatch';
      import { type ExchangeFixture, startExchange } from 'ringmatch/testing';
      const config: SimulatorConfig = { currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 4 }] };
      const ex = EmbeddedExchange.create(config);
      const order: GateOrder = ex.createOrder(1, { currency_pair: 'BTC_USDT', side: 'buy', amount: '0.01', price: '60000' });
      export const left: string = order.left;
      export async function fixture(): Promise<ExchangeFixture> { return startExchange(); }
      export const start: typeof startSimulator = startSimulator;
      // @ts-expect-error: the declarations are precise, a wrong field type is an error
      export const bad: SimulatorConfig = { currency_pairs: 'BTC_USDT' };
    `);
    expect(existsSync(resolve('node_modules/typescript/bin/tsc'))).toBe(true);
    const r = await run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], project);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
