/**
 * `npm run bench:sweep [-- --json] [-- --quick] [-- --workers=1,2,4] [-- --rounds=N]`: sweep throughput on a
 * local piscina pool beside sweep-worker processes on a JetStream work queue (docs/scale-out.md, "Sweeps
 * across machines").
 *
 * The sweep: 8 replays of the example strategy over `seed=1,…,8` on synthetic Tardis files (100,000 messages,
 * about 195,000 rows per run; `--quick` 20,000). Every row runs the sweep as a user does, in child processes
 * of the built command line (dist/src/cli.js; npm's prebench script builds it):
 * - local, N threads: `replay … --sweep seed=1,…,8 --workers N --json`; its wall time includes the pool's start;
 * - queue, N workers: a nats-server (`-js`, loopback, temporary store, started here), N `sweep-worker`
 *   processes (concurrency 1 each) started and pulling before the driver `replay … --sweep … --queue URL
 *   --json` starts; its wall time runs from the first publish to the last result.
 * A row's events/s is the sweep's own figure: events of all runs / wall time. Every row's table must equal
 * the first local row's (checked: the runs are deterministic wherever they ran). With `--rounds=N` the rows
 * run N times, interleaved, and each figure is the median.
 *
 * This orchestrator only starts processes and reads their JSON; it runs under tsx because it starts
 * nats-server with the tests' helper (test/support/nats-server.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SweepResult } from '../../src/backtest/sweep.js';
import { startNatsServer } from '../../test/support/nats-server.js';
import { median } from '../core/measure.js';
import { BENCH_USAGE, exitWithUsage } from '../help.js';
import { machineInfo, machineLines } from '../machine.js';
import { writeSynthetic } from './synthetic-files.js';

exitWithUsage(BENCH_USAGE.sweep);

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const JSON_OUT = argv.includes('--json');
const QUICK = argv.includes('--quick');
const MESSAGES = QUICK ? 20_000 : 100_000;
const COUNTS = (flag('workers') ?? '1,2,4').split(',').map(Number);
const ROUNDS = Number(flag('rounds') ?? '1');
if (COUNTS.some((n) => !Number.isInteger(n) || n < 1 || n > 64) || !Number.isInteger(ROUNDS) || ROUNDS < 1) {
  process.stderr.write(`bench:sweep: --workers takes counts such as 1,2,4 and --rounds a positive integer\n${BENCH_USAGE.sweep}`);
  process.exit(1);
}
const SWEEP = `seed=${[1, 2, 3, 4, 5, 6, 7, 8].join(',')}`;
const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/dist[/\\]$/, '');
const log = (s: string): void => { process.stderr.write(`${s}\n`); };
const fmt = (n: number): string => n.toLocaleString('en-US');

/** The command line, built when it is (the figures are of the JavaScript users run), else from sources. */
function cliArgs(): string[] {
  const built = path.join(ROOT, 'dist/src/cli.js');
  return existsSync(built) ? [built] : ['--import', 'tsx', path.join(ROOT, 'src/cli.ts')];
}

interface Ran { code: number | null; stdout: string; stderr: string }

function run(args: readonly string[], onStdout?: (s: string) => void): { child: ChildProcess; done: Promise<Ran> } {
  const child = spawn(process.execPath, [...cliArgs(), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); onStdout?.(stdout); });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  return { child, done: new Promise((resolve) => { child.on('close', (code) => resolve({ code, stdout, stderr })); }) };
}

