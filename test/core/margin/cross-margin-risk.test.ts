// The cross-margin risk arithmetic against a big.js reference on random multi-currency accounts: assets,
// liabilities, risk and the lock (at the cross threshold) exact; borrowable the largest amount the leverage
// allows (one unit more would exceed it); transferable never taking the account beyond its leverage.
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { accountFigures, marginBorrowable, marginTransferable, riskE8 } from '../../../src/core/margin/margin-risk.js';
import { Prng } from '../../../src/core/prng.js';
import { resolveUnifiedParams } from '../../../src/core/unified/unified-params.js';
import type { Holding } from '../../../src/core/unified/valuation.js';

Big.DP = 80;
const big = (v: bigint): Big => new Big(v.toString());
const CODES: readonly [string, number][] = [['BTC', 8], ['ETH', 18], ['USDT', 6], ['DOGE', 2], ['SOL', 9]];

function holding(rng: Prng, code: string, scale: number): Holding {
  const r = (n: number): bigint => BigInt(rng.nextInt(n));
  const owes = rng.nextInt(3) === 0;
  const price = rng.nextInt(10) === 0 ? undefined : { num: BigInt(1 + rng.nextInt(5_000_000)), scale: rng.nextInt(5) };
  return {
    code, scale, available: r(1_000_000_000), freeze: r(100_000_000),
    borrowed: owes ? r(2_000_000_000) : 0n, interest: owes ? r(1_000_000) : 0n, price,
  };
}

const usd = (h: Holding, units: bigint): Big =>
  h.price === undefined ? new Big(0) : big(units).div(new Big(10).pow(h.scale)).times(big(h.price.num).div(new Big(10).pow(h.price.scale)));

/** True when an account of assets a and liabilities l is within leverage λ: l ≤ (a − l) × (λ − 1). */
const within = (a: Big, l: Big, lev: Big): boolean => l.lte(a.minus(l).times(lev.minus(1)));

describe('cross-margin risk', () => {
  for (const [lev, risk] of [['5', '1.1'], ['3', '1.3'], ['10', '1.05']] as const) {
    it(`matches the big.js reference at leverage ${lev}, locked below ${risk}`, () => {
      const params = resolveUnifiedParams({ margin_leverage: lev, cross_margin_liquidation_risk: risk }, new Map(CODES));
      const L = new Big(lev);
      const rng = new Prng(104_729 + Number(lev));
      for (let i = 0; i < 300; i++) {
        const holdings = CODES.slice(0, 1 + rng.nextInt(CODES.length)).map(([c, s]) => holding(rng, c, s));
        const f = accountFigures(holdings, params.crossLiquidationPpm);
        let a = new Big(0); let l = new Big(0);
        for (const h of holdings) {
          a = a.plus(usd(h, h.available + h.freeze));
          l = l.plus(usd(h, h.borrowed + h.interest));
        }
        expect(big(f.assetUsd).div(new Big(10).pow(36)).eq(a)).toBe(true);
        expect(big(f.liabUsd).div(new Big(10).pow(36)).eq(l)).toBe(true);
        expect(f.locked).toBe(l.gt(0) && a.lt(l.times(risk)));
        expect(riskE8(f).toString()).toBe(l.eq(0) ? '0' : a.div(l).times(1e8).round(0, Big.roundDown).toFixed(0));
        for (const h of holdings) {
          const n = marginBorrowable(h, f, params, 10n ** 40n, null);
          if (n > 0n) {
            expect(within(a.plus(usd(h, n)), l.plus(usd(h, n)), L)).toBe(true);
            expect(within(a.plus(usd(h, n + 1n)), l.plus(usd(h, n + 1n)), L)).toBe(false);
          } else {
            expect(h.price === undefined || f.locked || !within(a.plus(usd(h, 1n)), l.plus(usd(h, 1n)), L)).toBe(true);
          }
          const t = marginTransferable(h, f, params);
          expect(t >= 0n && t <= h.available).toBe(true);
          if (l.gt(0) && h.price !== undefined && t > 0n) expect(within(a.minus(usd(h, t)), l, L)).toBe(true);
          if (l.eq(0)) expect(t).toBe(h.available);
        }
      }
    });
  }

  it('refuses a cross liquidation risk at or above the leverage limit, or at most 1', () => {
    const scales = new Map([['USDT', 6]]);
    expect(() => resolveUnifiedParams({ cross_margin_liquidation_risk: '1.25' }, scales)).toThrow(/cross_margin_liquidation_risk/);
    expect(() => resolveUnifiedParams({ cross_margin_liquidation_risk: '1' }, scales)).toThrow(/cross_margin_liquidation_risk/);
    expect(resolveUnifiedParams({ cross_margin_liquidation_risk: '1.2' }, scales).crossLiquidationPpm).toBe(1_200_000n);
    expect(resolveUnifiedParams({}, scales).crossLiquidationPpm).toBe(1_100_000n);
  });
});
