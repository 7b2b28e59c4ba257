// The replicated log on a three-server JetStream cluster (R3) on loopback: while four writers send signed
// orders, the NATS server leading the stream is killed with SIGKILL. The log survives on the other two:
// the ringmatch leader keeps its lease and its epoch and acknowledges writes again once JetStream has a new
// stream leader; every order acknowledged at any point is in the stream exactly once, nothing is in it twice,
// and the follower reaches the leader's state hash.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Command, CommandType } from '../../src/core/command.js';
import { RecordScanner } from '../../src/engine/journal/reader.js';
import { type LogStream, openLogStream } from '../../src/engine/replication/log-stream.js';
import type { ReplicatedNode } from '../../src/sim/follower-node.js';
import { plainFetch, signedFetch } from '../api/http-helpers.js';
import { type NatsServer, startNatsCluster } from '../support/nats-server.js';
import { replicationEnv, until as waitUntil } from './replication-env.js';

type J = Record<string, unknown>;
let cluster: NatsServer[] = [];
const env = replicationEnv('r3', async () => (cluster = await startNatsCluster(3)));
const t0 = Date.now();
const lines: string[] = [];
const note = (m: string): void => {
  const line = `${String(Date.now() - t0).padStart(6)} ${m}`;
  lines.push(line);
  if (process.env.RM_NATS_LOG !== undefined) appendFileSync(join(process.env.RM_NATS_LOG, 'nodes.log'), `${line}\n`);
};
/** A bounded wait whose failure carries the nodes' log lines. */
const until = (what: string, ok: () => Promise<boolean> | boolean, ms = 20_000): Promise<number> => waitUntil(what, ok, ms, () => `\n${lines.join('\n')}`);

const servers = (): string[] => env.servers();
const hashOf = async (port: number): Promise<J> => (await plainFetch(port, '/sim/state_hash')).body as J;
const order = (port: number, body: J, key: string, secret: string) =>
  signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: JSON.stringify({ currency_pair: 'BTC_USDT', ...body }), key, secret });
const node = (name: string, follow: boolean): Promise<[ReplicatedNode, number]> =>
  env.node(name, 'r3', follow, { replicas: 3, checkpoint_every: 20 }, (m) => note(`${name}: ${m}`));

describe('the replicated log on a 3-server JetStream cluster', () => {
  it('SIGKILL of the NATS server leading the stream under load: the leader keeps writing; nothing lost or doubled', async () => {
    // The cluster elects its JetStream meta leader after start: the first node retries until it can create the stream.
    let a: ReplicatedNode | undefined;
    let ap = 0;
    await until('the first node to start', async () => { [a, ap] = await node('a', false); return true; }, 30_000);
    await until('a to lead', () => a!.role === 'leader');
    const [b, bp] = await node('b', true);

    const acked: string[] = [];
    let killedAt = 0;
    let firstAfterKill = 0;
    let ackedAfterKill = 0;
    let stop = false;
    /** One writer: orders to the leader, one at a time, until stopped (bounded in count). */
    const writer = async (w: number): Promise<void> => {
      const [key, secret] = w % 2 === 0 ? ['k1', 's1'] : ['k2', 's2'];
      for (let i = 0; i < 3000 && !stop; i++) {
        const text = `t-${w}-${i}`;
        const sell = (w + i) % 2 === 0;
        const sentAfterKill = killedAt > 0;
        const r = await order(ap, { side: sell ? 'sell' : 'buy', amount: '0.001', price: String(sell ? 60000 + (i % 5) : 60000 - (i % 3)), text },
          key, secret).catch((e: unknown) => ({ status: 0, body: String(e) }));
        if (r.status === 201) {
          acked.push(text);
          if (sentAfterKill) {
            ackedAfterKill++;
            if (firstAfterKill === 0) firstAfterKill = Date.now() - killedAt;
          }
        } else {
          note(`writer ${w}: ${r.status} ${JSON.stringify(r.body)}`);
          await new Promise((res) => setTimeout(res, 100));
        }
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(writer));
    await until('load before the kill', () => acked.length >= 100, 30_000);

    const ls: LogStream = await openLogStream({ type: 'jetstream', servers: servers(), stream: 'r3' });
    const leaderName = (await ls.jsm.streams.info('r3')).cluster?.leader;
    await ls.close();
    const victim = cluster.find((_, k) => `rm-${k}` === leaderName)!;
    expect(victim, `stream leader ${leaderName}`).toBeDefined();
    victim.process.kill('SIGKILL');
    killedAt = Date.now();
    note(`killed NATS stream leader ${leaderName} with ${acked.length} orders acknowledged`);
    await until('writes acknowledged again after the kill', () => ackedAfterKill >= 100, 45_000);
    stop = true;
    await load;

    // The same ringmatch leader kept writing: one epoch in the stream, no failover of the engine.
    expect(a!.role).toBe('leader');
    expect(b.role).toBe('follower');
    const live = cluster.filter((s) => s !== victim).map((s) => s.url);
    // JetStream's meta leader may still be in election (it was on the killed server too): retried until it answers.
    let check: LogStream | undefined;
    await until('JetStream to answer on the live servers', async () => {
      check = await openLogStream({ type: 'jetstream', servers: live, stream: 'r3' });
      return true;
    }, 30_000);
    if (check === undefined) throw new Error('unreachable');
    try {
      const last = await check.lastSeq();
      const counts = new Map<string, number>();
      const epochs: string[] = [];
      let scanner = new RecordScanner(0);
      for (let s = 2; s <= last; s++) {
        const m = (await check.jsm.streams.getMessage('r3', { seq: s }))!;
        if (m.header.get('Rm-Kind') === 'epoch') { epochs.push(m.header.get('Rm-Epoch')); scanner = new RecordScanner(0); }
        if (m.header.get('Rm-Kind') !== 'batch') continue;
        scanner.scan(m.data, 0, m.data.length, 0, (c) => {
          if (c.type === CommandType.PlaceOrder) { const t = new Command().copyFrom(c).text; counts.set(t, (counts.get(t) ?? 0) + 1); }
        });
      }
      expect(epochs).toEqual(['1']);
      for (const t of acked) expect(counts.get(t), t).toBe(1);
      expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    } finally {
      await check.close();
    }
    const target = await hashOf(ap);
    await until('the follower to reach the leader', async () => (await hashOf(bp)).seq === target.seq, 30_000);
    expect((await hashOf(bp)).state_hash).toBe(target.state_hash);
    const publisher = a!.status().publisher as J;
    note(`R3: NATS stream leader ${leaderName} killed; the first order sent after it was acknowledged ${firstAfterKill} ms after the kill; `
      + `${acked.length} orders acknowledged; publisher retries ${String(publisher.retries)}, follower consumer restarts `
      + `${String((b.status().follower as J).consumer_restarts)}`);
    console.log(lines.at(-1));
  }, 150_000);
});
