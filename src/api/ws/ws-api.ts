/**
 * Order entry over the socket (Gate's WebSocket API, event "api"), reusing the REST order operations
 * (routes/order-actions.ts) so both fronts parse, check and answer alike:
 *
 *   spot.login             req_param {}                                   → {api_key, uid}
 *   spot.order_place       an Order body (or an array: a batch)           → ack, then the Order (action_mode shapes it)
 *   spot.order_cancel      {order_id, currency_pair, account?}            → the Order
 *   spot.order_amend       {order_id, currency_pair, amount?, price?, amend_text?} → the Order
 *   spot.order_status      {order_id, currency_pair}                      → the Order
 *   spot.order_cancel_cp   {currency_pair, side?}                         → the cancelled Orders
 *   spot.order_cancel_ids  [{currency_pair, id}, …]                       → [{currency_pair, id, succeeded, label, message}]
 *   spot.order_list        {currency_pair, status, page?, limit?}         → Orders
 *
 * Reply: {request_id, ack, header: {response_time, status, channel, event: "api", client_id, conn_id,
 * trace_id}, data: {result}} or, on a rejection, data: {errs: {label, message}} with the HTTP status of the
 * label in header.status. Every request is signed (ws-auth.ts); an unsigned one is accepted once the
 * connection logged in with spot.login. A req_header `x-gate-exptime` (ms) already past refuses a place, amend or
 * cancel with REQUEST_EXPIRED before anything is submitted (req-header.ts).
 */
import { Side } from '../../core/matching/order-types.js';
import { ResultCode } from '../../core/result-code.js';
import { renderOrder } from '../../gate/shapes.js';
import type { ApiDeps } from '../deps.js';
import { gateError } from '../../gate/error-catalogue.js';
import { echoed } from '../http/api-request.js';
import { amendOrder, cancelAll, cancelOrder, placeOrder } from '../routes/order-actions.js';
import { actionMode, findOwnOrder, isRetired, shapeOrder } from '../routes/order-view.js';
import { accountKindParam, checkAccount, parsePair } from '../../gate/spot-order-request.js';
import type { LimitClass } from '../rate-limit.js';
import type { WsRequest } from './envelope.js';
import { checkReqExptime } from './req-header.js';
import { verifyApiRequest, type WsAuthContext } from './ws-auth.js';

export const API_CHANNELS: Readonly<Record<string, LimitClass>> = {
  'spot.login': 'spot', 'spot.order_place': 'spot-place', 'spot.order_amend': 'spot-place',
  'spot.order_cancel': 'spot-cancel', 'spot.order_cancel_cp': 'spot-cancel', 'spot.order_cancel_ids': 'spot-cancel',
  'spot.order_status': 'spot', 'spot.order_list': 'spot',
};
const READS = new Set(['spot.login', 'spot.order_status', 'spot.order_list']);

