// Unchanged ccxt.pro (gate class) on a delivery contract over /v4/ws/delivery/usdt: its `future` urls override,
// watchOrderBook equal to the REST book after a trade and a cancel, watchTrades with the trade; the private
// channels (watchOrders, watchMyTrades, watchPositions; futures.balances of the delivery account) and order entry
// (createOrderWs, cancelOrderWs) on the same socket; the delivery socket knows only delivery contracts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { type Simulator, startSimulator } from '../../src/main.js';
import { DELIVERY_CONFIG, simPost, WEEKLY } from '../api/delivery-helpers.js';
import { futuresCaller, type J } from '../api/futures-helpers.js';
import { plainFetch } from '../api/http-helpers.js';
import { restUrls } from '../support/clients.js';
import { subAuth, TestSocket } from '../api/ws/ws-client.js';

const S = 'BTC/USDT:USDT-260605';
let sim: Simulator;
const clients: { close(): Promise<unknown> }[] = [];

// User 10001 also holds a BTC delivery account: ccxt's watchPositions first reads a REST snapshot of every
// position of the market type, asking /delivery/btc (its default settle), which answers USER_NOT_FOUND to a user
// without that account, as Gate does.
const CONFIG = { ...DELIVERY_CONFIG, users: DELIVERY_CONFIG.users!.map((u) => (u.uid === 10001
  ? { ...u, balances: { ...u.balances, delivery: { ...u.balances?.delivery, BTC: '0.1' } } } : u)) };

beforeAll(async () => {
  sim = await startSimulator(CONFIG, { host: '127.0.0.1', port: 0 });
  expect((await simPost(sim, '/sim/futures/prices', { contract: WEEKLY, index: '60000' })).status).toBe(200);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await sim.close();
});

