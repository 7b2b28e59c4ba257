/**
 * Price-triggered spot orders (permission group `spot`), Gate's SpotPriceTriggeredOrder:
 *   POST   /spot/price_orders            {trigger: {price, rule, expiration}, put: {...}, market} → 201 {id}
 *   GET    /spot/price_orders            status open | finished; market, account, limit (≤ 1000), offset
 *   DELETE /spot/price_orders            cancel every open trigger (market, account optional) → the list
 *   GET    /spot/price_orders/{id}       one trigger
 *   DELETE /spot/price_orders/{id}       cancel it → the trigger
 * A trigger fires when the market's last trade price reaches its price (rule `>=` from below, `<=` from
 * above): see price-orders/price-triggers.ts. The put order is validated in full when the trigger is created
 * (precision, minimums), so a trigger fails later only for what can change (funds, book, STP).
 * `expiration` is seconds (0: never expires). `put.account` is `normal` (Gate's name for spot here).
 * Every change is journaled (price-orders/price-triggers.ts): replies wait for the change's command, and reads
 * wait until no change is in flight.
 */
import { Command } from '../../core/command.js';
import { formatUnits } from '../../core/units.js';
import { parsePrice } from '../../core/market.js';
import { validatePlace } from '../../core/matching/book-rules.js';
import { PlaceOrder } from '../../core/matching/order-types.js';
import { ResultCode } from '../../core/result-code.js';
import type { ApiDeps } from '../deps.js';
import { type ApiRequest, bodyObject, queryParam } from '../http/api-request.js';
import type { Handler, Router } from '../router.js';
import { parseCreateOrder, parseOrderId, parsePair } from '../../gate/spot-order-request.js';
import type { PutOrder, SpotPriceOrder, TriggerRule } from '../price-orders/price-order-store.js';
import { renderPriceOrder } from '../price-orders/price-order-view.js';
import { putBody } from '../price-orders/price-triggers.js';
import { intParam, paginationHeaders } from './common.js';

const SPOT = { kind: 'private', group: 'spot' } as const;
const MAX_EXPIRATION_S = 30 * 86_400;

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown): boolean => v === undefined || v === null || v === '';

/** The `account` filter of the list routes: 'normal' (or absent) lists spot triggers; margin and unified hold none. */
function accountFilter(v: string | undefined): 'normal' | 'none' | ResultCode {
  if (v === undefined || v === '' || v === 'normal' || v === 'spot') return 'normal';
  return v === 'margin' || v === 'unified' || v === 'cross_margin' ? 'none' : ResultCode.InvalidParam;
}

/** A create body checked and converted: what the store records besides owner and time. */
type Parsed = Pick<SpotPriceOrder, 'product' | 'priceType' | 'market' | 'triggerTicks' | 'triggerPrice' | 'rule' | 'expiration' | 'put'>;

