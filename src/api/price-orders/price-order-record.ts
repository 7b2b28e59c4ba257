/**
 * The journaled record of a price trigger (engine/records.ts): `price_order/<id>` holds its whole state as
 *   {id, user, market: "BTC_USDT", trigger: {price, rule, expiration}, put: {type, side, price, amount, account,
 *    time_in_force, auto_borrow, auto_repay, text}, create_us, status, finish_us, reason}
 * with `status` one of open, cancelled, finish, failed, expired and times in µs of the engine's clock. A futures
 * trigger's record (`product: "futures"`; a record without `product` is spot) is
 *   {id, user, product: "futures", contract: "BTC_USDT", settle: "usdt", trigger: {price_type, price, rule, expiration},
 *    initial: {contract, size, price, close, tif, text, reduce_only, auto_size}, order_type, create_us, status,
 *    finish_us, reason}
 * The order a fired trigger placed is not in the value: the record rides on that PlaceOrder, whose row keeps the
 * order's id (`fired_order_id` is the row's `orderId`).
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { InvariantError } from '../../core/invariant.js';
import { parsePrice } from '../../core/market.js';
import { parseUnits } from '../../core/units.js';
import type {
  FuturesInitial, FuturesPriceOrder, PriceOrder, PriceOrderStatus, PriceType, PutOrder, TriggerRule,
} from './price-order-store.js';

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

export interface FuturesPriceOrderRecord {
  readonly id: number;
  readonly user: number;
  readonly product: 'futures';
  readonly contract: string;
  readonly settle: string;
  readonly trigger: { readonly price_type: PriceType; readonly price: string; readonly rule: TriggerRule; readonly expiration: number };
  readonly initial: FuturesInitial;
  readonly order_type: string;
  readonly create_us: number;
  readonly status: PriceOrderStatus;
  readonly finish_us: number;
  readonly reason: string;
}

/** The record of `o` (the fired order's id is left to the row). @allocates */
export function priceOrderRecord(ex: Exchange, o: PriceOrder): PriceOrderRecord | FuturesPriceOrderRecord {
  if (o.product === 'futures') {
    const k = ex.futures.contracts[ex.futures.contractOf(o.market)]!;
    return {
      id: o.id, user: o.uid, product: 'futures', contract: k.name, settle: k.settle,
      trigger: { price_type: o.priceType, price: o.triggerPrice, rule: o.rule, expiration: o.expiration }, initial: o.initial,
      order_type: o.orderType, create_us: o.createUs, status: o.status, finish_us: o.finishUs, reason: o.reason,
    };
  }
  return {
    id: o.id, user: o.uid, market: ex.markets[o.market]!.id,
    trigger: { price: o.triggerPrice, rule: o.rule, expiration: o.expiration }, put: o.put,
    create_us: o.createUs, status: o.status, finish_us: o.finishUs, reason: o.reason,
  };
}

/** `o` ended with `status` at `finishUs` (and `reason`): the record to put. @allocates */
export function finishedRecord(ex: Exchange, o: PriceOrder, status: Exclude<PriceOrderStatus, 'open'>, finishUs: number,
  reason = ''): PriceOrderRecord | FuturesPriceOrderRecord {
  return { ...priceOrderRecord(ex, o), status, finish_us: finishUs, reason };
}

const STATUSES: readonly string[] = ['open', 'cancelled', 'finish', 'failed', 'expired'];

/**
 * The trigger a record stands for; `orderId` is its row's (the order a fired trigger placed). A record this
 * module did not write is a broken invariant (the journal is ours). @allocates
 */
export function priceOrderFromRecord(ex: Exchange, value: unknown, orderId: number): PriceOrder {
  if ((value as { product?: unknown } | null)?.product === 'futures') return futuresFromRecord(ex, value, orderId);
  const r = value as PriceOrderRecord;
  const market = typeof r?.market === 'string' ? ex.marketIndex(r.market) : -1;
  const ticks = market >= 0 && typeof r.trigger?.price === 'string' ? parsePrice(ex.markets[market]!, r.trigger.price) : -1;
  if (ticks <= 0 || !Number.isSafeInteger(r.id) || !STATUSES.includes(r.status)) {
    throw new InvariantError(`price trigger record not readable: ${JSON.stringify(value)}`);
  }
  return {
    product: 'spot', priceType: 0, id: r.id, uid: r.user, market, triggerTicks: ticks, triggerPrice: r.trigger.price, rule: r.trigger.rule,
    expiration: r.trigger.expiration, put: r.put, createUs: r.create_us, finishUs: r.finish_us, status: r.status,
    firedOrderId: r.status === 'finish' ? orderId : 0, reason: r.reason,
  };
}

/** A futures trigger's record read back (see priceOrderFromRecord). @allocates */
function futuresFromRecord(ex: Exchange, value: unknown, orderId: number): FuturesPriceOrder {
  const r = value as FuturesPriceOrderRecord;
  const ci = typeof r.contract === 'string' && typeof r.settle === 'string' ? ex.futures.contractIndex(r.settle, r.contract) : -1;
  const k = ex.futures.contracts[ci];
  const ticks = k !== undefined && typeof r.trigger?.price === 'string' ? parseUnits(r.trigger.price, k.priceScale) : -1;
  const pt = r.trigger?.price_type;
  if (ticks <= 0 || !Number.isSafeInteger(r.id) || !STATUSES.includes(r.status) || (pt !== 0 && pt !== 1 && pt !== 2)) {
    throw new InvariantError(`futures price trigger record not readable: ${JSON.stringify(value)}`);
  }
  return {
    product: 'futures', priceType: pt, id: r.id, uid: r.user, market: ex.futures.marketOf[ci]!, triggerTicks: ticks,
    triggerPrice: r.trigger.price, rule: r.trigger.rule, expiration: r.trigger.expiration, initial: r.initial,
    orderType: r.order_type, createUs: r.create_us, finishUs: r.finish_us, status: r.status,
    firedOrderId: r.status === 'finish' ? orderId : 0, reason: r.reason,
  };
}
