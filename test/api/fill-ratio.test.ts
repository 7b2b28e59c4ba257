// The fill-ratio evaluation (api/fill-ratio.ts) on a stand-in exchange: the tier table's bounds, role weights
// (maker 100 %, taker 90 %), symbol multipliers (BTC and ETH 1, others 0.4), inverse contracts in USD, the
// seven-day window, VIP < 14 untouched, and the limiter taking the tier's limit per UID.
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/core/clock.js';
import type { Exchange } from '../../src/core/exchange/exchange.js';
import { TradeLog } from '../../src/core/exchange/trade-log.js';
import { FillRatio, tierOf } from '../../src/api/fill-ratio.js';
import { RateLimiter } from '../../src/api/rate-limit.js';

const DAY_US = 86_400_000_000;

/** Markets 1 (BTC_USDT, 0.0001 per contract, price scale 1), 2 (SOL_USDT, 1 per contract, scale 2), 3 (BTC_USD inverse). */
function world(vip: Record<number, number>, subs: Record<number, number> = {}) {
  const trades = new TradeLog(64);
  const contracts = [
    { base: 'BTC', inverse: false, qUnits: 1n, qScale: 4, priceScale: 1 },
    { base: 'SOL', inverse: false, qUnits: 1n, qScale: 0, priceScale: 2 },
    { base: 'BTC', inverse: true, qUnits: 1n, qScale: 0, priceScale: 1 },
  ];
  const ex = { trades, futures: { contracts, contractOf: (m: number) => (m >= 1 && m <= 3 ? m - 1 : -1) } } as unknown as Exchange;
  const clock = new SimClock(10 * DAY_US + 3_600_000_000);
  const fill = new FillRatio({
    exchange: ex, clock, vipLevels: new Map(Object.entries(vip).map(([k, v]) => [Number(k), v])),
    mainOf: (uid) => subs[uid] ?? uid,
    subsOf: (main) => Object.keys(subs).map(Number).filter((s) => subs[s] === main),
  });
  const trade = (market: number, taker: number, maker: number, price: number, lots: number) =>
    trades.append(clock.nowUs(), market, 1, 2, taker, maker, 0, price, lots, 0, 0);
  const nextDay = () => clock.advanceTo(Math.floor(clock.nowUs() / DAY_US + 1) * DAY_US);
  return { fill, trade, clock, nextDay };
}

describe('fill ratio', () => {
  it('maps ratios to the tiers of seed 8.2 at their bounds', () => {
    expect([0, 0.99, 1, 2.99, 3, 5, 9.99, 10, 20, 49.99, 50, 1e9].map(tierOf)).toEqual([1, 1, 2, 2, 3, 4, 4, 5, 6, 6, 7, 7]);
  });

  it('weighs maker 100 %, taker 90 %, BTC and ETH 1, other symbols 0.4, inverse contracts in USD', () => {
    const w = world({ 1: 14, 2: 14 });
    // BTC_USDT 10 contracts at 50000.0: 50 USDT; SOL_USDT 100 at 150.00: 15000 × 0.4 = 6000; BTC_USD 30 contracts: 30 USD.
    w.trade(1, 2, 1, 500_000, 10);
    w.trade(2, 2, 1, 15_000, 100);
    w.trade(3, 1, 2, 400_000, 30);
    w.fill.countRequest(1);
    w.fill.countRequest(2);
    w.nextDay();
    expect(w.fill.status(1)).toMatchObject({ ratio: 50 + 6000 + 30 * 0.9, tier: 7, limit: 400 });
    expect(w.fill.status(2)).toMatchObject({ ratio: (50 + 6000) * 0.9 + 30, tier: 7, limit: 400 });
  });

  it('counts the previous seven days only, and evaluates once a day', () => {
    const w = world({ 1: 16 });
    w.trade(1, 9, 1, 500_000, 2); // 10 USDT
    for (let i = 0; i < 5; i++) w.fill.countRequest(1);
    expect(w.fill.placeLimit(1)).toBe(100);
    w.trade(1, 9, 1, 500_000, 200); // the same day: in tomorrow's evaluation, not today's
    expect(w.fill.placeLimit(1)).toBe(100);
    w.nextDay();
    expect(w.fill.status(1)).toMatchObject({ ratio: 1010 / 5, tier: 7 });
    w.fill.countRequest(1);
    expect(w.fill.placeLimit(1)).toBe(400); // evaluated at 00:00: today's request waits for tomorrow
    for (let d = 0; d < 6; d++) w.nextDay();
    expect(w.fill.status(1)).toMatchObject({ ratio: 1010 / 6, tier: 7 }); // the first day is the seventh back
    w.nextDay();
    expect(w.fill.status(1)).toMatchObject({ ratio: 0, tier: 1, limit: 100 });
  });

  it('gives a sub-account the higher of its own and its main account\'s overall ratio, and its main\'s VIP level', () => {
    const w = world({ 1: 14 }, { 5: 1, 6: 1 });
    w.trade(1, 9, 5, 500_000, 100); // sub 5: 500 USDT
    w.fill.countRequest(5);
    for (let i = 0; i < 99; i++) w.fill.countRequest(6);
    w.nextDay();
    expect(w.fill.status(5)).toMatchObject({ ratio: 500, mainRatio: 5, tier: 7 });
    expect(w.fill.status(6)).toMatchObject({ ratio: 0, mainRatio: 5, tier: 4, limit: 250 });
    expect(w.fill.status(1)).toMatchObject({ ratio: 0, mainRatio: 5, tier: 4 });
    expect(w.fill.vipLevel(6)).toBe(14);
  });

  it('leaves users below VIP 14 at 100 r/s, with no counters', () => {
    const w = world({ 1: 13, 2: 14 });
    w.trade(1, 9, 1, 500_000, 1000);
    w.fill.countRequest(1);
    w.nextDay();
    expect(w.fill.placeLimit(1)).toBe(100);
    expect(w.fill.status(1)).toBeUndefined();
    expect(world({ 1: 13 }).fill.enabled).toBe(false);
  });

  it('the limiter applies the tier\'s limit to the per-UID placement window', () => {
    const limiter = new RateLimiter({ enabled: true });
    let admitted = 0;
    for (let i = 0; i < 200; i++) if (limiter.take('futures-place', '1', 1000, 150)) admitted++;
    expect(admitted).toBe(150);
    expect(limiter.last).toEqual({ limit: 150, remain: 0, resetMs: 2000 });
    expect(limiter.take('futures-place', '1', 2000, 150)).toBe(true);
    expect(limiter.take('futures-place', '2', 1000)).toBe(true);
    expect(limiter.last.limit).toBe(100);
  });
});
