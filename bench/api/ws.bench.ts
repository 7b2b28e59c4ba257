/**
 * `npm run bench:ws`: WebSocket fan-out of one busy market to many subscribers.
 *
 * Processes (all on 127.0.0.1, ephemeral ports): the server (ws-bench-server.ts) and `--clients` subscriber
 * processes (ws-bench-client.ts) holding `--subscribers` connections in all, each subscribed to spot.trades
 * of BTC_USDT. With `taskset` and two or more cores the server is pinned to CPU 0 and the clients to the others.
 * Servers, one after the other:
 * - `ringmatch`: matches driven in-process through the engine gateway (each trade = a resting order and a
 *   taker), pushed by the /ws/v4/ pipeline — render, JSON, app.publish;
 * - `bare`: bare uWebSockets.js publishing a frame of the same shape at the same rate (the same-machine
 *   broadcast ceiling, as bench:http's bare server is for HTTP).
 * Per server and offered rate (trades/s; `max` = flat out): a warm-up, then a measured phase, then a drain
 * until the clients stop receiving (bounded). Reported: trades/s achieved; messages delivered per second over
 * all subscribers (received ÷ the span from first to last receipt, at least the phase); delivered/expected
 * (trades × subscribers); latency from match to client receipt p50/p99/p99.9 and max (µs, capped at 2.1 s);
 * the server's busy share of the phase (inside the driver: matching, rendering, queueing the publish) and its
 * CPU share (all threads of the process, fan-out writes included) and that CPU time per expected message
 * (µs; what one subscriber costs the server per trade, a figure the slow clients do not distort).
 * Clients parse with a substring search; on a small machine the clients, not the server, are usually the
 * bottleneck — the `bare` rows show where that ceiling is.
 * Output: a table, or with `--json` one JSON array of rows on stdout (logs on stderr).
 * Options: `--quick` (1 s phases), `--subscribers=N` (1000), `--clients=K` (2), `--rates=a,b,max`
 * (default 100,500,2000,max), `--runner=threaded|inline` (the engine runner of the ringmatch server; default
 * threaded, as `npm start`). Rates are per second of the phase as it ran.
 */
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nextMessage as next, PIN, startChild, stopChild as stop } from '../children.js';
import { machineInfo, machineLines } from '../machine.js';

const start = (file: string, cpu: string, extra: string[] = []): ChildProcess => startChild(path.join(HERE, file), cpu, extra);
import type { FromClient, FromServer, ServerKind, ToClient, ToServer } from './ws-bench-protocol.js';
import { BENCH_USAGE, exitWithUsage } from '../help.js';

exitWithUsage(BENCH_USAGE.ws);

const args = process.argv.slice(2);
const opt = (name: string, fallback: string): string => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const JSON_OUT = args.includes('--json');
const QUICK = args.includes('--quick');
const SUBSCRIBERS = Number(opt('subscribers', '1000'));
const CLIENTS = Math.max(1, Number(opt('clients', '2')));
const RATES = opt('rates', '100,500,2000,max').split(',').map((r) => (r === 'max' ? 0 : Number(r)));
const RUNNER = opt('runner', 'threaded') === 'inline' ? 'inline' : 'threaded';
const PHASE_S = QUICK ? 1 : 3;
const WARMUP_S = QUICK ? 0.3 : 1;
const ANCHOR = 'uWebSockets.js published (performance-anchors.md §6): 1-core WebSocket echo ≈297k msg/s at 512 B, 500 connections '
  + '(uWS v20.42.0 chart); no published broadcast figure is on file — the `bare` rows are the same-machine broadcast reference.';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const START = Date.now();
const log = (line: string): void => { process.stderr.write(`[${((Date.now() - START) / 1000).toFixed(1)}s] ${line}\n`); };
interface Row {
  server: ServerKind; runner: string; subscribers: number; offered_trades_s: number | 'max'; trades_s: number; messages_s: number;
  delivered_pct: number; p50_us: number; p99_us: number; p999_us: number; max_us: number; server_busy_pct: number; server_cpu_pct: number; server_cpu_us_per_msg: number;
  closed: number;
}

interface Totals { received: number; closed: number; hist: Map<number, number>; maxUs: number; firstUs: number; lastUs: number }

async function report(clients: ChildProcess[]): Promise<Totals> {
  const reps = await Promise.all(clients.map((c) => {
    const p = next<FromClient>(c, 'client report', 30_000, (m) => m.type === 'report');
    c.send({ type: 'report' } satisfies ToClient);
    return p;
  }));
  const hist = new Map<number, number>();
  let received = 0;
  let closed = 0;
  let maxUs = 0;
  let firstUs = Number.POSITIVE_INFINITY;
  let lastUs = 0;
  for (const r of reps) {
    if (r.type !== 'report') continue;
    if (r.received > 0) firstUs = Math.min(firstUs, r.firstUs);
    lastUs = Math.max(lastUs, r.lastUs);
    received += r.received;
    closed += r.closed;
    maxUs = Math.max(maxUs, r.maxUs);
    for (const [v, n] of r.latency) hist.set(v, (hist.get(v) ?? 0) + n);
  }
  return { received, closed, hist, maxUs, firstUs, lastUs };
}

