/**
 * `npm run bench:http`: the ringmatch HTTP front against a bare uWebSockets.js hello-world, in one run.
 *
 * Processes (each its own Node process, all on 127.0.0.1, ephemeral ports): the bare server (bare-server.ts),
 * the simulator twice (sim-server.ts: inline runner, and the default threaded runner with one shard worker; rate
 * limits off, no market maker, four funded users), and the
 * load generator (load-generator.ts: raw keep-alive HTTP/1.1 sockets, one request in flight per connection,
 * requests pre-built and pre-signed). With `taskset` and two or more cores, both servers are pinned to CPU 0
 * and the generator to CPU 1; only one server is under load at a time.
 *
 * Scenarios
 * - `hello`: `GET /` on the bare server, the reference rate.
 * - `orders`: Gate-signed `POST /api/v4/spot/orders` (GTC limits that rest, sides alternating, never
 *   crossing) interleaved one for one with signed `DELETE /api/v4/spot/orders/t-…` cancels of orders placed
 *   256 placements earlier, so the book stays at about 256 orders. Against ringmatch; and the same bytes
 *   against the bare server (which reads the body and answers "Hello World!"), to separate HTTP cost from ours.
 * - `order-book`: public `GET /api/v4/spot/order_book?currency_pair=BTC_USDT&limit=10` on ringmatch.
 * - `orders` again on both runners with the journal on (default policy: fsync batch with group commit, every
 *   reply after its fdatasync), beside the journal-off rows (target: at least 70 % of their rate).
 *
 * Phases per scenario and server: closed loop at full speed (requests/s, after a warm-up), then open loop at
 * half of ringmatch's measured maximum for that scenario (the bare server gets the same rate), latency from
 * each request's scheduled send time (p50/p99/p99.9). `ratio_to_bare` is our requests/s over the bare
 * hello-world's. Targets (issue 4): signed order placement at least 50 % of the bare rate; p99 under 2 ms
 * at half of our maximum rate.
 *
 * Output: a table (stdout), or with `--json` exactly one JSON array of rows on stdout, logs on stderr.
 * `--quick`: 3 s phases (about 35 s in all); full: 10 s phases. `--connections=N` (default 32).
 * Every row also carries the server's CPU per request (user and kernel, closed loop) and its GC count and pauses
 * (server-usage.ts). `--profile=DIR` runs the inline journal-off simulator under `--cpu-prof` and logs where its
 * CPU went by area (profile-summary.ts).
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nextMessage, PIN, startChild, stopChild as stop } from '../children.js';
import { machineInfo, machineLines } from '../machine.js';

const start = (file: string, cpu: number, args: string[] = [], flags: string[] = []): ChildProcess =>
  startChild(path.join(HERE, file), String(cpu), args, ['--expose-gc', ...flags]);
import { BENCH_KEYS, type FromGenerator, type FromServer, type PhaseResult, type PhaseSpec, type ToGenerator,
  type Workload } from './protocol.js';
import { BENCH_USAGE, exitWithUsage } from '../help.js';
import { summarizeProfile } from './profile-summary.js';
import type { UsageReport, UsageRequest } from './server-usage.js';

exitWithUsage(BENCH_USAGE.http);

const args = process.argv.slice(2);
const JSON_OUT = args.includes('--json');
const QUICK = args.includes('--quick');
/** `--profile=DIR`: the inline, journal-off simulator runs under `--cpu-prof` into DIR; its summary is logged at the end. */
const PROFILE_DIR = args.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
const CONNECTIONS = Number(args.find((a) => a.startsWith('--connections='))?.slice('--connections='.length) ?? 32);
const WARMUP_S = QUICK ? 0.5 : 1;
const DURATION_S = QUICK ? 3 : 10;
/** Bound on requests per phase: far above what one generator core sends. */
const MAX_RATE = 250_000;
const P99_TARGET_US = 2000;
const RATIO_TARGET = 0.5;
/** Journal on (default policy) against journal off, signed orders, same runner. */
const JOURNAL_TARGET = 0.7;

const HERE = path.dirname(fileURLToPath(import.meta.url));
const START = Date.now();
const log = (line: string): void => {
  process.stderr.write(`[${((Date.now() - START) / 1000).toFixed(1)}s] ${line}\n`);
};

/**
 * ringmatch: the inline runner; ringmatch-threaded: the simulator's default (one shard worker thread); the
 * `-journal` ones journal every command with the default policy (fsync batch, group commit).
 */
type ServerName = 'ringmatch' | 'ringmatch-threaded' | 'ringmatch-journal' | 'ringmatch-threaded-journal' | 'bare-uws';

