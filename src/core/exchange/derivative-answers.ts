/**
 * The answers the serial derivative book products (futures-orders.ts, options-orders.ts) share: why an order
 * cannot be cancelled or amended, what an amend asks and how its hold follows, and what R2 answers instead of
 * applying the book's events. Spot answers a gone order with its own labels (spot-orders.ts) and keeps its own.
 * Reads of the order store and the events, and moves between an order's margin hold and its account's
 * available; allocate nothing.
 */
import { type Command, CommandType } from '../command.js';
import { invariant } from '../invariant.js';
import type { LedgerOutcome } from '../ledger/ledger-codes.js';
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

/** What an amend asks of an open order: its price (ticks) and its new remainder (contracts; ≤ 0: below what filled). */
export interface AmendTarget { price: number; left: number }

/**
 * The price and remainder amend `c` asks of open order record `r` (`c.price` / `c.amount` 0 keep the order's),
 * written to `out`: InvalidParam off the `tick` grid or not positive, SizeTooLarge above `sizeMax`, else Ok. A
 * remainder ≤ 0 is the book's to answer (AmendBelowFilled).
 */
export function amendTarget(ctx: ExchangeContext, c: Command, r: number, tick: number, sizeMax: number, out: AmendTarget): ResultCode {
  const O = ctx.orders;
  const price = c.price === 0 ? O.price[r]! : c.price;
  const total = c.amount === 0 ? O.amount[r]! : c.amount;
  if (!Number.isSafeInteger(price) || price <= 0 || price % tick !== 0 || !Number.isSafeInteger(total) || total <= 0) return ResultCode.InvalidParam;
  if (total > sizeMax) return ResultCode.SizeTooLarge;
  out.price = price;
  out.left = total - O.filledLots[r]!;
  return ResultCode.Ok;
}

/** The margin moves of a product's ledger (futures-funds.ts, options-funds.ts): key 0 is the account's available. */
export interface HoldMoves {
  held(key: number): bigint;
  move(from: number, to: number, units: bigint): LedgerOutcome;
}

/**
 * Brings the hold of amend `c`'s order to `need`, from or to available, keeping what it held in `c.reserved`
 * (for restoreAmendHold); InsufficientAvailable when available cannot give the difference (nothing moved).
 */
export function reholdForAmend(L: HoldMoves, c: Command, need: bigint): ResultCode {
  const held = L.held(c.orderId);
  const moved = need >= held ? L.move(0, c.orderId, need - held) : L.move(c.orderId, 0, held - need);
  if (moved !== ResultCode.Ok) return ResultCode.InsufficientAvailable;
  c.reserved = held;
  return ResultCode.Ok;
}

/** Puts the hold of amend `c`'s order back to what it held before reholdForAmend (an amend the book refused). */
export function restoreAmendHold(L: HoldMoves, c: Command): void {
  if (typeof c.reserved !== 'bigint') return;
  const now = L.held(c.orderId);
  if (now < 0n || now === c.reserved) return;
  invariant((now > c.reserved ? L.move(c.orderId, 0, now - c.reserved) : L.move(0, c.orderId, c.reserved - now)) === ResultCode.Ok,
    'amend hold could not be restored');
}
