/**
 * Amounts of one currency: integers in units of 10^-scale.
 *
 * A *narrow* currency (max supply × 10^scale ≤ Number.MAX_SAFE_INTEGER) keeps amounts as JS numbers: exact,
 * and allocation-free. A *wide* currency keeps them as BigInt: exact at any size, and each arithmetic result
 * allocates. Every value of one currency has the same representation, so the helpers below never mix a number
 * with a bigint (mixing would throw a TypeError: a broken invariant, not a business outcome).
 */
import type { StateHasher } from '../state-hash.js';
import { floorDiv, formatUnits } from '../units.js';

/** A currency amount in integer units: number for narrow currencies, bigint for wide ones. */
export type Amount = number | bigint;

const PPM = 1_000_000;
const PPM_BIG = 1_000_000n;
const SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** a + b (same representation). */
export const addAmount = (a: Amount, b: Amount): Amount => (typeof a === 'number' ? a + (b as number) : a + (b as bigint));

/** a − b (same representation). */
export const subAmount = (a: Amount, b: Amount): Amount => (typeof a === 'number' ? a - (b as number) : a - (b as bigint));

/** The zero of the representation of `like`. */
export const zeroLike = (like: Amount): Amount => (typeof like === 'number' ? 0 : 0n);

/** True when the amount is zero (either representation). */
export const isZeroAmount = (a: Amount): boolean => a === 0 || a === 0n;

/**
 * floor(received × ppm / 10^6), exact. Narrow: received = q·10^6 + r, fee = q·ppm + floor(r·ppm / 10^6), so no
 * intermediate exceeds max(received, 10^12). Wide: BigInt arithmetic. `ppm` is an integer in [0, 10^6].
 */
export function feeOf(received: Amount, ppm: number): Amount {
  if (typeof received === 'bigint') return (received * BigInt(ppm)) / PPM_BIG;
  const q = floorDiv(received, PPM);
  const r = received - q * PPM;
  return q * ppm + floorDiv(r * ppm, PPM);
}

/** Formats units of 10^-scale as a decimal string without trailing zeros. @allocates */
export function formatAmount(units: Amount, scale: number): string {
  if (typeof units === 'number') return formatUnits(units, scale);
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (scale > 0) {
    if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
    const cut = digits.length - scale;
    const frac = digits.slice(cut).replace(/0+$/, '');
    digits = frac.length > 0 ? `${digits.slice(0, cut)}.${frac}` : digits.slice(0, cut);
  }
  return negative ? `-${digits}` : digits;
}

/** Mixes an amount into a state hash; equal values hash equally whatever their representation. */
export function hashAmount(h: StateHasher, v: Amount): void {
  if (typeof v === 'number') h.add(v);
  else if (v >= -SAFE_BIG && v <= SAFE_BIG) h.add(Number(v));
  else h.addString(v.toString());
}
