// Kill -9 cycles of the replicated log's leader, shared by the CI test (test/replication/failover-cycles.it.test.ts)
// and `npm run soak:failover`.
//
// Three nodes (`src/cli.ts start --config … [--follow]`, each its own process, journal and port) on one stream;
// writers place and cancel signed orders on whichever node leads, all the time. One cycle: wait until a leader
// takes writes and another node follows, let the load run a random while, SIGKILL the leader, time until a
// follower has taken over and acknowledged an order sent after the kill, and restart the killed node as a
// follower (same journal, same port). At the end, as a user and an auditor would check it:
// - every acknowledged order is in the stream exactly once, and no order is in it twice;
// - every acknowledged cancel left its order cancelled, on every node;
// - epochs in the stream only grow, one per takeover at least;
// - every node reaches the same seq and state hash, and that hash is the one an offline replay of the stream
//   (independent of the follower code) reaches.
// Every loop is bounded in count and time.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SimClock } from '../../src/core/clock.js';
import { Command, CommandType } from '../../src/core/command.js';
import { Prng } from '../../src/core/prng.js';
import { InlineEngine } from '../../src/engine/inline-engine.js';
import { RecordScanner } from '../../src/engine/journal/reader.js';
import { openLogStream } from '../../src/engine/replication/log-stream.js';
import type { SimulatorConfig } from '../../src/sim/config-file.js';
import { simulatorSetup } from '../../src/sim/simulator-setup.js';
import { freePort } from './nats-server.js';
import { CLI_ARGS, REPO_ROOT } from './node-cli.js';
import { call, type CallUser } from './signed-call.js';
const START_LIMIT_MS = 60_000;

type J = Record<string, unknown>;
type User = CallUser;
const USERS: readonly User[] = [{ uid: 40001, key: 'fk1', secret: 'fs1' }, { uid: 40002, key: 'fk2', secret: 'fs2' },
  { uid: 40003, key: 'fk3', secret: 'fs3' }, { uid: 40004, key: 'fk4', secret: 'fs4' }];

/** The exchange every node runs: one spot market, four funded users, no market maker. @allocates */
export function failoverExchange(): SimulatorConfig {
  return {
    currency_pairs: [{ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 1, amount_precision: 4, min_base_amount: '0.0001', fee: '0.2',
      maker_fee_rate: '0.1' }],
    users: USERS.map((u) => ({ uid: u.uid, keys: [{ key: u.key, secret: u.secret }], balances: { spot: { USDT: '10000000', BTC: '1000' } } })),
    rate_limits: false,
    market_maker: false,
    // Cancelled orders stay readable for the whole run (the audit reads every acknowledged cancel back).
    cancelled_order_retention_s: 86_400,
  };
}

export interface FailoverCyclesOptions {
  readonly cycles: number;
  /** Where the nodes' configs and journals go. */
  readonly dir: string;
  /** NATS URLs (a JetStream server or cluster) and the stream to use (fresh). */
  readonly servers: readonly string[];
  readonly stream: string;
  readonly seed?: number | undefined;
  /** Leader lease of the nodes, ms; default 1500. */
  readonly leaseMs?: number | undefined;
  /** Concurrent writers; default 4. */
  readonly writers?: number | undefined;
  /** The kill comes a random time in [min, max) ms after the cycle's leader took its first order; default [100, 1500). */
  readonly loadMs?: readonly [number, number] | undefined;
  readonly log?: ((line: string) => void) | undefined;
}

export interface FailoverCycle {
  readonly cycle: number;
  /** Orders acknowledged by the killed leader in this cycle. */
  readonly ackedBeforeKill: number;
  /** From the SIGKILL to the acknowledgement of the first order sent after it, by the new leader. */
  readonly failoverMs: number;
  /** The epoch of the leader that took over. */
  readonly epoch: number;
}

export interface FailoverReport {
  readonly cycles: readonly FailoverCycle[];
  readonly ordersAcked: number;
  readonly cancelsAcked: number;
  readonly epochs: readonly number[];
  readonly seq: number;
  readonly stateHash: string;
}

