// Every shell command README.md and docs/ show runs as a user would type it: the commands are read from the
// markdown here (test/support/markdown.ts: ```sh blocks and inline `npm …` spans), so they cannot drift, and a
// command that appears in the docs fails this test until it is run below or listed in NOT_RUN with the reason.
//
// How each kind runs, through npm as written (each in its own process group, at most two at a time):
// - `npm run replay -- …` on the shipped fixtures, to the end: exit 0, and the output the docs describe (one JSON
//   document with --json, else the summary; the HTML report, the sweep's files and table; the fixtures' row and
//   command counts docs/replay.md states);
// - `npm start …` (the demo, a config file, a replayed market): started, an HTTP route probed, stopped with
//   SIGINT as Ctrl-C would; each listens where PORT says (0: a free port), never on 8080 the docs name;
// - `… --help`: usage on stdout, exit 0;
// - `npm run bench:…` and `npm run soak:…`: full runs take minutes and are measured on purpose (README's tables),
//   so each runs with `--help` (exit 0, and every flag the docs pass it is in its usage), and `--quick --json` where that
//   is short: bench:ring and bench:journal (about 3 s each). Not --quick, measured on two busy cores: bench:core
//   15 s, bench:replay 14 s, bench:ws 32 s, bench:http 41 s, bench:engine 42 s, beyond this test's minute.
// Substitutions, all of them here: placeholders (FILE, FILE.json) become the fixtures or a config of docs/http.md,
// optional `[…]` parts are left out, /tmp/ becomes a temporary directory, `--port 8080` becomes `--port 0`.
// Commands that come to the same argv run once. A prose mention that is the start of a fuller documented command
// (`npm run replay`) stands for that command.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signedFetch } from '../api/http-helpers.js';
import { blocks, docFiles, shellCommands } from '../support/markdown.js';

/** Documented commands this test does not run, with the reason. */
const NOT_RUN: Readonly<Record<string, string>> = {
  'npm test': 'runs every test, this one included (.ci/run runs it)',
  'npm run typecheck': '.ci/run runs it before npm test; about 10 s of the two cores this test shares',
  'npm run lint': '.ci/run runs it before npm test; most of a minute on two cores',
  'npm run build': 'test/package/pack.test.ts runs it as npm pack\'s prepare; test/scripts/ensure-build.test.ts tests the transpiling',
  'npm pack': 'test/package/pack.test.ts packs (its prepare builds) and installs the tarball',
  'npm install --save-dev ./ringmatch-0.1.0.tgz': 'needs the registry for the dependencies; test/package/pack.test.ts installs the tarball offline',
  'npx ringmatch start --port 0': 'test/package/pack.test.ts runs the installed bin\'s start and probes HTTP',
  'npx ringmatch replay --help': 'test/package/pack.test.ts runs it from the installed package',
  'npx ringmatch bench --help': 'test/package/pack.test.ts runs it from the installed package',
  'npx ringmatch sweep-worker --help': 'test/package/pack.test.ts runs it from the installed package',
  'npm run sweep-worker -- --queue nats://HOST:PORT': 'needs a NATS server and a sweep to serve; test/backtest/sweep-queue.it.test.ts runs '
    + 'sweep-workers and the replay --queue driver as processes against a real nats-server',
  'npm run schemas:gen': 'rewrites src/protocol/generated/, which other tests import while it runs; npm run schemas:check, '
    + 'run here, generates the same into a temporary directory and compares',
};
/** Benchmarks whose `--quick --json` run is short enough to run here (see the header). */
const QUICK = new Set(['bench:ring', 'bench:journal']);
const FIXTURES = {
  journal: 'test/backtest/fixtures/demo.journal',
  trades: 'test/backtest/fixtures/tardis-trades.csv',
  book: 'test/backtest/fixtures/tardis-book.csv',
};

