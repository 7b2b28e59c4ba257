// The demo as `npm start` runs it (wall clock, market maker, default engine) lists BTC_USDT options with an
// index from the market maker's BTC_USDT trades and quotes on every contract, and unchanged ccxt with DEFAULT options loads spot, swap and
// option markets from it; a demo user can trade an option with ccxt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/main.js';
import { DEMO_CONFIG } from '../../src/sim/demo.js';
import { ccxtGate } from '../support/clients.js';
import { plainFetch } from './http-helpers.js';

let sim: Simulator;
beforeAll(async () => { sim = await startSimulator({ ...DEMO_CONFIG, rate_limits: false }, { host: '127.0.0.1', port: 0 }); });
afterAll(async () => { await sim.close(); });

describe('options in the demo', () => {
  it('lists two expirations of calls and puts around the index, which follows BTC_USDT', async () => {
    const get = async (p: string): Promise<unknown> => (await plainFetch(sim.server.port, `/api/v4${p}`)).body;
    const [u] = await get('/options/underlyings') as { name: string; index_price: string }[];
    expect(u!.name).toBe('BTC_USDT');
    const spot = (await get('/spot/tickers?currency_pair=BTC_USDT') as { last: string }[])[0]!;
    // The market maker may trade between the two reads: the index is a recent BTC_USDT price.
    expect(Math.abs(Number(u!.index_price) / Number(spot.last) - 1)).toBeLessThan(0.05);
    const expirations = await get('/options/expirations?underlying=BTC_USDT') as number[];
    expect(expirations).toHaveLength(2);
    const now = Date.now() / 1000;
    expect(expirations[0]! - now).toBeGreaterThan(0);
    expect(expirations[0]! - now).toBeLessThan(2 * 86_400);
    expect(expirations[1]! - expirations[0]!).toBe(6 * 86_400);
    const contracts = await get('/options/contracts?underlying=BTC_USDT') as { mark_price: string }[];
    expect(contracts).toHaveLength(12);
    for (const c of contracts) expect(Number(c.mark_price)).toBeGreaterThan(0);
    // The market maker's user quotes every contract around its mark (options.quoter).
    const tickers = await get('/options/tickers?underlying=BTC_USDT') as Record<string, string | number>[];
    for (const t of tickers) {
      expect(Number(t.bid1_price), String(t.name)).toBeLessThan(Number(t.mark_price));
      expect(Number(t.ask1_price), String(t.name)).toBeGreaterThan(Number(t.mark_price));
      expect([t.bid1_size, t.ask1_size]).toEqual([10, -10]);
    }
  });

  it('loads with unchanged ccxt (default options) and takes an option order from a demo user', async () => {
    const gate = ccxtGate(sim.server.port, 'demo-alice-key', 'demo-alice-secret');
    const markets = Object.values(await gate.loadMarkets());
    for (const type of ['spot', 'swap', 'option'] as const) expect(markets.some((m) => m?.type === type), type).toBe(true);
    const option = markets.find((m) => m?.option === true && m.optionType === 'put')!;
    const order = await gate.createOrder(option.symbol, 'limit', 'buy', 1, 0.1); // below every quote: it rests
    expect(order).toMatchObject({ symbol: option.symbol, status: 'open', amount: 1 });
    const balance = await gate.fetchBalance({ type: 'option' });
    expect(balance.USDT?.free).toBeLessThan(10_000);
    await gate.cancelOrder(order.id!, option.symbol);
  });
});
