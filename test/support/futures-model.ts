// An independent model of futures positions and margin, in big.js decimals of the settle currency, written from
// Gate's formulas (shared/reference/futures.md §a.2–a.4) rather than from src/core/futures. Prices are decimals
// (ticks × 10^-priceScale only at the edges), money decimals of the settle currency. Where the core rounds to its
// integer units, the model states the same rule (each named below) and rounds once, at the same place:
//
//   R1 inverse value       |n| / P rounded half up to the settle scale (both sides of a fill see the same number);
//                          linear value |n| × q × P is exact.
//   R2 fee                 value × taker rate rounded up (paid); a maker rebate value × |maker rate| rounded down
//                          (received): money a user pays rounds up, money a user receives rounds down.
//   R3 reduction           the basis (cash paid on opening) leaves pro rata, truncated toward zero to settle units
//                          (all of it when the position empties); the margin slice ⌊Mg × kc / |n|⌋ returns;
//                          a loss is paid from the margin first, so the margin shrinks by max(loss, slice).
//   R4 opening margin      ⌈value(k, fill price) / L⌉ per opening fill (L: leverage, or the cross limit, or the
//                          tier's maximum leverage).
//   R5 maintenance         ⌈value × (tier × maintenance_rate + taker rate)⌉; tier = max(1, ⌈risk_limit / step⌉).
//   R6 Gate initial margin ⌈value / L⌉ + ⌈value × taker rate⌉.
//   R7 liquidation price   Gate's formulas solved exactly, then rounded to the price grid against the position
//                          (up for a long, down for a short); 0 when no positive price.
//   R9 empty position      realised figures (pnl_pnl, pnl_fee, pnl_fund) restart at 0 when a fill empties it.
//   R8 funding             |n| × q × M × |rate| (linear) or |n| / M × |rate| (inverse, exact |n|/M), rounded up
//                          for payers and down for receivers.
import Big from 'big.js';
import type { ContractConfig } from '../../src/core/futures/contract.js';

Big.DP = 40;
Big.RM = Big.roundDown;

/** Rounding of a decimal to `scale` decimals. */
export const roundUp = (v: Big, scale: number): Big => v.round(scale, Big.roundUp);
export const roundDown = (v: Big, scale: number): Big => v.round(scale, Big.roundDown);
export const roundHalfUp = (v: Big, scale: number): Big => v.round(scale, Big.roundHalfUp);
/** ⌈v⌉ / ⌊v⌋ to `scale` decimals toward +∞ / −∞ (big.js roundUp/roundDown are away from / toward zero). */
export const ceilTo = (v: Big, scale: number): Big => (v.gte(0) ? roundUp(v, scale) : roundDown(v, scale));
export const floorTo = (v: Big, scale: number): Big => (v.gte(0) ? roundDown(v, scale) : roundUp(v, scale));

export interface ModelContract {
  readonly name: string;
  readonly inverse: boolean;
  readonly q: Big;
  /** Decimals of prices (ticks = price × 10^priceScale) and of the settle currency. */
  readonly priceScale: number;
  readonly settleScale: number;
  readonly maker: Big;
  readonly taker: Big;
  readonly maintenanceRate: Big;
  readonly riskStep: Big;
  readonly leverageMax: number;
}

/** The model's view of a contract configuration (Gate's fields). */
export function modelContract(spec: ContractConfig, settleScale: number): ModelContract {
  const dec = (s: string | undefined): number => (s === undefined || !s.includes('.') ? 0 : s.split('.')[1]!.replace(/0+$/, '').length);
  const quote = spec.name.split('_')[1]!;
  const inverse = (spec.type ?? (quote === spec.settle.toUpperCase() ? 'direct' : 'inverse')) === 'inverse';
  return {
    name: spec.name, inverse, q: inverse ? new Big(1) : new Big(spec.quanto_multiplier ?? '1'),
    priceScale: Math.max(dec(spec.order_price_round), dec(spec.mark_price_round ?? spec.order_price_round)), settleScale,
    maker: new Big(spec.maker_fee_rate ?? '-0.0001'), taker: new Big(spec.taker_fee_rate ?? '0.00075'),
    maintenanceRate: new Big(spec.maintenance_rate ?? '0.005'), riskStep: new Big(spec.risk_limit_step ?? '1000000'),
    leverageMax: Number(spec.leverage_max ?? '100'),
  };
}

