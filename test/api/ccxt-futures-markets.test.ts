// Unchanged ccxt `gate` with its DEFAULT options (only the URLs pointed here) loads every market type and reads
// the public futures data; gate-api's FuturesApi reads contracts, the book and tickers.
import ccxt from 'ccxt';
import * as GateApi from 'gate-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode } from '../../src/core/result-code.js';
import type { Simulator } from '../../src/main.js';
import { type CcxtGate, gateApiClient, rejection, restUrls } from '../support/clients.js';
import { plainFetch, startTestSimulator } from './http-helpers.js';
import { applyFunding, futuresOrder, setPrices, startFuturesSimulator } from './futures-public-helpers.js';

const START_MS = Date.UTC(2026, 0, 1, 1);
let sim: Simulator;
let signed: CcxtGate;
let anon: CcxtGate;

beforeAll(async () => {
  sim = await startFuturesSimulator({ clock: { type: 'sim', start_ms: START_MS } });
  const port = sim.server.port;
  signed = new ccxt.gate({ apiKey: 'k1', secret: 's1', enableRateLimit: false, timeout: 5000, urls: { api: restUrls(port) } });
  anon = new ccxt.gate({ enableRateLimit: false, timeout: 5000, urls: { api: restUrls(port) } });
  // BTC_USDT: mark 60000, index 59990 (ticks of 0.01); a trade of 3 at 60000.0; a resting book around it.
  expect(await setPrices(sim, 'BTC_USDT', 6_000_000, 5_999_000, 5_000)).toBe(ResultCode.Ok);
  expect(await futuresOrder(sim, 10002, 'BTC_USDT', -5, 6_000_000)).toBe(ResultCode.Ok);
  expect(await futuresOrder(sim, 10001, 'BTC_USDT', 3, 6_000_000)).toBe(ResultCode.Ok);
  expect(await futuresOrder(sim, 10002, 'BTC_USDT', 4, 5_990_000)).toBe(ResultCode.Ok);
  // Eight hours on, a funding of 0.0005 is due, then the next indicative rate is 0.0002 at a new mark.
  const moved = await plainFetch(port, '/sim/clock', { method: 'POST', body: JSON.stringify({ advance_ms: 8 * 3600_000 }),
    headers: { 'Content-Type': 'application/json' } });
  expect(moved.status).toBe(200);
  expect(await applyFunding(sim, 'BTC_USDT', 50_000)).toBe(ResultCode.Ok);
  expect(await setPrices(sim, 'BTC_USDT', 6_010_000, 6_000_000, 20_000)).toBe(ResultCode.Ok);
  await Promise.all([signed.loadMarkets(), anon.loadMarkets()]);
});
afterAll(async () => { await sim.close(); });

