/**
 * Spot order routes (permission group `spot`):
 *   POST   /spot/orders                 create (201)                          rate: spot-place
 *   GET    /spot/orders                 open (pair required, limit ≤ 100) or finished (newest first)
 *   GET    /spot/open_orders            open orders grouped by pair (limit per pair ≤ 100)
 *   GET    /spot/orders/{id}            by id, or `t-` text while open
 *   DELETE /spot/orders/{id}            cancel                                 rate: spot-cancel
 *   PATCH  /spot/orders/{id}            amend; fields from body, else query    rate: spot-place
 *   DELETE /spot/orders                 cancel all (pair, side optional)       rate: spot-cancel
 *   POST   /spot/countdown_cancel_all   heartbeat: cancel all when not renewed within `timeout` s (engine clock)
 * `action_mode` ACK / RESULT / FULL shapes create, amend and cancel replies (see order-view.ts).
 */
import { spotMarketIndexes } from '../../core/exchange/exchange.js';
import { Side } from '../../core/matching/order-types.js';
import { ResultCode } from '../../core/result-code.js';
import { orderJson, renderOrder } from '../../gate/shapes.js';
import type { ApiDeps } from '../deps.js';
import { type ApiRequest, bodyObject, bodyOrQuery, queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';
import { accountKindParam, checkAccount } from '../../gate/spot-order-request.js';
import { accountKindOf } from '../../core/exchange/order-store.js';
import { intParam, optionalPair, paginationHeaders, queryAccount, queryPair, timeParamUs } from './common.js';
import { amendOrder, cancelAll, cancelOrder, placeOrder } from './order-actions.js';
import { CountdownCancels } from '../orders/countdown-cancels.js';
import { actionMode, checkExptime, findOwnOrder, isRetired, orderReply, shapeOrder } from './order-view.js';

const SPOT = { kind: 'private', group: 'spot' } as const;
const SIDES: Readonly<Record<string, number>> = { buy: Side.Buy, sell: Side.Sell };

/** Side filter of a query: 0 for none, Side.Buy/Sell, or InvalidParam. */
function sideParam(req: ApiRequest): number {
  const v = queryParam(req, 'side');
  if (v === undefined || v === '') return 0;
  return SIDES[v] ?? ResultCode.InvalidParam;
}

export function registerSpotOrderRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;

  router.add({ method: 'POST', pattern: '/api/v4/spot/orders', access: SPOT, limit: 'spot-place',
    handler: (req, reply) => {
      const body = bodyObject(req);
      if (body === undefined) return reply.error(ResultCode.InvalidBody, 'Order body required');
      const mode = actionMode(body.action_mode);
      if (mode === undefined) return reply.error(ResultCode.InvalidParam, 'action_mode must be ACK, RESULT or FULL');
      const exp = checkExptime(req);
      if (exp !== ResultCode.Ok) return reply.error(exp);
      placeOrder(deps, req.uid, body, (code, order) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.jsonText(201, orderReply(order!, mode));
      });
    } });

  router.add({ method: 'GET', pattern: '/api/v4/spot/orders', access: SPOT, limit: 'spot',
    handler: (req, reply) => {
      const acct = queryAccount(req);
      if (acct !== ResultCode.Ok) return reply.error(acct);
      const status = queryParam(req, 'status');
      if (status === undefined || status === '') return reply.error(ResultCode.MissingParam, 'status is required');
      if (status !== 'open' && status !== 'finished') return reply.error(ResultCode.InvalidParam, 'status must be open or finished');
      const open = status === 'open';
      const m = open ? queryPair(ex(), req) : optionalPair(ex(), req);
      if (open ? m < 0 : m < -1) return reply.error(m);
      const limit = intParam(req, 'limit', 100, 1, open ? 100 : 1000);
      const page = intParam(req, 'page', 1, 1, 100_000);
      const from = timeParamUs(req, 'from', 0);
      const to = timeParamUs(req, 'to', Number.MAX_SAFE_INTEGER);
      const side = sideParam(req);
      for (const v of [limit, page, from, to, side]) if (v < 0) return reply.error(v);
      const O = ex().orders;
      const kind = accountKindParam(queryParam(req, 'account'));
      let records = (open ? O.openOf(req.uid, m) : O.finishedOf(req.uid, m)).filter((r) => accountKindOf(O.account[r]!) === kind);
      if (!open) {
        records = records.filter((r) => (side === 0 || O.side[r] === side) && O.createTime[r]! >= from && O.createTime[r]! <= to
          && !isRetired(deps, r));
      }
      const start = (page - 1) * limit;
      reply.jsonText(200, `[${records.slice(start, start + limit).map((r) => orderJson(renderOrder(ex(), r))).join(',')}]`, paginationHeaders(limit, start, records.length));
    } });

  router.add({ method: 'GET', pattern: '/api/v4/spot/open_orders', access: SPOT, limit: 'spot',
    handler: (req, reply) => {
      const acct = queryAccount(req);
      if (acct !== ResultCode.Ok) return reply.error(acct);
      const limit = intParam(req, 'limit', 100, 1, 100);
      const page = intParam(req, 'page', 1, 1, 100_000);
      for (const v of [limit, page]) if (v < 0) return reply.error(v);
      const O = ex().orders;
      const kind = accountKindParam(queryParam(req, 'account'));
      const out: { currency_pair: string; total: number; orders: unknown[] }[] = [];
      ex().markets.slice(0, ex().spotMarkets).forEach((market, m) => {
        const records = O.openOf(req.uid, m).filter((r) => accountKindOf(O.account[r]!) === kind);
        if (records.length === 0) return;
        const start = (page - 1) * limit;
        out.push({ currency_pair: market.id, total: records.length,
          orders: records.slice(start, start + limit).map((r) => renderOrder(ex(), r)) });
      });
      reply.json(200, out);
    } });

  router.add({ method: 'GET', pattern: '/api/v4/spot/orders/{order_id}', access: SPOT, limit: 'spot',
    handler: (req, reply) => {
      const acct = queryAccount(req);
      if (acct !== ResultCode.Ok) return reply.error(acct);
      const m = queryPair(ex(), req);
      if (m < 0) return reply.error(m);
      const r = findOwnOrder(deps, req.uid, m, req.params[0]!);
      if (r < 0) return reply.error(r);
      reply.jsonText(200, orderJson(renderOrder(ex(), r)));
    } });

  router.add({ method: 'DELETE', pattern: '/api/v4/spot/orders/{order_id}', access: SPOT, limit: 'spot-cancel',
    handler: (req, reply) => {
      const acct = queryAccount(req);
      if (acct !== ResultCode.Ok) return reply.error(acct);
      const mode = actionMode(queryParam(req, 'action_mode'));
      if (mode === undefined) return reply.error(ResultCode.InvalidParam, 'action_mode must be ACK, RESULT or FULL');
      const exp = checkExptime(req);
      if (exp !== ResultCode.Ok) return reply.error(exp);
      const m = queryPair(ex(), req);
      if (m < 0) return reply.error(m);
      const r = findOwnOrder(deps, req.uid, m, req.params[0]!);
      if (r < 0) return reply.error(r);
      cancelOrder(deps, req.uid, r, (code, order) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.jsonText(200, orderReply(order!, mode));
      });
    } });

  router.add({ method: 'PATCH', pattern: '/api/v4/spot/orders/{order_id}', access: SPOT, limit: 'spot-place',
    handler: (req, reply) => {
      const fields: Record<string, unknown> = {};
      for (const k of ['currency_pair', 'account', 'amount', 'price', 'amend_text', 'action_mode']) fields[k] = bodyOrQuery(req, k);
      const acct = checkAccount(fields.account);
      if (acct !== ResultCode.Ok) return reply.error(acct);
      const mode = actionMode(fields.action_mode);
      if (mode === undefined) return reply.error(ResultCode.InvalidParam, 'action_mode must be ACK, RESULT or FULL');
      const exp = checkExptime(req);
      if (exp !== ResultCode.Ok) return reply.error(exp);
      const m = typeof fields.currency_pair === 'string' ? ex().marketIndex(fields.currency_pair) : ResultCode.MissingParam;
      if (fields.currency_pair === undefined || fields.currency_pair === '') return reply.error(ResultCode.MissingParam, 'currency_pair is required');
      if (m < 0) return reply.error(m === -1 ? ResultCode.InvalidMarket : m);
      const r = findOwnOrder(deps, req.uid, m, req.params[0]!);
      if (r < 0) return reply.error(r);
      amendOrder(deps, req.uid, r, fields, (code, order) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.jsonText(200, orderReply(order!, mode));
      });
    } });

  router.add({ method: 'DELETE', pattern: '/api/v4/spot/orders', access: SPOT, limit: 'spot-cancel',
    handler: (req, reply) => {
      const acct = queryAccount(req);
      if (acct !== ResultCode.Ok) return reply.error(acct);
      const mode = actionMode(queryParam(req, 'action_mode'));
      if (mode === undefined) return reply.error(ResultCode.InvalidParam, 'action_mode must be ACK, RESULT or FULL');
      const m = optionalPair(ex(), req);
      const side = sideParam(req);
      for (const v of [m < -1 ? m : 0, side]) if (v < 0) return reply.error(v);
      const markets = m >= 0 ? [m] : spotMarketIndexes(ex());
      cancelAll(deps, req.uid, markets, side, (code, orders) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, orders.map((o) => ({ ...shapeOrder(o, mode), succeeded: true, label: '', message: '' })));
      }, accountKindParam(queryParam(req, 'account')));
    } });

  registerCountdown(router, deps);
}

