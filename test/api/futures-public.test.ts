// Public futures market data over HTTP: contracts, order book, trades, candles (trade, mark, index), tickers,
// funding history, risk-limit tiers, insurance, contract stats; delivery and options lists; labels for bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode } from '../../src/core/result-code.js';
import type { Simulator } from '../../src/main.js';
import { plainFetch, signedFetch } from './http-helpers.js';
import { futuresOrder, setPrices, startFuturesSimulator } from './futures-public-helpers.js';

let sim: Simulator;
let port: number;
const get = (path: string): Promise<{ status: number; body: unknown }> => plainFetch(port, `/api/v4${path}`);
type Obj = Record<string, unknown>;

beforeAll(async () => {
  sim = await startFuturesSimulator();
  port = sim.server.port;
  // BTC_USDT ticks are 0.01 (priceScale 2): mark 60000.00, index 59990.00, indicative rate 0.0001.
  expect(await setPrices(sim, 'BTC_USDT', 6_000_000, 5_999_000, 10_000)).toBe(ResultCode.Ok);
  expect(await setPrices(sim, 'BTC_USDT', 6_001_000, 5_999_500, 10_000)).toBe(ResultCode.Ok);
  // A resting ask of 10 at 60010.0 and 5 at 60020.0 (user 10002), a bid of 7 at 59990.0; user 10001 buys 4, then sells 2 (long 2).
  expect(await futuresOrder(sim, 10002, 'BTC_USDT', -10, 6_001_000)).toBe(ResultCode.Ok);
  expect(await futuresOrder(sim, 10002, 'BTC_USDT', -5, 6_002_000)).toBe(ResultCode.Ok);
  expect(await futuresOrder(sim, 10002, 'BTC_USDT', 7, 5_999_000)).toBe(ResultCode.Ok);
  expect(await futuresOrder(sim, 10001, 'BTC_USDT', 4, 6_001_000)).toBe(ResultCode.Ok);
  expect(await futuresOrder(sim, 10001, 'BTC_USDT', -2, 5_999_000)).toBe(ResultCode.Ok);
});
afterAll(async () => { await sim.close(); });

