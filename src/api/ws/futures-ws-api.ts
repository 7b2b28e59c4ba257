/**
 * Futures order entry over the socket (Gate's futures WebSocket API, event "api", at `/v4/ws/fx/{settle}`),
 * reusing the REST futures order actions (routes/futures-common.ts) so both fronts parse, check and answer alike:
 *
 *   futures.login          req_param {}                                     → {api_key, uid}
 *   futures.order_place    a FuturesOrder body                              → ack, then the FuturesOrder
 *   futures.order_cancel   {order_id}                                       → the FuturesOrder
 *   futures.order_amend    {order_id, size?, price?, amend_text?}           → the FuturesOrder
 *   futures.order_status   {order_id}                                       → the FuturesOrder
 *   futures.order_batch_place  [FuturesOrder, …] (≤ 10)                     → ack, then BatchFuturesOrder[] (as REST batch_orders)
 *   futures.order_cancel_ids   [order id, …] (≤ 20)                         → [{id, user_id, succeeded, message}]
 *   futures.order_cancel_cp    {contract, side?: ask|bid}                   → the cancelled FuturesOrders
 *   futures.order_list     {status: open|finished, contract?, limit?, offset?, last_id?} → FuturesOrders, newest first
 *
 * `order_id` is an id or a `t-` text, of an order in the endpoint's settle. Extra fields (ccxt sends
 * `contract`, `settle`, `currency_pair`, `account`) are ignored. Sizes are integers unless req_header carries
 * `X-Gate-Size-Decimal: 1`; an `x-gate-exptime` (ms) already past refuses a place, amend or cancel with
 * REQUEST_EXPIRED before anything is submitted (req-header.ts). Envelope, signatures and login as spot's (ws-api.ts), with the `futures`
 * permission; the rate classes as REST (per UID: futures-place for place and amend, futures-cancel for cancel,
 * futures per UID and channel otherwise), counted once the user is known (`admit`).
 */
import { ResultCode } from '../../core/result-code.js';
import { Side } from '../../core/matching/order-types.js';
import { parseContract, settleCurrency } from '../../gate/futures-request.js';
import { DELIVERY_SCOPE } from '../../core/futures/contract.js';
import { gateError } from '../../gate/error-catalogue.js';
import { renderFuturesOrder, type SizeForm } from '../../gate/futures-shapes.js';
import type { ApiDeps } from '../deps.js';
import { echoed } from '../http/api-request.js';
import type { LimitClass } from '../rate-limit.js';
import {
  amendFuturesOrder, cancelFuturesIds, cancelFuturesOrder, cancelFuturesOrders, findFuturesOrder, futuresOrdersOf,
  openFuturesOrdersToCancel, placeFuturesBatch, placeFuturesOrder,
} from '../routes/futures-common.js';
import type { WsRequest } from './envelope.js';
import { apiFrame, type ApiSession } from './ws-api.js';
import { checkReqExptime, headerValue } from './req-header.js';
import { verifyApiRequest, type WsAuthContext } from './ws-auth.js';