interface Row {
  scenario: string;
  server: ServerName;
  requests_per_sec: number;
  p50_us: number;
  p99_us: number;
  p999_us: number;
  connections: number;
  duration_s: number;
  ratio_to_bare?: number;
  ratio_to_bare_same_requests?: number;
  open_loop_rate: number;
  errors: number;
  closed_p99_us: number;
  place_p99_us?: number;
  cancel_p99_us?: number;
  send_lag_p99_us?: number;
  /** Server CPU per request in the closed phase (µs; warm-up included, over requests at the measured rate). */
  cpu_user_us_per_req: number;
  cpu_system_us_per_req: number;
  /** GCs in the server during the closed phase and during the open phase at half load (pauses in ms). */
  closed_gc_count: number;
  closed_gc_pause_p99_ms: number;
  open_gc_count: number;
  open_gc_pause_p99_ms: number;
  open_gc_pause_max_ms: number;
  machine: ReturnType<typeof machineInfo>;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

function fmt(n: number | undefined, digits = 0): string {
  if (n === undefined || Number.isNaN(n)) return '';
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function table(rows: readonly Row[]): string {
  const head = ['scenario', 'server', 'conns', 'max req/s', 'vs bare', 'open req/s', 'p50 µs', 'p99 µs', 'p99.9 µs',
    'place p99', 'cancel p99', 'cpu µs/req usr+sys', 'GCs open', 'GC p99 ms', 'errors'];
  const body = rows.map((r) => [r.scenario, r.server, String(r.connections), fmt(r.requests_per_sec),
    r.ratio_to_bare === undefined ? '' : `${fmt(r.ratio_to_bare * 100, 1)} %`, fmt(r.open_loop_rate), fmt(r.p50_us),
    fmt(r.p99_us), fmt(r.p999_us), fmt(r.place_p99_us), fmt(r.cancel_p99_us),
    `${fmt(r.cpu_user_us_per_req, 1)}+${fmt(r.cpu_system_us_per_req, 1)}`, String(r.open_gc_count), fmt(r.open_gc_pause_p99_ms, 2), String(r.errors)]);
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((b) => b[c]!.length)));
  const line = (cells: string[]): string => cells.map((x, c) => (c >= 2 ? x.padStart(widths[c]!) : x.padEnd(widths[c]!))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const header = `ringmatch HTTP benchmark (${QUICK ? 'quick' : 'full'}): ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per phase`
    + `${PIN ? '; servers pinned to CPU 0, load generator to CPU 1' : '; no CPU pinning'}\n${machineLines(machine)}`;
  log(header);
  const bare = start('bare-server.ts', 0);
  const sim = start('sim-server.ts', 0, ['inline'], PROFILE_DIR === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`]);
  const simThreaded = start('sim-server.ts', 0, ['threaded']);
  const simJournal = start('sim-server.ts', 0, ['inline', 'journal']);
  const simThreadedJournal = start('sim-server.ts', 0, ['threaded', 'journal']);
  const gen = start('load-generator.ts', 1);
  const children = [bare, sim, simThreaded, simJournal, simThreadedJournal, gen];
  try {
    const [bareUp, simUp, threadedUp, journalUp, threadedJournalUp] = await Promise.all([
      nextMessage<FromServer>(bare, 'bare server', 30_000),
      nextMessage<FromServer>(sim, 'simulator', 30_000),
      nextMessage<FromServer>(simThreaded, 'simulator (threaded)', 30_000),
      nextMessage<FromServer>(simJournal, 'simulator (journal)', 30_000),
      nextMessage<FromServer>(simThreadedJournal, 'simulator (threaded, journal)', 30_000),
      nextMessage<FromGenerator>(gen, 'load generator', 30_000),
    ]);
    const port: Record<ServerName, number> = { 'bare-uws': bareUp.port, ringmatch: simUp.port, 'ringmatch-threaded': threadedUp.port,
      'ringmatch-journal': journalUp.port, 'ringmatch-threaded-journal': threadedJournalUp.port };
    log(`bare uWebSockets.js on 127.0.0.1:${port['bare-uws']}, ringmatch (inline) on 127.0.0.1:${port.ringmatch}, `
      + `ringmatch (threaded) on 127.0.0.1:${port['ringmatch-threaded']}`);

    const child: Record<ServerName, ChildProcess> = { 'bare-uws': bare, ringmatch: sim, 'ringmatch-threaded': simThreaded,
      'ringmatch-journal': simJournal, 'ringmatch-threaded-journal': simThreadedJournal };
    /** The server's CPU and GC over one phase (warm-up included). */
    const usage = new Map<PhaseResult, UsageReport>();
    /**
     * The servers not measured are stopped (SIGSTOP) for the phase: they share CPU 0 with the measured one, and
     * an idle simulator's timers (clock, price feeds, pushes) take a few ms of it at a time, which showed in the
     * measured server's tail latency.
     */
    const pause = (except: ServerName, signal: 'SIGSTOP' | 'SIGCONT'): void => {
      for (const [name, c] of Object.entries(child)) if (name !== except && c.pid !== undefined) process.kill(c.pid, signal);
    };
    const phase = async (server: ServerName, workload: Workload, mode: 'closed' | 'open', rate?: number): Promise<PhaseResult> => {
      child[server].send({ type: 'usage-reset' } satisfies UsageRequest);
      pause(server, 'SIGSTOP');
      let result: PhaseResult;
      try {
        result = await runPhase(server, workload, mode, rate);
      } finally {
        pause(server, 'SIGCONT');
      }
      child[server].send({ type: 'usage-read' } satisfies UsageRequest);
      usage.set(result, await nextMessage<UsageReport>(child[server], `${server} usage`, 10_000, (m) => m.type === 'usage'));
      return result;
    };
    const runPhase = async (server: ServerName, workload: Workload, mode: 'closed' | 'open', rate?: number): Promise<PhaseResult> => {
      const spec: PhaseSpec = { port: port[server], workload, connections: CONNECTIONS, mode, rate,
        warmupS: WARMUP_S, durationS: DURATION_S, maxRequests: Math.ceil(MAX_RATE * (WARMUP_S + DURATION_S)) };
      const msg: ToGenerator = { type: 'phase', spec };
      gen.send(msg);
      const m = await nextMessage<FromGenerator>(gen, `${workload.kind} on ${server}`, (WARMUP_S + DURATION_S + 60) * 1000);
      if (m.type !== 'result') throw new Error(`${workload.kind} on ${server}: ${m.type === 'failed' ? m.message : m.type}`);
      const r = m.result;
      log(`${workload.kind.padEnd(10)} ${server.padEnd(9)} ${mode.padEnd(6)}${rate === undefined ? '' : ` @${rate}/s`}: `
        + `${fmt(r.requests_per_sec)} req/s, p50 ${r.latency.p50_us} µs, p99 ${r.latency.p99_us} µs, p99.9 ${r.latency.p999_us} µs, `
        + `errors ${r.errors}${r.first_error === undefined ? '' : ` (first: ${r.first_error})`}`);
      return r;
    };

    const hello: Workload = { kind: 'hello' };
    const orders: Workload = { kind: 'orders', keys: BENCH_KEYS };
    const book: Workload = { kind: 'order_book' };
    const cases: { scenario: string; server: ServerName; workload: Workload; rateOf: string }[] = [
      { scenario: 'hello GET /', server: 'bare-uws', workload: hello, rateOf: 'orders' },
      { scenario: 'orders POST+DELETE signed', server: 'ringmatch', workload: orders, rateOf: 'orders' },
      { scenario: 'orders POST+DELETE signed', server: 'bare-uws', workload: orders, rateOf: 'orders' },
      { scenario: 'order_book GET public', server: 'ringmatch', workload: book, rateOf: 'order_book' },
      { scenario: 'orders POST+DELETE signed', server: 'ringmatch-threaded', workload: orders, rateOf: 'orders' },
      { scenario: 'orders POST+DELETE signed', server: 'ringmatch-journal', workload: orders, rateOf: 'orders' },
      { scenario: 'orders POST+DELETE signed', server: 'ringmatch-threaded-journal', workload: orders, rateOf: 'orders' },
    ];
    const closed: PhaseResult[] = [];
    for (const c of cases) closed.push(await phase(c.server, c.workload, 'closed'));
    /** Our maximum for a case: the same server's (the bare server's rows use the inline runner's). */
    const ourMax = (c: (typeof cases)[number]): number => {
      const server = c.server === 'bare-uws' ? 'ringmatch' : c.server;
      return closed[cases.findIndex((x) => x.server === server && x.workload.kind === c.rateOf)]!.requests_per_sec;
    };
    const open: PhaseResult[] = [];
    for (const c of cases) open.push(await phase(c.server, c.workload, 'open', Math.max(1, Math.round(ourMax(c) / 2))));

    const bareHello = closed[0]!.requests_per_sec;
    const bareOrders = closed[2]!.requests_per_sec;
    const rows: Row[] = cases.map((c, i) => {
      const cl = closed[i]!;
      const op = open[i]!;
      const ours = c.server !== 'bare-uws';
      const cu = usage.get(cl)!;
      const ou = usage.get(op)!;
      /** Requests the server answered in the closed phase, warm-up included (at the measured rate). */
      const served = cl.requests_per_sec * (WARMUP_S + DURATION_S);
      return {
        scenario: c.scenario, server: c.server, requests_per_sec: cl.requests_per_sec,
        p50_us: op.latency.p50_us, p99_us: op.latency.p99_us, p999_us: op.latency.p999_us,
        connections: CONNECTIONS, duration_s: DURATION_S,
        ...(ours ? { ratio_to_bare: Number((cl.requests_per_sec / bareHello).toFixed(3)) } : {}),
        ...(ours && c.workload.kind === 'orders' ? { ratio_to_bare_same_requests: Number((cl.requests_per_sec / bareOrders).toFixed(3)) } : {}),
        open_loop_rate: Math.round(ourMax(c) / 2), errors: cl.errors + op.errors, closed_p99_us: cl.latency.p99_us,
        ...(op.by_type === undefined ? {} : { place_p99_us: op.by_type.place!.p99_us, cancel_p99_us: op.by_type.cancel!.p99_us }),
        ...(op.send_lag_p99_us === undefined ? {} : { send_lag_p99_us: op.send_lag_p99_us }),
        cpu_user_us_per_req: round1(cu.user_us / served), cpu_system_us_per_req: round1(cu.system_us / served),
        closed_gc_count: cu.gc_count, closed_gc_pause_p99_ms: cu.gc_pause_p99_ms,
        open_gc_count: ou.gc_count, open_gc_pause_p99_ms: ou.gc_pause_p99_ms, open_gc_pause_max_ms: ou.gc_pause_max_ms,
        machine,
      };
    });
    const ordersRow = rows[1]!;
    const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');
    const journalShare = (withJournal: ServerName, without: ServerName): string => {
      const on = rows.find((r) => r.server === withJournal)!.requests_per_sec;
      const off = rows.find((r) => r.server === without && r.scenario.startsWith('orders'))!.requests_per_sec;
      return `${fmt((on / off) * 100, 1)} % (${fmt(on)} vs ${fmt(off)} req/s): ${verdict(on / off >= JOURNAL_TARGET)}`;
    };
    const targets = [
      `target: signed orders ≥ ${RATIO_TARGET * 100} % of the bare hello-world rate: ${fmt(ordersRow.ratio_to_bare! * 100, 1)} % `
        + `(${fmt(ordersRow.requests_per_sec)} vs ${fmt(bareHello)} req/s): ${verdict(ordersRow.ratio_to_bare! >= RATIO_TARGET)}`,
      `        (same request bytes against the bare server: ${fmt(bareOrders)} req/s; ours ${fmt(ordersRow.ratio_to_bare_same_requests! * 100, 1)} % of it)`,
      `target: p99 < ${P99_TARGET_US / 1000} ms at half our maximum (${fmt(ordersRow.open_loop_rate)} req/s open loop): `
        + `${fmt(ordersRow.p99_us)} µs: ${verdict(ordersRow.p99_us < P99_TARGET_US)}`,
      `target: no GC pause over 1 ms at half load (open loop), signed orders, inline: ${ordersRow.open_gc_count} GCs, `
        + `p99 ${fmt(ordersRow.open_gc_pause_p99_ms, 2)} ms, max ${fmt(ordersRow.open_gc_pause_max_ms, 2)} ms: ${verdict(ordersRow.open_gc_pause_max_ms <= 1)}`,
      `target: signed orders with the journal on (fsync batch, group commit) ≥ ${JOURNAL_TARGET * 100} % of the journal-off rate: `
        + `inline ${journalShare('ringmatch-journal', 'ringmatch')}; threaded ${journalShare('ringmatch-threaded-journal', 'ringmatch-threaded')}`,
      'columns: max req/s closed loop; p50/p99/p99.9 open loop at "open req/s", from scheduled send time; vs bare = max req/s / bare hello max req/s',
    ].join('\n');
    const errors = rows.reduce((n, r) => n + r.errors, 0);
    if (errors > 0) log(`WARNING: ${errors} requests failed or went unanswered (see the log above)`);
    if (JSON_OUT) {
      log(`\n${table(rows)}\n${targets}`);
      process.stdout.write(`${JSON.stringify(rows)}\n`);
    } else {
      process.stdout.write(`${header}\n\n${table(rows)}\n\n${targets}\n`);
    }
    log(`done in ${((Date.now() - START) / 1000).toFixed(1)} s`);
  } finally {
    if (gen.connected) gen.send({ type: 'exit' } satisfies ToGenerator);
    /** Writing a profile of the whole run takes seconds; the profiled server gets a minute before SIGKILL. */
    await Promise.all(children.map((c) => stop(c, c === sim && PROFILE_DIR !== undefined ? 60_000 : 5000)));
  }
  if (PROFILE_DIR !== undefined) log(`CPU profile of the inline simulator (all its phases):\n${summarizeProfile(PROFILE_DIR)}`);
}

await main();
