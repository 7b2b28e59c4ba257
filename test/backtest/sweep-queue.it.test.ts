// Sweeps across machines, as a user runs them: a real nats-server (JetStream, loopback, one per test),
// `sweep-worker` processes and the `replay … --sweep … --queue` driver as processes of the command line. The
// results and the table must equal a local piscina sweep of the same tasks, in the same order, whatever
// happens to the workers: two of them share the tasks; one killed with SIGKILL in the middle of a task (its
// task is handed to the other after the ack wait, and counted once); one stopped with SIGTERM (its task is
// given back at once); one started after the tasks were published; a data file missing on the worker's
// machine is an error naming the path, not a hang.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseReplayArgs, replayArgv } from '../../src/backtest/replay-args.js';
import { configOf } from '../../src/backtest/replay-command.js';
import { deterministicJson } from '../../src/backtest/report.js';
import { runSweep, sweepText, type SweepResult } from '../../src/backtest/sweep.js';
import { connectQueue, QUEUE_STREAM, resultsBucket, taskSubject } from '../../src/backtest/sweep-queue.js';
import { parseSweepWorkerArgs } from '../../src/backtest/sweep-worker.js';
import { freePort, type NatsServer, startNatsServer } from '../support/nats-server.js';

const FIX = ['--format', 'tardis', '--trades', 'test/backtest/fixtures/tardis-trades.csv', '--book', 'test/backtest/fixtures/tardis-book.csv'];
/** Each run blocks its thread this long before replaying, so a test can act on a worker in the middle of a task. */
const SLEEP_MS = 1000;
const SWEEP = ['--sweep', 'seed=1,2,3'];

interface Proc {
  readonly child: ChildProcess;
  out(): string;
  err(): string;
  /** Resolves when stdout or stderr holds `text` (rejects after 40 s). */
  waitFor(text: string): Promise<void>;
  readonly exited: Promise<number | null>;
}

const procs: Proc[] = [];