type Kind = 'bench' | 'help' | 'serve' | 'replay' | 'schemas-check';
function kindOf(command: string): Kind | undefined {
  if (/^npm run (bench|soak):[\w-]+( |$)/.test(command)) return 'bench';
  if (/^(npm start|npm run replay|npm run sweep-worker)( |$)/.test(command) && /(^| )(--help|-h)( |$)/.test(command)) return 'help';
  if (/^npm start( -- |$)/.test(command) && (!command.includes('--replay') || command.includes(' --format '))) return 'serve';
  if (/^npm run replay -- (.* )?--format /.test(command)) return 'replay';
  return command === 'npm run schemas:check' ? 'schemas-check' : undefined;
}

const documented = new Map<string, string[]>();
for (const file of docFiles()) for (const c of shellCommands(file)) documented.set(c, [...(documented.get(c) ?? []), file]);
const run = [...documented.keys()].filter((c) => kindOf(c) !== undefined);
const coveredBy = (c: string): string | undefined => run.find((r) => r.startsWith(`${c} `));
/** Benchmarks and soaks ("bench:core", "soak:crash"): long runs, each run here with --help (see the header). */
const benches = [...new Set(run.filter((c) => kindOf(c) === 'bench').map((c) => /^npm run ((bench|soak):[\w-]+)/.exec(c)![1]!))];

const dir = mkdtempSync(join(tmpdir(), 'ringmatch-doc-commands-'));
const replayMd = readFileSync('docs/replay.md', 'utf8');
const count = (re: RegExp): number => Number(re.exec(replayMd)![1]!.replaceAll(',', ''));
/** What docs/replay.md says the fixtures hold. */
const TARDIS_ROWS = count(/\(synthetic, ([\d,]+) rows\)/);
const JOURNAL_COMMANDS = count(/run of ([\d,]+) seeded random commands/);
/** The demo extension of docs/http.md, for `--config FILE.json`. */
const extendsConfig = blocks('docs/http.md').filter((b) => b.lang === 'json').map((b) => JSON.parse(b.code) as Record<string, unknown>)
  .find((c) => c.extends === 'demo')!;
const configFile = join(dir, 'config.json');
writeFileSync(configFile, JSON.stringify(extendsConfig));

