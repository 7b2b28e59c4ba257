// The FuturesMarketData feed on an InlineEngine: trade candles and tickers rebuilt from the trade log at start-up,
// mark/index samples only from applied price updates, empty buckets carried, inverse turnover in contracts.
import { describe, expect, it } from 'vitest';
import { ResultCode } from '../../src/core/result-code.js';
import { CandleKind } from '../../src/api/market-data/futures-candles.js';
import { FuturesMarketData } from '../../src/api/market-data/futures-market-data.js';
import { FuturesDriver, MS, T0 } from '../support/futures-driver.js';

/** A driver with users 1 and 2 funded in USDT and BTC, prices set, and a feed observing every command. */
function setup(): { d: FuturesDriver; feed: FuturesMarketData; submit: (f: () => ResultCode) => ResultCode } {
  const d = new FuturesDriver();
  for (const uid of [1, 2]) {
    expect(d.fund(uid, 'USDT', '100000')).toBe(ResultCode.Ok);
    expect(d.fund(uid, 'BTC', '10')).toBe(ResultCode.Ok);
  }
  const feed = new FuturesMarketData(d.ex, d.clock.nowUs());
  const submit = (f: () => ResultCode): ResultCode => {
    const code = f();
    feed.onResult(code, d.cmd, d.engine.events);
    return code;
  };
  return { d, feed, submit };
}

describe('FuturesMarketData', () => {
  it('records mark and index samples from applied price updates only, and carries empty buckets', () => {
    const { d, feed, submit } = setup();
    // BTC_USDT: ticks of 0.01, mark ticks of 0.01 (order ticks 0.1 = 10).
    expect(submit(() => d.prices('BTC_USDT', 6_000_000, 5_999_000))).toBe(ResultCode.Ok);
    d.sim.advanceBy(60_000 * MS);
    expect(submit(() => d.prices('BTC_USDT', -5, 5_999_000))).toBe(ResultCode.InvalidParam);
    expect(submit(() => d.prices('BTC_USDT', 6_001_000, 0))).toBe(ResultCode.Ok);
    d.sim.advanceBy(120_000 * MS);
    const a = feed.candlesticks(0, CandleKind.Mark, { interval: '1m', limit: '4' }, d.clock.nowUs());
    const s = T0 / 1e6;
    expect(a.ok && a.value.map((c) => [c.t, c.o, c.c])).toEqual([
      [s, '60000', '60000'], [s + 60, '60010', '60010'], [s + 120, '60010', '60010'], [s + 180, '60010', '60010']]);
    const i = feed.candlesticks(0, CandleKind.Index, { interval: '1h', limit: '1' }, d.clock.nowUs());
    expect(i.ok && i.value).toEqual([{ t: T0 / 1e6, o: '59990', h: '59990', l: '59990', c: '59990' }]);
  });

  it('rebuilds trade candles, tickers and traded sizes from the trade log, with inverse turnover in contracts', () => {
    const { d, submit } = setup();
    expect(submit(() => d.prices('BTC_USD', 6_000_000, 6_000_000))).toBe(ResultCode.Ok);
    expect(d.order(2, 'BTC_USD', -100, 6_000_000)).toBe(ResultCode.Ok);
    expect(d.order(1, 'BTC_USD', 40, 6_000_000)).toBe(ResultCode.Ok);
    d.sim.advanceBy(1000 * MS);
    const fresh = new FuturesMarketData(d.ex, d.clock.nowUs());
    fresh.replayTradeLog();
    expect(fresh.tradeSize[1]).toBe(40);
    const c = fresh.candlesticks(1, CandleKind.Trade, { interval: '1m', limit: '1' }, d.clock.nowUs());
    expect(c.ok && c.value).toEqual([{ t: T0 / 1e6, v: '40', c: '60000', h: '60000', l: '60000', o: '60000', sum: '40' }]);
    // A fresh feed samples the state's current mark and index at once.
    const m = fresh.candlesticks(1, CandleKind.Mark, { interval: '1m', limit: '1' }, d.clock.nowUs());
    expect(m.ok && m.value[0]?.c).toBe('60000');
    const t = fresh.ticker(1, d.clock.nowUs(), undefined);
    // 40 USD contracts at 60000: 40 / 60000 BTC, rounded half up to 8 decimals.
    expect(t).toMatchObject({ contract: 'BTC_USD', volume_24h: '40', volume_24h_quote: '40', volume_24h_base: '0.00066667',
      volume_24h_settle: '0.00066667', total_size: '40', last: '60000' });
    expect(fresh.contract(1, d.clock.nowUs())).toMatchObject({ trade_size: 40, position_size: 40, last_price: '60000' });
  });
});