/** The connection state order entry reads and sets. */
export interface ApiSession {
  readonly connId: string;
  readonly ip: string;
  /** The logged-in user (0 before spot.login). */
  uid: number;
  apiKey: string;
}

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A client string a reply echoes (request ids, a cancel item's pair and id), cut to ECHO_LIMIT characters. */
const str = (v: unknown): string => echoed(v);
/** A string field already checked by the signature verification (key, signature, timestamp), echoed whole. */
const verified = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** One API reply frame. */
export function apiFrame(s: ApiSession, requestId: string, channel: string, ack: boolean, status: number, data: unknown, nowUs: number): string {
  return JSON.stringify({
    request_id: requestId, ack,
    header: { response_time: String(Math.floor(nowUs / 1000)), status: String(status), channel, event: 'api',
      client_id: `${s.ip}-${s.connId}`, conn_id: s.connId, trace_id: s.connId },
    data,
  });
}

/** A rejection of request `req` before it is handled (rate limit). */
export function apiRejection(s: ApiSession, req: WsRequest, code: number, nowUs: number): string {
  const p = isObj(req.payload) ? req.payload : {};
  const e = gateError(code);
  return apiFrame(s, str(p.req_id) || str(req.id), req.channel, false, e.status, { errs: { label: e.label, message: e.message } }, nowUs);
}

/**
 * Handles one "api" request; `send` writes a frame to this connection (possibly later, when the engine
 * answers). `auth` carries the clock and key store for the signature check.
 */
export function handleApiRequest(deps: ApiDeps, s: ApiSession, req: WsRequest, auth: WsAuthContext, nowUs: () => number,
  send: (frame: string) => void): void {
  const channel = req.channel;
  const p = isObj(req.payload) ? req.payload : {};
  const requestId = str(p.req_id) || str(req.id);
  const reply = (result: unknown): void => send(apiFrame(s, requestId, channel, false, 200, { result }, nowUs()));
  const fail = (code: number, message?: string): void => {
    const e = gateError(code);
    send(apiFrame(s, requestId, channel, false, e.status, { errs: { label: e.label, message: message ?? e.message } }, nowUs()));
  };
  if (!isObj(req.payload)) return fail(ResultCode.InvalidBody, 'payload must be an object with req_id and req_param');
  const param = p.req_param ?? {};
  let uid = s.uid;
  if (p.signature !== undefined || channel === 'spot.login') {
    const r = verifyApiRequest(auth, p.api_key, p.signature, p.timestamp, channel, param, !READS.has(channel));
    if (r.key === undefined) return fail(r.code);
    uid = r.key.uid;
    if (channel === 'spot.login') {
      s.uid = uid;
      s.apiKey = r.key.key;
      return reply({ api_key: r.key.key, uid: String(uid) });
    }
  } else if (uid === 0) {
    return fail(ResultCode.MissingHeader, 'Not logged in: sign the request or send spot.login first');
  }
  const ex = () => deps.gateway.exchange;
  const bad = (code: number): void => fail(code);
  if (!READS.has(channel)) {
    const exp = checkReqExptime(p.req_header);
    if (exp !== ResultCode.Ok) return fail(exp, exp === ResultCode.InvalidParam ? 'x-gate-exptime must be a timestamp in milliseconds' : 'Request expired: x-gate-exptime is past');
  }
  switch (channel) {
    case 'spot.order_place': {
      if (!isObj(param) && !Array.isArray(param)) return fail(ResultCode.InvalidBody, 'req_param must be an order or an array of orders');
      // A signed request's key, signature and timestamp passed verification above; an unsigned one's are cut.
      const echo = p.signature !== undefined ? verified : str;
      send(apiFrame(s, requestId, channel, true, 200, { result: { req_id: requestId, api_key: echo(p.api_key), timestamp: echo(p.timestamp),
        signature: echo(p.signature), trace_id: s.connId, req_header: p.req_header ?? {}, req_param: param } }, nowUs()));
      if (Array.isArray(param)) return placeBatch(deps, uid, param, reply);
      const mode = actionMode(param.action_mode);
      if (mode === undefined) return fail(ResultCode.InvalidParam, 'action_mode must be ACK, RESULT or FULL');
      return placeOrder(deps, uid, param, (code, order) => (code === ResultCode.Ok ? reply(shapeOrder(order!, mode)) : bad(code)));
    }
    case 'spot.order_cancel':
    case 'spot.order_amend':
    case 'spot.order_status': {
      if (!isObj(param)) return fail(ResultCode.InvalidBody, 'req_param must be an object');
      const acct = checkAccount(param.account);
      if (acct !== ResultCode.Ok) return bad(acct);
      const mode = actionMode(param.action_mode);
      if (mode === undefined) return fail(ResultCode.InvalidParam, 'action_mode must be ACK, RESULT or FULL');
      const m = parsePair(ex(), param.currency_pair);
      if (m < 0) return bad(m);
      const idText = str(param.order_id);
      if (idText === '') return fail(ResultCode.MissingParam, 'order_id is required');
      const r = findOwnOrder(deps, uid, m, idText);
      if (r < 0) return bad(r);
      const done = (code: ResultCode, order: ReturnType<typeof renderOrder> | undefined): void =>
        (code === ResultCode.Ok ? reply(shapeOrder(order!, mode)) : bad(code));
      if (channel === 'spot.order_status') return reply(renderOrder(ex(), r));
      if (channel === 'spot.order_cancel') return cancelOrder(deps, uid, r, done);
      return amendOrder(deps, uid, r, param, done);
    }
    case 'spot.order_cancel_cp': {
      if (!isObj(param)) return fail(ResultCode.InvalidBody, 'req_param must be an object');
      const acct = checkAccount(param.account);
      if (acct !== ResultCode.Ok) return bad(acct);
      const m = parsePair(ex(), param.currency_pair);
      if (m < 0) return bad(m);
      const side = param.side === undefined || param.side === null || param.side === '' ? 0 : param.side === 'buy' ? Side.Buy : param.side === 'sell' ? Side.Sell : -1;
      if (side < 0) return fail(ResultCode.InvalidParam, 'side must be buy or sell');
      return cancelAll(deps, uid, [m], side, (code, orders) => (code === ResultCode.Ok ? reply(orders) : bad(code)),
        accountKindParam(param.account));
    }
    case 'spot.order_cancel_ids':
      return cancelIds(deps, uid, param, reply, fail);
    case 'spot.order_list': {
      if (!isObj(param)) return fail(ResultCode.InvalidBody, 'req_param must be an object');
      const m = parsePair(ex(), param.currency_pair);
      if (m < 0) return bad(m);
      const status = param.status ?? 'open';
      if (status !== 'open' && status !== 'finished') return fail(ResultCode.InvalidParam, 'status must be open or finished');
      const limit = Number(param.limit ?? 100);
      const page = Number(param.page ?? 1);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000 || !Number.isInteger(page) || page < 1) return bad(ResultCode.InvalidParam);
      const O = ex().orders;
      const records = status === 'open' ? O.openOf(uid, m) : O.finishedOf(uid, m).filter((r) => !isRetired(deps, r));
      return reply(records.slice((page - 1) * limit, page * limit).map((r) => renderOrder(ex(), r)));
    }
    default:
      return fail(ResultCode.NotFound, `unknown channel ${channel}`);
  }
}