export const priceOf = (c: ModelContract, ticks: number): Big => new Big(ticks).div(new Big(10).pow(c.priceScale));
export const ticksOf = (c: ModelContract, price: Big): bigint => BigInt(price.times(new Big(10).pow(c.priceScale)).toFixed(0));
/** Settle decimal → integer units of the core. */
export const unitsOf = (c: ModelContract, v: Big): bigint => BigInt(v.times(new Big(10).pow(c.settleScale)).toFixed(0));
export const fromUnits = (c: ModelContract, u: bigint): Big => new Big(u.toString()).div(new Big(10).pow(c.settleScale));

/** Value of k ≥ 0 contracts at price P (R1). */
export function value(c: ModelContract, k: number, P: Big): Big {
  if (k === 0) return new Big(0);
  return c.inverse ? roundHalfUp(new Big(k).div(P), c.settleScale) : new Big(k).times(c.q).times(P);
}

/** The tier, maintenance rate and largest leverage of a risk limit (§a.4, legacy stepped limits). */
export function tier(c: ModelContract, riskLimit: Big): { tier: number; mmr: Big; maxLeverage: number } {
  const t = Math.max(1, Number(riskLimit.div(c.riskStep).round(0, Big.roundUp).toFixed(0)));
  return { tier: t, mmr: c.maintenanceRate.times(t), maxLeverage: Math.max(1, Math.floor(c.leverageMax / t)) };
}

export interface ModelPosition {
  /** Signed contracts. */
  n: number;
  /** Settle currency the position's opening fills paid (−) or received (+); its entry price follows. */
  basis: Big;
  margin: Big;
  pnlPnl: Big;
  pnlFee: Big;
  pnlFund: Big;
  leverage: number;
  crossLimit: number;
  riskLimit: Big;
}

export const emptyPosition = (leverage: number, riskLimit: Big): ModelPosition => ({
  n: 0, basis: new Big(0), margin: new Big(0), pnlPnl: new Big(0), pnlFee: new Big(0), pnlFund: new Big(0),
  leverage, crossLimit: 0, riskLimit,
});

/** Leverage the margin is computed at. */
export const effLeverage = (c: ModelContract, p: ModelPosition): number =>
  p.leverage > 0 ? p.leverage : p.crossLimit > 0 ? p.crossLimit : tier(c, p.riskLimit).maxLeverage;

/** The cash a buy (−) or sell (+) of k contracts at P moves for a linear contract; reversed for inverse. */
function cash(c: ModelContract, buy: boolean, k: number, P: Big): Big {
  const v = value(c, k, P);
  return buy !== c.inverse ? v.neg() : v;
}

/**
 * Entry price (§a.2: size-weighted average while the position grows, unchanged on reduce): linear Σ k·P / Σ k·q,
 * inverse the harmonic mean Σ k / Σ (k / P); both are |basis| ratios.
 */
export function entryPrice(c: ModelContract, p: ModelPosition): Big {
  if (p.n === 0 || p.basis.eq(0)) return new Big(0);
  const k = Math.abs(p.n);
  return c.inverse ? new Big(k).div(p.basis.abs()) : p.basis.abs().div(c.q.times(k));
}

/** Unrealised PnL at mark M: linear n·q·(M − E); inverse n·(1/E − 1/M) (value rounded by R1). */
export function unrealised(c: ModelContract, p: ModelPosition, M: Big): Big {
  if (p.n === 0) return new Big(0);
  return p.basis.plus(cash(c, p.n < 0, Math.abs(p.n), M));
}

