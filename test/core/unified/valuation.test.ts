// The unified risk arithmetic against a big.js reference on random portfolios: every figure exact, borrowable
// the largest amount the initial margin allows, transferable never breaking it, interest rounded up per hour.
import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { Prng } from '../../../src/core/prng.js';
import { type CurrencyParams, type DiscountTier, type Price, resolveUnifiedParams, type UnifiedParams, USD_SCALE } from '../../../src/core/unified/unified-params.js';
import {
  accountFigures, borrowable, discounted, formatScaled, type Holding, hourlyInterest, marginRate, transferable, UnifiedMode, usdOf,
} from '../../../src/core/unified/valuation.js';

Big.DP = 80;
const E36 = new Big(10).pow(USD_SCALE);
const floor36 = (b: Big): bigint => BigInt(b.times(E36).round(0, Big.roundDown).toFixed(0));
const big = (v: bigint): Big => new Big(v.toString());
const priceBig = (p: Price): Big => big(p.num).div(new Big(10).pow(p.scale));
const unitsBig = (u: bigint, scale: number): Big => big(u).div(new Big(10).pow(scale));

/** Reference: the discounted USD value, slice by slice, each floored at 36 decimals. */
function refDiscounted(value: Big, tiers: readonly DiscountTier[]): Big {
  let out = new Big(0);
  let lo = new Big(0);
  for (const t of tiers) {
    if (value.lte(lo)) break;
    const up = t.upTo === null ? undefined : big(t.upTo).div(E36);
    const hi = up === undefined || value.lt(up) ? value : up;
    out = out.plus(new Big(floor36(hi.minus(lo).times(big(t.ppm)).div(1e6)).toString()).div(E36));
    if (up === undefined) break;
    lo = up;
  }
  return out;
}

interface Ref { mb: Big; im: Big; mm: Big; liab: Big; total: Big }

function reference(holdings: readonly Holding[], params: UnifiedParams): Ref {
  let collateral = new Big(0); let short = new Big(0); let liab = new Big(0); let total = new Big(0);
  for (const h of holdings) {
    const price = h.price === undefined ? new Big(0) : priceBig(h.price);
    const equity = unitsBig(h.available + h.freeze - h.borrowed - h.interest, h.scale);
    total = total.plus(unitsBig(h.available + h.freeze, h.scale).times(price));
    liab = liab.plus(unitsBig(h.borrowed + h.interest, h.scale).times(price));
    if (equity.gt(0)) collateral = collateral.plus(refDiscounted(equity.times(price), params.currencies.get(h.code)!.tiers));
    else short = short.plus(equity.abs().times(price));
  }
  const ppm = (v: bigint): Big => big(v).div(1e6);
  return {
    mb: collateral.minus(short), liab, total,
    im: new Big(floor36(liab.times(ppm(params.imrPpm))).toString()).div(E36),
    mm: new Big(floor36(liab.times(ppm(params.mmrPpm))).toString()).div(E36),
  };
}

const asUsd = (v: bigint): Big => big(v).div(E36);

function randomPortfolio(rng: Prng): { holdings: Holding[]; params: UnifiedParams } {
  const n = 1 + rng.nextInt(5);
  const scales = new Map<string, number>();
  const defs: Record<string, { index_price?: string; discount_tiers?: { upper_limit?: string; discount: string }[] }> = {};
  const codes: string[] = [];
  for (let i = 0; i < n; i++) {
    const code = `C${i}`;
    codes.push(code);
    scales.set(code, rng.nextInt(19));
    const priced = rng.chance(0.9);
    const tiers = rng.chance(0.5) ? undefined : [
      { upper_limit: String(1 + rng.nextInt(10_000)), discount: `0.${String(rng.between(5, 99)).padStart(2, '0')}` },
      { upper_limit: String(20_000 + rng.nextInt(1_000_000)), discount: `0.${String(rng.between(1, 9))}` },
      { discount: '0' },
    ];
    defs[code] = {
      ...(priced ? { index_price: `${rng.nextInt(100_000)}.${String(1 + rng.nextInt(99_999_999)).padStart(8, '0')}` } : {}),
      ...(tiers === undefined ? {} : { discount_tiers: tiers }),
    };
  }
  const params = resolveUnifiedParams({
    currencies: defs, initial_margin_rate: `0.${rng.between(10, 99)}`, maintenance_margin_rate: '0.05',
  }, scales);
  const holdings = codes.map((code): Holding => {
    const scale = scales.get(code)!;
    const amt = (): bigint => BigInt(rng.nextInt(1_000_000)) * 10n ** BigInt(rng.nextInt(scale + 1));
    const borrowed = rng.chance(0.4) ? amt() : 0n;
    return { code, scale, available: amt() + borrowed, freeze: rng.chance(0.3) ? amt() : 0n, borrowed,
      interest: borrowed > 0n && rng.chance(0.5) ? BigInt(rng.nextInt(1000)) : 0n, price: params.currencies.get(code)!.indexPrice };
  });
  return { holdings, params };
}