async function sweep(args: readonly string[]): Promise<SweepResult> {
  const r = await run(['replay', ...args, '--sweep', SWEEP, '--json']).done;
  if (r.code !== 0) throw new Error(`replay ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as SweepResult;
}

/** Starts `n` sweep-workers on `url` and resolves once every one is pulling. */
async function startWorkers(url: string, n: number): Promise<ChildProcess[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => new Promise<ChildProcess>((resolve, reject) => {
    const w = run(['sweep-worker', '--queue', url, '--name', `bench-${i + 1}`], (out) => { if (out.includes('pulling tasks')) resolve(w.child); });
    void w.done.then((r) => reject(new Error(`sweep-worker exited ${r.code}: ${r.stderr}`)));
  })));
}

async function stopWorkers(ws: readonly ChildProcess[]): Promise<void> {
  await Promise.all(ws.map((w) => new Promise<void>((resolve) => {
    if (w.exitCode !== null) { resolve(); return; }
    w.once('close', () => resolve());
    w.kill('SIGTERM');
  })));
}

interface Row {
  name: string; mode: 'local' | 'queue'; workers: number; runs: number; events: number; events_per_sec: number; wall_ms: number;
  /** events/s and wall time of each round. */
  rounds: number[]; walls: number[];
}

async function main(): Promise<void> {
  const machine = machineInfo();
  log(`ringmatch sweep benchmark (${QUICK ? 'quick' : 'full'}): 8 runs, ${fmt(MESSAGES)} messages each\n${machineLines(machine)}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ringmatch-sweep-bench-'));
  const nats = await startNatsServer();
  const rows = new Map<string, Row>();
  let reference: string | undefined;
  try {
    const files = await writeSynthetic(dir, MESSAGES, 'sweep');
    const config = path.join(dir, 'config.json');
    await writeFile(config, JSON.stringify({ market: { price_precision: 1, amount_precision: 3 },
      strategy: { module: 'src/backtest/strategies/touch-quoter.ts', options: { size: '0.5', requote_us: 20_000, max_position: '3' } } }));
    const data = ['--format', 'tardis', '--trades', files.trades, '--book', files.book, '--config', config];
    const record = (mode: 'local' | 'queue', n: number, r: SweepResult): void => {
      const table = JSON.stringify(r.table);
      reference ??= table;
      if (table !== reference) throw new Error(`${mode} sweep on ${n} workers: its table differs from the first local sweep's`);
      const name = `${mode === 'local' ? 'local piscina pool' : 'JetStream queue'}, ${n} ${mode === 'local' ? 'thread' : 'sweep-worker'}${n > 1 ? 's' : ''}`;
      const events = r.runs.reduce((a, x) => a + x.report.events, 0);
      const row = rows.get(name) ?? { name, mode, workers: n, runs: r.runs.length, events, events_per_sec: 0, wall_ms: 0, rounds: [], walls: [] };
      row.rounds.push(r.events_per_sec);
      row.events_per_sec = median(row.rounds);
      row.walls.push(r.wall_ms);
      row.wall_ms = median(row.walls);
      rows.set(name, row);
      log(`${name}: ${fmt(r.events_per_sec)} events/s (${fmt(events)} events, ${(r.wall_ms / 1000).toFixed(2)} s)`);
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const n of COUNTS) record('local', n, await sweep([...data, '--workers', String(n)]));
      for (const n of COUNTS) {
        const ws = await startWorkers(nats.url, n);
        try {
          record('queue', n, await sweep([...data, '--queue', nats.url]));
        } finally {
          await stopWorkers(ws);
        }
      }
    }
  } finally {
    await nats.stop();
    await rm(dir, { recursive: true, force: true });
  }
  const loadAfter = Number((os.loadavg()[0] ?? 0).toFixed(2));
  const out = [...rows.values()];
  if (JSON_OUT) {
    process.stdout.write(`${JSON.stringify({ machine, quick: QUICK, messages_per_run: MESSAGES, loadavg_1m_after: loadAfter, rows: out })}\n`);
    return;
  }
  const lines = ['', `load average (1 min): ${machine.loadavg_1m} before, ${loadAfter} after`, '',
    '| sweep of 8 runs | events/s | wall s | events |', '|---|---:|---:|---:|'];
  for (const r of out) lines.push(`| ${r.name} | ${fmt(r.events_per_sec)} | ${(r.wall_ms / 1000).toFixed(2)} | ${fmt(r.events)} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((e: unknown) => { console.error(e); process.exit(1); });
