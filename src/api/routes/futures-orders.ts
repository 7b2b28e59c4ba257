/**
 * Perpetual-futures order routes (permission group `futures`; `{settle}` usdt or btc, as configured):
 *   POST   /futures/{settle}/orders              create (201)                                 rate: futures-place
 *   GET    /futures/{settle}/orders              status=open|finished, contract?, limit ≤ 1000 (100), offset,
 *                                                last_id (orders older than that id), newest first
 *   GET    /futures/{settle}/orders_timerange    finished and open orders created in [from, to], contract?
 *   GET    /futures/{settle}/orders/{id}         by id, or `t-` text
 *   PUT    /futures/{settle}/orders/{id}         amend: size (new total, same sign), price, amend_text
 *   DELETE /futures/{settle}/orders/{id}         cancel                                       rate: futures-cancel
 *   DELETE /futures/{settle}/orders              cancel all: contract (required), side ask|bid,
 *                                                exclude_reduce_only
 * Sizes in requests: JSON integers or decimal strings; in answers as the size-decimal header asks (futures-common.ts).
 */
import { Side } from '../../core/matching/order-types.js';
import { ResultCode } from '../../core/result-code.js';
import { parseContract } from '../../gate/futures-request.js';
import { renderFuturesOrder } from '../../gate/futures-shapes.js';
import type { ApiDeps } from '../deps.js';
import { type ApiRequest, bodyObject, queryParam } from '../http/api-request.js';
import type { Router } from '../router.js';
import { intParam, paginationHeaders, timeParamUs } from './common.js';
import {
  accountCur, amendFuturesOrder, cancelFuturesOrder, cancelFuturesOrders, F, findFuturesOrder, FUTURES, futuresOrdersOf,
  openFuturesOrdersToCancel, placeFuturesOrder, settleOf, sizeForm,
} from './futures-common.js';
import { checkExptime } from './order-view.js';

/** The market of the query's optional `contract`: -1 when absent, else the market, or a negative code (< -1). */
function optionalContract(deps: ApiDeps, req: ApiRequest): number {
  const v = queryParam(req, 'contract');
  if (v === undefined || v === '') return -1;
  const ci = parseContract(deps.gateway.exchange, settleOf(req), v);
  return ci < 0 ? ci : deps.gateway.exchange.futures.marketOf[ci]!;
}

