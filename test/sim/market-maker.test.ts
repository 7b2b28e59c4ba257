// The built-in market maker: deterministic for a seed and tick times, a two-sided book it never crosses
// itself, balances it never overdraws, trades that move candles and tickers, and config errors by field.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../src/core/command.js';
import { ConfigError } from '../../src/core/invariant.js';
import { AccountKind } from '../../src/core/ledger/account-kinds.js';
import { Side } from '../../src/core/matching/order-types.js';
import { MarketDataFeed } from '../../src/api/market-data/market-data-feed.js';
import { MarketMaker, type MarketMakerConfig } from '../../src/sim/market-maker.js';
import { ladder } from '../../src/sim/market-maker/ladder.js';
import { Driver, START_US } from '../api/market-data/drive.js';

const MM: MarketMakerConfig = {
  uid: 1, taker_uid: 2, seed: 42, requote_ms: 1000, take_probability: 0.5,
  markets: [
    { market: 'BTC_USDT', price: '60000', levels: 5, spread_bps: 10, step_bps: 5, size: '0.01', volatility: 0.001 },
    { market: 'ETH_USDT', price: '3000', levels: 3, size: '0.5', volatility: 0.002 },
  ],
};

interface Run { d: Driver; mm: MarketMaker }

/** Runs the maker for `ticks` ticks, `every` µs apart, checking `each` after every tick. */
function run(config: MarketMakerConfig, ticks: number, every = 1e6, each?: (r: Run) => void): Run {
  const d = new Driver();
  const submit = (c: Command): number => {
    const code = d.ex.engine.submit(c);
    d.feed.onResult(c, d.ex.engine.events);
    return code;
  };
  const mm = new MarketMaker(d.ex.exchange, config, submit);
  for (let i = 0; i < ticks; i++) {
    d.clock.advanceTo(START_US + i * every);
    mm.tick(d.clock.nowUs());
    each?.({ d, mm });
  }
  return { d, mm };
}

describe('ladder', () => {
  it('is strictly ordered with best bid below best ask, even at tiny prices', () => {
    for (const ref of [3.2, 10, 60000.5, 1234567]) {
      for (const spread of [0, 1, 10, 200]) {
        const { bids, asks } = ladder(ref, 5, spread, spread / 2);
        expect(asks.length).toBe(5);
        for (let i = 1; i < bids.length; i++) expect(bids[i]).toBeLessThan(bids[i - 1]!);
        for (let i = 1; i < asks.length; i++) expect(asks[i]).toBeGreaterThan(asks[i - 1]!);
        if (bids.length > 0) expect(bids[0]).toBeLessThan(asks[0]!);
        expect(bids.every((b) => b >= 1)).toBe(true);
      }
    }
  });
});

