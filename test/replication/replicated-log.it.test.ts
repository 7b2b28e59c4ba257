// The replicated command log on a real nats-server: a leader and a follower (each a whole simulator node)
// apply the same commands to one state hash, the follower verifies the leader's checkpoints, serves public and
// private reads, and answers writes with 403 READ_ONLY naming the leader; the stream holds the journal's
// framed records unchanged, one message per group-commit batch, each with its epoch. ccxt.pro on the follower
// sees the leader's trades and a user's orders over the WebSocket, and its writes are refused with READ_ONLY.
import { describe, expect, it } from 'vitest';
import { Command } from '../../src/core/command.js';
import { RecordScanner } from '../../src/engine/journal/reader.js';
import { openLogStream } from '../../src/engine/replication/log-stream.js';
import { plainFetch, signedFetch } from '../api/http-helpers.js';
import { ccxtProGate } from '../support/clients.js';
import { replicationEnv, until } from './replication-env.js';

type J = Record<string, unknown>;
const env = replicationEnv('repl');
const node = (name: string, stream: string, follow: boolean, snapshotEvery = 0, log?: (m: string) => void) =>
  env.node(name, stream, follow, { snapshot_every: snapshotEvery }, log);

const order = (port: number, body: J, key = 'k1', secret = 's1') =>
  signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders', body: JSON.stringify({ currency_pair: 'BTC_USDT', ...body }), key, secret });
const hashOf = async (port: number): Promise<J> => (await plainFetch(port, '/sim/state_hash')).body as J;
const replication = async (port: number): Promise<J> => (await plainFetch(port, '/sim/replication')).body as J;

