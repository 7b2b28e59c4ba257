/**
 * The answers the serial derivative book products (futures-orders.ts, options-orders.ts) share: why an order
 * cannot be cancelled or amended, and what R2 answers instead of applying the book's events. Spot answers a
 * gone order with its own labels (spot-orders.ts) and keeps its own. Pure reads of the order store and the
 * events; allocate nothing.
 */
import { type Command, CommandType } from '../command.js';
import { type BookEvents, EventKind } from '../matching/book-events.js';
import { FinishAs } from '../matching/order-types.js';
import { ResultCode } from '../result-code.js';
import type { ExchangeContext } from './context.js';

/** Why `c.orderId` cannot be cancelled or amended: ORDER_NOT_FOUND (not the user's), ORDER_FINISHED; Ok: open. */
export function goneCode(ctx: ExchangeContext, c: Command): ResultCode {
  const O = ctx.orders;
  const r = O.find(c.orderId);
  if (r < 0 || O.uid[r] !== c.uid || O.market[r] !== c.market) return ResultCode.OrderNotFound;
  return O.finishAs[r] === 0 ? ResultCode.Ok : ResultCode.OrderFinished;
}

/** ORDER_POC_IMMEDIATE / ORDER_FOK when the placed order finished at once as post-only or fill-or-kill, else Ok. */
function refusal(ev: BookEvents, orderId: number): ResultCode {
  for (let i = 0; i < ev.count; i++) {
    if (ev.kind[i] !== EventKind.Finished || ev.orderId[i] !== orderId) continue;
    if (ev.code[i] === FinishAs.Poc) return ResultCode.OrderPocImmediate;
    if (ev.code[i] === FinishAs.Fok) return ResultCode.OrderFok;
  }
  return ResultCode.Ok;
}

/**
 * What R2 answers instead of applying the events, or Ok to apply them: the book's failure `code` (an order the
 * book did not find answered as goneCode says when that names why), or a place the book finished at once as
 * post-only / fill-or-kill. Whenever this is not Ok the caller undoes R1 and answers it.
 */
export function bookRefusal(ctx: ExchangeContext, c: Command, code: ResultCode, ev: BookEvents): ResultCode {
  if (code !== ResultCode.Ok) {
    if (code !== ResultCode.OrderNotFound || c.type === CommandType.PlaceOrder) return code;
    const gone = goneCode(ctx, c);
    return gone === ResultCode.Ok ? code : gone;
  }
  return c.type === CommandType.PlaceOrder ? refusal(ev, c.orderId) : ResultCode.Ok;
}
