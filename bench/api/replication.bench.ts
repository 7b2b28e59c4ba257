/**
 * `npm run bench:replication`: signed orders/s through the HTTP front with the replicated JetStream log beside
 * the file journal, against the file journal alone, in the same run; the follower's lag at half that load; a
 * fresh follower's catch-up; and the failover time (docs/scale-out.md keeps the figures).
 *
 *   npm run bench:replication -- [--json] [--quick] [--seconds=N] [--rounds=N] [--connections=N]
 *
 * Each server is a `ringmatch start` process (inline runner, fsync batch, group commit); the JetStream rows run
 * a leader and a `--follow` follower on one local nats-server (R1, file store, started here on a free loopback
 * port). The load is this process: N keep-alive connections, one request in flight each, the stream alternating
 * the placement of order j with the cancel of order j − 256 (each a journaled command), every request signed
 * before the clock starts. Rate = 2xx answers in the measured window / its length.
 * The three servers (file journal alone; JetStream leader; the leader with its follower) run side by side and
 * their phases alternate for `--rounds` rounds; each row is the median of its phases, so a busy neighbour on a
 * shared machine slows all rows alike.
 * Lag at half load: the same requests paced at half the median rate of the leader-with-follower row. Every 50 ms:
 * - `ack_to_follower_read_ms`: a read of the follower's book carrying X-Rm-Min-Seq = the highest X-Rm-Seq the
 *   leader's answers have shown so far; the follower holds it until it has applied that seq (read-your-writes),
 *   so its duration is how long after a write's acknowledgement reached the client the follower could serve it
 *   (one loopback HTTP round trip included);
 * - the follower's GET /sim/replication: `lag_ms`, how long before its application the newest applied message
 *   was stored in the stream, and `lag_stream_messages`, stream messages not yet applied.
 * Catch-up: a fresh follower started after the load (no snapshot: the whole stream) until it reaches the
 * leader's seq. Failover: SIGKILL of the leader, then one signed order a try on fresh connections to the
 * follower until one is acknowledged (lease_ms 3000).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startNatsServer } from '../../test/support/nats-server.js';
import { CLI_ARGS, REPO_ROOT } from '../../test/support/node-cli.js';
import { BENCH_USAGE, exitWithUsage } from '../help.js';
import { openAll } from './http-conn.js';
import { BENCH_KEYS, cancelRequest, placeRequest } from './protocol.js';
import { config } from './sim-config.js';

exitWithUsage(BENCH_USAGE.replication);
const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const JSON_OUT = args.includes('--json');
const flag = (name: string, fallback: number): number => Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const SECONDS = flag('seconds', QUICK ? 1 : 3);
const ROUNDS = flag('rounds', QUICK ? 1 : 5);
const CONNECTIONS = flag('connections', 32);
const LAG = 256;
const LEASE_MS = 3000;
const info = (m: string): void => { if (!JSON_OUT) console.error(m); };

async function get(port: number, path: string): Promise<Record<string, unknown> | undefined> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}${path}`);
    return (await r.json()) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

async function until(what: string, ok: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function server(dir: string, name: string, cfg: object, follow = false): Promise<{ proc: ChildProcess; port: number }> {
  const port = await freePort();
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify({ ...cfg, port }));
  const proc = spawn(process.execPath, [...CLI_ARGS, 'start', '--config', file, '--port', String(port), ...(follow ? ['--follow'] : [])],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  await until(`${name} to serve`, async () => (await get(port, '/sim/health'))?.status === 'ok');
  return { proc, port };
}

/** Order ids already used per server port (each phase places new ones). */
const used = new Map<number, number>();

/**
 * Load for SECONDS after a 1 s warm-up; returns 2xx answers per second. Closed loop (each connection sends its
 * next request when answered) unless `rate` is given: then requests leave at that rate at most (a token bucket
 * refilled every 5 ms), so the server is not driven to saturation.
 */
