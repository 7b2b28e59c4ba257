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
}

export interface ApiRequest {
  /** Upper case. */
  readonly method: string;
  /** The path as received, e.g. `/api/v4/spot/orders` (what the signature covers). */
  readonly path: string;
  /** The query as received (percent-encoded, without `?`). */
  readonly rawQuery: string;
  /** The decoded query parameters. */
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
