/**
 * The `req_header` of an order-entry request (event "api"): Gate's REST headers carried in the payload. Header
 * names are matched case-insensitively, as HTTP's. Pure apart from the wall clock `exptime` reads.
 *
 *   x-gate-exptime       ms since the epoch: a request handled after it is refused REQUEST_EXPIRED (401) and
 *                        changes nothing; not digits (or past 15 of them) INVALID_PARAM_VALUE (as REST's)
 *   x-gate-size-decimal  "1": futures sizes as decimal strings
 */
import { ResultCode } from '../../core/result-code.js';
import { wallMicros } from '../http/wall-time.js';

/** The value of header `name` (lower case) in `header`, as a string; '' when absent. */
export function headerValue(header: unknown, name: string): string {
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return '';
  for (const [k, v] of Object.entries(header as Record<string, unknown>)) {
    if (k.toLowerCase() !== name) continue;
    return typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : v === undefined || v === null ? '' : '\0';
  }
  return '';
}

/** Ok, RequestExpired when req_header's x-gate-exptime (ms) is past at `nowMs`, or InvalidParam when malformed. */
export function checkReqExptime(header: unknown, nowMs: number = wallMicros() / 1000): ResultCode {
  const v = headerValue(header, 'x-gate-exptime');
  if (v === '') return ResultCode.Ok;
  if (!/^[0-9]{1,15}$/.test(v)) return ResultCode.InvalidParam;
  return nowMs > Number(v) ? ResultCode.RequestExpired : ResultCode.Ok;
}
