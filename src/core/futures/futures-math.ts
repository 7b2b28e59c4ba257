/**
 * Exact integer arithmetic for futures: BigInt units of the settle currency, integer price ticks, integer
 * contracts, and rates in units of 10^-8 (RATE_ONE = 1.0).
 *
 * Every division names its rounding. Money a user pays (fees, funding owed, margin required) rounds up;
 * money a user receives (rebates, funding received) rounds down; values both sides of a fill share (the cash
 * a fill moves, an inverse contract's value) round half up, once, so both sides see the same number.
 * Costs: BigInt operations allocate.
 */

/** Rates (fees, maintenance, funding, deviations) are integers of 10^-8. */
export const RATE_SCALE = 8;
export const RATE_ONE = 100_000_000n;

export const Round = { Down: 0, Up: 1, HalfUp: 2 } as const;
export type Round = (typeof Round)[keyof typeof Round];

/** a / b for b > 0, rounded as asked (a may be negative: Down is floor, Up is ceil). */
export function divRound(a: bigint, b: bigint, mode: Round): bigint {
  let q = a / b;
  const r = a - q * b;
  if (r === 0n) return q;
  // BigInt division truncates toward zero: make it floor first.
  if (r < 0n) q -= 1n;
  if (mode === Round.Up) return q + 1n;
  if (mode === Round.HalfUp) {
    const rem = a - q * b; // in (0, b)
    return rem * 2n >= b ? q + 1n : q;
  }
  return q;
}

/** a × b / c, rounded as asked. */
export const mulDiv = (a: bigint, b: bigint, c: bigint, mode: Round): bigint => divRound(a * b, c, mode);

/** |v|. */
export const abs = (v: bigint): bigint => (v < 0n ? -v : v);

/** −1n, 0n or 1n. */
export const sign = (v: bigint): bigint => (v > 0n ? 1n : v < 0n ? -1n : 0n);

/** The smaller of two bigints. */
export const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** The larger of two bigints. */
export const maxBig = (a: bigint, b: bigint): bigint => (a > b ? a : b);

/** `value` × `rate` (10^-8 units, signed), rounded as asked. */
export const ofRate = (value: bigint, rate: bigint, mode: Round): bigint => divRound(value * rate, RATE_ONE, mode);

/** Parses a signed decimal string into integer units of 10^-scale; undefined when malformed or too precise. */
export function parseSignedUnits(text: string, scale: number): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (m === null || text.length > 40) return undefined;
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > scale) return undefined;
  const v = BigInt(m[2]! + frac.padEnd(scale, '0'));
  return m[1] === '-' ? -v : v;
}

/** Formats signed integer units of 10^-scale as a decimal string without trailing zeros. @allocates */
export function formatSigned(units: bigint, scale: number): string {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (scale > 0) {
    if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
    const cut = digits.length - scale;
    const frac = digits.slice(cut).replace(/0+$/, '');
    digits = frac.length > 0 ? `${digits.slice(0, cut)}.${frac}` : digits.slice(0, cut);
  }
  return negative && /[1-9]/.test(digits) ? `-${digits}` : digits;
}

/** Decimals of a decimal string's fractional part, trailing zeros ignored ("0.10" → 1, "5" → 0). */
export function decimalsOf(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.slice(dot + 1).replace(/0+$/, '').length;
}

/** `num` / `den` as a decimal string with at most `scale` decimals, rounded half up (den > 0). @allocates */
export function ratioText(num: bigint, den: bigint, scale: number): string {
  return formatSigned(divRound(num * 10n ** BigInt(scale), den, Round.HalfUp), scale);
}

/**
 * Whether `price` lies further from `mark` than `deviate` (10^-8) allows: |price − mark| × 10^8 > mark × deviate,
 * decided exactly. Both sides are computed in doubles first (one rounding each, relative error under 2^-52);
 * only when they are within 10^-9 of each other does the exact BigInt comparison run (it allocates).
 */
export function exceedsDeviation(price: number, mark: number, deviate: bigint): boolean {
  const lhs = Math.abs(price - mark) * 1e8;
  const rhs = mark * Number(deviate);
  if (lhs > rhs * (1 + 1e-9)) return true;
  if (lhs < rhs * (1 - 1e-9)) return false;
  return BigInt(Math.abs(price - mark)) * RATE_ONE > BigInt(mark) * deviate;
}
