// The delivery price formulas of futures-prices.ts on a hand-made book: the depth-weighted impact price (the last level
// only for the contracts it takes), the reasonable basis rate and the spread gate, the mark from a rate, and the rate a
// mark implies (what a restart carries over).
import { describe, expect, it } from 'vitest';
import { defineContract } from '../../src/core/futures/contract.js';
import { Side } from '../../src/core/matching/order-types.js';
import { BookProbe, deliveryMark, impliedBasisRate } from '../../src/engine/futures/futures-prices.js';

const EXPIRE = Date.UTC(2026, 5, 5, 8) / 1000;
// quanto 0.0001 BTC, price tick 0.1 (ticks below), impact value 600 USDT, maintenance rate 0.5 %.
const K = defineContract({ name: 'BTC_USDT_20260605', settle: 'usdt', quanto_multiplier: '0.0001', order_price_round: '0.1',
  maintenance_rate: '0.005', funding_impact_value: '600', expire_time: EXPIRE }, 8);

/** A book reader over fixed levels: [price ticks, lots] per side, best first. */
function probe(bids: [number, number][], asks: [number, number][]): BookProbe {
  return new BookProbe((_m, side, limit, prices, lots) => {
    const levels = side === Side.Buy ? bids : asks;
    const n = Math.min(limit, levels.length);
    for (let i = 0; i < n; i++) { prices[i] = levels[i]![0]; lots[i] = levels[i]![1]; }
    return n;
  });
}

describe('delivery basis formulas', () => {
  it('the impact price weighs the levels by the contracts taken to reach the impact value', () => {
    // 60 at 60500 (value 363) then 60400: 237 more needs ⌈237 / 6.04⌉ = 40 contracts; (60 × 60500 + 40 × 60400) / 100.
    const p = probe([[605_000, 60], [604_000, 500]], [[607_000, 60], [608_000, 500]]);
    expect(p.impactAverage(K, 0, Side.Buy, K.impactValue)).toBe(604_600);
    // 60 at 60700 (364.2) then ⌈235.8 / 6.08⌉ = 39 at 60800: (60 × 607000 + 39 × 608000) / 99 = 607393.9… → 607394.
    expect(p.impactAverage(K, 0, Side.Sell, K.impactValue)).toBe(607_394);
    // A side thinner than the impact value has no impact price.
    expect(probe([[605_000, 10]], []).impactAverage(K, 0, Side.Buy, K.impactValue)).toBe(0);
  });

  it('mark = index × (1 + r × T / year), and the rate a mark implies gives that mark back', () => {
    const now = (EXPIRE - 30 * 86_400) * 1e6; // 30 days left
    // Gate's example: index 10000, impact mid 10050, 30 days: r = 0.5 % × 365 / 30 = 6.0833 %, basis 50.
    const r = impliedBasisRate(K, 100_500, 100_000, now);
    expect(r).toBe(6_083_333n);
    expect(deliveryMark(K, 100_000, r, now)).toBe(100_500);
    // Fifteen days later the same rate gives half the basis; expired, none.
    expect(deliveryMark(K, 100_000, r, now + 15 * 86_400e6)).toBe(100_250);
    expect(deliveryMark(K, 100_000, r, EXPIRE * 1e6)).toBe(100_000);
    expect(impliedBasisRate(K, 0, 100_000, now)).toBe(0n);
  });
});