describe('replicated command log (JetStream)', () => {
  it('leader and follower reach one state hash; the follower verifies checkpoints and refuses writes', async () => {
    const [leader, lp] = await node('l1', 'repl_a', false);
    await until('leadership', () => leader.role === 'leader');
    const [follower, fp] = await node('f1', 'repl_a', true);
    expect(follower.role).toBe('follower');

    for (let i = 0; i < 12; i++) {
      const r = await order(lp, { side: i % 2 === 0 ? 'sell' : 'buy', amount: '0.001', price: String(60000 + (i % 3) * 10), text: `t-r${i}` },
        i % 2 === 0 ? 'k1' : 'k2', i % 2 === 0 ? 's1' : 's2');
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const lh = await hashOf(lp);
    await until('the follower to catch up', async () => (await hashOf(fp)).seq === lh.seq);
    expect((await hashOf(fp)).state_hash).toBe(lh.state_hash);

    const rs = await replication(fp);
    expect(rs).toMatchObject({ role: 'follower', leader: { address: `http://127.0.0.1:${lp}`, epoch: 1 } });
    expect((rs.follower as J).checkpoints_verified).toBeGreaterThan(0);
    expect((rs.follower as J).failure).toBeNull();
    expect(await replication(lp)).toMatchObject({ role: 'leader', epoch: 1, publisher: { failure: null } });

    // Reads on the follower: public book and trades, private orders of a user.
    const book = async (p: number) => (await plainFetch(p, '/api/v4/spot/order_book?currency_pair=BTC_USDT&limit=10')).body as J;
    expect((await book(fp)).asks).toEqual((await book(lp)).asks);
    const mine = async (p: number) => (await signedFetch(p, { path: '/api/v4/spot/orders', query: 'currency_pair=BTC_USDT&status=open' })).body;
    expect(await mine(fp)).toEqual(await mine(lp));

    // A write on the follower: 403 READ_ONLY naming the leader, nothing applied.
    const refused = await order(fp, { side: 'buy', amount: '0.001', price: '100' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ label: 'READ_ONLY' });
    expect((refused.body as J).message).toContain(`http://127.0.0.1:${lp}`);
    expect((await hashOf(fp)).state_hash).toBe(lh.state_hash);

    // The stream: a header, the first leader's epoch message, then batches of framed journal records, every one of epoch 1, seqs contiguous.
    const ls = await openLogStream({ type: 'jetstream', servers: env.servers(), stream: 'repl_a' });
    try {
      const last = await ls.lastSeq();
      const seqs: number[] = [];
      const scanner = new RecordScanner(0);
      const copy = new Command();
      expect((await ls.jsm.streams.getMessage('repl_a', { seq: 1 }))!.header.get('Rm-Kind')).toBe('header');
      const epoch = (await ls.jsm.streams.getMessage('repl_a', { seq: 2 }))!;
      expect([epoch.header.get('Rm-Kind'), epoch.header.get('Rm-Epoch')]).toEqual(['epoch', '1']);
      for (let s = 3; s <= last; s++) {
        const m = (await ls.jsm.streams.getMessage('repl_a', { seq: s }))!;
        expect(m.header.get('Rm-Kind')).toBe('batch');
        expect(m.header.get('Rm-Epoch')).toBe('1');
        expect(m.header.get('Nats-Msg-Id')).toBe(`1:${m.header.get('Rm-First-Seq')}`);
        scanner.scan(m.data, 0, m.data.length, 0, (c) => { seqs.push(copy.copyFrom(c).seq); });
        expect(scanner.reason).toBeUndefined();
      }
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      expect(seqs.at(-1)).toBe(lh.seq);
    } finally {
      await ls.close();
    }
  }, 60_000);

  it('serves the WebSocket channels on the follower to unchanged ccxt.pro, and refuses its writes', async () => {
    const [leader, lp] = await node('l2', 'repl_ws', false);
    await until('leadership', () => leader.role === 'leader');
    const [, fp] = await node('f2', 'repl_ws', true);
    const alice = ccxtProGate(fp, 'k1', 's1');
    try {
      // ccxt needs an HTTP agent for plain ws:// URLs (its documented loadHttpProxyAgent step).
      await alice.loadHttpProxyAgent();
      await alice.loadMarkets();
      const trades = alice.watchTrades('BTC/USDT');
      const orders = alice.watchOrders('BTC/USDT');
      await new Promise((r) => setTimeout(r, 300));
      expect((await order(lp, { side: 'sell', amount: '0.002', price: '60000', text: 't-ws-a' })).status).toBe(201);
      expect((await order(lp, { side: 'buy', amount: '0.001', price: '60000', text: 't-ws-b' }, 'k2', 's2')).status).toBe(201);
      const timeout = <T>(p: Promise<T>): Promise<T> => Promise.race([p, new Promise<T>((_, no) => setTimeout(() => no(new Error('no push')), 5000))]);
      const got = await timeout(trades);
      expect(got.at(-1)).toMatchObject({ symbol: 'BTC/USDT', price: 60000, amount: 0.001 });
      const mine = await timeout(orders);
      expect(mine.some((o) => o.clientOrderId === 't-ws-a')).toBe(true);
      await expect(alice.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 100)).rejects.toThrow(/READ_ONLY/);
    } finally {
      await alice.close();
    }
  }, 60_000);

  it('a lone leader stores snapshots; restarted, it starts from the newest plus the stream after it', async () => {
    const [first, p1] = await node('l3', 'repl_snap', false, 5);
    await until('leadership', () => first.role === 'leader');
    for (let i = 0; i < 14; i++) {
      expect((await order(p1, { side: i % 2 === 0 ? 'sell' : 'buy', amount: '0.001', price: '60000', text: `t-s${i}` },
        i % 2 === 0 ? 'k1' : 'k2', i % 2 === 0 ? 's1' : 's2')).status).toBe(201);
    }
    const before = await hashOf(p1);
    const ls = await openLogStream({ type: 'jetstream', servers: env.servers(), stream: 'repl_snap' });
    await until('a snapshot in the store', async () => (await ls.snapshots.list()).some((i) => !i.deleted));
    await ls.close();
    await first.close();

    const lines: string[] = [];
    const [again, p2] = await node('l3', 'repl_snap', false, 5, (m) => lines.push(m));
    await until('leadership again', () => again.role === 'leader');
    expect(await hashOf(p2)).toEqual(before);
    expect(lines.some((l) => /starting from snapshot snapshot-\d+\.rms/.test(l)), lines.join('\n')).toBe(true);
    expect(lines.some((l) => /moved the local journal aside/.test(l))).toBe(true);
    expect((await order(p2, { side: 'sell', amount: '0.001', price: '61000', text: 't-s-after' })).status).toBe(201);
  }, 60_000);
});
