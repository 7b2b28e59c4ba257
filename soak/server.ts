/**
 * `npm run soak:server`: the simulator under sustained load, checked for stops, conservation and memory.
 *
 * Processes (127.0.0.1, ephemeral port): the simulator (server-child.ts, --expose-gc; the demo's pairs and
 * market maker, four funded soak users, rate limits off, threaded runner unless `--runner inline`, a journal
 * in a temporary directory with `--journal`) and the load generator (load-child.ts: `--connections` raw
 * keep-alive connections, the seeded mix of workload.ts, signed at send time). Pinned to CPU 0 and 1 where
 * `taskset` and two cores exist (bench/children.ts).
 *
 * Phases: a closed loop of `--probe-seconds` measures the maximum rate; then an open loop at `--load` × that
 * rate for `--minutes`. Every `--sample-seconds` the server reports its memory after a forced full GC and its
 * order counts, and the generator its counts. At the end: GET /sim/health (the engine never stopped), the
 * exchange's invariants and conservation per currency from the ledger inside the server, error answers by
 * label, and the memory verdict (memory-verdict.ts: slopes per 1,000 orders once the finished-order window
 * is full). `--heap-snapshots DIR` writes a heap snapshot when the window is first full and one at the end.
 * Exit 1 when the engine stopped, an invariant or conservation fails, the generator fails, or heapUsed grows.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nextMessage, PIN, startChild, stopChild } from '../bench/children.js';
import { machineInfo, machineLines } from '../bench/machine.js';
import { SoakArgs } from './args.js';
import { memoryVerdict } from './memory-verdict.js';
import type { FromGenerator, FromServer, LoadCounts, MemorySample, PhaseResult, PhaseSpec, ServerCheck, ToGenerator,
  ToServer } from './protocol.js';
import { report, type SoakReport } from './server-report.js';

const USAGE = `usage: npm run soak:server -- [--runner inline|threaded] [--minutes N] [--load F] [--journal [--snapshot-every N]] [--json]
                               [--connections N] [--probe-seconds S] [--sample-seconds S] [--seed N]
                               [--flat-threshold B] [--heap-snapshots DIR]

The simulator under a mixed signed load (limit gtc/ioc/poc/fok and icebergs, market, amend and cancel by
text) from 12 connections: a closed loop for the maximum rate, then an open loop at a fraction of it.
  --runner R          the server's engine runner (default threaded)
  --minutes N         length of the open loop (default 30)
  --load F            open-loop rate as a fraction of the measured maximum (default 0.7)
  --journal           journal every command (default fsync policy and snapshots) into a temporary directory
  --snapshot-every N  with --journal: a snapshot every N commands (default: the server's, 1,000,000)
  --connections N     generator connections, one request in flight each (default 12)
  --probe-seconds S   length of the closed loop (default 20)
  --sample-seconds S  memory and counts sampled every S seconds (default 30)
  --seed N            the request mix's seed (default 1)
  --flat-threshold B  heapUsed growth per 1,000 orders still called flat, bytes (default 2048)
  --heap-snapshots D  write heap snapshots into D: when the finished-order window is full, and at the end
  --json              one JSON document on stdout with every sample (progress on stderr); default: tables
  --help, -h          this text
Exit status 1 when the engine stopped, conservation or an invariant failed, the generator failed, or heapUsed
grew beyond the threshold.
`;

const args = new SoakArgs(process.argv.slice(2), USAGE,
  ['runner', 'minutes', 'load', 'connections', 'probe-seconds', 'sample-seconds', 'seed', 'flat-threshold', 'heap-snapshots',
    'snapshot-every'],
  ['journal', 'json']);
const RUNNER = args.choice('runner', ['threaded', 'inline'] as const, 'threaded');
const MINUTES = args.number('minutes', 30, true);
const LOAD = args.number('load', 0.7, true);
const CONNECTIONS = args.number('connections', 12);
const PROBE_S = args.number('probe-seconds', 20, true);
const SAMPLE_S = args.number('sample-seconds', 30, true);
const SEED = args.number('seed', 1);
const THRESHOLD = args.number('flat-threshold', 2048, true);
const SNAPSHOTS = args.string('heap-snapshots', '');
const JOURNAL = args.has('journal');
const SNAPSHOT_EVERY = args.number('snapshot-every', 0);
const JSON_OUT = args.has('json');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const START = Date.now();
const log = (line: string): void => {
  process.stderr.write(`[${((Date.now() - START) / 1000).toFixed(1)}s] ${line}\n`);
};
const mb = (n: number): string => (n / 2 ** 20).toFixed(1);

async function ask<T extends FromServer['type']>(server: ChildProcess, m: ToServer, type: T, timeoutMs = 120_000):
  Promise<Extract<FromServer, { type: T }>> {
  const answer = nextMessage<FromServer>(server, `server (${m.type})`, timeoutMs, (x) => x.type === type);
  server.send(m);
  return answer as Promise<Extract<FromServer, { type: T }>>;
}

async function counts(gen: ChildProcess): Promise<LoadCounts> {
  const answer = nextMessage<FromGenerator>(gen, 'generator (counts)', 30_000, (x) => x.type === 'counts');
  gen.send({ type: 'counts' } satisfies ToGenerator);
  const m = await answer;
  return m.type === 'counts' ? m.counts : Promise.reject(new Error('no counts'));
}

/** Starts a generator phase; resolves with its result. */
function phase(gen: ChildProcess, spec: PhaseSpec): Promise<PhaseResult> {
  const done = nextMessage<FromGenerator>(gen, `${spec.mode} loop`, (spec.seconds + 120) * 1000, (x) => x.type === 'result' || x.type === 'failed');
  gen.send({ type: 'phase', spec } satisfies ToGenerator);
  return done.then((m) => (m.type === 'result' ? m.result : Promise.reject(new Error(`${spec.mode} loop: ${m.type === 'failed' ? m.message : m.type}`))));
}