describe('MarketMaker', () => {
  it('replays identically for a seed and tick times, and differently for another seed', () => {
    const a = run(MM, 200);
    const b = run(MM, 200);
    expect(a.d.ex.stateHash()).toBe(b.d.ex.stateHash());
    expect(a.d.ex.exchange.trades.count).toBeGreaterThan(20);
    expect(run({ ...MM, seed: 43 }, 200).d.ex.stateHash()).not.toBe(a.d.ex.stateHash());
  });

  it('keeps the book two-sided, never crosses itself, and never overdraws', () => {
    const O = (r: Run): Run['d']['ex']['exchange']['orders'] => r.d.ex.exchange.orders;
    run(MM, 300, 700_000, (r) => {
      const ex = r.d.ex.exchange;
      for (let m = 0; m < 2; m++) {
        const book = r.d.ex.engine.books[m]!;
        expect(book.bestBid()).toBeGreaterThan(0);
        expect(book.bestAsk()).toBeGreaterThan(book.bestBid());
        const own = O(r).openOf(1, m);
        const bids = own.filter((x) => O(r).side[x] === Side.Buy).map((x) => O(r).price[x]!);
        const asks = own.filter((x) => O(r).side[x] === Side.Sell).map((x) => O(r).price[x]!);
        expect(Math.max(...bids)).toBeLessThan(Math.min(...asks));
        expect(own.length).toBeLessThanOrEqual(m === 0 ? 10 : 6);
      }
      for (const uid of [1, 2]) {
        for (const cur of ['BTC', 'ETH', 'USDT']) {
          const b = ex.ledger.balance(uid, AccountKind.Spot, 0, cur)!;
          expect(Number(b.available)).toBeGreaterThanOrEqual(0);
          expect(Number(b.locked)).toBeGreaterThanOrEqual(0);
        }
      }
    });
    const { d } = run(MM, 300, 700_000);
    const T = d.ex.exchange.trades;
    for (let id = 1; id <= T.count; id++) expect(T.takerUid[T.slotOf(id)]).not.toBe(T.makerUid[T.slotOf(id)]);
    d.ex.engine.assertInvariants();
  });

  it('stays within thin balances: places only what it can pay for', () => {
    const d = new Driver();
    const poor = 3;
    d.ex.exchange.ledger.addUser(poor, 0);
    d.ex.deposit(poor, 'USDT', '1500');
    d.ex.deposit(poor, 'BTC', '0.02');
    const mm = new MarketMaker(d.ex.exchange, { uid: poor, markets: [{ market: 'BTC_USDT', price: '60000', levels: 5, size: '0.01' }] },
      (c) => d.ex.engine.submit(c));
    for (let i = 0; i < 50; i++) {
      d.clock.advanceTo(START_US + i * 1e6);
      mm.tick(d.clock.nowUs());
      const usdt = d.ex.exchange.ledger.balance(poor, AccountKind.Spot, 0, 'USDT')!;
      expect(Number(usdt.available)).toBeGreaterThanOrEqual(0);
    }
    const own = d.ex.exchange.orders.openOf(poor, 0);
    expect(own.filter((r) => d.ex.exchange.orders.side[r] === Side.Sell)).toHaveLength(2);
    expect(own.filter((r) => d.ex.exchange.orders.side[r] === Side.Buy)).toHaveLength(2);
  });

  it('opens each quoted market that never traded with one trade: the taker buys the best ask of the first quotes', () => {
    const { d } = run(MM, 1);
    const T = d.ex.exchange.trades;
    const trades = Array.from({ length: T.count }, (_, i) => T.slotOf(i + 1))
      .map((s) => [T.market[s], T.takerUid[s], T.makerUid[s], T.takerSide[s], T.price[s], T.lots[s]]);
    // The first quotes sit around the configured prices (60000.00 and 3000.00, in ticks of 0.01).
    const btcAsk = ladder(6_000_000, 5, 10, 5).asks[0]!;
    const ethAsk = ladder(300_000, 3, 10, 5).asks[0]!;
    expect(trades).toEqual([[0, 2, 1, Side.Buy, btcAsk, 100], [1, 2, 1, Side.Buy, ethAsk, 5000]]);
    expect(d.ex.engine.books[0]!.bestAsk()).toBeGreaterThan(btcAsk); // that level was taken whole
    const ticker = d.feed.spotTickers({ currency_pair: 'ETH_USDT' }, d.clock.nowUs(), (m) => d.ex.engine.books[m]);
    expect(ticker.ok && ticker.value[0]!.last).toBe(String(ethAsk / 100));

    // A market that traded before the maker starts (say, from a journal) is not opened again; no taker, no trade.
    const traded = new Driver();
    traded.trade('BTC_USDT', 'buy', '60000', '0.01');
    new MarketMaker(traded.ex.exchange, MM, (c) => traded.ex.engine.submit(c)).tick(START_US);
    expect(traded.ex.exchange.trades.marketSequences()).toEqual([1, 1]);
    expect(run({ ...MM, taker_uid: undefined }, 3).d.ex.exchange.trades.count).toBe(0);
  });

  it('re-quotes only once per period and moves its reference price', () => {
    const d = new Driver();
    const mm = new MarketMaker(d.ex.exchange, MM, (c) => d.ex.engine.submit(c));
    expect(mm.tick(START_US)).toBeGreaterThan(0);
    expect(mm.tick(START_US + 999_999)).toBe(0);
    const before = mm.reference(0);
    expect(mm.tick(START_US + 1_000_000)).toBeGreaterThanOrEqual(0);
    expect(mm.reference(0)).not.toBe(before);
    expect(mm.reference(5)).toBeNaN();
  });

  it('fills candles and tickers through the feed, and a replay of the trade log agrees', () => {
    const { d } = run(MM, 400);
    const now = d.clock.nowUs();
    const candles = d.feed.spotCandlesticks({ currency_pair: 'BTC_USDT', interval: '1m', limit: '7' }, now);
    expect(candles.ok && candles.value.length).toBe(7);
    const fresh = new MarketDataFeed(d.ex.exchange);
    fresh.replayTradeLog();
    for (const interval of ['10s', '1m', '1h']) {
      const q = { currency_pair: 'ETH_USDT', interval, limit: '50' };
      expect(fresh.spotCandlesticks(q, now)).toEqual(d.feed.spotCandlesticks(q, now));
    }
    const t = d.feed.spotTickers({ currency_pair: 'BTC_USDT' }, now, (m) => d.ex.engine.books[m]);
    expect(t.ok && Number(t.value[0]!.base_volume)).toBeGreaterThan(0);
    expect(t).toEqual(fresh.spotTickers({ currency_pair: 'BTC_USDT' }, now, (m) => d.ex.engine.books[m]));
  });

  it('rejects bad configs naming the field', () => {
    const d = new Driver();
    const make = (c: unknown): MarketMaker => new MarketMaker(d.ex.exchange, c as MarketMakerConfig, () => 0);
    expect(() => make({ ...MM, colour: 'red' })).toThrow(/market_maker\.colour/);
    expect(() => make({ ...MM, uid: 0 })).toThrow(/market_maker\.uid/);
    expect(() => make({ ...MM, markets: [{ market: 'BTC_USDT', price: '1', levels: 0 }] })).toThrow(/markets\[0\]\.levels/);
    expect(() => make({ ...MM, markets: [{ market: 'XRP_USDT', price: '1' }] })).toThrow(ConfigError);
    expect(() => make({ ...MM, markets: [{ market: 'BTC_USDT', price: '1.001' }] })).toThrow(/markets\[0\]\.price/);
  });
});
