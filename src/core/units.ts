/**
 * Exact decimal ⇄ integer conversion at the edge of the core.
 *
 * Inside the core, prices are integer ticks and amounts integer lots (JS numbers that are safe integers);
 * decimal strings exist only at the boundary. Nothing here uses floating-point arithmetic on fractions:
 * digits are accumulated as integers, so a value either converts exactly or is rejected.
 */
import { ResultCode } from './result-code.js';

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const DOT = 46;

/** 10^k for k in 0..22 (exact doubles). */
export const POW10: readonly number[] = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * Parses a positive decimal string into integer units of `10^-scale`.
 *
 * Returns the units (> 0) on success, or a negative ResultCode:
 * - InvalidParam: not a string of the form `digits[.digits]`, negative, or zero;
 * - InvalidPrecision: a non-zero digit beyond `scale` decimals (trailing zeros are accepted: they change nothing);
 * - AmountTooMuch: the value does not fit an exact integer (above Number.MAX_SAFE_INTEGER units).
 * Allocation: none.
 */
export function parseUnits(text: unknown, scale: number): number {
  if (typeof text !== 'string' || text.length === 0 || text.length > 64) return ResultCode.InvalidParam;
  const len = text.length;
  let i = 0;
  let units = 0;
  let intDigits = 0;
  for (; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) break;
    units = units * 10 + (c - DIGIT_0);
    intDigits++;
  }
  if (intDigits === 0) return ResultCode.InvalidParam; // empty, '-1', '.5', 'abc'
  let fracDigits = 0;
  let precisionLost = false;
  if (i < len) {
    if (text.charCodeAt(i) !== DOT || i === len - 1) return ResultCode.InvalidParam;
    for (i++; i < len; i++) {
      const c = text.charCodeAt(i);
      if (c < DIGIT_0 || c > DIGIT_9) return ResultCode.InvalidParam;
      if (fracDigits < scale) {
        units = units * 10 + (c - DIGIT_0);
        fracDigits++;
      } else if (c !== DIGIT_0) {
        precisionLost = true;
      }
    }
  }
  if (precisionLost) return ResultCode.InvalidPrecision;
  for (; fracDigits < scale; fracDigits++) units *= 10;
  // Accumulation is monotonic, so a value past 2^53 cannot round back below it.
  if (!Number.isSafeInteger(units)) return ResultCode.AmountTooMuch;
  if (units === 0) return ResultCode.InvalidParam;
  return units;
}

/** Zeros to left-pad a fraction's digits, by count (the widest fraction a safe integer has is 15 digits). */
const ZEROS: readonly string[] = Array.from({ length: 16 }, (_, k) => '0'.repeat(k));

/**
 * Formats integer units of `10^-scale` as a decimal string without trailing zeros ("1.5", "100"). Every answer,
 * and most reply fields, pass here: for scales up to 15 it splits integer and fraction arithmetically (exact:
 * `%` of integers and the division of a multiple of 10^scale), with no padding or slicing of strings.
 * @allocates the answer (and the integer and fraction digits it joins)
 */
export function formatUnits(units: number, scale: number): string {
  if (!Number.isSafeInteger(units)) throw new RangeError(`not a safe integer: ${units}`);
  if (scale === 0) return String(units);
  const negative = units < 0;
  const u = negative ? -units : units;
  if (scale > 15) return formatBySlicing(u, scale, negative);
  const p = POW10[scale]!;
  let frac = u % p;
  const whole = (u - frac) / p;
  if (frac === 0) return negative ? `-${whole}` : String(whole);
  let width = scale;
  while (frac % 10 === 0) {
    frac /= 10;
    width--;
  }
  const digits = String(frac);
  const text = digits.length < width ? `${whole}.${ZEROS[width - digits.length]!}${digits}` : `${whole}.${digits}`;
  return negative ? `-${text}` : text;
}

/** formatUnits for scales past 15 (a fraction wider than a safe integer's digits): by the decimal digits. */
function formatBySlicing(u: number, scale: number, negative: boolean): string {
  let digits = String(u);
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  const cut = digits.length - scale;
  let frac = digits.slice(cut);
  let end = frac.length;
  while (end > 0 && frac.charCodeAt(end - 1) === DIGIT_0) end--;
  frac = frac.slice(0, end);
  digits = frac.length > 0 ? `${digits.slice(0, cut)}.${frac}` : digits.slice(0, cut);
  return negative ? `-${digits}` : digits;
}

/**
 * Exact floor(a / b) for non-negative safe integers a and b > 0.
 * Float division can round a quotient up across an integer boundary; the corrections make it exact.
 */
export function floorDiv(a: number, b: number): number {
  let q = Math.floor(a / b);
  if (q * b > a) q -= 1;
  else if ((q + 1) * b <= a) q += 1;
  return q;
}

/** True when `n` is an integer in [0, 2^31): the range of user, STP group and enum fields. */
export const isInt31 = (n: number): boolean => (n | 0) === n && n >= 0;

/** True when `n` is a safe integer greater than zero. */
export const isPositiveSafeInteger = (n: number): boolean => Number.isSafeInteger(n) && n > 0;
