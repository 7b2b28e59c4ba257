/**
 * Gate's FuturesPriceTriggeredOrder object of a futures trigger (REST replies):
 *   {initial: {contract, size, price, tif, text, iceberg, close, is_close, reduce_only, is_reduce_only, auto_size},
 *    trigger: {strategy_type 0, price_type, price, rule 1 (>=) | 2 (<=), expiration}, id, id_string, user,
 *    create_time, finish_time (s; absent while open, as spot's ftime), trade_id and me_order_id (the placed
 *    order, 0 until fired),
 *    status open | finished, finish_as (absent while open; then succeeded, failed, cancelled, expired), reason,
 *    order_type, is_stop_order false, stop_trigger, in_dual_mode}
 * ccxt reads `finish_as` before `status` (succeeded → closed; cancelled, failed, expired → canceled), the
 * trigger price from `trigger.price` and the order from `initial` (size sign = side; price "0" + ioc = market).
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import type { FuturesPriceOrder, PriceOrderStatus } from './price-order-store.js';

const FINISH_AS: Readonly<Record<PriceOrderStatus, string>> = {
  open: '', finish: 'succeeded', failed: 'failed', cancelled: 'cancelled', expired: 'expired',
};

/** @allocates */
export function renderFuturesPriceOrder(ex: Exchange, o: FuturesPriceOrder): Record<string, unknown> {
  const i = o.initial;
  const ci = ex.futures.contractOf(o.market);
  const open = o.status === 'open';
  return {
    initial: {
      contract: i.contract, size: i.size, price: i.price, tif: i.tif, text: i.text, iceberg: 0, close: i.close, is_close: i.close,
      reduce_only: i.reduce_only, is_reduce_only: i.reduce_only, auto_size: i.auto_size,
    },
    trigger: { strategy_type: 0, price_type: o.priceType, price: o.triggerPrice, rule: o.rule === '>=' ? 1 : 2, expiration: o.expiration },
    id: o.id, id_string: String(o.id), user: o.uid,
    create_time: Math.floor(o.createUs / 1e6), ...(open ? {} : { finish_time: Math.floor(o.finishUs / 1e6) }),
    trade_id: o.firedOrderId, me_order_id: o.firedOrderId,
    status: open ? 'open' : 'finished', ...(open ? {} : { finish_as: FINISH_AS[o.status] }), reason: o.reason,
    order_type: o.orderType, is_stop_order: false, stop_trigger: { rule: 0, trigger_price: '', order_price: '' },
    in_dual_mode: ci >= 0 && ex.futures.isDual(o.uid, ex.futures.settleCur[ci]!),
  };
}
