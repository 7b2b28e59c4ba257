// Unchanged ccxt.pro (gate class, default options: it loads spot, swap, future and option markets) on option
// contracts over /v4/ws/options/usdt. Public watches read `urls.api.option` as a map per settle; the private ones
// read it as one URL (ccxt's getUrlByMarketType returns the map unchanged for options, against Gate alike), so a
// second instance gives it the string `/v4/ws/op-ws/usdt` (with `op-`, which its watchPositions needs to know the
// connection's market type). watchOrderBook equal to the REST book after trades and cancels (plain and journaled),
// watchTrades, watchBidsAsks; watchTicker and createOrderWs are refused as by Gate (ccxt asks for options.tickers, which Gate's options
// socket does not have; nor does it take orders); watchOrders, watchMyTrades, watchPositions and watchBalance with
// exact values.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prng } from '../../src/core/prng.js';
import type { Simulator } from '../../src/main.js';
import type { Call, J } from '../api/futures-helpers.js';
import { plainFetch } from '../api/http-helpers.js';
import { CALL, OPTIONS_CONFIG, startIndexed } from '../api/options-helpers.js';
import { type CcxtProGate, restUrls } from '../support/clients.js';

const SYMBOL = 'BTC/USDT:USDT-260102-60000-C';
const B: [string, string] = ['k2', 's2'];
const clients: CcxtProGate[] = [];

/** ccxt.pro for the simulator at `port`: `option` the options socket URLs (a settle map, or one URL for private watches). */
async function pro(port: number, option: string | Record<string, string>, uid?: string): Promise<CcxtProGate> {
  const ws = `ws://127.0.0.1:${port}`;
  const c = new ccxt.pro.gate({
    apiKey: 'k1', secret: 's1', ...(uid === undefined ? {} : { uid }), enableRateLimit: false, timeout: 5000,
    urls: { api: { ...restUrls(port), spot: `${ws}/ws/v4/`, swap: { usdt: `${ws}/v4/ws/fx/usdt`, btc: `${ws}/v4/ws/fx/btc` }, option } },
  });
  clients.push(c);
  await c.loadHttpProxyAgent(); // ccxt needs an HTTP agent for plain ws:// URLs
  await c.loadMarkets();
  return c;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const within = <T>(p: Promise<T>, ms: number, what = ''): Promise<T> => Promise.race([p,
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} not resolved within ${ms} ms`)), ms))]);
const rejected = async (p: Promise<unknown>, ms: number): Promise<string> => {
  try {
    await within(p, ms);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a rejection');
};

describe.each([['plain', false], ['journaled', true]] as const)('ccxt.pro public watches on an option (%s)', (_name, journaled) => {
  const dir = mkdtempSync(join(tmpdir(), 'ringmatch-ws-op-ccxt-'));
  let sim: Simulator;
  let call: Call;
  beforeAll(async () => {
    const engine = journaled ? { journal: join(dir, 'options.journal'), fsync: 'batch' as const } : OPTIONS_CONFIG.engine;
    ({ sim, call } = await startIndexed({ ...OPTIONS_CONFIG, engine }));
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) await c.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const place = async (body: J, key?: [string, string]): Promise<J> => {
    const r = await call('POST', '/options/orders', { body: { contract: CALL, tif: 'gtc', ...body }, key });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  const restBook = async (): Promise<{ id: number; bids: number[][]; asks: number[][] }> => {
    const b = (await plainFetch(sim.server.port, `/api/v4/options/order_book?contract=${CALL}&limit=50&with_id=true`)).body as
      { id: number; bids: { p: string; s: number }[]; asks: { p: string; s: number }[] };
    const side = (l: { p: string; s: number }[]): number[][] => l.map((x) => [Number(x.p), x.s]);
    return { id: b.id, bids: side(b.bids), asks: side(b.asks) };
  };

  it('watchOrderBook equals the REST book through trades and cancels; watchTrades and watchBidsAsks follow; watchTicker is refused', async () => {
    const ws = `ws://127.0.0.1:${sim.server.port}`;
    const c = await pro(sim.server.port, { usdt: `${ws}/v4/ws/options/usdt`, btc: `${ws}/v4/ws/options/btc` });
    expect(c.market(SYMBOL)).toMatchObject({ id: CALL, type: 'option' });
    await place({ size: 3, price: '2400' });
    await place({ size: -2, price: '2600' }, B);
    // A quiet market: the first book arrives without a further change.
    const first = await within(c.watchOrderBook(SYMBOL), 2000, 'watchOrderBook');
    expect(first.bids[0]).toEqual([2400, 3]);
    expect(first.asks[0]).toEqual([2600, 2]);
    const book = (): { nonce?: number; bids: number[][]; asks: number[][] } => c.orderbooks[SYMBOL] as never;
    const synced = async (where: string): Promise<void> => {
      const rest = await restBook();
      for (let deadline = Date.now() + 3000; book().nonce !== rest.id && Date.now() < deadline;) await sleep(20);
      expect(book().nonce, where).toBe(rest.id);
      expect(book().bids.map(([p, a]) => [p, a]), where).toEqual(rest.bids);
      expect(book().asks.map(([p, a]) => [p, a]), where).toEqual(rest.asks);
    };
    await synced('first');
    const trades = c.watchTrades(SYMBOL);
    const bidsAsks = c.watchBidsAsks([SYMBOL]);
    await sleep(100);
    await place({ size: 1, price: '2600', tif: 'ioc' });
    const got = await within(trades, 2000, 'watchTrades');
    expect(got.at(-1)).toMatchObject({ symbol: SYMBOL, price: 2600, amount: 1, side: 'buy' });
    const top = await within(bidsAsks, 2000, 'watchBidsAsks');
    expect(top[SYMBOL]).toMatchObject({ symbol: SYMBOL });
    await synced('after a trade');
    // Orders at many levels, then cancels of some.
    const ids: unknown[] = [];
    for (let i = 1; i <= 8; i++) ids.push((await place({ size: i, price: String(2300 - i * 10) })).id);
    for (let i = 1; i <= 4; i++) await place({ size: -i, price: String(2700 + i * 10) }, B);
    for (const id of ids.slice(0, 4)) expect((await call('DELETE', `/options/orders/${String(id)}`)).status).toBe(200);
    await synced('after placements and cancels');
    // Seeded random orders, crossing trades and cancels from both users, then the book again.
    const rng = new Prng(5);
    const resting: [unknown, [string, string] | undefined][] = [];
    for (let step = 0; step < 120; step++) {
      const roll = rng.nextInt(10);
      const size = 1 + rng.nextInt(3);
      if (roll < 3 && resting.length < 40) resting.push([(await place({ size, price: String(2000 + rng.nextInt(50) * 10) })).id, undefined]);
      else if (roll < 6 && resting.length < 40) resting.push([(await place({ size: -size, price: String(2510 + rng.nextInt(50) * 10) }, B)).id, B]);
      else if (roll < 8) await place({ size: rng.nextInt(2) === 0 ? size : -size, price: rng.nextInt(2) === 0 ? '3000' : '1900', tif: 'ioc' },
        rng.nextInt(2) === 0 ? B : undefined);
      else if (resting.length > 0) {
        const [id, key] = resting.splice(rng.nextInt(resting.length), 1)[0]!;
        const r = await call('DELETE', `/options/orders/${String(id)}`, { key });
        expect([200, 400, 404]).toContain(r.status); // a filled order is gone
      }
    }
    await synced('after 120 random commands');
    expect(await rejected(c.watchTicker(SYMBOL), 3000)).toMatch(/unknown channel: options\.tickers/);
    // Gate's options socket has no order entry: ccxt's options.login (before options.order_place) is refused.
    const open = (await call('GET', '/options/orders', { query: 'status=open' })).body.length;
    expect(await rejected(c.createOrderWs(SYMBOL, 'limit', 'buy', 1, 2000), 3000)).toMatch(/unknown api channel: options\.login/);
    expect((await call('GET', '/options/orders', { query: 'status=open' })).body).toHaveLength(open);
  });
});

