// Unchanged ccxt.pro (gate class) on the private futures channels of /v4/ws/fx/usdt, with its swap urls override
// and its `uid` option (Gate's futures payloads start with it): watchOrders, watchMyTrades, watchPositions and
// watchBalance({type: 'swap'}) on BTC/USDT:USDT resolve after a REST trade with the exact values; watchOrders with
// {trigger: true} (futures.autoorders) resolves on a price-triggered order's creation and cancellation;
// watchMyLiquidations (futures.liquidates) resolves with the user's liquidation as REST's liquidates reads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command, CommandType } from '../../src/core/command.js';
import { ResultCode } from '../../src/core/result-code.js';
import { type Simulator, startSimulator } from '../../src/main.js';
import { type Call, FUTURES_CONFIG, futuresCaller, type J, setMark } from '../api/futures-helpers.js';
import { plainFetch } from '../api/http-helpers.js';
import { ccxtProGate, type CcxtProGate } from '../support/clients.js';

type Pro = CcxtProGate;
const S = 'BTC/USDT:USDT';
const B: [string, string] = ['k2', 's2'];

let sim: Simulator;
let call: Call;
let pro: Pro;

const place = async (body: J, key?: [string, string]): Promise<J> => {
  const r = await call('POST', '/futures/usdt/orders', { body: { contract: 'BTC_USDT', tif: 'gtc', ...body }, key });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const within = <T>(p: Promise<T>, ms: number): Promise<T> => Promise.race([p,
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not resolved within ${ms} ms`)), ms))]);

describe('ccxt.pro gate private futures channels over /v4/ws/fx/usdt', () => {
  beforeAll(async () => {
    sim = await startSimulator(FUTURES_CONFIG, { host: '127.0.0.1', port: 0 });
    call = futuresCaller(sim);
    await setMark(sim, 'BTC_USDT', '50000');
    pro = ccxtProGate(sim.server.port, 'k1', 's1', '10001');
    await pro.loadHttpProxyAgent(); // ccxt needs an HTTP agent for plain ws:// URLs
    await pro.loadMarkets();
  });
  afterAll(async () => {
    await pro.close();
    await sim.close();
  });

  it('watchOrders, watchMyTrades, watchPositions and watchBalance resolve with the trade\'s exact values', async () => {
    // The first watchPositions answers ccxt's REST snapshot (no position yet); later ones the pushes.
    expect(await within(pro.watchPositions([S]), 3000)).toEqual([]);
    const orders = pro.watchOrders(S);
    const trades = pro.watchMyTrades(S);
    const positions = pro.watchPositions([S]);
    const balance = pro.watchBalance({ type: 'swap' });
    await sleep(300); // the subscriptions reach the server
    await place({ size: -2, price: '50100' }, B);
    const taker = await place({ size: 2, price: '50100', text: 't-ccxt' });

    const [o] = await within(orders, 2000);
    expect(o).toMatchObject({ id: String(taker.id), symbol: S, side: 'buy', amount: 2, filled: 2, remaining: 0, price: 50100, status: 'closed' });
    const [t] = await within(trades, 2000);
    expect(t).toMatchObject({ symbol: S, order: String(taker.id), side: 'buy', amount: 2, price: 50100, takerOrMaker: 'taker' });
    expect(t!.fee).toMatchObject({ cost: 0.007515, currency: 'USDT' });
    const [p] = await within(positions, 2000);
    expect(p).toMatchObject({ symbol: S, side: 'long', contracts: 2, entryPrice: 50100 });
    const b = await within(balance, 2000);
    expect(b.USDT).toMatchObject({ total: 9999.992485 });
  });

  it('watchMyLiquidations resolves with the user\'s liquidation, as GET /futures/usdt/liquidates reads it', async () => {
    // 10006 (50 USDT) opens a long of 10 at 100x isolated; the mark falls 2 % and the engine liquidates it.
    // ccxt's parser of futures.liquidates looks the contract up by id alone, which is ambiguous (and throws) once
    // spot markets are loaded beside swaps, against Gate as here; this client loads the swap markets only.
    // (Both ccxt gaps hold against Gate: docs/websocket.md.)
    const victim = ccxtProGate(sim.server.port, 'k6', 's6', '10006');
    victim.options.fetchMarkets = { types: ['swap'] };
    try {
      await victim.loadHttpProxyAgent();
      await victim.loadMarkets();
      const lev = await call('POST', '/futures/usdt/positions/BTC_USDT/leverage', { query: 'leverage=100', key: ['k6', 's6'] });
      expect(lev.status, JSON.stringify(lev.body)).toBe(200);
      const liquidations = victim.watchMyLiquidations(S);
      await sleep(300);
      await place({ size: -10, price: '50000' }, B);
      await place({ size: 10, price: '50000' }, ['k6', 's6']);
      await setMark(sim, 'BTC_USDT', '49000');
      const c = new Command();
      c.type = CommandType.FuturesLiquidate; c.uid = 10006; c.market = sim.gateway.exchange.futures.marketOf[0]!; c.sub = 0;
      expect(await new Promise<ResultCode>((resolve) => { sim.gateway.submit(c, resolve); })).toBe(ResultCode.Ok);
      // ccxt resolves watchMyLiquidations with its cache's (missing) per-symbol list, an empty array, once the push
      // is parsed; the parsed liquidation is in its cache.
      await within(liquidations, 3000);
      const l = (victim as unknown as { liquidations: { symbol: string; contracts: number; price: number; timestamp: number }[] }).liquidations.at(-1);
      const rest = (await call('GET', '/futures/usdt/liquidates', { query: 'contract=BTC_USDT', key: ['k6', 's6'] })).body[0]!;
      expect(rest).toMatchObject({ contract: 'BTC_USDT', size: 10 });
      expect(l).toMatchObject({ symbol: S, contracts: 10 });
      expect(l!.price).toBe(Number(rest.fill_price));
      expect(Math.floor(l!.timestamp / 1000)).toBe(rest.time);
    } finally {
      await victim.close();
      await setMark(sim, 'BTC_USDT', '50000');
    }
  });

  it('watchOrders({trigger: true}) resolves with futures.autoorders pushes: created open, cancelled canceled', async () => {
    const r = await plainFetch(sim.server.port, '/sim/futures/prices', { method: 'POST', body: JSON.stringify({ contract: 'BTC_USDT', mark: '50000', index: '50000' }),
      headers: { 'Content-Type': 'application/json' } });
    expect(r.status).toBe(200);
    const watched = pro.watchOrders(S, undefined, undefined, { trigger: true });
    await sleep(300);
    const created = await call('POST', '/futures/usdt/price_orders', { body: {
      initial: { contract: 'BTC_USDT', size: 1, price: '48000' }, trigger: { price_type: 1, rule: 2, price: '49000', expiration: 3600 } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [put] = await within(watched, 2000);
    expect(put).toMatchObject({ id: String(created.body.id), symbol: S, side: 'buy', amount: 1, price: 48000, triggerPrice: 49000, status: 'open' });
    const next = pro.watchOrders(S, undefined, undefined, { trigger: true });
    expect((await call('DELETE', `/futures/usdt/price_orders/${String(created.body.id)}`)).status).toBe(200);
    const after = await within(next, 2000);
    expect(after.at(-1)).toMatchObject({ id: String(created.body.id), symbol: S, status: 'canceled' });
  });
});
