// The replicated log on a three-server JetStream cluster (R3) on loopback: while signed orders flow, the NATS
// server leading the stream is killed with SIGKILL. The log survives on the other two: within a bounded time a
// ringmatch leader acknowledges writes again (its publisher may have stepped down and a node re-promoted),
// every order acknowledged at any point is in the stream exactly once, and a follower reaches the leader's
// state hash.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command, CommandType } from '../../src/core/command.js';
import { RecordScanner } from '../../src/engine/journal/reader.js';
import { type LogStream, openLogStream } from '../../src/engine/replication/log-stream.js';
import { type ReplicatedNode, startNode } from '../../src/sim/follower-node.js';
import { plainFetch, signedFetch, TEST_CONFIG } from '../api/http-helpers.js';
import { freePort, type NatsServer, startNatsCluster } from './nats-server.js';

type J = Record<string, unknown>;
let cluster: NatsServer[];
let dir: string;
const nodes: ReplicatedNode[] = [];

beforeAll(async () => {
  cluster = await startNatsCluster(3);
  dir = await mkdtemp(join(tmpdir(), 'ringmatch-r3-'));
});
afterAll(async () => {
  for (const n of nodes) await n.close().catch(() => undefined);
  for (const s of cluster ?? []) await s.stop();
  await rm(dir, { recursive: true, force: true });
});

async function until(what: string, ok: () => Promise<boolean> | boolean, ms = 20_000): Promise<number> {
  const t0 = Date.now();
  while (!(await Promise.resolve().then(ok).catch(() => false))) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - t0;
}

const servers = (): string[] => cluster.map((s) => s.url);
const hashOf = async (port: number): Promise<J> => (await plainFetch(port, '/sim/state_hash')).body as J;
const order = (port: number, body: J) =>
  signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: JSON.stringify({ currency_pair: 'BTC_USDT', ...body }) });

async function node(name: string, follow: boolean): Promise<[ReplicatedNode, number]> {
  const port = await freePort();
  const n = await startNode({ ...TEST_CONFIG, port, engine: { runner: 'inline', journal: join(dir, `${name}.journal`), fsync: 'batch',
    log: { type: 'jetstream', servers: servers(), stream: 'r3', replicas: 3, lease_ms: 1500, checkpoint_every: 20, snapshot_every: 0 } } },
  { host: '127.0.0.1', port, follow, log: () => undefined });
  nodes.push(n);
  return [n, port];
}

describe('the replicated log on a 3-server JetStream cluster', () => {
  it('survives SIGKILL of the NATS server leading the stream: no acknowledged order lost or duplicated', async () => {
    // The cluster elects its JetStream meta leader after start: the first node retries until it can create the stream.
    let a: ReplicatedNode | undefined;
    let ap = 0;
    await until('the first node to start', async () => { [a, ap] = await node('a', false); return true; }, 30_000);
    const [, bp] = await node('b', true);
    await until('a to lead', () => a!.role === 'leader');
    const ports = [ap, bp];

    const acked: string[] = [];
    let i = 0;
    /** One order to whichever node leads now; true when acknowledged. */
    const place = async (): Promise<boolean> => {
      const text = `t-r3-${i++}`;
      for (const p of ports) {
        const r = await order(p, { side: i % 2 === 0 ? 'sell' : 'buy', amount: '0.001', price: '60000', text }).catch(() => undefined);
        if (r?.status === 201) { acked.push(text); return true; }
      }
      return false;
    };
    for (let k = 0; k < 20; k++) expect(await place()).toBe(true);

    const ls: LogStream = await openLogStream({ type: 'jetstream', servers: servers(), stream: 'r3' });
    const leaderName = (await ls.jsm.streams.info('r3')).cluster?.leader;
    await ls.close();
    const victim = cluster.find((_, k) => `rm-${k}` === leaderName)!;
    expect(victim).toBeDefined();
    victim.process.kill('SIGKILL');
    const killedAt = Date.now();
    let recovered = 0;
    for (let k = 0; k < 400 && Date.now() - killedAt < 40_000; k++) {
      if (await place()) { recovered = Date.now() - killedAt; break; }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(recovered, 'writes acknowledged again after the NATS stream leader was killed').toBeGreaterThan(0);
    for (let k = 0; k < 10; k++) expect(await place()).toBe(true);

    const live = servers().filter((u) => u !== victim.url);
    const check = await openLogStream({ type: 'jetstream', servers: live, stream: 'r3' });
    try {
      const last = await check.lastSeq();
      const counts = new Map<string, number>();
      let scanner = new RecordScanner(0);
      for (let s = 2; s <= last; s++) {
        const m = (await check.jsm.streams.getMessage('r3', { seq: s }))!;
        if (m.header.get('Rm-Kind') === 'epoch') scanner = new RecordScanner(0);
        if (m.header.get('Rm-Kind') !== 'batch') continue;
        scanner.scan(m.data, 0, m.data.length, 0, (c) => {
          if (c.type === CommandType.PlaceOrder) { const t = new Command().copyFrom(c).text; counts.set(t, (counts.get(t) ?? 0) + 1); }
        });
      }
      for (const t of acked) expect(counts.get(t), t).toBe(1);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await check.close();
    }
    const leaderPort = a!.role === 'leader' ? ap : bp;
    const followerPort = leaderPort === ap ? bp : ap;
    const target = await hashOf(leaderPort);
    await until('the follower to reach the leader', async () => (await hashOf(followerPort)).seq === target.seq);
    expect((await hashOf(followerPort)).state_hash).toBe(target.state_hash);
    console.log(`R3: NATS stream leader ${leaderName} killed; writes acknowledged again after ${recovered} ms; ${acked.length} orders acknowledged`);
  }, 90_000);
});