export function registerSpotPriceOrderRoutes(router: Router, deps: ApiDeps): void {
  const triggers = deps.priceTriggers;
  /** Runs `h` once due expiries are applied and no change is in flight, so a read never shows a trigger half-changed. */
  const whenSettled = (h: Handler): Handler => (req, reply) => {
    triggers.ready().then(() => h(req, reply)).catch((e: unknown) => {
      console.error(`ringmatch: ${req.method} ${req.path} failed:`, e);
      reply.json(500, { label: 'SERVER_ERROR', message: 'Internal server error' });
    });
  };
  deps.onClockMove.push(() => triggers.ready());
  const scratch = new Command();
  const place = new PlaceOrder();
  const ex = () => deps.gateway.exchange;

  /** The create body as a trigger, or the rejection (and a message). */
  const parse = (uid: number, body: Obj): Parsed | [ResultCode, string] => {
    const market = parsePair(ex(), body.market);
    if (market < 0) return [market as ResultCode, 'market: a known currency pair is required'];
    const trigger = body.trigger;
    const put = body.put;
    if (!isObj(trigger) || !isObj(put)) return [ResultCode.MissingParam, 'trigger and put are required objects'];
    if (absent(trigger.price) || absent(trigger.rule) || trigger.expiration === undefined || trigger.expiration === null) {
      return [ResultCode.MissingParam, 'trigger.price, trigger.rule and trigger.expiration are required'];
    }
    const m = ex().markets[market]!;
    const triggerTicks = parsePrice(m, trigger.price);
    if (triggerTicks < 0) return [triggerTicks as ResultCode, 'trigger.price: a positive decimal within the pair\'s precision'];
    if (trigger.rule !== '>=' && trigger.rule !== '<=') return [ResultCode.InvalidParam, 'trigger.rule must be ">=" or "<="'];
    const exp = trigger.expiration;
    if (typeof exp !== 'number' || !Number.isInteger(exp) || exp < 0 || exp > MAX_EXPIRATION_S) {
      return [ResultCode.InvalidParam, `trigger.expiration: whole seconds in 0..${MAX_EXPIRATION_S}`];
    }
    const account = absent(put.account) ? 'normal' : put.account;
    if (account === 'margin' || account === 'unified' || account === 'cross_margin') return [ResultCode.AccountNotSupported, 'put.account: only normal (spot) is served'];
    if (account !== 'normal' && account !== 'spot') return [ResultCode.InvalidParam, 'put.account must be normal, margin or unified'];
    const type = absent(put.type) ? 'limit' : put.type;
    if (type !== 'limit' && type !== 'market') return [ResultCode.InvalidParam, 'put.type must be limit or market'];
    if (put.side !== 'buy' && put.side !== 'sell') return [absent(put.side) ? ResultCode.MissingParam : ResultCode.InvalidParam, 'put.side must be buy or sell'];
    const tif = absent(put.time_in_force) ? 'gtc' : put.time_in_force;
    if (tif !== 'gtc' && tif !== 'ioc') return [ResultCode.InvalidParam, 'put.time_in_force must be gtc or ioc'];
    const text = absent(put.text) ? '' : put.text;
    // The label's format is checked with the whole put order below (parseCreateOrder).
    if (typeof text !== 'string') return [ResultCode.InvalidParam, 'put.text must be t- followed by at most 28 of 0-9A-Za-z_.-'];
    if (typeof put.amount !== 'string' || (type === 'limit' && typeof put.price !== 'string')) {
      return [absent(put.amount) || (type === 'limit' && absent(put.price)) ? ResultCode.MissingParam : ResultCode.InvalidParam,
        'put.amount (and put.price for a limit order) are decimal strings'];
    }
    const order: PutOrder = {
      type, side: put.side, price: type === 'limit' ? put.price as string : '0', amount: put.amount, account: 'normal',
      time_in_force: tif, auto_borrow: put.auto_borrow === true, auto_repay: put.auto_repay === true, text: text,
    };
    const rule: TriggerRule = trigger.rule;
    const fields: Parsed = { product: 'spot', priceType: 0, market, triggerTicks, triggerPrice: formatUnits(triggerTicks, m.priceScale), rule, expiration: exp, put: order };
    const check = parseCreateOrder(ex(), uid, putBody(ex(), fields), scratch);
    if (check !== ResultCode.Ok) return [check, 'put: the order would be refused'];
    const c = scratch;
    const bounds = validatePlace(m, place.set(1, uid, c.side, c.orderType, c.tif, c.price, c.amount, c.iceberg));
    if (bounds !== ResultCode.Ok) return [bounds, 'put: the amount is outside the pair\'s limits'];
    const last = triggers.lastTicks(market);
    if (!Number.isNaN(last)) {
      if (trigger.rule === '>=' && triggerTicks <= last) return [ResultCode.TriggerPriceBelowLast, 'a ">=" trigger must be above the last price'];
      if (trigger.rule === '<=' && triggerTicks >= last) return [ResultCode.TriggerPriceAboveLast, 'a "<=" trigger must be below the last price'];
    }
    return fields;
  };

  /** The caller's trigger named by the path, or OrderNotFound. */
  const own = (req: ApiRequest): SpotPriceOrder | undefined => {
    const id = parseOrderId(req.params[0]);
    const o = id < 0 ? undefined : triggers.store.get(id);
    return o !== undefined && o.uid === req.uid && o.product === 'spot' ? o : undefined;
  };

  router.add({ method: 'POST', pattern: '/api/v4/spot/price_orders', access: SPOT, limit: 'spot',
    handler: (req, reply) => {
      const body = bodyObject(req);
      if (body === undefined) return reply.error(ResultCode.InvalidBody, 'a SpotPriceTriggeredOrder body is required');
      const parsed = parse(req.uid, body);
      if (Array.isArray(parsed)) return reply.error(parsed[0], parsed[1]);
      triggers.create({ ...parsed, uid: req.uid, createUs: deps.gateway.clock.nowUs() }, (code, o) => {
        if (o === undefined) return reply.error(code);
        reply.json(201, { id: o.id, id_string: String(o.id) });
      });
    } });

  router.add({ method: 'GET', pattern: '/api/v4/spot/price_orders', access: SPOT, limit: 'spot',
    handler: whenSettled((req, reply) => {
      const status = queryParam(req, 'status');
      if (absent(status)) return reply.error(ResultCode.MissingParam, 'status is required');
      if (status !== 'open' && status !== 'finished') return reply.error(ResultCode.InvalidParam, 'status must be open or finished');
      const marketText = queryParam(req, 'market');
      const market = absent(marketText) ? -1 : parsePair(ex(), marketText);
      if (market < -1) return reply.error(market);
      const account = accountFilter(queryParam(req, 'account'));
      if (typeof account === 'number') return reply.error(account, 'account must be normal, margin or unified');
      const limit = intParam(req, 'limit', 100, 1, 1000);
      const offset = intParam(req, 'offset', 0, 0, 1_000_000_000);
      if (limit < 0 || offset < 0) return reply.error(ResultCode.InvalidParam, 'limit is 1..1000 and offset ≥ 0');
      const all = account === 'none' ? [] : status === 'open' ? triggers.store.openOf(req.uid, market) : triggers.store.finishedOf(req.uid, market);
      reply.json(200, all.slice(offset, offset + limit).map((o) => renderPriceOrder(ex(), o)), paginationHeaders(limit, offset, all.length));
    }) });

  router.add({ method: 'DELETE', pattern: '/api/v4/spot/price_orders', access: SPOT, limit: 'spot-cancel',
    handler: whenSettled((req, reply) => {
      const marketText = queryParam(req, 'market');
      const market = absent(marketText) ? -1 : parsePair(ex(), marketText);
      if (market < -1) return reply.error(market);
      const account = accountFilter(queryParam(req, 'account'));
      if (typeof account === 'number') return reply.error(account, 'account must be normal, margin or unified');
      triggers.cancel(account === 'none' ? [] : triggers.store.openOf(req.uid, market), (code, cancelled) => {
        if (code !== ResultCode.Ok) return reply.error(code);
        reply.json(200, cancelled.map((o) => renderPriceOrder(ex(), o as SpotPriceOrder)));
      });
    }) });

  router.add({ method: 'GET', pattern: '/api/v4/spot/price_orders/{order_id}', access: SPOT, limit: 'spot',
    handler: whenSettled((req, reply) => {
      const o = own(req);
      if (o === undefined) return reply.error(ResultCode.OrderNotFound);
      reply.json(200, renderPriceOrder(ex(), o));
    }) });

  /** Cancels the trigger of the path once no change to it is in flight (a change begun since the wait ends first). */
  const cancelOne: Handler = whenSettled((req, reply) => {
    const o = own(req);
    if (o === undefined) return reply.error(ResultCode.OrderNotFound);
    if (o.status === 'cancelled') return reply.error(ResultCode.OrderCancelled);
    if (o.status !== 'open') return reply.error(ResultCode.OrderClosed);
    if (triggers.store.isPending(o.id)) return cancelOne(req, reply);
    triggers.cancel([o], (code, cancelled) => {
      if (code !== ResultCode.Ok) return reply.error(code);
      reply.json(200, renderPriceOrder(ex(), cancelled[0] as SpotPriceOrder));
    });
  });
  router.add({ method: 'DELETE', pattern: '/api/v4/spot/price_orders/{order_id}', access: SPOT, limit: 'spot-cancel', handler: cancelOne });
}