/** The futures order-entry channels and their rate classes (as the REST routes'). */
export const FUTURES_API_CHANNELS: Readonly<Record<string, LimitClass>> = {
  'futures.login': 'futures', 'futures.order_place': 'futures-place', 'futures.order_amend': 'futures-place',
  'futures.order_cancel': 'futures-cancel', 'futures.order_status': 'futures',
  'futures.order_batch_place': 'futures-place', 'futures.order_cancel_ids': 'futures-cancel', 'futures.order_cancel_cp': 'futures-cancel',
  'futures.order_list': 'futures',
};
const READS = new Set(['futures.login', 'futures.order_status', 'futures.order_list']);

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => echoed(v);
const verified = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
/** A non-negative integer field (number or decimal string), `dflt` when absent, -1 when malformed. */
const intOf = (v: unknown, dflt: number): number => {
  if (v === undefined || v === null || v === '') return dflt;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]{1,16}$/.test(v) ? Number(v) : -1;
  return Number.isSafeInteger(n) && n >= 0 ? n : -1;
};

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
    const group = settle.startsWith(DELIVERY_SCOPE) ? 'delivery' : 'futures';
    const r = verifyApiRequest(auth, p.api_key, p.signature, p.timestamp, channel, param, !READS.has(channel), group);
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
  if (!READS.has(channel)) {
    const exp = checkReqExptime(p.req_header);
    if (exp !== ResultCode.Ok) return fail(exp, exp === ResultCode.InvalidParam ? 'x-gate-exptime must be a timestamp in milliseconds' : 'Request expired: x-gate-exptime is past');
  }
  const form: SizeForm = headerValue(p.req_header, 'x-gate-size-decimal') === '1' ? 'string' : 'int';
  const cur = settleCurrency(ex, settle);
  if (cur < 0) return fail(cur);
  const ack = (): void => {
    // A signed request's key, signature and timestamp passed verification above; an unsigned one's are cut.
    const echo = p.signature !== undefined ? verified : str;
    send(apiFrame(s, requestId, channel, true, 200, { result: { req_id: requestId, api_key: echo(p.api_key), timestamp: echo(p.timestamp),
      signature: echo(p.signature), trace_id: s.connId, req_header: p.req_header ?? {}, req_param: param } }, nowUs()));
  };
  const listRequest = (ch: string): void => {
    if (ch === 'futures.order_batch_place') {
      if (!Array.isArray(param) || !param.every(isObj)) return fail(ResultCode.InvalidBody, 'req_param must be an array of orders');
      if (param.length > 10) return fail(ResultCode.TooManyOrders, 'At most 10 orders per batch');
      if (!ex.ledger.futures.hasAccount(uid, cur)) return fail(ResultCode.UserNotFound);
      ack();
      return placeFuturesBatch(deps, uid, settle, param, form, reply);
    }
    if (!Array.isArray(param) || !param.every((v) => typeof v === 'string')) return fail(ResultCode.InvalidBody, 'req_param must be an array of order ids');
    if (param.length > 20) return fail(ResultCode.TooManyOrders, 'At most 20 orders per batch');
    if (!ex.ledger.futures.hasAccount(uid, cur)) return fail(ResultCode.UserNotFound);
    return cancelFuturesIds(deps, uid, settle, param, reply);
  };
  if (channel === 'futures.order_batch_place' || channel === 'futures.order_cancel_ids') return listRequest(channel);
  if (!isObj(param)) return fail(ResultCode.InvalidBody, 'req_param must be an object');
  if (!ex.ledger.futures.hasAccount(uid, cur)) return fail(ResultCode.UserNotFound);
  const done = (code: ResultCode, order: Record<string, unknown> | undefined): void =>
    (code === ResultCode.Ok ? reply(order) : fail(code));
  if (channel === 'futures.order_place') {
    ack();
    return placeFuturesOrder(deps, uid, settle, param, form, done);
  }
  if (channel === 'futures.order_cancel_cp') {
    const ci = parseContract(ex, settle, param.contract);
    if (ci < 0) return fail(ci, ci === ResultCode.MissingParam ? 'contract is required' : undefined);
    const side = param.side === undefined || param.side === null || param.side === '' ? 0 : param.side === 'ask' ? Side.Sell : param.side === 'bid' ? Side.Buy : -1;
    if (side < 0) return fail(ResultCode.InvalidParam, 'side must be ask or bid');
    const records = openFuturesOrdersToCancel(ex, uid, ex.futures.marketOf[ci]!, side, false);
    return cancelFuturesOrders(deps, uid, records, form, reply);
  }
  if (channel === 'futures.order_list') {
    const status = param.status;
    if (status === undefined || status === '') return fail(ResultCode.MissingParam, 'status is required');
    if (status !== 'open' && status !== 'finished') return fail(ResultCode.InvalidParam, 'status must be open or finished');
    let m = -1;
    if (param.contract !== undefined && param.contract !== null && param.contract !== '') {
      const ci = parseContract(ex, settle, param.contract);
      if (ci < 0) return fail(ci);
      m = ex.futures.marketOf[ci]!;
    }
    const limit = intOf(param.limit, 100);
    const offset = intOf(param.offset, 0);
    const lastId = intOf(param.last_id, 0);
    if (limit < 1 || limit > 1000 || offset < 0 || lastId < 0) return fail(ResultCode.InvalidParam);
    const O = ex.orders;
    let records = futuresOrdersOf(deps, uid, settle, m, status === 'open');
    if (lastId > 0) records = records.filter((r) => O.id[r]! < lastId);
    return reply(records.slice(offset, offset + limit).map((r) => renderFuturesOrder(ex, r, form)));
  }
  const idText = str(param.order_id);
  if (idText === '') return fail(ResultCode.MissingParam, 'order_id is required');
  const r = findFuturesOrder(deps, uid, settle, idText);
  if (r < 0) return fail(r);
  if (channel === 'futures.order_status') return reply(renderFuturesOrder(ex, r, form));
  if (channel === 'futures.order_cancel') return cancelFuturesOrder(deps, uid, r, form, done);
  return amendFuturesOrder(deps, uid, r, param, form, done);
}