export function registerFuturesOrderRoutes(router: Router, deps: ApiDeps): void {
  const ex = () => deps.gateway.exchange;

  /** The user's futures orders of the request's settle (and contract `m` ≥ 0), open or finished, newest first. */
  const ordersOf = (req: ApiRequest, m: number, open: boolean): number[] => futuresOrdersOf(deps, req.uid, settleOf(req), m, open);

  router.add({ method: 'POST', pattern: `${F}/orders`, access: FUTURES, limit: 'futures-place',
    handler: (req, reply) => {
      const body = bodyObject(req);
      if (body === undefined) return reply.error(ResultCode.InvalidBody, 'Order body required');
      const exp = checkExptime(req);
      if (exp !== ResultCode.Ok) return reply.error(exp);
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      placeFuturesOrder(deps, req.uid, settleOf(req), body, sizeForm(req), (code, order) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(201, order);
      });
    } });

  router.add({ method: 'GET', pattern: `${F}/orders`, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      const status = queryParam(req, 'status');
      if (status === undefined || status === '') return reply.error(ResultCode.MissingParam, 'status is required');
      if (status !== 'open' && status !== 'finished') return reply.error(ResultCode.InvalidParam, 'status must be open or finished');
      const m = optionalContract(deps, req);
      const limit = intParam(req, 'limit', 100, 1, 1000);
      const offset = intParam(req, 'offset', 0, 0, 1_000_000);
      const lastIdText = queryParam(req, 'last_id');
      const lastId = lastIdText === undefined || lastIdText === '' ? 0 : /^[1-9][0-9]{0,15}$/.test(lastIdText) ? Number(lastIdText) : -1;
      if (lastId < 0) return reply.error(ResultCode.InvalidParam, 'last_id must be an order id');
      for (const v of [m < -1 ? m : 0, limit, offset]) if (v < 0) return reply.error(v);
      const O = ex().orders;
      let records = ordersOf(req, m, status === 'open');
      if (lastId > 0) records = records.filter((r) => O.id[r]! < lastId);
      const form = sizeForm(req);
      reply.json(200, records.slice(offset, offset + limit).map((r) => renderFuturesOrder(ex(), r, form)),
        paginationHeaders(limit, offset, records.length));
    } });

  router.add({ method: 'GET', pattern: `${F}/orders_timerange`, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      const m = optionalContract(deps, req);
      const from = timeParamUs(req, 'from', 0);
      const to = timeParamUs(req, 'to', Number.MAX_SAFE_INTEGER);
      const limit = intParam(req, 'limit', 100, 1, 1000);
      const offset = intParam(req, 'offset', 0, 0, 1_000_000);
      for (const v of [m < -1 ? m : 0, from, to, limit, offset]) if (v < 0) return reply.error(v);
      const O = ex().orders;
      const records = [...ordersOf(req, m, true), ...ordersOf(req, m, false)]
        .filter((r) => O.createTime[r]! >= from && O.createTime[r]! <= to)
        .sort((a, b) => O.id[b]! - O.id[a]!);
      const form = sizeForm(req);
      reply.json(200, records.slice(offset, offset + limit).map((r) => renderFuturesOrder(ex(), r, form)),
        paginationHeaders(limit, offset, records.length));
    } });

  router.add({ method: 'GET', pattern: `${F}/orders/{order_id}`, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      const r = findFuturesOrder(deps, req.uid, settleOf(req), req.params[1]!);
      if (r < 0) return reply.error(r);
      reply.json(200, renderFuturesOrder(ex(), r, sizeForm(req)));
    } });

  router.add({ method: 'PUT', pattern: `${F}/orders/{order_id}`, access: FUTURES, limit: 'futures-place',
    handler: (req, reply) => {
      const body = bodyObject(req);
      if (body === undefined) return reply.error(ResultCode.InvalidBody, 'Amendment body required');
      const exp = checkExptime(req);
      if (exp !== ResultCode.Ok) return reply.error(exp);
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      const r = findFuturesOrder(deps, req.uid, settleOf(req), req.params[1]!);
      if (r < 0) return reply.error(r);
      amendFuturesOrder(deps, req.uid, r, body, sizeForm(req), (code, order) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, order);
      });
    } });

  router.add({ method: 'DELETE', pattern: `${F}/orders/{order_id}`, access: FUTURES, limit: 'futures-cancel',
    handler: (req, reply) => {
      const exp = checkExptime(req);
      if (exp !== ResultCode.Ok) return reply.error(exp);
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      const r = findFuturesOrder(deps, req.uid, settleOf(req), req.params[1]!);
      if (r < 0) return reply.error(r);
      cancelFuturesOrder(deps, req.uid, r, sizeForm(req), (code, order) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, order);
      });
    } });

  router.add({ method: 'DELETE', pattern: `${F}/orders`, access: FUTURES, limit: 'futures-cancel',
    handler: (req, reply) => {
      const exp = checkExptime(req);
      if (exp !== ResultCode.Ok) return reply.error(exp);
      const cur = accountCur(ex(), req);
      if (cur < 0) return reply.error(cur);
      const ci = parseContract(ex(), settleOf(req), queryParam(req, 'contract'));
      if (ci < 0) return reply.error(ci, ci === ResultCode.MissingParam ? 'contract is required' : undefined);
      const sideText = queryParam(req, 'side');
      const side = sideText === undefined || sideText === '' ? 0 : sideText === 'ask' ? Side.Sell : sideText === 'bid' ? Side.Buy : -1;
      if (side < 0) return reply.error(ResultCode.InvalidParam, 'side must be ask or bid');
      const excl = queryParam(req, 'exclude_reduce_only');
      if (excl !== undefined && excl !== '' && excl !== 'true' && excl !== 'false') return reply.error(ResultCode.InvalidParam, 'exclude_reduce_only must be true or false');
      const records = openFuturesOrdersToCancel(ex(), req.uid, ex().futures.marketOf[ci]!, side, excl === 'true');
      cancelFuturesOrders(deps, req.uid, records, sizeForm(req), (orders) => reply.json(200, orders));
    } });
}
