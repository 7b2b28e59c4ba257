/**
 * Futures price-triggered orders (permission group `futures`), Gate's FuturesPriceTriggeredOrder:
 *   POST   /futures/{settle}/price_orders         {initial, trigger, order_type?} → 201 {id, id_string}
 *   GET    /futures/{settle}/price_orders         status open | finished (required); contract, limit (≤ 1000), offset
 *   DELETE /futures/{settle}/price_orders         cancel every open trigger (contract optional) → the list
 *   GET    /futures/{settle}/price_orders/{id}    one trigger
 *   DELETE /futures/{settle}/price_orders/{id}    cancel it → the trigger
 * `settle` is usdt or btc (a settle currency with contracts). A trigger fires when its contract's price of
 * `trigger.price_type` (0 last trade, 1 mark, 2 index) reaches `trigger.price` by `trigger.rule` (1 >=, 2 <=);
 * it then places its `initial` order as a FuturesOrder through the engine (price-orders/price-triggers.ts, one
 * service with spot's). A trigger its price already reaches is refused (AUTO_TRIGGER_PRICE_LESS_LAST /
 * AUTO_TRIGGER_PRICE_GREATE_LAST, as spot's). What the request may hold: gate/futures-price-order-request.ts.
 * Every change is journaled: replies wait for the change's command, reads wait until none is in flight.
 */
import { scopeOf } from './futures-public-params.js';
import { ResultCode } from '../../core/result-code.js';
import { parseFuturesTrigger } from '../../gate/futures-price-order-request.js';
import { parseOrderId } from '../../gate/spot-order-request.js';
import type { ApiDeps } from '../deps.js';
import { type ApiRequest, bodyObject, queryParam } from '../http/api-request.js';
import type { Reply } from '../http/reply.js';
import type { Handler, Router } from '../router.js';
import { renderFuturesPriceOrder } from '../price-orders/futures-price-order-view.js';
import type { FuturesPriceOrder } from '../price-orders/price-order-store.js';
import { intParam, paginationHeaders } from './common.js';

const FUTURES = { kind: 'private', group: 'futures' } as const;
const BASE = '/api/v4/futures/{settle}/price_orders';

const absent = (v: unknown): boolean => v === undefined || v === null || v === '';

