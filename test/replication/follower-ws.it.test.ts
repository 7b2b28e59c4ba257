// WebSocket subscribers of a follower see what subscribers of the leader see: with the same subscriptions
// open on both before the load (public trades, book increments of both book channels, best levels, tickers,
// candles; a user's orders, trades and balances), a seeded run of signed orders and cancels on the leader
// produces, on the follower, exactly the same sequence of update frames, byte for byte once parsed, in the
// same order, channels interleaved as on the leader. Push times are the commands' (engine clock), so nothing
// in a frame depends on when a node applied it.
import { afterAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import { plainFetch, signedFetch } from '../api/http-helpers.js';
import { type Frame, nowS, subAuth, TestSocket } from '../api/ws/ws-client.js';
import { replicationEnv, until } from './replication-env.js';

type J = Record<string, unknown>;
const env = replicationEnv('follower-ws');
const sockets: TestSocket[] = [];
afterAll(() => { for (const s of sockets) s.close(); });
const node = (name: string, follow: boolean) => env.node(name, 'ws_same', follow, { checkpoint_every: 25 });

const PUBLIC: [string, string[]][] = [
  ['spot.trades', ['BTC_USDT']], ['spot.obu', ['ob.BTC_USDT.50']], ['spot.order_book_update', ['BTC_USDT', '100ms']],
  ['spot.book_ticker', ['BTC_USDT']], ['spot.tickers', ['BTC_USDT']], ['spot.candlesticks', ['1m', 'BTC_USDT']],
];
const PRIVATE: [string, string[]][] = [['spot.orders', ['!all']], ['spot.usertrades', ['!all']], ['spot.balances', []]];

/** A socket on `port` with every channel above subscribed (the private ones as user k1); resolves once all are confirmed. */
async function subscribed(port: number): Promise<TestSocket> {
  const s = await TestSocket.open(port);
  sockets.push(s);
  let id = 1;
  for (const [channel, payload] of PUBLIC) {
    const r = await s.request({ id: id++, time: nowS(), channel, event: 'subscribe', payload });
    expect(r.result, channel).toEqual({ status: 'success' });
  }
  for (const [channel, payload] of PRIVATE) {
    const time = nowS();
    const r = await s.request({ id: id++, time, channel, event: 'subscribe', payload, auth: subAuth('k1', 's1', channel, 'subscribe', time) });
    expect(r.result, channel).toEqual({ status: 'success' });
  }
  return s;
}

/** Frames a socket has received once no new one came for `quietMs`. */
async function settled(s: TestSocket, quietMs = 400): Promise<Frame[]> {
  let n = -1;
  while (n !== s.frames.length) {
    n = s.frames.length;
    await new Promise((r) => setTimeout(r, quietMs));
  }
  return s.frames;
}

describe('WebSocket pushes on a follower', () => {
  it('are the leader\'s update frames, all of them, in the same order', async () => {
    const [leader, lp] = await node('wl', false);
    await until('leadership', () => leader.role === 'leader');
    const [, fp] = await node('wf', true);
    const onLeader = await subscribed(lp);
    const onFollower = await subscribed(fp);
    // The first pushes (book snapshots, tickers at subscription time) are taken at the wall clock of each node:
    // the comparison starts after them.
    await Promise.all([settled(onLeader), settled(onFollower)]);
    const from = [onLeader.frames.length, onFollower.frames.length] as const;

    const rng = new Prng(11);
    const open: { id: string; key: string; secret: string }[] = [];
    for (let i = 0; i < 160; i++) {
      const [key, secret] = i % 2 === 0 ? ['k1', 's1'] : ['k2', 's2'];
      if (open.length > 4 && rng.nextInt(4) === 0) {
        const o = open.splice(rng.nextInt(open.length), 1)[0]!;
        const r = await signedFetch(lp, { method: 'DELETE', path: `/api/v4/spot/orders/${o.id}`, query: 'currency_pair=BTC_USDT', key: o.key, secret: o.secret });
        expect([200, 400, 404]).toContain(r.status);
        continue;
      }
      const buy = rng.nextInt(2) === 0;
      const price = String(60_000 + (buy ? -1 : 1) * (rng.nextInt(8) - 2) * 5);
      const r = await signedFetch(lp, { method: 'POST', path: '/api/v4/spot/orders', key, secret,
        body: JSON.stringify({ currency_pair: 'BTC_USDT', side: buy ? 'buy' : 'sell', amount: String((1 + rng.nextInt(3)) / 1000), price, text: `t-ws-${i}` }) });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      if ((r.body as J).status === 'open') open.push({ id: String((r.body as J).id), key, secret });
    }
    const target = ((await plainFetch(lp, '/sim/state_hash')).body as J).seq;
    await until('the follower to apply everything', async () => ((await plainFetch(fp, '/sim/state_hash')).body as J).seq === target);

    const updates = (frames: Frame[], start: number): Frame[] => frames.slice(start).filter((f) => f.event === 'update');
    const l = updates(await settled(onLeader), from[0]);
    const f = updates(await settled(onFollower), from[1]);
    const count = (fs: Frame[], channel: string): number => fs.filter((x) => x.channel === channel).length;
    for (const [channel] of [...PUBLIC, ...PRIVATE]) expect(count(l, channel), channel).toBeGreaterThan(5);
    expect(f.length).toBe(l.length);
    expect(f).toEqual(l);
  }, 90_000);
});