describe('ccxt.pro private watches on an option', () => {
  let sim: Simulator;
  let call: Call;
  beforeAll(async () => { ({ sim, call } = await startIndexed()); });
  afterAll(async () => {
    for (const c of clients.splice(0)) await c.close();
    await sim.close();
  });

  it('watchOrders, watchMyTrades, watchPositions and watchBalance', async () => {
    const c = await pro(sim.server.port, `ws://127.0.0.1:${sim.server.port}/v4/ws/op-ws/usdt`, '10001');
    // The first watchPositions answers ccxt's REST snapshot; later ones the pushes.
    await within(c.watchPositions([SYMBOL]), 3000, 'positions snapshot');
    const orders = c.watchOrders(SYMBOL);
    const trades = c.watchMyTrades(SYMBOL);
    const positions = c.watchPositions([SYMBOL]);
    const balance = c.watchBalance({ type: 'option' });
    await sleep(300);
    const ask = await call('POST', '/options/orders', { body: { contract: CALL, size: -3, price: '2500', tif: 'gtc' }, key: B });
    expect(ask.status).toBe(201);
    const bid = await call('POST', '/options/orders', { body: { contract: CALL, size: 2, price: '2500', tif: 'ioc', text: 't-ccxt' } });
    expect(bid.status).toBe(201);
    const seen = await within(orders, 3000, 'watchOrders');
    expect(seen.find((o) => o.id === String(bid.body.id))).toMatchObject({ symbol: SYMBOL, side: 'buy', amount: 2, filled: 2, price: 2500,
      status: 'closed', clientOrderId: 't-ccxt' });
    const mine = await within(trades, 3000, 'watchMyTrades');
    expect(mine.at(-1)).toMatchObject({ symbol: SYMBOL, side: 'buy', amount: 2, price: 2500, takerOrMaker: 'taker' });
    const pos = await within(positions, 3000, 'watchPositions');
    expect(pos.find((p) => p.symbol === SYMBOL)).toMatchObject({ contracts: 2, side: 'long', entryPrice: 2500 });
    const bal = await within(balance, 3000, 'watchBalance');
    const account = (await call('GET', '/options/accounts')).body;
    expect(bal.USDT?.total).toBe(Number(account.total));
  });
});