function percentile(hist: Map<number, number>, total: number, q: number): number {
  const target = Math.ceil(total * q);
  let seen = 0;
  for (const v of [...hist.keys()].sort((a, b) => a - b)) {
    seen += hist.get(v)!;
    if (seen >= target) return v;
  }
  return 0;
}

async function runServer(kind: ServerKind, rows: Row[]): Promise<void> {
  const server = start('ws-bench-server.ts', '0', [kind, RUNNER]);
  const cpus = os.cpus().length;
  const clients = Array.from({ length: CLIENTS }, (_, i) => start('ws-bench-client.ts', cpus > 1 ? `1-${cpus - 1}` : '0', [String(i)]));
  try {
    const listening = await next<FromServer>(server, `${kind} server`, 60_000, (m) => m.type === 'listening');
    if (listening.type !== 'listening') return;
    const subscribe = JSON.stringify({ id: 1, time: Math.floor(Date.now() / 1000), channel: 'spot.trades', event: 'subscribe', payload: ['BTC_USDT'] });
    await Promise.all(clients.map((c, i) => {
      const count = Math.floor(SUBSCRIBERS / CLIENTS) + (i < SUBSCRIBERS % CLIENTS ? 1 : 0);
      const p = next<FromClient>(c, 'client connect', 120_000, (m) => m.type === 'connected');
      c.send({ type: 'connect', port: listening.port, path: '/ws/v4/', count, subscribe } satisfies ToClient);
      return p;
    }));
    log(`${kind}: ${SUBSCRIBERS} subscribers connected in ${CLIENTS} client processes`);
    const drive = async (rate: number, seconds: number): Promise<FromServer> => {
      const p = next<FromServer>(server, 'drive', (seconds + 60) * 1000, (m) => m.type === 'driven');
      server.send({ type: 'drive', rate, seconds } satisfies ToServer);
      return p;
    };
    for (const rate of RATES) {
      await drive(rate, WARMUP_S);
      await report(clients);
      for (const c of clients) c.send({ type: 'reset' } satisfies ToClient);
      const driven = await drive(rate, PHASE_S);
      if (driven.type !== 'driven') continue;
      let r = await report(clients);
      for (let i = 0; i < 100; i++) {
        await new Promise((res) => setTimeout(res, 200));
        const again = await report(clients);
        const settled = again.received === r.received;
        r = again;
        if (settled) break;
      }
      for (const c of clients) c.send({ type: 'reset' } satisfies ToClient);
      const row: Row = {
        server: kind, runner: kind === 'bare' ? '-' : RUNNER, subscribers: SUBSCRIBERS, offered_trades_s: rate === 0 ? 'max' : rate,
        trades_s: Math.round(driven.trades / driven.seconds),
        messages_s: r.received === 0 ? 0 : Math.round(r.received / Math.max(driven.seconds, (r.lastUs - r.firstUs) / 1e6)),
        delivered_pct: driven.trades === 0 ? 0 : Number(((100 * r.received) / (driven.trades * SUBSCRIBERS)).toFixed(1)),
        p50_us: percentile(r.hist, r.received, 0.5), p99_us: percentile(r.hist, r.received, 0.99), p999_us: percentile(r.hist, r.received, 0.999),
        max_us: r.maxUs, server_busy_pct: Number(((100 * driven.busyMs) / (driven.seconds * 1000)).toFixed(1)),
        server_cpu_pct: Number(((100 * driven.cpuMs) / (driven.seconds * 1000)).toFixed(1)),
        server_cpu_us_per_msg: driven.trades === 0 ? 0 : Number(((driven.cpuMs * 1000) / (driven.trades * SUBSCRIBERS)).toFixed(2)), closed: r.closed,
      };
      rows.push(row);
      log(`${kind} ${row.offered_trades_s}: ${row.trades_s} trades/s, ${row.messages_s} msg/s delivered (${row.delivered_pct} %), p50 ${row.p50_us} µs, p99 ${row.p99_us} µs`);
    }
  } finally {
    await Promise.all([server, ...clients].map(stop));
  }
}

const rows: Row[] = [];
const machine = machineInfo();
log(machineLines(machine));
for (const kind of ['bare', 'ringmatch'] as const) await runServer(kind, rows);
if (JSON_OUT) {
  process.stdout.write(`${JSON.stringify(rows.map((r) => ({ ...r, machine, anchor: ANCHOR })))}\n`);
} else {
  const cols: (keyof Row)[] = ['server', 'subscribers', 'offered_trades_s', 'trades_s', 'messages_s', 'delivered_pct', 'p50_us', 'p99_us', 'p999_us', 'max_us', 'server_busy_pct', 'server_cpu_pct', 'server_cpu_us_per_msg', 'closed'];
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (vals: string[]): string => vals.map((v, i) => v.padStart(widths[i]!)).join('  ');
  console.log(machineLines(machine));
  console.log(`pinning: ${PIN ? 'server on CPU 0, clients on the others' : 'none'}; phases ${PHASE_S} s after ${WARMUP_S} s warm-up; runner ${RUNNER}`);
  console.log(line(cols.map(String)));
  for (const r of rows) console.log(line(cols.map((c) => String(r[c]))));
  console.log(ANCHOR);
}