interface Node { readonly name: string; readonly port: number; readonly config: string; proc: ChildProcess | undefined; log: string }

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => Promise<boolean> | boolean, ms: number, detail: () => string = () => ''): Promise<number> {
  const t0 = Date.now();
  while (!(await ok())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}${detail()}`);
    await sleep(25);
  }
  return Date.now() - t0;
}

/** Starts (or restarts) a node; resolves once its HTTP front answers. */
async function start(n: Node, follow: boolean): Promise<void> {
  const proc = spawn(process.execPath, [...CLI_ARGS, 'start', '--config', n.config, ...(follow ? ['--follow'] : [])],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  n.proc = proc;
  proc.stderr.on('data', (d: Buffer) => { n.log = (n.log + d.toString()).slice(-20_000); });
  await until(`${n.name} to serve`, async () => {
    if (proc.exitCode !== null) throw new Error(`${n.name} exited ${proc.exitCode}: ${n.log}`);
    return (await call(n.port, 'GET', '/sim/replication')).status === 200;
  }, START_LIMIT_MS);
}

/** Runs the cycles (see the module header); throws at the first broken promise, with what was seen. */
export async function runFailoverCycles(o: FailoverCyclesOptions): Promise<FailoverReport> {
  const rng = new Prng(o.seed ?? 1);
  const log = o.log ?? (() => undefined);
  const [minMs, maxMs] = o.loadMs ?? [100, 1500];
  const exchange = failoverExchange();
  const nodes: Node[] = [];
  for (const name of ['n0', 'n1', 'n2']) {
    const port = await freePort();
    const config = join(o.dir, `${name}.json`);
    await writeFile(config, JSON.stringify({ ...exchange, port, host: '127.0.0.1',
      engine: { runner: 'inline', journal: join(o.dir, `${name}.journal`), fsync: 'batch',
        log: { type: 'jetstream', servers: o.servers, stream: o.stream, lease_ms: o.leaseMs ?? 1500, checkpoint_every: 50, snapshot_every: 300 } } }));
    nodes.push({ name, port, config, proc: undefined, log: '' });
  }
  const roles = new Map<Node, { role: string; epoch: number }>();
  let leader: Node | undefined;
  let stopped = false;
  const acked = new Set<string>();
  const cancelled: { id: string; user: User }[] = [];
  let lastAck: { node: Node; sentAt: number; at: number } | undefined;
  let cycleAcks = 0;
  const tail = (): string => `\n${nodes.map((n) => `--- ${n.name} (${roles.get(n)?.role ?? '?'}):\n${n.log.slice(-3000)}`).join('\n')}`;

  /** Who leads: polled from every live node (the highest epoch among those that say so). */
  const monitor = (async () => {
    while (!stopped) {
      await Promise.all(nodes.map(async (n) => {
        const r = n.proc?.exitCode === null && n.proc.signalCode === null ? await call(n.port, 'GET', '/sim/replication') : { status: 0, body: undefined };
        const b = r.body as J | undefined;
        if (r.status === 200 && b !== undefined) roles.set(n, { role: String(b.role), epoch: Number(b.epoch) });
        else roles.delete(n);
      }));
      let best: Node | undefined;
      for (const [n, s] of roles) if (s.role === 'leader' && (best === undefined || s.epoch > roles.get(best)!.epoch)) best = n;
      leader = best;
      await sleep(50);
    }
  })();

  const writer = async (w: number): Promise<void> => {
    const open: { id: string; user: User }[] = [];
    for (let i = 0; !stopped && i < 1_000_000; i++) {
      const n = leader;
      if (n === undefined) { await sleep(20); continue; }
      const user = USERS[(w + i) % USERS.length]!;
      const sentAt = Date.now();
      if (open.length > 0 && rng.nextInt(4) === 0) {
        const o1 = open.splice(rng.nextInt(open.length), 1)[0]!;
        const r = await call(n.port, 'DELETE', `/api/v4/spot/orders/${o1.id}`, { user: o1.user, query: 'currency_pair=BTC_USDT' });
        if (r.status === 200 && (r.body as J).status === 'cancelled') cancelled.push(o1);
        else if (r.status !== 200 && r.status !== 400 && r.status !== 404) open.push(o1); // Not taken: try again later.
        if (r.status !== 200) await sleep(20);
        continue;
      }
      const buy = rng.nextInt(2) === 0;
      const price = (60_000 + (buy ? -1 : 1) * rng.nextInt(20) * 0.5).toFixed(1);
      const text = `t-${w}-${i}-${rng.nextInt(1e6)}`;
      const r = await call(n.port, 'POST', '/api/v4/spot/orders', { user, body: { currency_pair: 'BTC_USDT', side: buy ? 'buy' : 'sell', amount: '0.001', price, text } });
      if (r.status === 201) {
        acked.add(text);
        cycleAcks++;
        if (lastAck === undefined || sentAt > lastAck.sentAt) lastAck = { node: n, sentAt, at: Date.now() };
        const b = r.body as J;
        if (b.status === 'open') open.push({ id: String(b.id), user });
      } else {
        await sleep(20);
      }
    }
  };

  const cycles: FailoverCycle[] = [];
  const restarts: Promise<void>[] = [];
  let writers: Promise<void[]> | undefined;
  try {
    await start(nodes[0]!, false);
    await until('n0 to lead', () => leader === nodes[0], 30_000, tail);
    await Promise.all([start(nodes[1]!, true), start(nodes[2]!, true)]);
    writers = Promise.all(Array.from({ length: o.writers ?? 4 }, (_, w) => writer(w)));
    for (let c = 1; c <= o.cycles; c++) {
      cycleAcks = 0;
      await until(`cycle ${c}: a leader taking orders and a follower beside it`, () => leader !== undefined && cycleAcks > 0
        && [...roles.entries()].some(([n, s]) => n !== leader && s.role === 'follower'), 60_000, tail);
      await sleep(minMs + rng.nextInt(maxMs - minMs));
      const victim = leader!;
      const ackedBeforeKill = cycleAcks;
      victim.proc!.kill('SIGKILL');
      const killedAt = Date.now();
      roles.delete(victim);
      if (leader === victim) leader = undefined;
      await until(`cycle ${c}: a new leader acknowledging an order sent after the kill`,
        () => lastAck !== undefined && lastAck.sentAt > killedAt && lastAck.node !== victim, 60_000, tail);
      const failoverMs = lastAck!.at - killedAt;
      const epoch = roles.get(lastAck!.node)?.epoch ?? 0;
      cycles.push({ cycle: c, ackedBeforeKill, failoverMs, epoch });
      log(`cycle ${c}: killed ${victim.name} after ${ackedBeforeKill} orders; ${lastAck!.node.name} took writes ${failoverMs} ms later (epoch ${epoch})`);
      await new Promise<void>((r) => { if (victim.proc!.exitCode !== null || victim.proc!.signalCode !== null) r(); else victim.proc!.once('exit', () => r()); });
      restarts.push(start(victim, true));
    }
    await Promise.all(restarts);
    await sleep(300);
  } finally {
    stopped = true;
    await writers;
    await monitor;
  }
  try {
    return await audit(o, nodes, [...acked], cancelled, cycles);
  } finally {
    for (const n of nodes) if (n.proc?.exitCode === null && n.proc.signalCode === null) n.proc.kill('SIGKILL');
  }
}

/** The end-of-run checks (module header). */
async function audit(o: FailoverCyclesOptions, nodes: readonly Node[], acked: readonly string[], cancelled: readonly { id: string; user: User }[],
  cycles: readonly FailoverCycle[]): Promise<FailoverReport> {
  const hashOf = async (n: Node): Promise<{ seq: number; state_hash: string }> =>
    (await call(n.port, 'GET', '/sim/state_hash')).body as { seq: number; state_hash: string };
  let target = { seq: -1, state_hash: '' };
  await until('every node to reach one seq', async () => {
    const hs = await Promise.all(nodes.map(hashOf));
    target = hs.reduce((a, b) => (b.seq > a.seq ? b : a));
    return hs.every((h) => h.seq === target.seq);
  }, 60_000, () => nodes.map((n) => `\n--- ${n.name}:\n${n.log.slice(-2000)}`).join(''));
  const hashes = await Promise.all(nodes.map(hashOf));
  for (const [i, h] of hashes.entries()) {
    if (h.state_hash !== target.state_hash) throw new Error(`${nodes[i]!.name} ends at ${h.state_hash}, another at ${target.state_hash} (seq ${h.seq})`);
  }

  // The stream, read and replayed offline: epochs, the orders in it, the state it folds to.
  const ls = await openLogStream({ type: 'jetstream', servers: o.servers, stream: o.stream });
  const counts = new Map<string, number>();
  const epochs: number[] = [];
  const engine = new InlineEngine(simulatorSetup(failoverExchange()).definition, { clock: new SimClock(0) });
  try {
    const last = await ls.lastSeq();
    let scanner = new RecordScanner(0);
    let epoch = 0;
    let applied = 0;
    const cmd = new Command();
    for (let s = 2; s <= last; s++) {
      const m = (await ls.jsm.streams.getMessage(o.stream, { seq: s }))!;
      const kind = m.header.get('Rm-Kind');
      const e = Number(m.header.get('Rm-Epoch'));
      if (kind === 'epoch') {
        if (e <= epoch) throw new Error(`epoch ${e} at stream seq ${s} after epoch ${epoch}`);
        epoch = e;
        epochs.push(e);
        scanner = new RecordScanner(0);
        continue;
      }
      if (kind !== 'batch' || e < epoch) continue;
      scanner.scan(m.data, 0, m.data.length, 0, (c) => {
        if (c.seq <= applied) return;
        if (c.seq !== applied + 1) throw new Error(`stream seq ${s}: engine seq ${c.seq} after ${applied}`);
        cmd.copyFrom(c);
        if (cmd.type === CommandType.PlaceOrder) counts.set(cmd.text, (counts.get(cmd.text) ?? 0) + 1);
        engine.apply(cmd);
        engine.sequencer.resumeAfter(cmd.seq);
        applied = cmd.seq;
      });
    }
    if (applied !== target.seq) throw new Error(`the stream holds engine seqs up to ${applied}, the nodes are at ${target.seq}`);
  } finally {
    await ls.close();
  }
  const lost = acked.filter((t) => counts.get(t) !== 1);
  if (lost.length > 0) throw new Error(`${lost.length} acknowledged orders not exactly once in the stream: ${lost.slice(0, 5).map((t) => `${t}×${counts.get(t) ?? 0}`).join(', ')}`);
  const twice = [...counts].filter(([, n]) => n > 1);
  if (twice.length > 0) throw new Error(`orders in the stream twice: ${twice.slice(0, 5).map(([t]) => t).join(', ')}`);
  if (epochs.length < cycles.length + 1) throw new Error(`${epochs.length} epochs for ${cycles.length} takeovers`);
  const offline = engine.stateHash();
  if (offline !== target.state_hash) throw new Error(`offline replay of the stream ends at ${offline}, the nodes at ${target.state_hash}`);
  for (const n of nodes) {
    for (const c of cancelled) {
      const r = await call(n.port, 'GET', `/api/v4/spot/orders/${c.id}`, { user: c.user, query: 'currency_pair=BTC_USDT' });
      if (r.status !== 200 || (r.body as J).status !== 'cancelled') {
        throw new Error(`${n.name}: order ${c.id}, whose cancel was acknowledged, reads ${r.status} ${JSON.stringify(r.body)}`);
      }
    }
  }
  return { cycles, ordersAcked: acked.length, cancelsAcked: cancelled.length, epochs, seq: target.seq, stateHash: target.state_hash };
}