async function load(port: number, sample?: () => void, rate?: number, onSeq?: (seq: number) => void): Promise<number> {
  const ts = String(Math.floor(Date.now() / 1000));
  const reqs: Buffer[] = [];
  const total = QUICK ? 40_000 : 120_000;
  const base = used.get(port) ?? 0;
  used.set(port, base + total);
  for (let k = 0; k < total; k++) {
    const j = base + (k >> 1);
    reqs.push(k % 2 === 0 || (k >> 1) < LAG ? placeRequest(BENCH_KEYS, k % 2 === 0 ? j : 50_000_000 + base + k, ts)
      : cancelRequest(BENCH_KEYS, j - LAG, ts));
  }
  let next = 0;
  let ok = 0;
  let counting = false;
  let stop = false;
  const conns = await openAll(port, CONNECTIONS, (e) => { throw e; });
  const idle: typeof conns = [];
  let tokens = rate === undefined ? Number.POSITIVE_INFINITY : 1;
  // A burst of up to 100 ms of requests: a pacer tick that comes late (a busy machine) does not lose the rate.
  const burst = rate === undefined ? 0 : Math.max(CONNECTIONS, rate / 10);
  const send = (c: (typeof conns)[number]): void => {
    if (stop || next >= total) return;
    if (tokens < 1) { idle.push(c); return; }
    tokens--;
    c.send(reqs[next++]!, 0, 0);
  };
  let last = performance.now();
  const pacer = rate === undefined ? undefined : setInterval(() => {
    const now = performance.now();
    tokens = Math.min(burst, tokens + (rate * (now - last)) / 1000);
    last = now;
    while (idle.length > 0 && tokens >= 1) send(idle.shift()!);
  }, 5);
  for (const c of conns) {
    c.onAnswer = (status, answer, bodyAt) => {
      if (counting && status >= 200 && status < 300) ok++;
      if (onSeq !== undefined) {
        const m = /\r\nx-rm-seq: *(\d+)/i.exec(answer.toString('latin1', 0, bodyAt));
        if (m !== null) onSeq(Number(m[1]));
      }
      send(c);
    };
    send(c);
  }
  await new Promise((r) => setTimeout(r, 1000));
  counting = true;
  const t0 = performance.now();
  const timer = sample === undefined ? undefined : setInterval(sample, 50);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  counting = false;
  const achieved = ok / ((performance.now() - t0) / 1000);
  stop = true;
  if (timer !== undefined) clearInterval(timer);
  if (pacer !== undefined) clearInterval(pacer);
  await new Promise((r) => setTimeout(r, 300));
  for (const c of conns) c.sock.destroy();
  return achieved;
}

