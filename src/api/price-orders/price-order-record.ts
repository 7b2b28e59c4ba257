/**
 * The journaled record of a price trigger (engine/records.ts): `price_order/<id>` holds its whole state as
 *   {id, user, market: "BTC_USDT", trigger: {price, rule, expiration}, put: {type, side, price, amount, account,
 *    time_in_force, auto_borrow, auto_repay, text}, create_us, status, finish_us, reason}
 * with `status` one of open, cancelled, finish, failed, expired and times in µs of the engine's clock. The
 * order a fired trigger placed is not in the value: the record rides on that PlaceOrder, whose row keeps the
 * order's id (`fired_order_id` is the row's `orderId`).
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { InvariantError } from '../../core/invariant.js';
import { parsePrice } from '../../core/market.js';
import type { PriceOrder, PriceOrderStatus, PutOrder, TriggerRule } from './price-order-store.js';

export const PRICE_ORDER_PREFIX = 'price_order/';

export const priceOrderKey = (id: number): string => `${PRICE_ORDER_PREFIX}${id}`;

export interface PriceOrderRecord {
  readonly id: number;
  readonly user: number;
  readonly market: string;
  readonly trigger: { readonly price: string; readonly rule: TriggerRule; readonly expiration: number };
  readonly put: PutOrder;
  readonly create_us: number;
  readonly status: PriceOrderStatus;
  readonly finish_us: number;
  readonly reason: string;
}

/** The record of `o` (the fired order's id is left to the row). @allocates */
export function priceOrderRecord(ex: Exchange, o: PriceOrder): PriceOrderRecord {
  return {
    id: o.id, user: o.uid, market: ex.markets[o.market]!.id,
    trigger: { price: o.triggerPrice, rule: o.rule, expiration: o.expiration }, put: o.put,
    create_us: o.createUs, status: o.status, finish_us: o.finishUs, reason: o.reason,
  };
}

/** `o` ended with `status` at `finishUs` (and `reason`): the record to put. @allocates */
export function finishedRecord(ex: Exchange, o: PriceOrder, status: Exclude<PriceOrderStatus, 'open'>, finishUs: number, reason = ''): PriceOrderRecord {
  return { ...priceOrderRecord(ex, o), status, finish_us: finishUs, reason };
}

const STATUSES: readonly string[] = ['open', 'cancelled', 'finish', 'failed', 'expired'];

/**
 * The trigger a record stands for; `orderId` is its row's (the order a fired trigger placed). A record this
 * module did not write is a broken invariant (the journal is ours). @allocates
 */
export function priceOrderFromRecord(ex: Exchange, value: unknown, orderId: number): PriceOrder {
  const r = value as PriceOrderRecord;
  const market = typeof r?.market === 'string' ? ex.marketIndex(r.market) : -1;
  const ticks = market >= 0 && typeof r.trigger?.price === 'string' ? parsePrice(ex.markets[market]!, r.trigger.price) : -1;
  if (ticks <= 0 || !Number.isSafeInteger(r.id) || !STATUSES.includes(r.status)) {
    throw new InvariantError(`price trigger record not readable: ${JSON.stringify(value)}`);
  }
  return {
    id: r.id, uid: r.user, market, triggerTicks: ticks, triggerPrice: r.trigger.price, rule: r.trigger.rule,
    expiration: r.trigger.expiration, put: r.put, createUs: r.create_us, finishUs: r.finish_us, status: r.status,
    firedOrderId: r.status === 'finish' ? orderId : 0, reason: r.reason,
  };
}