/** The argv a documented command runs with (the substitutions of the header). */
function argvOf(command: string): string[] {
  const c = command.replace(/ \[[^\]]*\]/g, '').replaceAll('/tmp/', `${dir}/`)
    .replace(/--journal FILE\b/, `--journal ${FIXTURES.journal}`)
    .replace(/--trades FILE\b/, `--trades ${FIXTURES.trades}`).replace(/--book FILE\b/, `--book ${FIXTURES.book}`)
    .replace(/--config FILE\.json\b/, `--config ${configFile}`)
    .replace(/--port 8080\b/, '--port 0');
  if (/\b[A-Z]{2,}(\.json)?\b|["'`$]/.test(c)) throw new Error(`no substitution for a placeholder or quoting in: ${c}`);
  return c.split(' ');
}

const ENV = { ...process.env, PORT: '0', HOST: '127.0.0.1' };
const live = new Set<ChildProcess>();
afterAll(() => {
  for (const p of live) try { process.kill(-p.pid!, 'SIGKILL'); } catch { /* already gone */ }
  rmSync(dir, { recursive: true, force: true });
});

interface Ran { code: number | null; stdout: string; stderr: string }
/** Runs argv in its own process group; on timeout kills the group and fails. */
function start(argv: readonly string[]): { child: ChildProcess; out: Ran; done: Promise<Ran> } {
  const child = spawn(argv[0]!, argv.slice(1), { env: ENV, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  const out: Ran = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (b: Buffer) => { out.stdout += b.toString(); });
  child.stderr.on('data', (b: Buffer) => { out.stderr += b.toString(); });
  const done = new Promise<Ran>((res) => child.on('close', (code) => { live.delete(child); out.code = code; res(out); }));
  return { child, out, done };
}
async function runToEnd(argv: readonly string[], timeoutMs = 60_000): Promise<Ran> {
  const { child, done } = start(argv);
  const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, timeoutMs);
  const r = await done;
  clearTimeout(timer);
  return r;
}

// At most two commands at a time: two cores.
let busy = 0;
const waiting: (() => void)[] = [];
async function slot<T>(f: () => Promise<T>): Promise<T> {
  while (busy >= 2) await new Promise<void>((r) => waiting.push(r));
  busy++;
  try { return await f(); } finally { busy--; waiting.shift()?.(); }
}
const TIMEOUT = 180_000;

/** The documented commands of `kind`, those that run the same argv once: each entry names them joined by " | ". */
function byArgv(kind: Kind): string[] {
  const m = new Map<string, string[]>();
  for (const c of run.filter((x) => kindOf(x) === kind)) {
    const k = argvOf(c).join(' ');
    m.set(k, [...(m.get(k) ?? []), c]);
  }
  return [...m.values()].map((cs) => cs.join(' | '));
}
const first = (names: string): string => names.split(' | ')[0]!;

describe('documented commands', () => {
  it('are each run here, the start of one run here, or listed in NOT_RUN with the reason', () => {
    const unaccounted = [...documented.keys()].filter((c) => kindOf(c) === undefined && coveredBy(c) === undefined && NOT_RUN[c] === undefined);
    expect(unaccounted.map((c) => `${c} (${documented.get(c)!.join(', ')})`)).toEqual([]);
    expect(Object.keys(NOT_RUN).filter((c) => !documented.has(c)), 'NOT_RUN lists a command the docs no longer show').toEqual([]);
    expect(run.length).toBeGreaterThan(10);
  });

  it.concurrent.for(byArgv('replay'))('%s', { timeout: TIMEOUT }, (names, { expect }) => slot(async () => {
    const command = first(names);
    const argv = argvOf(command);
    const flag = (f: string): string | undefined => { const i = argv.indexOf(f); return i < 0 ? undefined : argv[i + 1]; };
    const r = await runToEnd(argv);
    expect(r.code, r.stderr).toBe(0);
    const format = flag('--format')!;
    const sweep = flag('--sweep');
    let events: number;
    if (sweep !== undefined) {
      const values = sweep.split('=')[1]!.split(',');
      expect(r.stdout).toMatch(/^\| value \| state hash \|/m);
      for (const v of values) expect(r.stdout).toMatch(new RegExp(`^\\| ${v} \\| [0-9a-f]{16} \\| (\\d+) \\|`, 'm'));
      for (let k = 0; k < values.length; k++) {
        if (flag('--out') !== undefined) expect(existsSync(join(flag('--out')!, `run-${k}.json`))).toBe(true);
        if (flag('--html') !== undefined) expect(readFileSync(join(flag('--html')!, `run-${k}.html`), 'utf8')).toContain('<svg');
      }
      events = Number(new RegExp(`^\\| ${values[0]} \\| [0-9a-f]{16} \\| (\\d+) \\|`, 'm').exec(r.stdout)![1]);
    } else if (argv.includes('--json')) {
      const doc = JSON.parse(r.stdout) as { format: string; events: number; state_hash: string };
      expect(doc.format.startsWith(format)).toBe(true);
      expect(doc.state_hash).toMatch(/^[0-9a-f]{16}$/);
      events = doc.events;
    } else {
      const m = new RegExp(`^replay \\(${format}[^)]*\\): ([\\d,]+) events`, 'm').exec(r.stdout);
      expect(m, r.stdout).not.toBeNull();
      expect(r.stdout).toMatch(/^state hash: [0-9a-f]{16}$/m);
      events = Number(m![1]!.replaceAll(',', ''));
    }
    if (sweep === undefined && flag('--html') !== undefined) expect(readFileSync(flag('--html')!, 'utf8')).toContain('<svg');
    if (flag('--journal') === FIXTURES.journal) expect(events).toBe(JOURNAL_COMMANDS);
    else if (flag('--trades') === FIXTURES.trades) expect(events).toBe(TARDIS_ROWS);
    else expect(events).toBeGreaterThan(0);
  }));

  it.concurrent.for(byArgv('serve'))('%s', { timeout: TIMEOUT }, (names, { expect }) => slot(async () => {
    const command = first(names);
    const { child, out, done } = start(argvOf(command));
    const banner = /^ringmatch simulator: http:\/\/127\.0\.0\.1:(\d+)\/api\/v4/m;
    const deadline = Date.now() + 60_000;
    while (!banner.test(out.stdout) && out.code === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const m = banner.exec(out.stdout);
    expect(m, `${out.stdout}\n${out.stderr}`).not.toBeNull();
    const port = Number(m![1]);
    expect(port).not.toBe(8080);     // PORT=0 chose a free port: for `npm start` and for `npm start -- --replay`
    const get = async (path: string): Promise<{ status: number; body: unknown }> => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v4${path}`);
      return { status: res.status, body: await res.json() };
    };
    if (command.includes('--replay')) {
      const book = await get('/spot/order_book?currency_pair=BTC_USDT');
      expect(book.status).toBe(200);
      const { asks, bids } = book.body as { asks: unknown; bids: unknown };
      expect(Array.isArray(asks) && Array.isArray(bids)).toBe(true);
    } else {
      const pairs = (await get('/spot/currency_pairs')).body as { id: string }[];
      expect(pairs.map((p) => p.id)).toEqual(expect.arrayContaining(['BTC_USDT', 'ETH_USDT', 'ETH_BTC']));
      // The demo opens traded and prints its keys; a config file's own users trade with their keys.
      const [ticker] = (await get('/spot/tickers?currency_pair=BTC_USDT')).body as { last: string }[];
      expect(Number(ticker!.last)).toBeGreaterThan(0);
      expect(out.stdout).toContain('demo-alice-key');
      if (command.includes('--config')) {
        expect(pairs.map((p) => p.id)).toContain('SOL_USDT');
        const r = await signedFetch(port, { path: '/api/v4/spot/accounts', key: 'dave-key', secret: 'dave-secret' });
        expect(r.status).toBe(200);
      }
    }
    process.kill(-child.pid!, 'SIGINT');
    const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, 20_000);
    await done;
    clearTimeout(timer);
    expect(out.stdout).toContain('ringmatch: SIGINT, closing');
  }));

  it.concurrent.for(byArgv('help'))('%s', { timeout: TIMEOUT }, (names, { expect }) => slot(async () => {
    const command = first(names);
    const r = await runToEnd(argvOf(command));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage: /);
  }));

  it.concurrent.for(benches)('npm run %s: --help, and the flags the docs pass it', { timeout: TIMEOUT }, (name, { expect }) => slot(async () => {
    const r = await runToEnd(['npm', 'run', name, '--', '--help']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith(`usage: npm run ${name}`)).toBe(true);
    for (const c of run.filter((x) => x.startsWith(`npm run ${name} `))) {
      for (const f of c.split(' ').filter((w) => w.startsWith('--') && w !== '--')) expect(r.stdout, c).toContain(f.split('=')[0]);
    }
    if (QUICK.has(name)) {
      const q = await runToEnd(['npm', 'run', name, '--', '--quick', '--json']);
      expect(q.code, q.stderr).toBe(0);
      expect(() => JSON.parse(q.stdout) as unknown).not.toThrow();
    }
  }));

  it.concurrent.for(byArgv('schemas-check'))('%s', { timeout: TIMEOUT }, (names, { expect }) => slot(async () => {
    const command = first(names);
    const r = await runToEnd(argvOf(command));
    // README: it needs Debian's flatc; without it the script says so and exits 2.
    if (r.code === 2) expect(r.stderr).toContain('flatc not found');
    else expect(r.code, r.stderr).toBe(0);
    expect(readdirSync('src/protocol/generated').length).toBeGreaterThan(0);
  }));
});
