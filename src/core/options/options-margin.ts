/**
 * Exact money of options: premium, fees, the seller's margin and the expiry payoff, in BigInt units of the
 * settle currency (prices in the underlying's ticks, rates of 10^-8; options-contract.ts). Every rounding is
 * named: what a user pays or sets aside rounds up; the premium and the payoff are exact (no rounding).
 *
 *   premium(k, p)          = k × multiplier × p                                         (buyer pays, seller receives)
 *   fee(k, p, I, rate)     = min(⌈rate × k × multiplier × I⌉, ⌈fee_cap × premium(k, p)⌉)   (each side its own rate)
 *   OTM(I)                 = call max(0, K − I), put max(0, I − K)
 *   initial margin (short) = ⌈max(a × I − OTM, b × I) × multiplier × k⌉                 (+ the premium received, see orders)
 *   maintenance (short)    = ⌈max(m × I − OTM, n × I) × multiplier × k⌉                 (shown; no liquidation)
 *   payoff at X            = k × multiplier × (call max(0, X − K), put max(0, K − X))   (long receives, short pays)
 * I is the underlying's index (the strike while there is none yet, for margin and fees alike), X the settlement price.
 */
import { divRound, minBig, RATE_ONE, Round } from '../futures/futures-math.js';
import { type OptionContract, type OptionUnderlying, valueOf } from './options-contract.js';

/** Premium of `k` ≥ 0 contracts at `p` ticks. */
export const premium = (u: OptionUnderlying, k: bigint, p: bigint): bigint => valueOf(u, k, p);

/** Fee of one side of a fill of `k` contracts at `p` ticks with index `index` ticks and `rate` (10^-8). */
export function optionFee(u: OptionUnderlying, k: bigint, p: bigint, index: bigint, rate: bigint): bigint {
  if (rate <= 0n || k === 0n) return 0n;
  const byUnderlying = divRound(valueOf(u, k, index) * rate, RATE_ONE, Round.Up);
  const cap = divRound(premium(u, k, p) * u.feeCap, RATE_ONE, Round.Up);
  return minBig(byUnderlying, cap);
}

/** The most fee a buy of `k` at limit `p` can pay (its cap): what a buy order holds beside its premium. */
export const feeBound = (u: OptionUnderlying, k: bigint, p: bigint): bigint => divRound(premium(u, k, p) * u.feeCap, RATE_ONE, Round.Up);

/** Out-of-the-money amount per base unit, in ticks. */
export function otmTicks(c: OptionContract, index: number): number {
  return Math.max(0, c.call ? c.strike - index : index - c.strike);
}

/** The index the margin uses: the index, or the strike while there is none. */
export const marginIndex = (c: OptionContract, index: number): number => (index > 0 ? index : c.strike);

function shortMargin(u: OptionUnderlying, c: OptionContract, k: bigint, index: number, a: bigint, b: bigint): bigint {
  if (k <= 0n) return 0n;
  const I = BigInt(marginIndex(c, index));
  const otm = BigInt(otmTicks(c, Number(I)));
  const byA = a * I - otm * RATE_ONE;
  const byB = b * I;
  const perUnit = byA > byB ? byA : byB; // ticks × 10^8
  return divRound(k * u.mUnits * perUnit * u.valueFactor, RATE_ONE, Round.Up);
}

/** Initial margin of `k` short contracts at index `index` (ticks), without the premium. */
export const initialMargin = (u: OptionUnderlying, c: OptionContract, k: bigint, index: number): bigint =>
  shortMargin(u, c, k, index, u.imRate, u.imMinRate);

/** Maintenance margin of `k` short contracts (display). */
export const maintenanceMargin = (u: OptionUnderlying, c: OptionContract, k: bigint, index: number): bigint =>
  shortMargin(u, c, k, index, u.mmRate, u.mmMinRate);

/** Intrinsic value per base unit at settlement price `x` ticks. */
export const intrinsicTicks = (c: OptionContract, x: number): number => Math.max(0, c.call ? x - c.strike : c.strike - x);

/** What `k` ≥ 0 contracts are worth at expiry at settlement price `x` ticks. */
export const payoff = (u: OptionUnderlying, c: OptionContract, k: bigint, x: number): bigint => valueOf(u, k, BigInt(intrinsicTicks(c, x)));
