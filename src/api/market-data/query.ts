/**
 * Query-string parsing shared by the public market-data routes, and their result type.
 * Handlers take the decoded query as a plain record (`Object.fromEntries(new URLSearchParams(q))`) and answer
 * a value or a rejection code (the error catalogue maps it to Gate's label and status). No exceptions.
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { ResultCode } from '../../core/result-code.js';

export type QueryParams = Readonly<Record<string, string | undefined>>;

type Rejection = Exclude<ResultCode, typeof ResultCode.Ok>;

/** A handler's answer: the JSON-ready value, or a rejection code. */
export type Answer<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly code: Rejection };

export const answer = <T>(value: T): Answer<T> => ({ ok: true, value });
export const reject = (code: number): { readonly ok: false; readonly code: Rejection } => ({ ok: false, code: code as Rejection });

const UINT = /^[0-9]{1,16}$/;
const DECIMAL = /^[0-9]{1,16}(\.[0-9]{1,9})?$/;

/**
 * An optional integer parameter in [min, max]: `fallback` when absent or empty, a negative code when not a
 * plain decimal integer or out of range (InvalidParam).
 */
export function intParam(q: QueryParams, key: string, fallback: number, min: number, max: number): number {
  const v = q[key];
  if (v === undefined || v === '') return fallback;
  if (!UINT.test(v)) return ResultCode.InvalidParam;
  const n = Number(v);
  return n < min || n > max ? ResultCode.InvalidParam : n;
}

/**
 * An optional time in seconds (integer or fractional, as Gate's `from`/`to`), returned in µs; `fallback`
 * when absent, a negative code when malformed.
 */
export function secondsParamUs(q: QueryParams, key: string, fallback: number): number {
  const v = q[key];
  if (v === undefined || v === '') return fallback;
  if (!DECIMAL.test(v)) return ResultCode.InvalidParam;
  return Math.round(Number(v) * 1e6);
}

/** An optional boolean ("true"/"false", also "1"/"0"); a negative code otherwise. */
export function boolParam(q: QueryParams, key: string, fallback: boolean): boolean | number {
  const v = q[key];
  if (v === undefined || v === '') return fallback;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return ResultCode.InvalidParam;
}

/** The market named by `currency_pair`: its index, or MissingParam / InvalidMarket (negative). */
export function marketParam(ex: Exchange, q: QueryParams): number {
  const v = q.currency_pair;
  if (v === undefined || v === '') return ResultCode.MissingParam;
  const m = ex.marketIndex(v);
  return m < 0 ? ResultCode.InvalidMarket : m;
}

/** Formats a sum of integer units that may have left the safe range (then approximately). @allocates */
export function formatSum(units: number, scale: number, format: (u: number, s: number) => string): string {
  if (Number.isSafeInteger(units)) return format(units, scale);
  const digits = BigInt(Math.round(units)).toString().padStart(scale + 1, '0');
  if (scale === 0) return digits;
  const frac = digits.slice(-scale).replace(/0+$/, '');
  return frac === '' ? digits.slice(0, -scale) : `${digits.slice(0, -scale)}.${frac}`;
}
