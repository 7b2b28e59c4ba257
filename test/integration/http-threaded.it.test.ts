// The threaded runner (books in a shard worker; the default from 4 cores) against the inline runner over HTTP: the same
// request sequence gives the same replies, book and state hash; a burst of concurrent requests is answered in
// full and leaves the served book equal to the resting orders.
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { Prng } from '../../src/core/prng.js';
import { ThreadedGateway } from '../../src/engine/threaded-gateway.js';
import { plainFetch, signedFetch, startTestSimulator } from '../api/http-helpers.js';

let threaded: Simulator;
let inline: Simulator;
let auto: Simulator;
const CLOCK = { type: 'sim', start_ms: Date.UTC(2026, 2, 1) } as const;
const KEYS: [string, string][] = [['k1', 's1'], ['k2', 's2']];

beforeAll(async () => {
  threaded = await startTestSimulator({ clock: CLOCK, engine: { runner: 'threaded' } });
  auto = await startTestSimulator({ clock: CLOCK });
  inline = await startTestSimulator({ clock: CLOCK, engine: { runner: 'inline' } });
});
afterAll(async () => { await Promise.all([threaded.close(), inline.close(), auto.close()]); });

type Req = { method: string; path: string; query?: string; body?: string; key: string; secret: string };

function randomRequest(r: Prng, live: string[]): Req {
  const [key, secret] = KEYS[r.nextInt(2)]!;
  const roll = r.nextInt(10);
  if (roll < 6 || live.length === 0) {
    const side = r.chance(0.5) ? 'buy' : 'sell';
    const price = String(59_900 + r.nextInt(200));
    const market = r.chance(0.15);
    const body = market
      ? { currency_pair: 'BTC_USDT', type: 'market', side, amount: side === 'buy' ? String(50 + r.nextInt(500)) : '0.001', time_in_force: 'ioc' }
      : { currency_pair: 'BTC_USDT', side, price, amount: (0.0001 * (1 + r.nextInt(50))).toFixed(4),
        time_in_force: ['gtc', 'gtc', 'ioc', 'poc', 'fok'][r.nextInt(5)], ...(r.chance(0.1) ? { iceberg: '0.0001' } : {}) };
    return { method: 'POST', path: '/api/v4/spot/orders', body: JSON.stringify(body), key, secret };
  }
  const id = live[r.nextInt(live.length)]!;
  if (roll < 8) return { method: 'DELETE', path: `/api/v4/spot/orders/${id}`, query: 'currency_pair=BTC_USDT', key, secret };
  return { method: 'PATCH', path: `/api/v4/spot/orders/${id}`, query: 'currency_pair=BTC_USDT', body: JSON.stringify({ price: String(59_900 + r.nextInt(200)) }), key, secret };
}

const stateHash = async (s: Simulator): Promise<string> => ((await plainFetch(s.server.port, '/sim/state_hash')).body as { state_hash: string }).state_hash;
const book = async (s: Simulator): Promise<unknown> => {
  const b = (await plainFetch(s.server.port, '/api/v4/spot/order_book?currency_pair=BTC_USDT&limit=100')).body as Record<string, unknown>;
  return { asks: b.asks, bids: b.bids, id: b.id };
};

describe('threaded runner behind the HTTP front', () => {
  it('is the default runner from 4 cores (inline below), and either is chosen explicitly on any machine', () => {
    expect(threaded.gateway).toBeInstanceOf(ThreadedGateway);
    expect(inline.gateway).not.toBeInstanceOf(ThreadedGateway);
    expect(auto.gateway instanceof ThreadedGateway).toBe(os.availableParallelism() >= 4);
  });

  it('answers a seeded request sequence exactly as the inline runner does', async () => {
    const r = new Prng(77);
    const live: string[] = [];
    for (let i = 0; i < 300; i++) {
      const req = randomRequest(r, live);
      const [a, b] = await Promise.all([signedFetch(threaded.server.port, req), signedFetch(inline.server.port, req)]);
      const strip = (x: unknown): unknown => JSON.parse(JSON.stringify(x, (k, v: unknown) => (k === 'update_time' || k === 'update_time_ms' || k === 'create_time' || k === 'create_time_ms' ? undefined : v)));
      expect([a.status, strip(a.body)], `request ${i}: ${req.method} ${req.path} ${req.body ?? ''}`).toEqual([b.status, strip(b.body)]);
      const o = a.body as { id?: string; status?: string };
      if (req.method === 'POST' && o.status === 'open' && o.id !== undefined) live.push(o.id);
    }
    expect(live.length).toBeGreaterThan(50);
    expect(await book(threaded)).toEqual(await book(inline));
    expect(await stateHash(threaded)).toBe(await stateHash(inline));
  });

  it('answers a burst of concurrent requests and serves the book of the resting orders', async () => {
    const r = new Prng(5);
    const reqs = Array.from({ length: 400 }, () => {
      const [key, secret] = KEYS[r.nextInt(2)]!;
      const side = r.chance(0.5) ? 'buy' : 'sell';
      const body = { currency_pair: 'ETH_USDT', side, price: String(2990 + r.nextInt(20)), amount: '0.01' };
      return { method: 'POST', path: '/api/v4/spot/orders', body: JSON.stringify(body), key, secret };
    });
    const answers = await Promise.all(reqs.map((q) => signedFetch(threaded.server.port, q)));
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const levels = new Map<string, number>();
    for (const [key, secret] of KEYS) {
      const open = (await signedFetch(threaded.server.port, { path: '/api/v4/spot/orders', query: 'currency_pair=ETH_USDT&status=open&limit=100', key, secret })).body as { side: string; price: string; left: string }[];
      for (const o of open) levels.set(`${o.side}:${o.price}`, (levels.get(`${o.side}:${o.price}`) ?? 0) + Math.round(Number(o.left) * 1e4));
    }
    const served = (await plainFetch(threaded.server.port, '/api/v4/spot/order_book?currency_pair=ETH_USDT&limit=100')).body as { asks: string[][]; bids: string[][] };
    const fromBook = new Map<string, number>();
    for (const [side, rows] of [['sell', served.asks], ['buy', served.bids]] as const) for (const [p, l] of rows) fromBook.set(`${side}:${p}`, Math.round(Number(l) * 1e4));
    expect(fromBook).toEqual(levels);
  });
});
