// The public market-data routes serve what trading produced (tickers, trades, candles, book), and the built-in
// market maker, driven by the simulated clock, keeps a two-sided book and makes trades.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/main.js';
import { plainFetch, signedFetch, startTestSimulator, TEST_CONFIG } from '../api/http-helpers.js';

const MM = 20001;
const TAKER = 20002;
let sim: Simulator;

beforeAll(async () => {
  sim = await startTestSimulator({
    clock: { type: 'sim' },
    users: [...(TEST_CONFIG.users ?? []),
      { uid: MM, balances: { spot: { USDT: '5000000', BTC: '50', ETH: '500' } } },
      { uid: TAKER, balances: { spot: { USDT: '1000000', BTC: '10', ETH: '100' } } }],
    market_maker: { uid: MM, taker_uid: TAKER, seed: 3, requote_ms: 1000, take_probability: 1,
      markets: [{ market: 'BTC_USDT', price: '60000' }] },
  });
});
afterAll(async () => { await sim.close(); });

const port = (): number => sim.server.port;

async function advanceClock(ms: number): Promise<void> {
  const r = await plainFetch(port(), '/sim/clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advance_ms: ms }) });
  expect(r.status).toBeLessThan(300);
  await new Promise((resolve) => setTimeout(resolve, 250)); // the maker's timer reads the clock every 100 ms
}

describe('market data over HTTP', () => {
  it('the market maker quotes both sides and trades as the simulated clock moves', async () => {
    for (let i = 0; i < 5; i++) await advanceClock(1500);
    const book = await plainFetch(port(), '/api/v4/spot/order_book?currency_pair=BTC_USDT&limit=5');
    const b = book.body as { asks: [string, string][]; bids: [string, string][] };
    expect(b.asks.length).toBeGreaterThan(0);
    expect(b.bids.length).toBeGreaterThan(0);
    expect(Number(b.bids[0]![0])).toBeLessThan(Number(b.asks[0]![0]));
    const trades = await plainFetch(port(), '/api/v4/spot/trades?currency_pair=BTC_USDT&limit=10');
    expect(trades.status).toBe(200);
    expect((trades.body as unknown[]).length).toBeGreaterThan(0);
  });

  it('serves a trade made through the API in trades, tickers and candlesticks', async () => {
    const placed = await signedFetch(port(), { key: 'k2', secret: 's2', method: 'POST', path: '/api/v4/spot/orders',
      body: JSON.stringify({ currency_pair: 'ETH_USDT', side: 'sell', amount: '0.5', price: '3000' }) });
    expect(placed.status).toBe(201);
    const taken = await signedFetch(port(), { key: 'k1', secret: 's1', method: 'POST', path: '/api/v4/spot/orders',
      body: JSON.stringify({ currency_pair: 'ETH_USDT', side: 'buy', amount: '0.2', price: '3001' }) });
    expect((taken.body as { status: string }).status).toBe('closed');

    const trades = (await plainFetch(port(), '/api/v4/spot/trades?currency_pair=ETH_USDT')).body as { price: string; amount: string; side: string }[];
    expect(trades[0]).toMatchObject({ price: '3000', amount: '0.2', side: 'buy' });

    const tickers = (await plainFetch(port(), '/api/v4/spot/tickers?currency_pair=ETH_USDT')).body as Record<string, string>[];
    expect(Array.isArray(tickers)).toBe(true);
    expect(tickers[0]).toMatchObject({ currency_pair: 'ETH_USDT', last: '3000', lowest_ask: '3000', base_volume: '0.2', quote_volume: '600' });

    const candles = (await plainFetch(port(), '/api/v4/spot/candlesticks?currency_pair=ETH_USDT&interval=1m&limit=5')).body as string[][];
    const last = candles[candles.length - 1]!;
    expect(last.slice(1, 7)).toEqual(['600', '3000', '3000', '3000', '3000', '0.2']);
  });

  it('answers bad market-data queries with Gate labels', async () => {
    const r = await plainFetch(port(), '/api/v4/spot/candlesticks?currency_pair=ETH_USDT&interval=7m');
    expect(r.status).toBe(400);
    expect((r.body as { label: string }).label).toBe('INVALID_PARAM_VALUE');
    const u = await plainFetch(port(), '/api/v4/spot/trades?currency_pair=NOPE_USDT');
    expect((u.body as { label: string }).label).toBe('INVALID_CURRENCY_PAIR');
  });
});