describe('unified valuation', () => {
  it('matches the big.js reference on random portfolios', () => {
    const rng = new Prng(42);
    for (let round = 0; round < 400; round++) {
      const { holdings, params } = randomPortfolio(rng);
      const fig = accountFigures(holdings, params);
      const ref = reference(holdings, params);
      expect(asUsd(fig.marginBalance).eq(ref.mb), `round ${round} MB`).toBe(true);
      expect(asUsd(fig.initialMargin).eq(ref.im), `round ${round} IM`).toBe(true);
      expect(asUsd(fig.maintenanceMargin).eq(ref.mm), `round ${round} MM`).toBe(true);
      expect(asUsd(fig.liabUsd).eq(ref.liab), `round ${round} liab`).toBe(true);
      expect(asUsd(fig.totalUsd).eq(ref.total), `round ${round} total`).toBe(true);
      expect(fig.locked).toBe(ref.liab.gt(0) && ref.mb.lt(ref.mm));
    }
  });

  it('borrowable is the largest amount the initial margin carries; transferable keeps MB ≥ IM', () => {
    const rng = new Prng(7);
    let positive = 0;
    for (let round = 0; round < 300; round++) {
      const { holdings, params } = randomPortfolio(rng);
      const fig = accountFigures(holdings, params);
      for (const [i, h] of holdings.entries()) {
        const cp: CurrencyParams = params.currencies.get(h.code)!;
        const pool = 10n ** 30n;
        const n = borrowable(UnifiedMode.MultiCurrency, h, cp, fig, params, pool);
        expect(borrowable(UnifiedMode.Classic, h, cp, fig, params, pool)).toBe(0n);
        if (h.price === undefined) { expect(n).toBe(0n); continue; }
        const after = holdings.map((x, j) => (j === i ? { ...x, available: x.available + n, borrowed: x.borrowed + n } : x));
        const r = reference(after, params);
        if (n > 0n) {
          positive++;
          expect(r.im.lte(r.mb), `round ${round}: IM after borrowing ${n}`).toBe(true);
        }
        const one = unitsBig(n + 1n, h.scale).times(priceBig(h.price));
        const exceeds = r.liab.minus(unitsBig(n, h.scale).times(priceBig(h.price))).plus(one).times(big(params.imrPpm)).div(1e6).gt(r.mb);
        if (fig.marginBalance > 0n) expect(exceeds, `round ${round}: ${n} + 1 still carried`).toBe(true);
        expect(borrowable(UnifiedMode.MultiCurrency, h, cp, fig, params, 3n)).toBe(n < 3n ? n : 3n);
        const t = transferable(UnifiedMode.MultiCurrency, h, fig);
        expect(t <= h.available).toBe(true);
        if (fig.liabUsd > 0n && t > 0n) {
          const out = reference(holdings.map((x, j) => (j === i ? { ...x, available: x.available - t } : x)), params);
          expect(out.mb.gte(out.im), `round ${round}: transfer of ${t} breaks the margin`).toBe(true);
        }
      }
    }
    expect(positive).toBeGreaterThan(50);
  });

  it('discounts slice by slice and values exactly', () => {
    const tiers = [{ upTo: 1000n * 10n ** 36n, ppm: 1_000_000n }, { upTo: 5000n * 10n ** 36n, ppm: 500_000n }, { upTo: null, ppm: 0n }];
    expect(discounted(3000n * 10n ** 36n, tiers)).toBe(2000n * 10n ** 36n);
    expect(discounted(9000n * 10n ** 36n, tiers)).toBe(3000n * 10n ** 36n);
    expect(usdOf(150_000_000n, 8, { num: 6000012n, scale: 2 })).toBe(90000180000000000000000000000000000000000n);
  });

  it('charges each hour rounded up to a unit', () => {
    const rng = new Prng(3);
    for (let i = 0; i < 500; i++) {
      const b = BigInt(rng.nextInt(1e9)) * BigInt(1 + rng.nextInt(1e6));
      const rate = BigInt(rng.nextInt(1_000_000_000));
      const hours = BigInt(rng.nextInt(100));
      const per = big(b).times(big(rate)).div(1e12).round(0, Big.roundUp);
      expect(hourlyInterest(b, rate, hours).toString()).toBe(hours === 0n || rate === 0n ? '0' : per.times(hours.toString()).toFixed(0));
    }
  });

  it('formats figures', () => {
    expect(formatScaled(-1234500n, 4, 8)).toBe('-123.45');
    expect(formatScaled(123456789n, 9, 4)).toBe('0.1234');
    expect(formatScaled(0n, 36, 8)).toBe('0');
    expect(marginRate(3n, 2n)).toBe('1.5');
    expect(marginRate(3n, 0n)).toBe('0');
  });
});
