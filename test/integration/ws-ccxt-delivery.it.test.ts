// Unchanged ccxt.pro (gate class) on a delivery contract over /v4/ws/delivery/usdt: its `future` urls override,
// watchOrderBook equal to the REST book after a trade and a cancel, watchTrades with the trade; the delivery socket
// knows only delivery contracts, and refuses private channels (not served there).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { type Simulator, startSimulator } from '../../src/main.js';
import { DELIVERY_CONFIG, simPost, WEEKLY } from '../api/delivery-helpers.js';
import { futuresCaller, type J } from '../api/futures-helpers.js';
import { plainFetch } from '../api/http-helpers.js';
import { restUrls } from '../support/clients.js';
import { TestSocket } from '../api/ws/ws-client.js';

const S = 'BTC/USDT:USDT-260605';
let sim: Simulator;
const clients: { close(): Promise<unknown> }[] = [];

beforeAll(async () => {
  sim = await startSimulator(DELIVERY_CONFIG, { host: '127.0.0.1', port: 0 });
  expect((await simPost(sim, '/sim/futures/prices', { contract: WEEKLY, index: '60000' })).status).toBe(200);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await sim.close();
});

const within = <T>(p: Promise<T>, ms: number): Promise<T> => Promise.race([p,
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not resolved within ${ms} ms`)), ms))]);
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

  it('knows only delivery contracts, and no private channel', async () => {
    const sock = await TestSocket.open(sim.server.port, '/v4/ws/delivery/usdt');
    let id = 0;
    const ask = (channel: string, payload: unknown[]): Promise<J> =>
      sock.request({ id: ++id, time: Math.floor(Date.now() / 1000), channel, event: 'subscribe', payload });
    try {
      expect((await ask('futures.trades', [WEEKLY])).result).toMatchObject({ status: 'success' });
      expect((await ask('futures.trades', ['BTC_USDT'])).error).toBeTruthy();
      expect((await ask('futures.orders', ['10001', WEEKLY])).error).toBeTruthy();
    } finally {
      sock.close();
    }
  });
});