const pct = (xs: readonly number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};
const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const dir = await mkdtemp(join(tmpdir(), 'ringmatch-repl-bench-'));
const nats = await startNatsServer();
const procs: ChildProcess[] = [];
try {
  const base = config('inline', join(dir, 'plain.journal'));
  const plain = await server(dir, 'plain', { ...base, engine: { ...base.engine, fsync: 'batch' } });
  procs.push(plain.proc);
  const logged = (name: string): object => ({ ...base, engine: { runner: 'inline', journal: join(dir, `${name}.journal`), fsync: 'batch',
    log: { type: 'jetstream', servers: [nats.url], stream: 'bench', lease_ms: LEASE_MS } } });
  const leader = await server(dir, 'leader', logged('leader'));
  procs.push(leader.proc);
  await until('the leader', async () => (await get(leader.port, '/sim/replication'))?.role === 'leader');

  const plainRates: number[] = [];
  const aloneRates: number[] = [];
  const withFollowerRates: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    plainRates.push(await load(plain.port));
    aloneRates.push(await load(leader.port));
    info(`round ${r + 1}/${ROUNDS}: file journal ${Math.round(plainRates.at(-1)!)}/s, JetStream leader ${Math.round(aloneRates.at(-1)!)}/s`);
  }
  const follower = await server(dir, 'follower', logged('follower'), true);
  procs.push(follower.proc);
  const leaderSeq = async (): Promise<unknown> => (await get(leader.port, '/sim/state_hash'))?.seq;
  const caughtUp = async (): Promise<boolean> => (await get(follower.port, '/sim/state_hash'))?.seq === await leaderSeq();
  await until('the follower to catch up', caughtUp, 120_000);
  for (let r = 0; r < ROUNDS; r++) {
    plainRates.push(await load(plain.port));
    withFollowerRates.push(await load(leader.port));
    info(`round ${r + 1}/${ROUNDS}: file journal ${Math.round(plainRates.at(-1)!)}/s, JetStream leader with a follower ${Math.round(withFollowerRates.at(-1)!)}/s`);
  }
  const plainRate = median(plainRates);
  const leaderAlone = median(aloneRates);
  const logRate = median(withFollowerRates);

  // Follower lag at half of the leader-with-follower rate.
  const lagMs: number[] = [];
  const lagMsgs: number[] = [];
  const visibleMs: number[] = [];
  let ackedSeq = 0;
  const sample = (): void => {
    const want = ackedSeq;
    const t = performance.now();
    void fetch(`http://127.0.0.1:${follower.port}/api/v4/spot/order_book?currency_pair=BTC_USDT&limit=1`, { headers: { 'X-Rm-Min-Seq': String(want) } })
      .then(async (r) => { await r.arrayBuffer(); if (r.status === 200 && want > 0) visibleMs.push(Math.round((performance.now() - t) * 10) / 10); }, () => undefined);
    void get(follower.port, '/sim/replication').then((r) => {
      const f = r?.follower as { lag_ms: number; applied_stream_seq: number } | undefined;
      const last = (r?.stream as { last_seq: number } | undefined)?.last_seq;
      if (f === undefined) return;
      lagMs.push(f.lag_ms);
      if (last !== undefined) lagMsgs.push(Math.max(0, last - f.applied_stream_seq));
    });
  };
  const halfOffered = logRate / 2;
  const halfAchieved = await load(leader.port, sample, halfOffered, (seq) => { if (seq > ackedSeq) ackedSeq = seq; });
  info(`half load: ${Math.round(halfAchieved)}/s of ${Math.round(halfOffered)}/s offered; ack to follower read p50 ${pct(visibleMs, 0.5)} ms, `
    + `p99 ${pct(visibleMs, 0.99)} ms`);
  plain.proc.kill('SIGTERM');

  // Catch-up: a fresh follower reads the whole stream with no load running.
  await until('the follower to catch up', caughtUp, 120_000);
  const endSeq = Number(await leaderSeq());
  const t0 = performance.now();
  const late = await server(dir, 'late', logged('late'), true);
  procs.push(late.proc);
  const startedMs = performance.now() - t0;
  await until('the late follower to catch up', async () => (await get(late.port, '/sim/state_hash'))?.seq === endSeq, 300_000);
  const catchUpMs = performance.now() - t0;
  late.proc.kill('SIGTERM');
  const l = await get(leader.port, '/sim/replication');
  const publisher = l?.publisher as { acked_seq: number; batches: number };

  // Failover: SIGKILL the leader; time until the follower leads and acknowledges a signed order.
  leader.proc.kill('SIGKILL');
  const killedAt = performance.now();
  const probe = placeRequest(BENCH_KEYS, 9_000_000, String(Math.floor(Date.now() / 1000)));
  // One request on a fresh connection, 1 s at most (the follower closes its front while it is promoted).
  const attempt = async (): Promise<number> => {
    let conn: Awaited<ReturnType<typeof openAll>>[number] | undefined;
    try {
      [conn] = await openAll(follower.port, 1, () => undefined);
      const c = conn!;
      return await Promise.race([new Promise<number>((resolve) => { c.onAnswer = (st) => resolve(st); c.send(probe, 0, 0); }),
        new Promise<number>((resolve) => setTimeout(() => resolve(-1), 1000))]);
    } catch {
      return -1;
    } finally {
      conn?.sock.destroy();
    }
  };
  let failoverMs = Number.NaN;
  for (let i = 0; i < 400 && Number.isNaN(failoverMs); i++) {
    if ((await attempt()) === 201) failoverMs = performance.now() - killedAt;
    else await new Promise((r) => setTimeout(r, 25));
  }
  const report = {
    date: new Date().toISOString(), cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, quick: QUICK, seconds: SECONDS,
    rounds: ROUNDS, connections: CONNECTIONS, load_average: loadavg().map((x) => Math.round(x * 10) / 10),
    phases: { file_journal: plainRates.map(Math.round), jetstream: aloneRates.map(Math.round), jetstream_with_follower: withFollowerRates.map(Math.round) },
    file_journal_orders_per_s: Math.round(plainRate), jetstream_log_orders_per_s: Math.round(leaderAlone),
    jetstream_log_with_follower_orders_per_s: Math.round(logRate),
    ratio: Math.round((leaderAlone / plainRate) * 1000) / 1000, ratio_with_follower: Math.round((logRate / plainRate) * 1000) / 1000,
    half_load: {
      offered_per_s: Math.round(halfOffered), achieved_per_s: Math.round(halfAchieved),
      ack_to_follower_read_ms: { p50: pct(visibleMs, 0.5), p99: pct(visibleMs, 0.99), max: pct(visibleMs, 1), samples: visibleMs.length },
      follower_lag_ms: { p50: pct(lagMs, 0.5), p99: pct(lagMs, 0.99), max: pct(lagMs, 1), samples: lagMs.length },
      follower_lag_stream_messages: { p50: pct(lagMsgs, 0.5), p99: pct(lagMsgs, 0.99), max: pct(lagMsgs, 1) },
    },
    lease_ms: LEASE_MS, failover_ms: Math.round(failoverMs),
    catch_up: { commands: endSeq, ms_to_serve: Math.round(startedMs), ms_to_end: Math.round(catchUpMs),
      commands_per_s: Math.round(endSeq / (catchUpMs / 1000)) },
    commands_per_batch: Math.round((publisher.acked_seq / publisher.batches) * 10) / 10,
  };
  if (JSON_OUT) console.log(JSON.stringify(report));
  else {
    const h = report.half_load;
    console.log([
      `replication (${report.cpus} × ${report.cpu}, ${report.node}, load average ${report.load_average.join(' ')}; medians of ${ROUNDS} × ${SECONDS} s phases)`,
      `  signed orders/s   file journal ${report.file_journal_orders_per_s}   + JetStream log ${report.jetstream_log_orders_per_s} (${report.ratio}×)`
        + `   + follower ${report.jetstream_log_with_follower_orders_per_s} (${report.ratio_with_follower}×)`,
      `  at ${h.achieved_per_s}/s (half load): acknowledged write readable on the follower after p50 ${h.ack_to_follower_read_ms.p50} ms, `
        + `p99 ${h.ack_to_follower_read_ms.p99} ms, max ${h.ack_to_follower_read_ms.max} ms (${h.ack_to_follower_read_ms.samples} samples)`,
      `  follower apply lag (stored in the stream → applied)   p50 ${h.follower_lag_ms.p50} ms   p99 ${h.follower_lag_ms.p99} ms   max ${h.follower_lag_ms.max} ms`
        + `   (stream messages behind p99 ${h.follower_lag_stream_messages.p99})`,
      `  failover (kill -9 → first 201, lease ${LEASE_MS} ms)   ${report.failover_ms} ms`,
      `  catch-up of a fresh follower   ${report.catch_up.commands} commands in ${report.catch_up.ms_to_end} ms (${report.catch_up.commands_per_s}/s)`,
      `  commands per JetStream message   ${report.commands_per_batch}`,
    ].join('\n'));
  }
} finally {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
  await nats.stop();
  await rm(dir, { recursive: true, force: true });
}