function placeBatch(deps: ApiDeps, uid: number, items: readonly unknown[], reply: (r: unknown) => void): void {
  const out = new Array<unknown>(items.length);
  let pending = items.length;
  if (pending === 0) return reply(out);
  items.forEach((item, i) => {
    const done = (r: unknown): void => {
      out[i] = r;
      if (--pending === 0) reply(out);
    };
    const failed = (code: number): void => {
      const e = gateError(code);
      done({ text: isObj(item) ? str(item.text) : '', succeeded: false, label: e.label, message: e.message });
    };
    if (!isObj(item)) return failed(ResultCode.InvalidBody);
    placeOrder(deps, uid, item, (code, order) => (code === ResultCode.Ok ? done({ ...order, succeeded: true }) : failed(code)));
  });
}

function cancelIds(deps: ApiDeps, uid: number, param: unknown, reply: (r: unknown) => void, fail: (code: number, m?: string) => void): void {
  if (!Array.isArray(param) || !param.every(isObj)) return fail(ResultCode.InvalidBody, 'req_param must be an array of {currency_pair, id}');
  if (param.length > 20) return fail(ResultCode.TooManyOrders, 'At most 20 orders per batch');
  const ex = deps.gateway.exchange;
  const out = new Array<unknown>(param.length);
  let pending = param.length;
  if (pending === 0) return reply(out);
  param.forEach((item: Obj, i) => {
    const answer = (code: ResultCode): void => {
      const e = code === ResultCode.Ok ? undefined : gateError(code);
      out[i] = { currency_pair: str(item.currency_pair), id: str(item.id), succeeded: e === undefined, label: e?.label ?? '', message: e?.message ?? '' };
      if (--pending === 0) reply(out);
    };
    const m = parsePair(ex, item.currency_pair);
    if (m < 0) return answer(m as ResultCode);
    const r = findOwnOrder(deps, uid, m, str(item.id));
    if (r < 0) return answer(r as ResultCode);
    cancelOrder(deps, uid, r, (code) => answer(code));
  });
}