describe('GET /futures/{settle}/contracts', () => {
  it('lists the settle currency’s contracts with Gate’s fields and types', async () => {
    const r = await get('/futures/usdt/contracts');
    expect(r.status).toBe(200);
    const list = r.body as Obj[];
    expect(list.map((c) => c.name)).toEqual(['BTC_USDT']);
    const c = list[0]!;
    expect(c).toMatchObject({
      name: 'BTC_USDT', type: 'direct', quanto_multiplier: '0.0001', leverage_min: '1', leverage_max: '100',
      maintenance_rate: '0.005', mark_type: 'index', mark_price: '60010', index_price: '59995', last_price: '59990',
      maker_fee_rate: '-0.0001', taker_fee_rate: '0.00075', order_price_round: '0.1', mark_price_round: '0.01',
      funding_rate: '0.0001', funding_rate_indicative: '0.0001', funding_interval: 28800,
      risk_limit_base: '1000000', risk_limit_step: '1000000', risk_limit_max: '3000000',
      order_size_min: 1, order_size_max: 1000000, order_price_deviate: '0.5', orders_limit: 100,
      trade_size: 6, position_size: 2, in_delisting: false, status: 'trading', ref_discount_rate: '0', ref_rebate_rate: '0',
      enable_bonus: false, enable_credit: false,
    });
    expect(c.funding_next_apply as number % 28800).toBe(0);
    expect(c.funding_next_apply as number).toBeGreaterThan(Date.now() / 1000 - 1);
    for (const k of ['orderbook_id', 'trade_id', 'create_time', 'launch_time', 'config_change_time']) expect(typeof c[k], k).toBe('number');
    expect(c.trade_id as number).toBeGreaterThan(0);
  });

  it('shows an inverse contract with quanto_multiplier "0" and answers one contract by name', async () => {
    const r = await get('/futures/btc/contracts/BTC_USD');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'BTC_USD', type: 'inverse', quanto_multiplier: '0', order_price_round: '0.5', mark_price: '0' });
    expect((await get('/futures/btc/contracts')).body).toHaveLength(1);
    expect(((await get('/futures/USDT/contracts')).body as Obj[]).map((c) => c.name)).toEqual(['BTC_USDT']);
    expect((await get('/futures/usdt/contracts?limit=1&offset=1')).body).toEqual([]);
    expect(await get('/futures/usdt/contracts?limit=0')).toMatchObject({ status: 400, body: { label: 'INVALID_PARAM_VALUE' } });
    // Gate's legacy settle-less path answers for btc.
    expect(((await get('/futures/contracts')).body as Obj[]).map((c) => c.name)).toEqual(['BTC_USD']);
  });

  it('shows the index source spot market’s last price as mark and index before any price update', async () => {
    const order = (key: string, side: string): Promise<{ status: number }> => signedFetch(port, { method: 'POST', path: '/api/v4/spot/orders',
      key, secret: key === 'k1' ? 's1' : 's2', body: JSON.stringify({ currency_pair: 'BTC_USDT', side, amount: '0.01', price: '61000.5' }) });
    expect((await order('k2', 'sell')).status).toBe(201);
    expect((await order('k1', 'buy')).status).toBe(201);
    expect((await get('/futures/btc/contracts/BTC_USD')).body).toMatchObject({ mark_price: '61000.5', index_price: '61000.5', last_price: '0' });
  });

  it('answers CONTRACT_NOT_FOUND for a contract of another settle and INVALID_PARAM_VALUE for an unknown settle', async () => {
    expect(await get('/futures/usdt/contracts/BTC_USD')).toMatchObject({ status: 400, body: { label: 'CONTRACT_NOT_FOUND' } });
    expect(await get('/futures/usdt/contracts/NOPE')).toMatchObject({ status: 400, body: { label: 'CONTRACT_NOT_FOUND' } });
    expect(await get('/futures/eth/contracts')).toMatchObject({ status: 400, body: { label: 'INVALID_PARAM_VALUE' } });
  });
});

describe('order book, trades, tickers', () => {
  it('serves the book as {p, s} levels with integer sizes, seconds and the version id', async () => {
    const r = await get('/futures/usdt/order_book?contract=BTC_USDT&with_id=true&limit=5');
    expect(r.status).toBe(200);
    const b = r.body as { id: number; current: number; update: number; asks: Obj[]; bids: Obj[] };
    expect(b.asks).toEqual([{ p: '60010', s: 6 }, { p: '60020', s: 5 }]);
    expect(b.bids).toEqual([{ p: '59990', s: 5 }]);
    expect(b.id).toBeGreaterThan(0);
    expect(b.current).toBeGreaterThan(1e9);
    expect(b.current).toBeLessThan(1e11);
    expect(b.update).toBeLessThanOrEqual(b.current);
    const merged = (await get('/futures/usdt/order_book?contract=BTC_USDT&interval=100')).body as { asks: Obj[]; id?: number };
    expect(merged.asks).toEqual([{ p: '60100', s: 11 }]);
    expect(merged.id).toBeUndefined();
  });

  it('lists trades newest first with the size signed by the taker side', async () => {
    const r = await get('/futures/usdt/trades?contract=BTC_USDT');
    expect(r.status).toBe(200);
    const t = r.body as Obj[];
    expect(t.map((x) => [x.size, x.price, x.contract])).toEqual([[-2, '59990', 'BTC_USDT'], [4, '60010', 'BTC_USDT']]);
    expect(t[0]!.id as number).toBeGreaterThan(t[1]!.id as number);
    expect(typeof t[0]!.create_time).toBe('number');
    expect(t[0]!.create_time_ms as number).toBeCloseTo((t[0]!.create_time as number) * 1000, -1);
    expect(t[0]!.is_internal).toBe(false);
    const older = (await get(`/futures/usdt/trades?contract=BTC_USDT&last_id=${t[0]!.id as number}`)).body as Obj[];
    expect(older.map((x) => x.size)).toEqual([4]);
    expect((await get('/futures/usdt/trades?contract=BTC_USDT&limit=1&offset=1')).body).toEqual([t[1]]);
  });

  it('reports tickers with 24 h volumes in contracts, base, quote and settle, mark, index and funding', async () => {
    const r = await get('/futures/usdt/tickers?contract=BTC_USDT');
    expect(r.status).toBe(200);
    const [t] = r.body as Obj[];
    expect(t).toMatchObject({
      contract: 'BTC_USDT', last: '59990', volume_24h: '6', volume_24h_base: '0.0006',
      // 4 × 0.0001 × 60010 + 2 × 0.0001 × 59990
      volume_24h_quote: '36.002', volume_24h_settle: '36.002', high_24h: '60010', low_24h: '59990',
      mark_price: '60010', index_price: '59995', funding_rate: '0.0001', funding_rate_indicative: '0.0001',
      total_size: '2', lowest_ask: '60010', lowest_size: '6', highest_bid: '59990', highest_size: '5',
    });
    const all = (await get('/futures/usdt/tickers')).body as Obj[];
    expect(all.map((x) => x.contract)).toEqual(['BTC_USDT']);
    expect(((await get('/futures/btc/tickers')).body as Obj[])[0]).toMatchObject({ contract: 'BTC_USD', last: '0', volume_24h: '0' });
  });
});