const within = <T>(p: Promise<T>, ms: number, what = ''): Promise<T> => Promise.race([p,
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} not resolved within ${ms} ms`)), ms))]);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('ccxt.pro on a delivery contract', () => {
  it('watchOrderBook follows the REST book; watchTrades gets the trade', async () => {
    const ws = `ws://127.0.0.1:${sim.server.port}`;
    const pro = new ccxt.pro.gate({
      apiKey: 'k1', secret: 's1', enableRateLimit: false, timeout: 5000,
      urls: { api: { ...restUrls(sim.server.port), spot: `${ws}/ws/v4/`, future: { usdt: `${ws}/v4/ws/delivery/usdt`, btc: `${ws}/v4/ws/delivery/btc` } } },
      options: { fetchMarkets: { types: ['spot', 'future'] } },
    });
    clients.push(pro);
    await pro.loadHttpProxyAgent(); // ccxt needs an HTTP agent for plain ws:// URLs
    await pro.loadMarkets();
    const call = futuresCaller(sim);
    const place = async (body: J, key?: [string, string]): Promise<J> => {
      const r = await call('POST', '/delivery/usdt/orders', { body: { contract: WEEKLY, tif: 'gtc', ...body }, ...(key === undefined ? {} : { key }) });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body;
    };
    await place({ size: 5, price: '59900' });
    await place({ size: -4, price: '60100' }, ['k2', 's2']);
    const first = await within(pro.watchOrderBook(S), 2000);
    expect(first.bids[0]).toEqual([59900, 5]);
    expect(first.asks[0]).toEqual([60100, 4]);
    const trades = pro.watchTrades(S);
    await sleep(100);
    await place({ size: 2, price: '60100', tif: 'ioc' });
    const got = await within(trades, 2000);
    expect(got[0]).toMatchObject({ symbol: S, price: 60100, amount: 2, side: 'buy' });
    const rest = (await plainFetch(sim.server.port, `/api/v4/delivery/usdt/order_book?contract=${WEEKLY}&with_id=true`)).body as
      { id: number; asks: { p: string; s: number }[] };
    for (let deadline = Date.now() + 3000; (pro.orderbooks[S] as unknown as { nonce?: number }).nonce !== rest.id && Date.now() < deadline;) await sleep(20);
    expect((pro.orderbooks[S] as unknown as { nonce?: number }).nonce).toBe(rest.id);
    expect((pro.orderbooks[S] as unknown as { asks: number[][] }).asks[0]).toEqual([60100, 2]);
  });

  it('watchOrders, watchMyTrades, watchPositions, the delivery account\'s balance pushes; createOrderWs and cancelOrderWs', async () => {
    const ws = `ws://127.0.0.1:${sim.server.port}`;
    const pro = new ccxt.pro.gate({
      apiKey: 'k1', secret: 's1', uid: '10001', enableRateLimit: false, timeout: 5000,
      urls: { api: { ...restUrls(sim.server.port), spot: `${ws}/ws/v4/`, future: { usdt: `${ws}/v4/ws/delivery/usdt`, btc: `${ws}/v4/ws/delivery/btc` } } },
      options: { fetchMarkets: { types: ['spot', 'future'] } },
    });
    clients.push(pro);
    await pro.loadHttpProxyAgent();
    await pro.loadMarkets();
    const call = futuresCaller(sim);
    const account = async (): Promise<J> => {
      const r = await call('GET', '/delivery/usdt/accounts');
      expect(r.status).toBe(200);
      return r.body;
    };
    const before = Number((await account()).total);
    // Order entry on the delivery socket: an order that rests, then its cancel.
    const resting = await within(pro.createOrderWs(S, 'limit', 'buy', 1, 55000), 3000);
    expect(resting).toMatchObject({ symbol: S, side: 'buy', amount: 1, price: 55000, status: 'open' });
    const rest = await call('GET', `/delivery/usdt/orders/${resting.id}`);
    expect(rest.body).toMatchObject({ id: Number(resting.id), contract: WEEKLY, size: 1, status: 'open' });
    const cancelled = await within(pro.cancelOrderWs(resting.id!, S), 3000);
    expect(cancelled).toMatchObject({ id: resting.id, status: 'canceled' });

    // The first watchPositions answers ccxt's REST snapshot; later ones the pushes.
    await within(pro.watchPositions([S]), 3000, 'positions snapshot');
    const orders = pro.watchOrders(S);
    const trades = pro.watchMyTrades(S);
    const positions = pro.watchPositions([S]);
    // ccxt.pro's watchBalance({type: 'future'}) waits under 'future.balance' while its handler resolves every
    // futures.balances push under 'swap.balance', so it cannot resolve on any delivery socket; the push is read raw.
    const sock = await TestSocket.open(sim.server.port, '/v4/ws/delivery/usdt');
    const time = Math.floor(Date.now() / 1000);
    const sub = await sock.request({ id: 1, time, channel: 'futures.balances', event: 'subscribe', payload: ['10001'],
      auth: subAuth('k1', 's1', 'futures.balances', 'subscribe', time) });
    expect(sub.result).toMatchObject({ status: 'success' });
    await sleep(300);
    const maker = await call('POST', '/delivery/usdt/orders', { body: { contract: WEEKLY, size: -3, price: '60200', tif: 'gtc' }, key: ['k2', 's2'] });
    expect(maker.status).toBe(201);
    const taker = await within(pro.createOrderWs(S, 'limit', 'buy', 3, 60200), 3000, 'createOrderWs');
    const seen = await within(orders, 2000, 'watchOrders');
    expect(seen.find((o) => o.id === taker.id)).toMatchObject({ symbol: S, side: 'buy', amount: 3, filled: 3, status: 'closed' });
    // The taker meets the ask the first test left (2 at 60100) before the new one (1 of 3 at 60200).
    const mine = (await within(trades, 2000, 'watchMyTrades')).filter((t) => t.order === taker.id);
    expect(mine.length).toBeGreaterThan(0);
    for (const t of mine) expect(t).toMatchObject({ symbol: S, side: 'buy', takerOrMaker: 'taker' });
    expect(mine[0]).toMatchObject({ amount: 2, price: 60100 });
    const got = await within(positions, 2000, 'watchPositions');
    const pos = (await call('GET', `/delivery/usdt/positions/${WEEKLY}`)).body;
    expect(got.find((p) => p.symbol === S)).toMatchObject({ side: 'long' });
    expect(Number(pos.size)).toBeGreaterThanOrEqual(3);
    const push = await sock.next((f) => f.channel === 'futures.balances' && f.event === 'update');
    sock.close();
    // The delivery account's fee entry and balance, as REST's account book and account read them.
    const after = Number((await account()).total);
    expect(after).toBeLessThan(before);
    const rows = push.result as { balance: number; change: number; type: string; user: string; currency: string }[];
    expect(rows.at(-1)).toMatchObject({ balance: after, type: 'fee', user: '10001', currency: 'USDT' });
    expect(rows.at(-1)!.change).toBeLessThan(0);
  });

  it('knows only delivery contracts; private channels need a signature', async () => {
    const sock = await TestSocket.open(sim.server.port, '/v4/ws/delivery/usdt');
    let id = 0;
    const ask = (channel: string, payload: unknown[]): Promise<J> =>
      sock.request({ id: ++id, time: Math.floor(Date.now() / 1000), channel, event: 'subscribe', payload });
    try {
      expect((await ask('futures.trades', [WEEKLY])).result).toMatchObject({ status: 'success' });
      expect((await ask('futures.trades', ['BTC_USDT'])).error).toBeTruthy();
      // Served, but private: an unsigned subscription is refused.
      expect((await ask('futures.orders', ['10001', WEEKLY])).error).toMatchObject({ message: expect.stringMatching(/auth|sign|key/i) as unknown });
    } finally {
      sock.close();
    }
  });
});
