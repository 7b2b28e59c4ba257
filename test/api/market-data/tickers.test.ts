// Tickers: 24 h window edges at minute granularity, change against the price 24 h ago and at UTC/UTC+8
// midnights, book fields, and Gate's shape through the feed.
import { describe, expect, it } from 'vitest';
import { defineMarket } from '../../../src/core/market.js';
import { percent, TickerStats } from '../../../src/api/market-data/tickers.js';
import { Driver, START_US } from './drive.js';

const M = defineMarket({ id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 4 });
const MIN = 60e6;
const DAY = 1440 * MIN;

describe('TickerStats', () => {
  it('counts a fill for exactly 1440 minutes (its own and the next 1439)', () => {
    const s = new TickerStats([M]);
    const t0 = START_US + 10 * MIN + 5e6;
    s.record(0, t0, 100_00, 2_0000, 100_00 * 2_0000);
    const inside = s.ticker(0, t0 - 5e6 + DAY - 1, undefined);
    expect(inside).toMatchObject({ last: '100', base_volume: '2', quote_volume: '200', high_24h: '100', low_24h: '100' });
    const outside = s.ticker(0, t0 - 5e6 + DAY, undefined);
    expect(outside).toMatchObject({ last: '100', base_volume: '0', quote_volume: '0', high_24h: '100', low_24h: '100',
      change_percentage: '0' });
  });

  it('compares last with the last price before the window, else the first in it', () => {
    const s = new TickerStats([M]);
    s.record(0, START_US, 80_00, 1, 80_00);
    s.record(0, START_US + 2 * MIN, 100_00, 1, 100_00);
    s.record(0, START_US + DAY + MIN, 120_00, 1, 120_00);
    // Window at START + DAY + 1 min .. : the 100 fill (2 min) is inside, the 80 one before it.
    const t = s.ticker(0, START_US + DAY + MIN + 1, undefined);
    expect(t).toMatchObject({ change_percentage: '50', high_24h: '120', low_24h: '100', base_volume: '0.0002' });
    // Later, the 100 fill is the last before the window.
    expect(s.ticker(0, START_US + DAY + 3 * MIN, undefined)).toMatchObject({ change_percentage: '20', low_24h: '120' });
    const fresh = new TickerStats([M]);
    fresh.record(0, START_US + 5 * MIN, 200_00, 1, 200_00);
    fresh.record(0, START_US + 6 * MIN, 150_00, 1, 150_00);
    expect(fresh.ticker(0, START_US + 7 * MIN, undefined).change_percentage).toBe('-25');
  });

  it('computes change_utc0 and change_utc8 against their midnights', () => {
    const s = new TickerStats([M]);
    // START is 00:00 UTC on 1 Jan = 08:00 UTC+8. UTC+8 midnight was 16:00 UTC on 31 Dec.
    s.record(0, START_US - 9 * 60 * MIN, 50_00, 1, 50_00); // 15:00 UTC 31 Dec
    s.record(0, START_US - 2 * 60 * MIN, 100_00, 1, 100_00); // 22:00 UTC 31 Dec
    s.record(0, START_US + 60 * MIN, 110_00, 1, 110_00); // 01:00 UTC 1 Jan
    const t = s.ticker(0, START_US + 2 * 60 * MIN, undefined);
    expect(t.change_utc0).toBe('10');
    expect(t.change_utc8).toBe('120');
    expect(t.change_percentage).toBe('120');
  });

  it('evicts whole minutes and keeps the evicted close as history', () => {
    const s = new TickerStats([M]);
    s.record(0, START_US, 10_00, 1, 10_00);
    s.record(0, START_US + DAY, 30_00, 1, 30_00); // same slot: evicts the first
    s.record(0, START_US + DAY + 3 * MIN, 20_00, 1, 20_00);
    expect(s.priceAt(0, START_US / MIN + 1)).toBe(10_00);
    expect(s.ticker(0, START_US + DAY + 4 * MIN, undefined)).toMatchObject({ change_percentage: '100', high_24h: '30', low_24h: '20' });
  });

  it('formats percentages like Gate', () => {
    expect(percent(9255, 10000)).toBe('-7.45');
    expect(percent(100, 100)).toBe('0');
    expect(percent(1, 0)).toBe('0');
    expect(percent(1000001, 1000000)).toBe('0');
    expect(percent(105, 100)).toBe('5');
  });
});

describe('GET /spot/tickers through the feed', () => {
  it('is always an array, with 24 h figures from fills and book tops', () => {
    const d = new Driver();
    d.trade('BTC_USDT', 'buy', '60000', '0.5');
    d.clock.advanceBy(MIN);
    d.trade('BTC_USDT', 'sell', '59000', '0.25');
    d.order(1, 'BTC_USDT', 'buy', '58000', '1');
    d.order(1, 'BTC_USDT', 'buy', '58000', '0.5');
    d.order(1, 'BTC_USDT', 'sell', '61000', '2');
    const bookOf = (m: number): ReturnType<Driver['book']> => d.ex.engine.books[m];
    const one = d.feed.spotTickers({ currency_pair: 'BTC_USDT' }, d.clock.nowUs(), bookOf);
    expect(one).toEqual({ ok: true, value: [{
      currency_pair: 'BTC_USDT', last: '59000', lowest_ask: '61000', lowest_size: '2', highest_bid: '58000', highest_size: '1.5',
      change_percentage: '-1.67', change_utc0: '-1.67', change_utc8: '-1.67', base_volume: '0.75', quote_volume: '44750',
      high_24h: '60000', low_24h: '59000',
    }] });
    const all = d.feed.spotTickers({ timezone: 'utc0' }, d.clock.nowUs(), bookOf);
    expect(all.ok && all.value.map((t) => [t.currency_pair, t.last, t.lowest_ask])).toEqual([['BTC_USDT', '59000', '61000'], ['ETH_USDT', '0', '']]);
    expect(d.feed.spotTickers({ currency_pair: 'NOPE_USDT' }, 0, bookOf)).toMatchObject({ ok: false });
  });
});