export function registerFuturesPriceOrderRoutes(router: Router, deps: ApiDeps): void {
  const triggers = deps.priceTriggers;
  const ex = () => deps.gateway.exchange;
  /** Runs `h` once due expiries are applied and no change is in flight (as the spot routes). */
  const whenSettled = (h: Handler): Handler => (req, reply) => {
    triggers.ready().then(() => h(req, reply)).catch((e: unknown) => {
      console.error(`ringmatch: ${req.method} ${req.path} failed:`, e);
      reply.json(500, { label: 'SERVER_ERROR', message: 'Internal server error' });
    });
  };

  /** The path's settle currency if some contract settles in it; else answers and returns undefined. */
  const settleOf = (req: ApiRequest, reply: Reply): string | undefined => {
    const s = scopeOf(req);
    if (ex().futures.contracts.some((k) => k.settle === s)) return s;
    reply.error(ResultCode.InvalidParam, 'settle must be a settle currency with contracts (usdt, btc)');
    return undefined;
  };

  /** The `contract` filter: -1 for none, the market of a contract of `settle`, or a rejection (answered). */
  const contractFilter = (req: ApiRequest, reply: Reply, settle: string): number | undefined => {
    const name = queryParam(req, 'contract');
    if (absent(name)) return -1;
    const ci = ex().futures.contractIndex(settle, name!);
    if (ci >= 0) return ex().futures.marketOf[ci]!;
    reply.error(ResultCode.ContractNotFound);
    return undefined;
  };

  /** The caller's futures trigger of `settle` named by the path, or undefined. */
  const own = (req: ApiRequest, settle: string): FuturesPriceOrder | undefined => {
    const id = parseOrderId(req.params[1]);
    const o = id < 0 ? undefined : triggers.store.get(id);
    if (o === undefined || o.uid !== req.uid || o.product !== 'futures') return undefined;
    const ci = ex().futures.contractOf(o.market);
    return ex().futures.contracts[ci]?.settle === settle ? o : undefined;
  };

  router.add({ method: 'POST', pattern: BASE, access: FUTURES, limit: 'futures',
    handler: (req, reply) => {
      const settle = settleOf(req, reply);
      if (settle === undefined) return;
      const body = bodyObject(req);
      if (body === undefined) return reply.error(ResultCode.InvalidBody, 'a FuturesPriceTriggeredOrder body is required');
      const parsed = parseFuturesTrigger(ex(), settle, body);
      if (Array.isArray(parsed)) return reply.error(parsed[0], parsed[1]);
      const now = triggers.priceTicks(parsed.market, parsed.priceType);
      if (!Number.isNaN(now)) {
        if (parsed.rule === '>=' && parsed.triggerTicks <= now) return reply.error(ResultCode.TriggerPriceBelowLast, 'a rule 1 (>=) trigger must be above the current price');
        if (parsed.rule === '<=' && parsed.triggerTicks >= now) return reply.error(ResultCode.TriggerPriceAboveLast, 'a rule 2 (<=) trigger must be below the current price');
      }
      triggers.create({ ...parsed, product: 'futures', uid: req.uid, createUs: deps.gateway.clock.nowUs() }, (code, o) => {
        if (o === undefined) return reply.error(code);
        reply.json(201, { id: o.id, id_string: String(o.id) });
      });
    } });

  router.add({ method: 'GET', pattern: BASE, access: FUTURES, limit: 'futures',
    handler: whenSettled((req, reply) => {
      const settle = settleOf(req, reply);
      if (settle === undefined) return;
      const status = queryParam(req, 'status');
      if (absent(status)) return reply.error(ResultCode.MissingParam, 'status is required');
      if (status !== 'open' && status !== 'finished') return reply.error(ResultCode.InvalidParam, 'status must be open or finished');
      const market = contractFilter(req, reply, settle);
      if (market === undefined) return;
      const limit = intParam(req, 'limit', 100, 1, 1000);
      const offset = intParam(req, 'offset', 0, 0, 1_000_000_000);
      if (limit < 0 || offset < 0) return reply.error(ResultCode.InvalidParam, 'limit is 1..1000 and offset ≥ 0');
      const of = status === 'open' ? triggers.store.openOf(req.uid, market, 'futures') : triggers.store.finishedOf(req.uid, market, 'futures');
      const all = of.filter((o) => ex().futures.contracts[ex().futures.contractOf(o.market)]?.settle === settle);
      reply.json(200, all.slice(offset, offset + limit).map((o) => renderFuturesPriceOrder(ex(), o)), paginationHeaders(limit, offset, all.length));
    }) });

  router.add({ method: 'DELETE', pattern: BASE, access: FUTURES, limit: 'futures-cancel',
    handler: whenSettled((req, reply) => {
      const settle = settleOf(req, reply);
      if (settle === undefined) return;
      const market = contractFilter(req, reply, settle);
      if (market === undefined) return;
      const mine = triggers.store.openOf(req.uid, market, 'futures')
        .filter((o) => ex().futures.contracts[ex().futures.contractOf(o.market)]?.settle === settle);
      triggers.cancel(mine, (code, cancelled) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, cancelled.map((o) => renderFuturesPriceOrder(ex(), o as FuturesPriceOrder)));
      });
    }) });

  router.add({ method: 'GET', pattern: `${BASE}/{order_id}`, access: FUTURES, limit: 'futures',
    handler: whenSettled((req, reply) => {
      const settle = settleOf(req, reply);
      if (settle === undefined) return;
      const o = own(req, settle);
      if (o === undefined) return reply.error(ResultCode.OrderNotFound);
      reply.json(200, renderFuturesPriceOrder(ex(), o));
    }) });

  /** Cancels the trigger of the path once no change to it is in flight (a change begun since the wait ends first). */
  const cancelOne: Handler = whenSettled((req, reply) => {
    const settle = settleOf(req, reply);
    if (settle === undefined) return;
    const o = own(req, settle);
    if (o === undefined) return reply.error(ResultCode.OrderNotFound);
    if (o.status === 'cancelled') return reply.error(ResultCode.OrderCancelled);
    if (o.status !== 'open') return reply.error(ResultCode.OrderClosed);
    if (triggers.store.isPending(o.id)) return cancelOne(req, reply);
    triggers.cancel([o], (code, cancelled) => {
      if (code !== ResultCode.Ok) return reply.error(code);
      reply.json(200, renderFuturesPriceOrder(ex(), cancelled[0] as FuturesPriceOrder));
    });
  });
  router.add({ method: 'DELETE', pattern: `${BASE}/{order_id}`, access: FUTURES, limit: 'futures-cancel', handler: cancelOne });
}
