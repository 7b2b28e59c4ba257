/**
 * Futures order entry over the socket (Gate's futures WebSocket API, event "api", at `/v4/ws/fx/{settle}`),
 * reusing the REST futures order actions (routes/futures-common.ts) so both fronts parse, check and answer alike:
 *
 *   futures.login          req_param {}                                     → {api_key, uid}
 *   futures.order_place    a FuturesOrder body                              → ack, then the FuturesOrder
 *   futures.order_cancel   {order_id}                                       → the FuturesOrder
 *   futures.order_amend    {order_id, size?, price?, amend_text?}           → the FuturesOrder
 *   futures.order_status   {order_id}                                       → the FuturesOrder
 *
 * `order_id` is an id or a `t-` text, of an order in the endpoint's settle. Extra fields (ccxt sends
 * `contract`, `settle`, `currency_pair`, `account`) are ignored. Sizes are integers unless req_header carries
 * `X-Gate-Size-Decimal: 1`. Envelope, signatures and login as spot's (ws-api.ts), with the `futures`
 * permission; the rate classes as REST (per UID: futures-place for place and amend, futures-cancel for cancel,
 * futures per UID and channel otherwise), counted once the user is known (`admit`).
 */
import { ResultCode } from '../../core/result-code.js';
import { settleCurrency } from '../../gate/futures-request.js';
import { gateError } from '../../gate/error-catalogue.js';
import { renderFuturesOrder, type SizeForm } from '../../gate/futures-shapes.js';
import type { ApiDeps } from '../deps.js';
import { echoed } from '../http/api-request.js';
import type { LimitClass } from '../rate-limit.js';
import { amendFuturesOrder, cancelFuturesOrder, findFuturesOrder, placeFuturesOrder } from '../routes/futures-common.js';
import type { WsRequest } from './envelope.js';
import { apiFrame, type ApiSession } from './ws-api.js';
import { verifyApiRequest, type WsAuthContext } from './ws-auth.js';

/** The futures order-entry channels and their rate classes (as the REST routes'). */
export const FUTURES_API_CHANNELS: Readonly<Record<string, LimitClass>> = {
  'futures.login': 'futures', 'futures.order_place': 'futures-place', 'futures.order_amend': 'futures-place',
  'futures.order_cancel': 'futures-cancel', 'futures.order_status': 'futures',
};
const READS = new Set(['futures.login', 'futures.order_status']);

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => echoed(v);
const verified = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/**
 * Handles one futures "api" request on the endpoint of `settle`. `admit(cls, uid)` counts the request under its
 * rate class once the user is known; false → TOO_MANY_REQUESTS, nothing done.
 */
export function handleFuturesApiRequest(deps: ApiDeps, settle: string, s: ApiSession, req: WsRequest, auth: WsAuthContext,
  nowUs: () => number, admit: (cls: LimitClass, uid: number) => boolean, send: (frame: string) => void): void {
  const channel = req.channel;
  const cls = FUTURES_API_CHANNELS[channel];
  const p = isObj(req.payload) ? req.payload : {};
  const requestId = str(p.req_id) || str(req.id);
  const reply = (result: unknown): void => send(apiFrame(s, requestId, channel, false, 200, { result }, nowUs()));
  const fail = (code: number, message?: string): void => {
    const e = gateError(code);
    send(apiFrame(s, requestId, channel, false, e.status, { errs: { label: e.label, message: message ?? e.message } }, nowUs()));
  };
  if (cls === undefined) return fail(ResultCode.NotFound, `unknown channel ${channel}`);
  if (!isObj(req.payload)) return fail(ResultCode.InvalidBody, 'payload must be an object with req_id and req_param');
  const param = p.req_param ?? {};
  let uid = s.uid;
  let login: { key: string; uid: number } | undefined;
  if (p.signature !== undefined || channel === 'futures.login') {
    const r = verifyApiRequest(auth, p.api_key, p.signature, p.timestamp, channel, param, !READS.has(channel), 'futures');
    if (r.key === undefined) return fail(r.code);
    uid = r.key.uid;
    if (channel === 'futures.login') login = { key: r.key.key, uid };
  } else if (uid === 0) {
    return fail(ResultCode.MissingHeader, 'Not logged in: sign the request or send futures.login first');
  }
  if (!admit(cls, uid)) return fail(ResultCode.TooManyRequests);
  if (login !== undefined) {
    s.uid = login.uid;
    s.apiKey = login.key;
    return reply({ api_key: login.key, uid: String(login.uid) });
  }
  const ex = deps.gateway.exchange;
  const header = isObj(p.req_header) ? p.req_header : {};
  const form: SizeForm = header['X-Gate-Size-Decimal'] === '1' || header['x-gate-size-decimal'] === '1' ? 'string' : 'int';
  if (!isObj(param)) return fail(ResultCode.InvalidBody, 'req_param must be an object');
  const cur = settleCurrency(ex, settle);
  if (cur < 0) return fail(cur);
  if (!ex.ledger.futures.hasAccount(uid, cur)) return fail(ResultCode.UserNotFound);
  const done = (code: ResultCode, order: Record<string, unknown> | undefined): void =>
    (code === ResultCode.Ok ? reply(order) : fail(code));
  if (channel === 'futures.order_place') {
    // A signed request's key, signature and timestamp passed verification above; an unsigned one's are cut.
    const echo = p.signature !== undefined ? verified : str;
    send(apiFrame(s, requestId, channel, true, 200, { result: { req_id: requestId, api_key: echo(p.api_key), timestamp: echo(p.timestamp),
      signature: echo(p.signature), trace_id: s.connId, req_header: p.req_header ?? {}, req_param: param } }, nowUs()));
    return placeFuturesOrder(deps, uid, settle, param, form, done);
  }
  const idText = str(param.order_id);
  if (idText === '') return fail(ResultCode.MissingParam, 'order_id is required');
  const r = findFuturesOrder(deps, uid, settle, idText);
  if (r < 0) return fail(r);
  if (channel === 'futures.order_status') return reply(renderFuturesOrder(ex, r, form));
  if (channel === 'futures.order_cancel') return cancelFuturesOrder(deps, uid, r, form, done);
  return amendFuturesOrder(deps, uid, r, param, form, done);
}
