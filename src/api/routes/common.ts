/** Helpers the route groups share: query parsing into result codes, pair and account checks. */
import type { Exchange } from '../../core/exchange/exchange.js';
import { ResultCode } from '../../core/result-code.js';
import { type ApiRequest, queryParam } from '../http/api-request.js';
import { checkAccount, parsePair } from '../../gate/spot-order-request.js';

/** An integer query parameter in [min, max], `fallback` when absent, or InvalidParam (negative). */
export function intParam(req: ApiRequest, name: string, fallback: number, min: number, max: number): number {
  const v = queryParam(req, name);
  if (v === undefined || v === '') return fallback;
  if (!/^[0-9]{1,15}$/.test(v)) return ResultCode.InvalidParam;
  const n = Number(v);
  return n < min || n > max ? ResultCode.InvalidParam : n;
}

/** Seconds (integer or fractional) as µs, `fallback` when absent, or InvalidParam. */
export function timeParamUs(req: ApiRequest, name: string, fallback: number): number {
  const v = queryParam(req, name);
  if (v === undefined || v === '') return fallback;
  if (!/^[0-9]{1,12}(\.[0-9]{1,6})?$/.test(v)) return ResultCode.InvalidParam;
  return Math.round(Number(v) * 1e6);
}

/** The market of the query's `currency_pair` (required), or a negative code. */
export const queryPair = (ex: Exchange, req: ApiRequest): number => parsePair(ex, queryParam(req, 'currency_pair'));

/** The market of an optional query `currency_pair`: -1 when absent, else the market or a negative code (< -1). */
export function optionalPair(ex: Exchange, req: ApiRequest): number {
  const v = queryParam(req, 'currency_pair');
  return v === undefined || v === '' ? -1 : parsePair(ex, v);
}

/** Ok when the query's `account` is absent or spot. */
export const queryAccount = (req: ApiRequest): ResultCode => checkAccount(queryParam(req, 'account'));

/** Gate's X-Pagination-* headers of a list page: `limit` asked, `offset` of its first record, `total` matching. @allocates */
export function paginationHeaders(limit: number, offset: number, total: number): Record<string, string> {
  return { 'X-Pagination-Limit': String(limit), 'X-Pagination-Offset': String(offset), 'X-Pagination-Total': String(total) };
}

/** A ppm rate as Gate's fraction string ("0.002"). */
export function ppmFraction(ppm: number): string {
  const s = (ppm / 1e6).toFixed(6);
  return s.replace(/0+$/, '').replace(/\.$/, '');
}