async function health(port: number): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`http://127.0.0.1:${port}/sim/health`, { signal: AbortSignal.timeout(30_000) });
  return { status: r.status, body: await r.json() };
}

async function main(): Promise<number> {
  const machine = machineInfo();
  const dir = JOURNAL ? mkdtempSync(path.join(os.tmpdir(), 'ringmatch-soak-')) : undefined;
  const journal = dir === undefined ? undefined : path.join(dir, 'journal.log');
  const header = `ringmatch server soak: ${RUNNER} runner${journal === undefined ? '' : `, journal on (default fsync${SNAPSHOT_EVERY === 0 ? '' : `, snapshots every ${SNAPSHOT_EVERY} commands`})`}, `
    + `${CONNECTIONS} connections, probe ${PROBE_S} s, then ${MINUTES} min at ${LOAD} of the maximum; samples every ${SAMPLE_S} s`
    + `${PIN ? '; server on CPU 0, generator on CPU 1' : ''}\n${machineLines(machine)}`;
  log(header);
  const childArgs = journal === undefined ? [RUNNER] : [RUNNER, journal, ...(SNAPSHOT_EVERY === 0 ? [] : [String(SNAPSHOT_EVERY)])];
  const server = startChild(path.join(HERE, 'server-child.ts'), '0', childArgs, ['--expose-gc']);
  const gen = startChild(path.join(HERE, 'load-child.ts'), '1');
  let serverExit: string | undefined;
  server.once('exit', (code, signal) => { serverExit = `the server exited (${signal ?? code})`; });
  try {
    const [up] = await Promise.all([nextMessage<FromServer>(server, 'server', 60_000, (x) => x.type === 'listening'),
      nextMessage<FromGenerator>(gen, 'generator', 30_000)]);
    const port = (up as Extract<FromServer, { type: 'listening' }>).port;
    const samples: MemorySample[] = [];
    const snapshots: string[] = [];
    const t0 = Date.now();
    const sample = async (): Promise<MemorySample> => {
      const s = { t_ms: Date.now() - t0, ...(await ask(server, { type: 'sample' }, 'sample')).sample };
      const c = await counts(gen);
      samples.push(s);
      log(`${(s.t_ms / 1000).toFixed(0)} s: orders ${s.orders_placed} (open ${s.orders_open}), heapUsed ${mb(s.heap_used)} MB, `
        + `rss ${mb(s.rss)} MB, external ${mb(s.external)} MB; generator sent ${c.sent}, answered ${c.answered}, backlog ${c.backlog}`);
      if (SNAPSHOTS !== '' && s.window_full && snapshots.length === 0) snapshots.push(await snapshot(server, 'window-full'));
      return s;
    };
    await sample(); // the baseline: started, quoted by the market maker, no load yet
    log(`server on 127.0.0.1:${port}; probing the maximum rate for ${PROBE_S} s`);
    const probe = await phase(gen, { port, connections: CONNECTIONS, mode: 'closed', seconds: PROBE_S, seed: SEED });
    const maxRate = probe.answered / PROBE_S;
    const rate = Math.max(1, Math.round(maxRate * LOAD));
    log(`maximum ${maxRate.toFixed(0)} answers/s (errors ${probe.answered - probe.ok}); open loop at ${rate} requests/s for ${MINUTES} min`);
    const soak = phase(gen, { port, connections: CONNECTIONS, mode: 'open', rate, seconds: MINUTES * 60, seed: SEED });
    let finished = false;
    const result = soak.finally(() => { finished = true; });
    const first = await sample();
    while (!finished && serverExit === undefined) {
      await Promise.race([result.catch(() => undefined), new Promise((r) => setTimeout(r, SAMPLE_S * 1000))]);
      if (!finished && serverExit === undefined) await sample();
    }
    const load = await result;
    if (serverExit !== undefined) throw new Error(serverExit);
    const last = await sample();
    if (SNAPSHOTS !== '') snapshots.push(await snapshot(server, 'end'));
    const h = await health(port);
    const check: ServerCheck = (await ask(server, { type: 'check' }, 'check')).check;
    const verdict = memoryVerdict(samples, THRESHOLD);
    const r: SoakReport = { machine, runner: RUNNER, journal: journal !== undefined, journal_bytes: journal === undefined ? 0 : statSync(journal).size,
      connections: CONNECTIONS, probe: { seconds: PROBE_S, max_answers_per_sec: Math.round(maxRate), errors: probe.answered - probe.ok },
      open_loop: { minutes: MINUTES, load: LOAD, target_per_sec: rate, sent_per_sec: Math.round(load.sent / load.seconds),
        answered_per_sec: Math.round(load.answered / load.seconds),
        server_orders_per_sec: Math.round((last.orders_placed - first.orders_placed) / Math.max(1e-3, (last.t_ms - first.t_ms) / 1000)), ...load },
      health: h, check, memory: verdict, last, samples, heap_snapshots: snapshots };
    const { text, failures } = report(r);
    if (JSON_OUT) {
      log(text);
      process.stdout.write(`${JSON.stringify({ ...r, passed: failures.length === 0, failures })}\n`);
    } else {
      process.stdout.write(`${header}\n\n${text}\n`);
    }
    log(`done in ${((Date.now() - START) / 1000).toFixed(0)} s: ${failures.length === 0 ? 'passed' : `FAILED: ${failures.join('; ')}`}`);
    return failures.length === 0 ? 0 : 1;
  } finally {
    if (gen.connected) gen.send({ type: 'exit' } satisfies ToGenerator);
    await Promise.all([stopChild(gen), stopChild(server, 30_000)]);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

async function snapshot(server: ChildProcess, name: string): Promise<string> {
  const file = path.resolve(SNAPSHOTS, `soak-${RUNNER}-${name}-${Date.now()}.heapsnapshot`);
  log(`writing heap snapshot ${file}`);
  return (await ask(server, { type: 'heap_snapshot', path: file }, 'heap_snapshot', 600_000)).path;
}

process.exitCode = await main().catch((e: unknown) => {
  log(`soak failed: ${e instanceof Error ? e.message : String(e)}`);
  return 1;
});