describe('candlesticks', () => {
  it('makes trade candles with contracts and quote turnover', async () => {
    const r = await get('/futures/usdt/candlesticks?contract=BTC_USDT&interval=1d&limit=1');
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ t: Math.floor(Date.now() / 86_400_000) * 86_400, v: '6', c: '59990', h: '60010', l: '59990', o: '60010', sum: '36.002' }]);
  });

  it('makes mark and index candles from the applied price updates', async () => {
    const mark = (await get('/futures/usdt/candlesticks?contract=mark_BTC_USDT&interval=1d&limit=1')).body as Obj[];
    expect(mark).toEqual([{ t: expect.any(Number) as number, c: '60010', h: '60010', l: '60000', o: '60000' }]);
    const index = (await get('/futures/usdt/candlesticks?contract=index_BTC_USDT&interval=1d&limit=1')).body as Obj[];
    expect(index[0]).toMatchObject({ o: '59990', c: '59995', h: '59995', l: '59990' });
  });

  it('accepts ccxt’s 1999 limit and rejects bad ranges', async () => {
    expect((await get('/futures/usdt/candlesticks?contract=BTC_USDT&interval=1m&limit=1999')).status).toBe(200);
    for (const q of ['interval=3m', 'limit=2001', 'limit=0', 'from=10&to=5', 'from=x', 'interval=1s&from=0&to=100000']) {
      expect(await get(`/futures/usdt/candlesticks?contract=BTC_USDT&${q}`), q).toMatchObject({ status: 400, body: { label: 'INVALID_PARAM_VALUE' } });
    }
    expect(await get('/futures/usdt/candlesticks?contract=mark_NOPE')).toMatchObject({ status: 400, body: { label: 'CONTRACT_NOT_FOUND' } });
  });
});

describe('funding, risk limits, insurance, stats', () => {
  it('lists tiers stepping the maintenance rate and the leverage as the engine does', async () => {
    const r = await get('/futures/usdt/risk_limit_tiers?contract=BTC_USDT');
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { tier: 1, risk_limit: '1000000', initial_rate: '0.01', maintenance_rate: '0.005', leverage_max: '100', contract: 'BTC_USDT', deduction: '0' },
      { tier: 2, risk_limit: '2000000', initial_rate: '0.02', maintenance_rate: '0.01', leverage_max: '50', contract: 'BTC_USDT', deduction: '0' },
      { tier: 3, risk_limit: '3000000', initial_rate: '0.03030303', maintenance_rate: '0.015', leverage_max: '33', contract: 'BTC_USDT', deduction: '0' },
    ]);
    expect(((await get('/futures/btc/risk_limit_tiers')).body as Obj[]).map((t) => t.risk_limit)).toEqual(['100', '150', '200']);
  });

  it('answers funding history (empty before any funding) and the insurance balance', async () => {
    expect(await get('/futures/usdt/funding_rate?contract=BTC_USDT')).toMatchObject({ status: 200, body: [] });
    const ins = (await get('/futures/usdt/insurance')).body as Obj[];
    expect(ins).toEqual([{ t: expect.any(Number) as number, b: '50000' }]);
    expect(((await get('/futures/btc/insurance')).body as Obj[])[0]!.b).toBe('2');
  });

  it('reports open interest in contract_stats and an empty liq_orders list', async () => {
    const [s] = (await get('/futures/usdt/contract_stats?contract=BTC_USDT')).body as Obj[];
    expect(s).toMatchObject({ open_interest: 2, open_interest_usd: '12.002', lsr_account: '1', mark_price: '60010', long_liq_size: 0 });
    expect(await get('/futures/usdt/liq_orders')).toMatchObject({ status: 200, body: [] });
  });
});