/**
 * POST /spot/countdown_cancel_all: one timer per (user, pair or all) on the engine's clock, journaled
 * (orders/countdown-cancels.ts); `timeout` 0 disarms it. Answers `{triggerTime}` in ms of that clock.
 */
function registerCountdown(router: Router, deps: ApiDeps): void {
  const countdowns = new CountdownCancels(deps);
  deps.onClose.push(() => countdowns.close());
  deps.onClockMove.push(() => countdowns.check());
  router.add({ method: 'POST', pattern: '/api/v4/spot/countdown_cancel_all', access: SPOT, limit: 'spot',
    handler: (req, reply) => {
      const body = bodyObject(req);
      const timeout = body?.timeout;
      if (timeout === undefined || timeout === null) return reply.error(ResultCode.MissingParam, 'timeout is required');
      if (typeof timeout !== 'number' || !Number.isInteger(timeout) || (timeout !== 0 && timeout < 5) || timeout > 86_400) {
        return reply.error(ResultCode.InvalidParam, 'timeout must be 0 or an integer number of seconds in 5..86400');
      }
      const pairText = body?.currency_pair;
      let pair = '';
      if (pairText !== undefined && pairText !== null && pairText !== '') {
        if (typeof pairText !== 'string' || deps.gateway.exchange.marketIndex(pairText) < 0) return reply.error(ResultCode.InvalidMarket);
        pair = pairText;
      }
      countdowns.set(req.uid, pair, timeout, (code, triggerTime) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, { triggerTime });
      });
    } });
}
