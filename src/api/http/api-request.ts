/**
 * One HTTP request as the handlers see it: everything copied out of uWS's stack-allocated HttpRequest at
 * the top of the handler (its lifetime ends when the handler returns), plus the raw body once read.
 */
import type { ApiKey } from '../auth/key-store.js';

/** The request headers the front reads (lower-case names; '' when absent). */
export interface RequestHeaders {
  readonly key: string;
  readonly timestamp: string;
  readonly sign: string;
  readonly contentType: string;
  readonly contentLength: string;
  readonly transferEncoding: string;
  readonly clientRequestId: string;
  readonly forwardedFor: string;
  readonly exptime: string;
  readonly simToken: string;
  /** X-Gate-Size-Decimal, else X-Svc-Size-Decimal: "1" asks futures answers to write sizes as strings. */
  readonly sizeDecimal: string;
  /** X-Rm-Min-Seq: on a follower of the replicated log, answer only from a state that includes this engine seq. */
  readonly minSeq: string;
}

export interface ApiRequest {
  /** Upper case. */
  readonly method: string;
  /** The path as received, e.g. `/api/v4/spot/orders` (what the signature covers). */
  readonly path: string;
  /** The query as received (percent-encoded, without `?`). */
  readonly rawQuery: string;
  /** The decoded query parameters (parsed on first read). */
  readonly query: URLSearchParams;
  /** Values of the route's `{param}` segments, in order (percent-decoded). */
  params: readonly string[];
  readonly headers: RequestHeaders;
  /** The caller's address (the socket's, or X-Forwarded-For's first entry behind a trusted proxy). */
  readonly ip: string;
  /** Wall time the request arrived, µs since the epoch. */
  readonly inUs: number;
  /** The raw body ('' when none). */
  body: string;
  /** The parsed JSON body; undefined when the body is empty. */
  json: unknown;
  /** The authenticated key (private routes). */
  key: ApiKey | undefined;
  /** The authenticated user (private routes; 0 otherwise). */
  uid: number;
}

type Fields = Readonly<Record<string, unknown>>;

/** The JSON body as an object, or undefined when it is absent or not an object. */
export function bodyObject(req: ApiRequest): Fields | undefined {
  const j = req.json;
  return typeof j === 'object' && j !== null && !Array.isArray(j) ? (j as Fields) : undefined;
}

/** A query parameter, or undefined when absent. */
export function queryParam(req: ApiRequest, name: string): string | undefined {
  return req.query.get(name) ?? undefined;
}

/** A field of the body, else of the query (Gate's PATCH rule: body first). */
export function bodyOrQuery(req: ApiRequest, name: string): unknown {
  const b = bodyObject(req)?.[name];
  return b !== undefined && b !== null ? b : queryParam(req, name);
}

/**
 * True when a Content-Type header names JSON as Gate reads it: the media type `application/json` exactly
 * (case-insensitive, surrounding spaces allowed) with any parameters, of which `charset`, when present, must
 * be UTF-8 (the body is decoded as UTF-8). `application/jsonx`, `application/json-seq`, `text/json` and a
 * `charset=utf-16` are not JSON here. Cost: a split of a short header; no allocation beyond it.
 */
export function isJsonContentType(header: string): boolean {
  if (header === 'application/json') return true;
  const parts = header.split(';');
  if (parts[0]!.trim().toLowerCase() !== 'application/json') return false;
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i]!;
    const eq = p.indexOf('=');
    const name = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
    if (name !== 'charset') continue;
    const value = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (eq < 0 || (value !== 'utf-8' && value !== 'utf8')) return false;
  }
  return true;
}

/**
 * Characters of a client string an answer echoes back at most (a rejected batch item's `text`, `order_id`,
 * `currency_pair`, a WebSocket request id). Every valid value of those fields is shorter (a text is at most 30
 * characters, an order id 16 digits), so only invalid input is cut; an answer never grows with the input.
 */
export const ECHO_LIMIT = 64;

/** `v` as the string an answer echoes: strings (and numbers) cut to ECHO_LIMIT characters, '' otherwise. */
export function echoed(v: unknown): string {
  const s = typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
  return s.length > ECHO_LIMIT ? s.slice(0, ECHO_LIMIT) : s;
}