describe('ccxt gate with default options', () => {
  it('loads spot, swap (usdt and btc) markets, with empty future and option lists', () => {
    for (const c of [signed, anon]) {
      expect(Object.keys(c.markets ?? {}).sort()).toEqual(['BTC/USD:BTC', 'BTC/USDT', 'BTC/USDT:USDT', 'ETH/USDT']);
    }
  });

  it('describes BTC/USDT:USDT with Gate’s precision, limits, contract size and linearity', () => {
    const m = signed.market('BTC/USDT:USDT');
    expect(m).toMatchObject({
      id: 'BTC_USDT', type: 'swap', swap: true, contract: true, linear: true, inverse: false, settle: 'USDT', active: true,
      contractSize: 0.0001, precision: { amount: 1, price: 0.1 },
      limits: { leverage: { min: 1, max: 100 }, amount: { min: 1, max: 1000000 }, price: { min: 30050, max: 90150 } },
    });
    expect(signed.market('BTC/USD:BTC')).toMatchObject({ linear: false, inverse: true, contractSize: 1, settle: 'BTC', precision: { price: 0.5 } });
  });

  it('fetches ticker, order book and trades of a swap', async () => {
    const t = await anon.fetchTicker('BTC/USDT:USDT');
    expect(t).toMatchObject({ symbol: 'BTC/USDT:USDT', last: 60000, ask: 60000, bid: 59900, markPrice: 60100, indexPrice: 60000 });
    const book = await anon.fetchOrderBook('BTC/USDT:USDT', 10);
    expect(book.asks).toEqual([[60000, 2]]);
    expect(book.bids).toEqual([[59900, 4]]);
    expect(book.nonce).toBeGreaterThan(0);
    expect(book.timestamp).toBe(START_MS + 8 * 3600_000);
    const trades = await anon.fetchTrades('BTC/USDT:USDT');
    expect(trades.map((x) => [x.side, x.amount, x.price])).toEqual([['buy', 3, 60000]]);
  });

  it('fetches trade and mark-price candles', async () => {
    const candles = await anon.fetchOHLCV('BTC/USDT:USDT', '1h', START_MS, 10);
    expect(candles[0]).toEqual([START_MS, 60000, 60000, 60000, 60000, 3]);
    const mark = await anon.fetchOHLCV('BTC/USDT:USDT', '1h', START_MS, 10, { price: 'mark' });
    expect(mark[0]!.slice(0, 5)).toEqual([START_MS, 60000, 60000, 60000, 60000]);
    expect(mark[mark.length - 1]!.slice(1, 5)).toEqual([60100, 60100, 60100, 60100]);
    expect(mark).toHaveLength(9);
    const index = await anon.fetchOHLCV('BTC/USDT:USDT', '1h', undefined, 3, { price: 'index' });
    expect(index.map((c) => c[4])).toEqual([59990, 59990, 60000]);
  });

  it('fetches funding rates and their history', async () => {
    const f = await anon.fetchFundingRate('BTC/USDT:USDT');
    expect(f).toMatchObject({ symbol: 'BTC/USDT:USDT', fundingRate: 0.0002, nextFundingRate: 0.0002, markPrice: 60100, indexPrice: 60000,
      interval: '8h', fundingTimestamp: Date.UTC(2026, 0, 1, 16) });
    const all = await anon.fetchFundingRates();
    expect(Object.keys(all)).toEqual(['BTC/USDT:USDT']);
    const history = await anon.fetchFundingRateHistory('BTC/USDT:USDT');
    expect(history.map((h) => [h.fundingRate, h.timestamp])).toEqual([[0.0005, START_MS + 8 * 3600_000]]);
  });

  it('fetches leverage tiers, emulated from contracts and from risk_limit_tiers', async () => {
    const tiers = await anon.fetchLeverageTiers(['BTC/USDT:USDT'], { type: 'swap' });
    expect(tiers['BTC/USDT:USDT']!.map((t) => [t.minNotional, t.maxNotional, t.maintenanceMarginRate, t.maxLeverage])).toEqual([
      [0, 1000000, 0.005, 100], [1000000, 2000000, 0.01, 50], [2000000, 3000000, 0.015, 33.333333333333336]]);
    const market = await anon.fetchMarketLeverageTiers('BTC/USDT:USDT');
    expect(market.map((t) => [t.minNotional, t.maxNotional, t.maintenanceMarginRate, t.maxLeverage])).toEqual([
      [0, 1000000, 0.005, 100], [1000000, 2000000, 0.01, 50], [2000000, 3000000, 0.015, 33]]);
  });

  it('fetches open interest (contract_stats) and public liquidations (liq_orders)', async () => {
    const oi = await anon.fetchOpenInterestHistory('BTC/USDT:USDT', '1h');
    expect(oi.map((x) => [x.timestamp, x.openInterestAmount, x.openInterestValue])).toEqual([[START_MS + 8 * 3600_000, 3, 18.03]]);
    expect(await anon.fetchLiquidations('BTC/USDT:USDT')).toEqual([]);
  });

  it('fetches the time and currencies that loadMarkets reads beside', async () => {
    expect(await anon.fetchTime()).toBe(START_MS + 8 * 3600_000);
    expect(Object.keys(await anon.fetchCurrencies())).toContain('USDT');
  });
});

describe('ccxt gate with default options on a simulator without futures', () => {
  it('loads the spot markets (every futures, delivery and options list is empty)', async () => {
    const plain = await startTestSimulator();
    try {
      const c = new ccxt.gate({ apiKey: 'k1', secret: 's1', enableRateLimit: false, timeout: 5000, urls: { api: restUrls(plain.server.port) } });
      await c.loadMarkets();
      expect(Object.keys(c.markets ?? {}).sort()).toEqual(['BTC/USDT', 'ETH/USDT']);
    } finally {
      await plain.close();
    }
  });
});

describe('ccxt gate with defaultType swap', () => {
  it('loads markets and reads tickers and leverage tiers of the usdt swaps by default', async () => {
    const swap = new ccxt.gate({ enableRateLimit: false, timeout: 5000, urls: { api: restUrls(sim.server.port) }, options: { defaultType: 'swap' } });
    await swap.loadMarkets();
    const tickers = await swap.fetchTickers();
    expect(Object.keys(tickers)).toEqual(['BTC/USDT:USDT']);
    expect(tickers['BTC/USDT:USDT']).toMatchObject({ last: 60000, baseVolume: 0.0003, quoteVolume: 18 });
    expect(Object.keys(await swap.fetchLeverageTiers())).toEqual(['BTC/USDT:USDT']);
  });
});

describe('gate-api FuturesApi', () => {
  it('lists contracts, the order book and tickers', async () => {
    const api = new GateApi.FuturesApi(gateApiClient(sim.server.port, 'k1', 's1'));
    const contracts = (await api.listFuturesContracts('usdt')).body;
    expect(contracts.map((c) => [c.name, c.type, c.quantoMultiplier, c.orderPriceRound, c.markPrice, c.fundingRate, c.leverageMax]))
      .toEqual([['BTC_USDT', 'direct', '0.0001', '0.1', '60100', '0.0002', '100']]);
    const one = (await api.getFuturesContract('btc', 'BTC_USD')).body;
    expect(one.type).toBe('inverse');
    const book = (await api.listFuturesOrderBook('usdt', 'BTC_USDT', { limit: 5, withId: true })).body;
    expect(book.asks?.[0]).toMatchObject({ p: '60000', s: 2 });
    expect(Number(book.id)).toBeGreaterThan(0);
    const tickers = (await api.listFuturesTickers('usdt')).body;
    expect(tickers[0]).toMatchObject({ contract: 'BTC_USDT', last: '60000', markPrice: '60100', volume24h: '3' });
    expect(await rejection(api.getFuturesContract('usdt', 'NOPE_USDT'))).toEqual([400, 'CONTRACT_NOT_FOUND']);
  });
});