/** What one side of a fill does to a position (R2–R4); returns the fee (negative: rebate) and realised PnL. */
export function fill(c: ModelContract, p: ModelPosition, buy: boolean, k: number, P: Big, maker: boolean): { fee: Big; pnl: Big; closed: number } {
  const v = value(c, k, P);
  const rate = maker ? c.maker : c.taker;
  const fee = rate.gte(0) ? roundUp(v.times(rate), c.settleScale) : roundDown(v.times(rate), c.settleScale);
  p.pnlFee = p.pnlFee.minus(fee);
  const against = (p.n > 0 && !buy) || (p.n < 0 && buy);
  const kc = against ? Math.min(k, Math.abs(p.n)) : 0;
  let pnl = new Big(0);
  if (kc > 0) {
    const absN = Math.abs(p.n);
    const full = kc === absN;
    const br = full ? p.basis : roundDown(p.basis.times(kc).div(absN), c.settleScale);
    pnl = cash(c, buy, kc, P).plus(br);
    const slice = full ? p.margin : roundDown(p.margin.times(kc).div(absN), c.settleScale);
    p.basis = p.basis.minus(br);
    p.n += buy ? kc : -kc;
    const loss = pnl.lt(0) ? pnl.neg() : new Big(0);
    const left = p.margin.minus(loss.gt(slice) ? loss : slice);
    p.margin = full || left.lt(0) ? new Big(0) : left;
    p.pnlPnl = p.pnlPnl.plus(pnl);
    if (p.n === 0) {
      // R9: a position that empties starts its realised figures afresh (a flip's opening part keeps none of the fee).
      p.pnlPnl = new Big(0);
      p.pnlFee = new Big(0);
      p.pnlFund = new Big(0);
    }
  }
  const ko = k - kc;
  if (ko > 0) {
    // R1': the opening part of a flip moves the whole fill's cash less the closing part's.
    p.basis = p.basis.plus(cash(c, buy, k, P).minus(kc > 0 ? cash(c, buy, kc, P) : new Big(0)));
    p.n += buy ? ko : -ko;
    p.margin = p.margin.plus(roundUp(value(c, ko, P).div(effLeverage(c, p)), c.settleScale));
  }
  return { fee, pnl, closed: kc };
}

/** Figures Gate's Position reports at mark M (R5–R7); `extra` is free balance backing a cross position. */
export function figures(c: ModelContract, p: ModelPosition, M: Big, extra = new Big(0)) {
  const V = value(c, Math.abs(p.n), M);
  const t = tier(c, p.riskLimit);
  const L = effLeverage(c, p);
  const S = c.settleScale;
  return {
    value: V,
    upnl: unrealised(c, p, M),
    initial: p.n === 0 ? new Big(0) : roundUp(V.div(L), S).plus(roundUp(V.times(c.taker), S)),
    maintenance: p.n === 0 ? new Big(0) : roundUp(V.times(t.mmr.plus(c.taker)), S),
    mmr: t.mmr,
    leverage: L,
    liqPrice: p.n === 0 ? new Big(0) : liquidationPrice(c, p, p.margin.plus(extra), t.mmr.plus(c.taker)),
  };
}

/**
 * Gate's liquidation price (§a.2) with margin m and r = mmr + taker fee:
 *   linear  (E ∓ m / q / |n|) / (1 ∓ r)          − long, + short
 *   inverse |n|·E·(1 ± r) / (|n| ± m·E)          + long, − short
 * rounded to the price grid against the position (R7); 0 when no positive price.
 */
export function liquidationPrice(c: ModelContract, p: ModelPosition, m: Big, r: Big): Big {
  const E = entryPrice(c, p);
  const k = new Big(Math.abs(p.n));
  const long = p.n > 0;
  let P: Big;
  if (!c.inverse) {
    // Written over |basis| = |n|·q·E so that it divides once (the same number as Gate's form).
    const num = long ? p.basis.abs().minus(m) : p.basis.abs().plus(m);
    const den = k.times(c.q).times(long ? new Big(1).minus(r) : new Big(1).plus(r));
    if (num.lte(0) || den.lte(0)) return new Big(0);
    P = num.div(den);
  } else {
    // |n|·E / (|n| ± m·E) = |n| / (|n|/E ± m) = |n| / (|basis| ± m).
    const den = long ? p.basis.abs().plus(m) : p.basis.abs().minus(m);
    const f = long ? new Big(1).plus(r) : new Big(1).minus(r);
    if (den.lte(0) || f.lte(0) || E.eq(0)) return new Big(0);
    P = k.times(f).div(den);
  }
  return long ? ceilTo(P, c.priceScale) : floorTo(P, c.priceScale);
}

/** Funding of a position at mark M and rate (R8): positive is paid by the position, negative received. */
export function fundingOwed(c: ModelContract, n: number, M: Big, rate: Big): Big {
  if (n === 0 || rate.eq(0)) return new Big(0);
  const exact = c.inverse ? new Big(Math.abs(n)).div(M).times(rate.abs()) : new Big(Math.abs(n)).times(c.q).times(M).times(rate.abs());
  const pays = (n > 0) === rate.gt(0);
  return pays ? roundUp(exact, c.settleScale) : roundDown(exact, c.settleScale).neg();
}
