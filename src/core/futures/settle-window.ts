/**
 * The settlement price of dated products: the mean of the index samples the price clock journaled in the window
 * [E − W, E) before expiry E (W the product's `settle_price_duration`, seconds). Delivery contracts
 * (delivery-settlement.ts: the index of each FuturesSetPrices) and options expirations
 * (options/options-commands.ts: each OptionsSetIndex) both keep a window as a sum and a sample count per slot and
 * price it here, so the two settle by one rule:
 *
 *   sample    an index `p` (ticks) carried by a command at time t (seconds) counts when E − W ≤ t < E
 *   price     ⌊mean⌉ = Σ samples / n rounded half up, then rounded half up to the price step (at least one step);
 *             with no sample, the caller's fallback (the last index before expiry), rounded the same way;
 *             0 when there is neither.
 *
 * A simulated clock that jumps over the window leaves it without samples: the fallback applies. Pure arithmetic;
 * BigInt sums; no allocation beyond them.
 */
import { divRound, maxBig, Round } from './futures-math.js';

/** True when time `t` (seconds) lies in the window [expire − duration, expire). */
export const inSettleWindow = (t: number, expire: number, duration: number): boolean => t >= expire - duration && t < expire;

/** Adds index `price` (ticks > 0) at time `t` (seconds) to slot `i` of (sum, samples) when it lies in the window. */
export function addWindowSample(sum: bigint[], samples: Int32Array, i: number, t: number, expire: number, duration: number,
  price: number): void {
  if (price <= 0 || !inSettleWindow(t, expire, duration)) return;
  sum[i] = sum[i]! + BigInt(price);
  samples[i] = samples[i]! + 1;
}

/** The settlement price (ticks) of a window with `sum` over `samples`, else `fallback`, on a `step` grid (see above). */
export function windowSettlePrice(sum: bigint, samples: number, fallback: number, step: number): number {
  const raw = samples > 0 ? divRound(sum, BigInt(samples), Round.HalfUp) : BigInt(fallback > 0 ? fallback : 0);
  if (raw <= 0n) return 0;
  const s = BigInt(step);
  return Number(maxBig(s, divRound(raw, s, Round.HalfUp) * s));
}