describe('delivery and options lists', () => {
  it('answers empty lists where ccxt’s loadMarkets looks, and labels for the rest', async () => {
    for (const p of ['/delivery/usdt/contracts', '/delivery/btc/contracts', '/delivery/usdt/tickers', '/options/underlyings',
      '/options/contracts?underlying=BTC_USDT', '/options/expirations?underlying=BTC_USDT']) {
      expect(await get(p), p).toEqual({ status: 200, body: [], headers: expect.anything() as unknown });
    }
    expect(await get('/delivery/usdt/contracts/BTC_USDT_20260101')).toMatchObject({ status: 400, body: { label: 'CONTRACT_NOT_FOUND' } });
    expect(await get('/delivery/eth/contracts')).toMatchObject({ status: 400, body: { label: 'INVALID_PARAM_VALUE' } });
    expect(await get('/options/contracts')).toMatchObject({ status: 400, body: { label: 'MISSING_REQUIRED_PARAM' } });
  });
});

describe('bad queries', () => {
  it('answers each its label and leaves the state alone', async () => {
    const hash = async (): Promise<string> => ((await plainFetch(port, '/sim/state_hash')).body as { state_hash: string }).state_hash;
    const before = await hash();
    const cases: [string, number, string][] = [
      ['/futures/usdt/order_book', 400, 'MISSING_REQUIRED_PARAM'],
      ['/futures/usdt/order_book?contract=BTC_USD', 400, 'CONTRACT_NOT_FOUND'],
      ['/futures/usdt/order_book?contract=BTC_USDT&limit=0', 400, 'INVALID_PARAM_VALUE'],
      ['/futures/usdt/order_book?contract=BTC_USDT&interval=0.001', 400, 'INVALID_PARAM_VALUE'],
      ['/futures/usdt/order_book?contract=BTC_USDT&with_id=maybe', 400, 'INVALID_PARAM_VALUE'],
      ['/futures/usdt/trades?contract=BTC_USDT&limit=1001', 400, 'INVALID_PARAM_VALUE'],
      ['/futures/usdt/trades?contract=BTC_USDT&from=9&to=1', 400, 'INVALID_PARAM_VALUE'],
      ['/futures/usdt/trades', 400, 'MISSING_REQUIRED_PARAM'],
      ['/futures/usdt/tickers?contract=NOPE', 400, 'CONTRACT_NOT_FOUND'],
      ['/futures/usdt/funding_rate?contract=BTC_USDT&limit=-1', 400, 'INVALID_PARAM_VALUE'],
      ['/futures/usdt/risk_limit_tiers?contract=NOPE', 400, 'CONTRACT_NOT_FOUND'],
      ['/futures/usdt/insurance?limit=x', 400, 'INVALID_PARAM_VALUE'],
      ['/futures/usdt/contract_stats?contract=BTC_USDT&interval=2m', 400, 'INVALID_PARAM_VALUE'],
      ['/futures/xyz/tickers', 400, 'INVALID_PARAM_VALUE'],
      ['/futures/usdt/index_constituents/NOPE', 400, 'CONTRACT_NOT_FOUND'],
    ];
    for (const [p, status, label] of cases) expect(await get(p), p).toMatchObject({ status, body: { label } });
    expect(await hash()).toBe(before);
  });
});
