import { describe, expect, it } from 'vitest';
import { greeks, impliedVol, normCdf, normPdf, optionPrice } from '../../../src/core/options/black-scholes.js';

describe('Black–Scholes model', () => {
  it('N(x) matches reference values of the standard normal distribution', () => {
    expect(normCdf(0)).toBe(0.5);
    expect(normCdf(1.96)).toBeCloseTo(0.9750021048517795, 13);
    expect(normCdf(-1)).toBeCloseTo(0.15865525393145707, 13);
    expect(normCdf(3)).toBeCloseTo(0.9986501019683699, 13);
    expect(normCdf(-8)).toBeCloseTo(6.22096057427178e-16, 20);
    expect(normPdf(0)).toBeCloseTo(0.3989422804014327, 15);
  });

  it('prices Hull Example 15.6 (S 42, K 40, r 10 %, σ 20 %, T 0.5): call 4.76, put 0.81', () => {
    expect(optionPrice(true, 42, 40, 0.5, 0.2, 0.1)).toBeCloseTo(4.7594, 4);
    expect(optionPrice(false, 42, 40, 0.5, 0.2, 0.1)).toBeCloseTo(0.8086, 4);
  });

  it('gives the textbook greeks of Hull ch. 19 (S 49, K 50, r 5 %, σ 20 %, 20 weeks)', () => {
    const g = greeks(true, 49, 50, 0.3846, 0.2, 0.05);
    expect(g.price).toBeCloseTo(2.4005, 3);
    expect(g.delta).toBeCloseTo(0.522, 3);
    expect(g.gamma).toBeCloseTo(0.066, 3);
    expect(g.vega * 100).toBeCloseTo(12.1, 1); // Hull quotes vega per unit of σ; ours is per point
    expect(g.theta * 365).toBeCloseTo(-4.31, 2); // Hull quotes theta per year; ours is per calendar day
  });

  it('keeps put–call parity and put delta = call delta − 1 at r = 0', () => {
    for (const [S, K, T, v] of [[100_000, 90_000, 0.05, 0.6], [100_000, 110_000, 0.3, 0.45], [3000, 3000, 1 / 365, 0.8]] as const) {
      const c = greeks(true, S, K, T, v);
      const p = greeks(false, S, K, T, v);
      expect(c.price - p.price).toBeCloseTo(S - K, 6);
      expect(p.delta).toBeCloseTo(c.delta - 1, 12);
      expect(p.gamma).toBeCloseTo(c.gamma, 15);
      expect(p.vega).toBeCloseTo(c.vega, 10);
      expect(p.theta).toBeCloseTo(c.theta, 10);
    }
  });

  it('recovers the volatility from a price (implied volatility)', () => {
    for (const v of [0.15, 0.6, 1.2]) {
      const price = optionPrice(false, 100_000, 95_000, 0.1, v);
      expect(impliedVol(false, price, 100_000, 95_000, 0.1)).toBeCloseTo(v, 8);
    }
    expect(impliedVol(true, 1, 100, 50, 0.1)).toBeNaN(); // below intrinsic value
  });

  it('is worth its intrinsic value at expiry, with no gamma, vega or theta', () => {
    expect(greeks(true, 105, 100, 0, 0.5)).toEqual({ price: 5, delta: 1, gamma: 0, vega: 0, theta: 0 });
    expect(greeks(false, 105, 100, 0, 0.5)).toEqual({ price: 0, delta: 0, gamma: 0, vega: 0, theta: 0 });
    expect(greeks(false, 95, 100, -1, 0.5).delta).toBe(-1);
  });
});