/** `node --import tsx src/cli.ts ARGS` with stdout and stderr collected. */
function cli(args: readonly string[]): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  const check = (): void => {
    for (const w of [...waiters]) if (out.includes(w.text) || err.includes(w.text)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(); }
  };
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); check(); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); check(); });
  const exited = new Promise<number | null>((resolve) => { child.on('close', (code) => resolve(code)); });
  const p: Proc = {
    child, exited, out: () => out, err: () => err,
    waitFor: (text) => new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no "${text}" within 40 s; stdout: ${out}\nstderr: ${err}`)), 40_000);
      waiters.push({ text, resolve: () => { clearTimeout(t); resolve(); } });
      check();
    }),
  };
  procs.push(p);
  return p;
}

let nats: NatsServer;
let dir: string;
let config: string;
let local: SweepResult;

/** A sweep-worker on this test's server, ready (pulling) when this resolves. */
async function worker(name: string, ...extra: string[]): Promise<Proc> {
  const w = cli(['sweep-worker', '--queue', nats.url, '--name', name, ...extra]);
  await w.waitFor(`sweep-worker ${name}: pulling tasks`);
  return w;
}

const driverArgs = (...extra: string[]): string[] => ['replay', ...FIX, '--config', config, ...SWEEP, '--queue', nats.url, ...extra];

/** The runs and table of a queue sweep equal the local piscina sweep's, in the same order. */
function expectSameAsLocal(r: SweepResult): void {
  expect(r.table).toEqual(local.table);
  expect(r.runs.map((x) => x.value)).toEqual(local.runs.map((x) => x.value));
  expect(r.runs.map((x) => deterministicJson(x.report))).toEqual(local.runs.map((x) => deterministicJson(x.report)));
  // Each task is counted once: one kept result per task, in task order.
  expect(r.queue!.tasks.map((t) => t.task)).toEqual([0, 1, 2]);
  expect(r.runs.reduce((a, x) => a + x.report.events, 0)).toBe(local.runs.reduce((a, x) => a + x.report.events, 0));
}

/** The tasks of sweep `id` in the work queue, and whether its results bucket exists. */
async function leftOf(id: string): Promise<{ tasks: number; bucket: boolean }> {
  const q = await connectQueue([nats.url], 'test');
  try {
    const info = await q.jsm.streams.info(QUEUE_STREAM, { subjects_filter: taskSubject(id) });
    const bucket = await q.jsm.streams.info(`OBJ_${resultsBucket(id)}`).then(() => true, (e: unknown) => {
      if (/stream not found/.test(String(e))) return false;
      throw e;
    });
    return { tasks: info.state.subjects?.[taskSubject(id)] ?? 0, bucket };
  } finally {
    await q.close();
  }
}

/** After a sweep: no task of it left in the work queue and its results bucket removed. */
async function expectCleanedUp(id: string): Promise<void> {
  expect(await leftOf(id)).toEqual({ tasks: 0, bucket: false });
}

/** A replay config whose runs first sleep `sleepMs`, written in the test directory. */
async function sleepyConfig(sleepMs: number): Promise<string> {
  const file = join(dir, `config-${sleepMs}.json`);
  await writeFile(file, JSON.stringify({
    market: { id: 'BTC_USDT', fee: '0.2', maker_fee_rate: '0.1' },
    latency: { entry: { type: 'normal', mean_us: 800, std_us: 200, min_us: 100 } },
    strategy: { module: 'test/backtest/fixtures/sleepy-strategy.ts', options: { size: '0.5', requote_us: 20000, max_position: '3', sleep_ms: sleepMs } },
  }));
  return file;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ringmatch-sweep-queue-'));
  config = await sleepyConfig(SLEEP_MS);
  const args = parseReplayArgs([...FIX, '--config', config, ...SWEEP]);
  local = await runSweep(args, configOf(args), 2);
  expect(local.runs).toHaveLength(3);
}, 60_000);

afterAll(async () => { await rm(dir, { recursive: true, force: true }); });
beforeEach(async () => { nats = await startNatsServer(); });
afterEach(async () => {
  for (const p of procs.splice(0)) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await nats.stop();
});

describe('replay --sweep … --queue and sweep-worker', () => {
  it('two workers share the tasks; results and table equal the local piscina sweep', async () => {
    await Promise.all([worker('wa'), worker('wb')]);
    const d = cli(driverArgs('--json'));
    expect(await d.exited).toBe(0);
    const r = JSON.parse(d.out()) as SweepResult;
    expectSameAsLocal(r);
    expect(new Set(r.queue!.tasks.map((t) => t.worker))).toEqual(new Set(['wa', 'wb']));
    expect(r.workers).toBe(2);
    expect(r.queue!.redelivered).toBe(0);
    expect(d.err()).toContain(`sweep ${r.queue!.id}: published 3 tasks`);
    expect(d.err()).toContain(`sweep ${r.queue!.id}: 3/3 done`);
    await expectCleanedUp(r.queue!.id);
  }, 90_000);

  it('a worker killed with SIGKILL mid-task: the task goes to another after the ack wait, counted once', async () => {
    const [a] = await Promise.all([worker('wa', '--ack-wait', '2'), worker('wb', '--ack-wait', '2')]);
    const d = cli(driverArgs('--json'));
    await a.waitFor(': started');
    a.child.kill('SIGKILL');
    const killed = Number(/run-([0-9]) \(seed=[0-9]\): started/.exec(a.out())![1]);
    expect(await d.exited).toBe(0);
    const r = JSON.parse(d.out()) as SweepResult;
    expectSameAsLocal(r);
    expect(r.queue!.tasks[killed]).toMatchObject({ worker: 'wb', delivery: 2 });
    expect(r.queue!.redelivered).toBe(1);
    expect(r.queue!.tasks.every((t) => t.worker === 'wb')).toBe(true);
    await expectCleanedUp(r.queue!.id);
  }, 90_000);

  it('a task running past the ack wait stays with its worker (in-progress acks): an idle worker never gets it', async () => {
    const long = await sleepyConfig(3000);
    const sweep = ['--sweep', 'seed=1,2'];
    const reference = parseReplayArgs([...FIX, '--config', long, ...sweep]);
    const localLong = runSweep(reference, configOf(reference), 2);
    const ws = await Promise.all(['wa', 'wb', 'wc'].map((n) => worker(n, '--ack-wait', '2')));
    const d = cli(['replay', ...FIX, '--config', long, ...sweep, '--queue', nats.url, '--json']);
    expect(await d.exited).toBe(0);
    const r = JSON.parse(d.out()) as SweepResult;
    const l = await localLong;
    expect(r.table).toEqual(l.table);
    expect(r.runs.map((x) => deterministicJson(x.report))).toEqual(l.runs.map((x) => deterministicJson(x.report)));
    expect(r.queue!.tasks.map((t) => t.delivery)).toEqual([1, 1]);
    expect(r.queue!.tasks.every((t) => t.wall_ms > 2000)).toBe(true);
    // Two tasks started, each once; the third worker stayed idle though both ran past the 2 s ack wait.
    const started = ws.flatMap((w) => w.out().split('\n').filter((x) => x.includes(': started')));
    expect(started).toHaveLength(2);
    expect(started.join('\n')).not.toContain('delivery');
  }, 90_000);

  it('a worker stopped with SIGTERM gives its task back at once and exits 0', async () => {
    const [a] = await Promise.all([worker('wa'), worker('wb')]);
    const d = cli(driverArgs('--json'));
    await a.waitFor(': started');
    const t0 = Date.now();
    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(a.out()).toContain('SIGTERM: gave 1 running task back to the queue');
    expect(await d.exited).toBe(0);
    // Given back (nak), not left to the queue's 30 s ack wait.
    expect(Date.now() - t0).toBeLessThan(25_000);
    const r = JSON.parse(d.out()) as SweepResult;
    expectSameAsLocal(r);
    expect(r.queue!.redelivered).toBe(1);
  }, 90_000);

  it('a worker started after the tasks were published runs them; --idle-exit stops it; the text table is the local one', async () => {
    const d = cli(driverArgs());
    await d.waitFor('published 3 tasks');
    const w = cli(['sweep-worker', '--queue', nats.url, '--name', 'late', '--idle-exit', '2']);
    expect(await d.exited).toBe(0);
    const table = (s: string): string[] => s.split('\n').filter((l) => l.startsWith('|'));
    expect(table(d.out())).toEqual(table(sweepText(local)));
    expect(d.out()).toMatch(/^sweep seed over 3 runs on 1 workers \(queue sweep [0-9T]+-[0-9a-f]{6}\)/);
    expect(await w.exited).toBe(0);
    expect(w.out()).toContain('no task for 2 s: exiting');
    expect(w.out()).toContain('exiting: 3 done, 0 failed, 0 given back');
  }, 90_000);

  it('a driver interrupted (SIGINT) or out of time removes its tasks and results and says so in one line', async () => {
    const interrupted = cli(driverArgs());
    const late = cli(driverArgs('--queue-timeout', '2'));
    await interrupted.waitFor('published 3 tasks');
    expect(await leftOf(/^sweep (\S+): published/m.exec(interrupted.err())![1]!)).toEqual({ tasks: 3, bucket: true });
    interrupted.child.kill('SIGINT');
    for (const [d, why] of [[interrupted, /: interrupted \(SIGINT\); its tasks were removed from the queue$/],
      [late, /: 3 of 3 results did not arrive within 2 s \(run-0 \(seed=1\), run-1 \(seed=2\), run-2 \(seed=3\)\); its tasks were removed/]] as const) {
      expect(await d.exited).toBe(1);
      const last = d.err().trim().split('\n').at(-1)!;
      expect(last).toMatch(/^ringmatch: sweep \S+: /);
      expect(last).toMatch(why);
      await expectCleanedUp(/^sweep (\S+): published/m.exec(d.err())![1]!);
    }
    // Nothing is left for a worker to run.
    const w = cli(['sweep-worker', '--queue', nats.url, '--name', 'after', '--idle-exit', '1']);
    expect(await w.exited).toBe(0);
    expect(w.out()).toContain('exiting: 0 done, 0 failed, 0 given back');
  }, 60_000);

  it('a data file missing on the worker\'s machine fails the sweep with one line naming the path and the worker', async () => {
    await worker('wa');
    const missing = join(dir, 'not-here', 'trades.csv');
    const d = cli(['replay', '--format', 'tardis', '--trades', missing, '--book', 'test/backtest/fixtures/tardis-book.csv', '--sweep', 'seed=1,2', '--queue', nats.url]);
    expect(await d.exited).toBe(1);
    const last = d.err().trim().split('\n').at(-1)!;
    expect(last).toMatch(/^ringmatch: sweep \S+: run-[01] \(seed=[12]\) failed on worker wa: cannot read --trades /);
    expect(last).toContain(`${missing} (no such file or directory)`);
    expect(d.err()).not.toMatch(/\n\s+at /);
  }, 60_000);
});

describe('flags', () => {
  it('the worker and the driver refuse bad flags with a reason', () => {
    const url = 'nats://127.0.0.1:4222';
    expect(parseSweepWorkerArgs(['--queue', url])).toMatchObject({ servers: [url], concurrency: 1 });
    expect(parseSweepWorkerArgs(['--queue', `${url},tls://10.0.0.2:4222`, '--concurrency', '4', '--idle-exit', '5', '--ack-wait', '10', '--name', 'box-1']))
      .toEqual({ servers: [url, 'tls://10.0.0.2:4222'], concurrency: 4, idleExitS: 5, ackWaitS: 10, name: 'box-1' });
    for (const [argv, why] of [
      [[], /--queue is required/], [['--queue', 'http://x:1'], /not a NATS server URL/], [['--queue', url, '--concurrency', '0'], /--concurrency/],
      [['--queue', url, '--idle-exit', 'soon'], /--idle-exit: "soon"/], [['--queue', url, '--ack-wait', '1'], /at least 2 seconds/],
      [['--queue', url, '--workers', '2'], /unknown argument --workers/], [['--queue'], /needs a value/],
    ] as const) expect(() => parseSweepWorkerArgs(argv), JSON.stringify(argv)).toThrow(why);
    for (const [argv, why] of [
      [[...FIX, '--queue', url], /needs --sweep/], [[...FIX, ...SWEEP, '--workers', '2', '--queue', url], /--workers sizes the local pool/],
      [[...FIX, ...SWEEP, '--queue', 'localhost:4222'], /not a NATS server URL/], [[...FIX, ...SWEEP, '--queue-timeout', '5'], /goes with --queue/],
      [[...FIX, ...SWEEP, '--queue', url, '--queue-timeout', '0'], /--queue-timeout: "0"/],
    ] as const) expect(() => parseReplayArgs(argv), JSON.stringify(argv)).toThrow(why);
    const a = parseReplayArgs([...FIX, '--strategy', 's.ts', '--seed', '7', '--skip-invalid', '--json', ...SWEEP, '--queue', url, '--queue-timeout', '60']);
    expect(a).toMatchObject({ queue: [url], queueTimeout: 60 });
    // The flags of one run read back into its arguments (less the sweep), so an error can name the flag of a path.
    const one = { ...a };
    for (const k of ['sweep', 'queue', 'queueTimeout'] as const) delete one[k];
    expect(parseReplayArgs(replayArgv(a))).toEqual(one);
  });

  it('on the command line: one line and exit 1, and --help exits 0', async () => {
    const closed = await freePort();
    const noQueue = cli(['sweep-worker']);
    const noSweep = cli(['replay', ...FIX, '--queue', 'nats://127.0.0.1:4222']);
    const unreachable = cli(['sweep-worker', '--queue', `nats://127.0.0.1:${closed}`]);
    const driverUnreachable = cli(['replay', ...FIX, ...SWEEP, '--queue', `nats://127.0.0.1:${closed}`]);
    const help = cli(['sweep-worker', '--help']);
    for (const [p, text] of [[noQueue, '--queue is required'], [noSweep, 'needs --sweep'], [unreachable, `cannot reach the queue at nats://127.0.0.1:${closed}`],
      [driverUnreachable, 'cannot reach the queue']] as const) {
      expect(await p.exited).toBe(1);
      expect(p.err().trim().split('\n')).toHaveLength(1);
      expect(p.err()).toMatch(new RegExp(`^ringmatch: .*${text.replace(/[.]/g, '\\.')}`));
    }
    expect(await help.exited).toBe(0);
    expect(help.out()).toContain('usage: npm run sweep-worker -- --queue nats://HOST:PORT');
    expect(help.out()).toContain('--idle-exit S');
  }, 60_000);
});
