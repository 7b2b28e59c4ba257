/** Gate's SpotPriceTriggeredOrder object of a trigger (REST replies and spot.priceorders pushes). */
import type { Exchange } from '../../core/exchange/exchange.js';
import type { PriceOrder } from './price-order-store.js';

/** @allocates */
export function renderPriceOrder(ex: Exchange, o: PriceOrder): Record<string, unknown> {
  const p = o.put;
  return {
    trigger: { price: o.triggerPrice, rule: o.rule, expiration: o.expiration },
    put: { type: p.type, side: p.side, price: p.price, amount: p.amount, account: p.account,
      time_in_force: p.time_in_force, auto_borrow: p.auto_borrow, auto_repay: p.auto_repay, text: p.text },
    id: o.id, id_string: String(o.id), user: o.uid, market: ex.markets[o.market]!.id,
    ctime: Math.floor(o.createUs / 1e6), ftime: Math.floor(o.finishUs / 1e6), fired_order_id: o.firedOrderId,
    status: o.status, reason: o.reason,
  };
}
