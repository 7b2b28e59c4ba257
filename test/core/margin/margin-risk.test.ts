// The isolated-margin risk arithmetic against a big.js reference on random pair accounts: assets, liabilities,
// risk and the lock exact; borrowable the largest amount the leverage allows (one unit more would exceed it);
// transferable never taking the account beyond its leverage.
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { marginBorrowable, marginFigures, marginTransferable, riskE8 } from '../../../src/core/margin/margin-risk.js';
import { Prng } from '../../../src/core/prng.js';
import { resolveUnifiedParams, type UnifiedParams } from '../../../src/core/unified/unified-params.js';
import type { Holding } from '../../../src/core/unified/valuation.js';

Big.DP = 80;
const big = (v: bigint): Big => new Big(v.toString());

function holding(rng: Prng, code: string, scale: number, owes: boolean): Holding {
  const r = (n: number): bigint => BigInt(rng.nextInt(n));
  const price = rng.nextInt(10) === 0 ? undefined : { num: BigInt(1 + rng.nextInt(5_000_000)), scale: rng.nextInt(5) };
  return {
    code, scale, available: r(1_000_000_000), freeze: r(100_000_000),
    borrowed: owes ? r(2_000_000_000) : 0n, interest: owes ? r(1_000_000) : 0n, price,
  };
}

const usd = (h: Holding, units: bigint): Big =>
  h.price === undefined ? new Big(0) : big(units).div(new Big(10).pow(h.scale)).times(big(h.price.num).div(new Big(10).pow(h.price.scale)));

function ref(base: Holding, quote: Holding): { a: Big; l: Big } {
  let a = new Big(0); let l = new Big(0);
  for (const h of [base, quote]) {
    a = a.plus(usd(h, h.available + h.freeze));
    l = l.plus(usd(h, h.borrowed + h.interest));
  }
  return { a, l };
}

/** True when an account of assets a and liabilities l is within leverage λ: l ≤ (a − l) × (λ − 1). */
const within = (a: Big, l: Big, lev: Big): boolean => l.lte(a.minus(l).times(lev.minus(1)));

describe('isolated margin risk', () => {
  const leverages = ['5', '3', '10', '2.5'];
  for (const lev of leverages) {
    it(`matches the big.js reference at leverage ${lev}`, () => {
      const params: UnifiedParams = resolveUnifiedParams({ margin_leverage: lev, margin_liquidation_risk: '1.1' }, new Map([['BTC', 8], ['USDT', 6]]));
      const L = new Big(lev);
      const rng = new Prng(7919 + Number(lev.replace('.', '')));
      for (let i = 0; i < 400; i++) {
        const base = holding(rng, 'BTC', 8, rng.nextInt(3) > 0);
        const quote = holding(rng, 'USDT', 6, rng.nextInt(3) > 0);
        const f = marginFigures(base, quote, params);
        const { a, l } = ref(base, quote);
        expect(big(f.assetUsd).div(new Big(10).pow(36)).eq(a)).toBe(true);
        expect(big(f.liabUsd).div(new Big(10).pow(36)).eq(l)).toBe(true);
        expect(f.locked).toBe(l.gt(0) && a.lt(l.times('1.1')));
        const risk = l.eq(0) ? '0' : a.div(l).times(1e8).round(0, Big.roundDown).toFixed(0);
        expect(riskE8(f).toString()).toBe(risk);
        for (const h of [base, quote]) {
          const n = marginBorrowable(h, f, params, 10n ** 40n, null);
          if (n > 0n) {
            // Borrowing n adds n to assets and liabilities alike; n + 1 would exceed the leverage.
            expect(within(a.plus(usd(h, n)), l.plus(usd(h, n)), L)).toBe(true);
            expect(within(a.plus(usd(h, n + 1n)), l.plus(usd(h, n + 1n)), L)).toBe(false);
          } else {
            expect(h.price === undefined || f.locked || !within(a.plus(usd(h, 1n)), l.plus(usd(h, 1n)), L)).toBe(true);
          }
          expect(marginBorrowable(h, f, params, 3n, null) <= 3n).toBe(true);
          const t = marginTransferable(h, f, params);
          expect(t >= 0n && t <= h.available).toBe(true);
          if (l.gt(0) && h.price !== undefined && t > 0n) expect(within(a.minus(usd(h, t)), l, L)).toBe(true);
          if (l.eq(0)) expect(t).toBe(h.available);
        }
      }
    });
  }

  it('refuses a leverage whose limit would sit below the liquidation risk', () => {
    const scales = new Map([['USDT', 6]]);
    expect(() => resolveUnifiedParams({ margin_leverage: '11' }, scales)).toThrow(/margin_liquidation_risk/);
    expect(() => resolveUnifiedParams({ margin_leverage: '1' }, scales)).toThrow(/margin_leverage/);
    expect(resolveUnifiedParams({ margin_leverage: '10.9' }, scales).marginLeveragePpm).toBe(10_900_000n);
  });
});
