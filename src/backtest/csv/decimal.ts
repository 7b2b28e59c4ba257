/**
 * Exact decimal parsing straight from bytes: `[-]digits[.digits][e[+-]digits]` → an integer in units of
 * 10^-scale, without building a string or a float. A value with more significant decimals than `scale`
 * (non-zero digits past it) or beyond 2^53 is refused: a replay never rounds prices or sizes silently.
 */
import { POW10 } from '../../core/units.js';

/** Sentinel for a field that is not an exact decimal at the requested scale. */
export const BAD_DECIMAL = Number.NaN;

/** Parses `b[start, end)` at `scale`; returns BAD_DECIMAL on anything else. */
export function parseScaled(b: Uint8Array, start: number, end: number, scale: number): number {
  let i = start;
  let neg = false;
  if (i < end && b[i] === 45) { neg = true; i++; }
  let mant = 0;
  let decimals = 0;
  let digits = 0;
  let dot = false;
  for (; i < end; i++) {
    const c = b[i]!;
    if (c >= 48 && c <= 57) {
      mant = mant * 10 + (c - 48);
      digits++;
      if (dot) decimals++;
    } else if (c === 46 && !dot) {
      dot = true;
    } else if (c === 101 || c === 69) {
      i++;
      let eneg = false;
      if (b[i] === 45) { eneg = true; i++; } else if (b[i] === 43) i++;
      let e = 0;
      const e0 = i;
      for (; i < end; i++) {
        const d = b[i]! - 48;
        if (d < 0 || d > 9) return BAD_DECIMAL;
        e = e * 10 + d;
      }
      if (i === e0 || e > 30) return BAD_DECIMAL;
      decimals += eneg ? e : -e;
      break;
    } else {
      return BAD_DECIMAL;
    }
  }
  if (digits === 0 || !Number.isSafeInteger(mant)) return BAD_DECIMAL;
  let v: number;
  if (decimals <= scale) {
    const shift = scale - decimals;
    if (shift > 22) return mant === 0 ? 0 : BAD_DECIMAL;
    v = mant * POW10[shift]!;
  } else {
    const cut = decimals - scale;
    if (cut > 22) return mant === 0 ? 0 : BAD_DECIMAL;
    const p = POW10[cut]!;
    if (mant % p !== 0) return BAD_DECIMAL;
    v = mant / p;
  }
  if (!Number.isSafeInteger(v)) return BAD_DECIMAL;
  return neg && v !== 0 ? -v : v;
}

/** Significant decimals of a plain decimal field (trailing zeros ignored); -1 when it has an exponent. */
export function decimalsOf(b: Uint8Array, start: number, end: number): number {
  let dot = -1;
  let last = -1;
  for (let i = start; i < end; i++) {
    const c = b[i]!;
    if (c === 46) dot = i;
    else if (c === 101 || c === 69) return -1;
    else if (dot >= 0 && c !== 48) last = i;
  }
  return dot < 0 || last < 0 ? 0 : last - dot;
}

/** Parses a non-negative integer field (timestamps); BAD_DECIMAL if anything but digits. */
export function parseUint(b: Uint8Array, start: number, end: number): number {
  if (start >= end) return BAD_DECIMAL;
  let v = 0;
  for (let i = start; i < end; i++) {
    const d = b[i]! - 48;
    if (d < 0 || d > 9) return BAD_DECIMAL;
    v = v * 10 + d;
  }
  return v;
}
