/**
 * Gate's SpotPriceTriggeredOrder object of a trigger (REST replies and spot.priceorders pushes), in the format
 * of Gate's live answers: a cancelled trigger reads `canceled`, `ftime` appears only once the trigger has
 * finished, and the put order's amount has 20 decimals ("0.00009000000000000000").
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import type { PriceOrderStatus, SpotPriceOrder } from './price-order-store.js';

/** Decimals of the put order's amount in Gate's answers. */
const PUT_AMOUNT_DECIMALS = 20;

/** `text`, a validated decimal string of at most PUT_AMOUNT_DECIMALS decimals, padded to that many. */
function padAmount(text: string): string {
  const dot = text.indexOf('.');
  const decimals = dot < 0 ? 0 : text.length - dot - 1;
  if (decimals >= PUT_AMOUNT_DECIMALS) return text;
  return `${dot < 0 ? `${text}.` : text}${'0'.repeat(PUT_AMOUNT_DECIMALS - decimals)}`;
}

/** The status as Gate's answers spell it. */
const statusName = (s: PriceOrderStatus): string => (s === 'cancelled' ? 'canceled' : s);

/** @allocates */
export function renderPriceOrder(ex: Exchange, o: SpotPriceOrder): Record<string, unknown> {
  const p = o.put;
  return {
    trigger: { price: o.triggerPrice, rule: o.rule, expiration: o.expiration },
    put: { type: p.type, side: p.side, price: p.price, amount: padAmount(p.amount), account: p.account,
      time_in_force: p.time_in_force, auto_borrow: p.auto_borrow, auto_repay: p.auto_repay, text: p.text },
    id: o.id, id_string: String(o.id), user: o.uid, market: ex.markets[o.market]!.id,
    ctime: Math.floor(o.createUs / 1e6), ...(o.status === 'open' ? {} : { ftime: Math.floor(o.finishUs / 1e6) }),
    fired_order_id: o.firedOrderId, status: statusName(o.status), reason: o.reason,
  };
}
