/**
 * Margin figures of positions and accounts, from a position's size n, basis B and margin Mg at a price M.
 * All money in BigInt settle units, prices in ticks; formulas (docs/futures.md gives them in Gate's terms):
 *
 *   value            V(|n|, M)                                   (contract.ts valueAt)
 *   unrealised PnL   B + cashFlow(closing |n| at M)              (what closing at M would realise)
 *   leverage         L, or for cross the cross_leverage_limit (the tier's maximum when 0)
 *   initial margin   ⌈V / L⌉ (what opening takes); Gate's `initial_margin` adds the taker fee of closing
 *   tier             t = max(1, ⌈risk_limit / risk_limit_step⌉); mmr = t × maintenance_rate;
 *                    the tier's leverage_max = max(1, ⌊leverage_max / t⌋)
 *   maintenance      ⌈V × (mmr + taker fee rate)⌉
 *   liquidation      isolated: Mg + uPnL ≤ maintenance; cross: the account's cross margin balance
 *                    (total − isolated margins + Σ cross uPnL) ≤ Σ cross maintenance
 *   liq price        where Mg + uPnL(P) = V(P) × (mmr + fee), solved exactly for P (linear and inverse)
 *   bankruptcy price where Mg + uPnL(P) = 0, rounded against the position (its owner never gets less than 0)
 *
 * Costs: BigInt arithmetic (allocates); pure functions of their arguments.
 */
import { type Contract, cashFlow, valueAt } from './contract.js';
import { abs, divRound, maxBig, ofRate, RATE_ONE, Round } from './futures-math.js';

/** The risk-limit tier index (≥ 1) of a risk limit. */
export const tierOf = (c: Contract, riskLimit: bigint): bigint => maxBig(1n, divRound(riskLimit, c.riskStep, Round.Up));

/** Maintenance rate of a risk limit's tier (10^-8). */
export const mmrOf = (c: Contract, riskLimit: bigint): bigint => c.maintenanceRate * tierOf(c, riskLimit);

/** Largest leverage a risk limit's tier allows. */
export const maxLeverageOf = (c: Contract, riskLimit: bigint): number => Math.max(1, Math.floor(c.leverageMax / Number(tierOf(c, riskLimit))));

/** The leverage margin is computed at: isolated L, or cross's limit (the tier's maximum when unset). */
export const effectiveLeverage = (c: Contract, leverage: number, crossLimit: number, riskLimit: bigint): number =>
  leverage > 0 ? leverage : crossLimit > 0 ? crossLimit : maxLeverageOf(c, riskLimit);

/** Value of a position of signed size `n` at `m` ticks. */
export const positionValue = (c: Contract, n: number, m: number): bigint => valueAt(c, BigInt(Math.abs(n)), BigInt(m));

/** Unrealised PnL of (n, B) at `m` ticks: B plus the cash that closing it at m would move. */
export function unrealisedPnl(c: Contract, n: number, basis: bigint, m: number): bigint {
  if (n === 0 || m <= 0) return 0n;
  return basis + cashFlow(c, n < 0, BigInt(Math.abs(n)), BigInt(m));
}

/** What opening `value` at leverage `l` takes as margin: ⌈value / l⌉. */
export const openingMargin = (value: bigint, l: number): bigint => divRound(value, BigInt(l), Round.Up);

/** Maintenance margin of `value` at maintenance rate `mmr` (10^-8), the closing taker fee included. */
export const maintenanceMargin = (c: Contract, value: bigint, mmr: bigint): bigint => ofRate(value, mmr + c.takerRate, Round.Up);

/** Gate's `initial_margin` of a position worth `value` at leverage `l`: ⌈value / l⌉ + the closing taker fee. */
export const initialMarginShown = (c: Contract, value: bigint, l: number): bigint =>
  openingMargin(value, l) + ofRate(value, c.takerRate, Round.Up);

/**
 * The price (ticks) where equity `margin` + uPnL meets `rate` × value (10^-8; the maintenance rate plus fee for
 * the liquidation price, 0 for the bankruptcy price), or 0 when no positive price does. Rounded so that the
 * position is no better off than the exact solution: up for longs of linear contracts, and so on.
 */
export function priceWhereEquity(c: Contract, n: number, basis: bigint, margin: bigint, rate: bigint): bigint {
  if (n === 0) return 0n;
  const k = BigInt(Math.abs(n));
  const long = n > 0;
  if (!c.inverse) {
    // Linear: equity(P) = margin + B ± k·q·F·P; the value is k·q·F·P.
    const unit = k * c.qUnits * c.valueFactor; // settle units per tick
    const num = long ? -(margin + basis) * RATE_ONE : (margin + basis) * RATE_ONE;
    const den = unit * (long ? RATE_ONE - rate : RATE_ONE + rate);
    if (den <= 0n || num <= 0n) return 0n;
    return divRound(num, den, long ? Round.Up : Round.Down);
  }
  // Inverse: value(P) = k·K / P; a long's equity is margin + B − k·K/P, a short's margin + B + k·K/P.
  const kk = k * c.valueFactor;
  if (long) {
    const eq = margin + basis;
    if (eq <= 0n) return 0n;
    return divRound(kk * (RATE_ONE + rate), eq * RATE_ONE, Round.Up);
  }
  const eq = -(margin + basis);
  const factor = RATE_ONE - rate;
  if (eq <= 0n || factor <= 0n) return 0n;
  return divRound(kk * factor, eq * RATE_ONE, Round.Down);
}

/** Liquidation price (ticks; 0 = none) of an isolated position with margin `margin`. */
export const liquidationPrice = (c: Contract, n: number, basis: bigint, margin: bigint, riskLimit: bigint): bigint =>
  priceWhereEquity(c, n, basis, margin, mmrOf(c, riskLimit) + c.takerRate);

/**
 * Bankruptcy price (ticks) of a position with margin `margin`: where its equity is zero. A long whose equity
 * stays positive at every price (margin covers the whole basis) has none: 1 tick; a short that no price can
 * bankrupt (inverse, margin ≥ |basis|): the largest safe price.
 */
export function bankruptcyPrice(c: Contract, n: number, basis: bigint, margin: bigint): bigint {
  const p = priceWhereEquity(c, n, basis, margin, 0n);
  if (p > 0n) return p;
  return n > 0 ? 1n : BigInt(Math.floor(Number.MAX_SAFE_INTEGER / Math.max(1, Math.abs(n))));
}

/** Entry price of (n, B) as ticks × 10^extra (exact to `extra` more decimals, half up); 0n when empty. */
export function entryTicks(c: Contract, n: number, basis: bigint, extra: number): bigint {
  if (n === 0 || basis === 0n) return 0n;
  const k = BigInt(Math.abs(n));
  const scale = 10n ** BigInt(extra);
  if (!c.inverse) return divRound(abs(basis) * scale, k * c.qUnits * c.valueFactor, Round.HalfUp);
  return divRound(k * c.valueFactor * scale, abs(basis), Round.HalfUp);
}
