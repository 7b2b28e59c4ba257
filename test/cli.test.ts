// The command line as a user meets it (each case a real `node --import tsx src/cli.ts …` process): `--help` on
// every command prints its usage and exits 0; the user's mistakes (missing files, bad JSON, a journal whose
// directory is missing) print one line naming what, which path and what to do, never a stack trace.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

interface Ran { code: number | null; stdout: string; stderr: string }

/** Runs the CLI with `args`; with `until`, stops it (SIGTERM) once stdout contains that text. Bounded by 30 s. */
const cli = (args: readonly string[], until?: string): Promise<Ran> => run('src/cli.ts', args, until);

/** Runs a TypeScript entry point of the repository (as its npm script does, without npm). */
function run(script: string, args: readonly string[], until?: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${script} ${args.join(' ')} still running: ${stdout}${stderr}`)); }, 30_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (until !== undefined && stdout.includes(until)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'ringmatch-cli-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });
const PAIRS = [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 6 }];

/** One line on stderr, exit 1, no stack frames. */
function oneLine(r: Ran, ...parts: string[]): void {
  expect(r.code).toBe(1);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  for (const p of parts) expect(r.stderr).toContain(p);
}

describe('--help', () => {
  it.each([
    [['start', '--help'], ['usage: npm start --', '--config FILE.json', '--port PORT', '8080', '"extends": "demo"', 'docs/http.md']],
    [['start', '-h'], ['usage: npm start --']],
    [['replay', '--help'], ['usage: npm run replay --', '--format journal --journal FILE', '--seed N', 'default 1', '--workers N', 'docs/replay.md']],
    [['start', '--replay', '--help'], ['usage: npm start -- --replay', '--speed X', '--sim-config FILE', 'default 1', 'docs/replay.md']],
    [['--help'], ['npm start -- --help', 'npm run replay -- --help']],
  ])('%j prints its usage and exits 0', async (args, parts) => {
    const r = await cli(args);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    for (const p of parts) expect(r.stdout).toContain(p);
  });
});

describe('--help of the benchmarks', () => {
  it.each([
    ['bench/core/main.ts', 'npm run bench:core --', '--only=name'],
    ['bench/engine/engine.bench.ts', 'npm run bench:engine --', '--shards'],
    ['bench/engine/ring.bench.ts', 'npm run bench:ring --', '--quick'],
    ['bench/engine/journal.bench.ts', 'npm run bench:journal --', '--dir PATH'],
    ['bench/api/http.bench.ts', 'npm run bench:http --', '--connections=N'],
    ['bench/api/ws.bench.ts', 'npm run bench:ws --', '--subscribers=N'],
    ['bench/api/handler-drive.ts', 'npm run bench:handler --', '--requests=N'],
    ['bench/backtest/replay.bench.ts', 'npm run bench:replay --', 'docs/replay.md'],
    ['bench/backtest/sweep.bench.ts', 'npm run bench:sweep --', '--workers=1,2,4'],
    ['bench/api/replication.bench.ts', 'npm run bench:replication --', '--rounds=N'],
  ])('%s --help prints its usage and exits 0 before any work', async (script, usage, flag) => {
    const r = await run(script, ['--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.startsWith(`usage: ${usage}`)).toBe(true);
    expect(r.stdout).toContain(flag);
    expect(r.stdout).toContain('README.md');
  });
});

describe('--help of the soaks', () => {
  it.each([
    ['soak/engine.ts', 'npm run soak:engine --', '--shards LIST'],
    ['soak/server.ts', 'npm run soak:server --', '--runner R'],
    ['soak/failover.ts', 'npm run soak:failover --', '--cycles N'],
  ])('%s --help prints its usage and exits 0 before any work', async (script, usage, flag) => {
    const r = await run(script, ['--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.startsWith(`usage: ${usage}`)).toBe(true);
    expect(r.stdout).toContain(flag);
  });

  it('a bad flag or value is one line naming it, exit 1', async () => {
    oneLine(await run('soak/engine.ts', ['--shards', '1,x']), 'soak:engine: --shards: 1,x is not a list of positive integers');
    oneLine(await run('soak/server.ts', ['--runner', 'fast']), 'soak:server: --runner: must be one of threaded, inline');
    oneLine(await run('soak/server.ts', ['--minuets', '5']), 'soak:server: unknown flag --minuets');
  });
});

describe('user errors', () => {
  it('a replay CSV that does not exist', async () => {
    oneLine(await cli(['replay', '--format', 'tardis', '--trades', join(dir, 'no-trades.csv'), '--book', join(dir, 'no-book.csv')]),
      `ringmatch: cannot read --trades ${join(dir, 'no-trades.csv')} (no such file or directory); check the path`);
  });

  it('a config file that is not JSON, and one that does not exist', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"currency_pairs": [');
    oneLine(await cli(['start', '--config', bad]), `ringmatch: config: ${bad} is not valid JSON`);
    oneLine(await cli(['start', '--config', join(dir, 'none.json')]), `ringmatch: config: cannot read ${join(dir, 'none.json')} (no such file)`);
  });

  it('a journal whose directory does not exist: the directory is created', async () => {
    const journal = join(dir, 'state', 'deeper', 'journal.log');
    const file = join(dir, 'journal.json');
    writeFileSync(file, JSON.stringify({ currency_pairs: PAIRS, engine: { runner: 'inline', journal }, market_maker: false }));
    const r = await cli(['start', '--config', file, '--port', '0'], 'API keys');
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('ringmatch simulator: http://127.0.0.1:');
    expect(existsSync(journal)).toBe(true);
    const dirAsJournal = join(dir, 'dir-journal.json');
    writeFileSync(dirAsJournal, JSON.stringify({ currency_pairs: PAIRS, engine: { runner: 'inline', journal: dir }, market_maker: false }));
    oneLine(await cli(['start', '--config', dirAsJournal, '--port', '0']), `ringmatch: config: engine.journal: ${dir} is not a file`);
  });
});
