/**
 * Spot orders, the book product of spot markets: orders trading from the Spot account, an isolated Margin
 * account of their pair, or the CrossMargin account (the PlaceOrder's `kind`, `sub` and flags in `toKind`).
 *
 *   R1  `pre`:  a place is validated and its funds held (limit buy: price × lots of quote; market buy: its quote
 *               budget; sell: lots of base), the order id and STP group stamped and the order recorded open; an
 *               amend reserves what a larger hold needs; a cancel checks the order is the user's and open.
 *   R2  `post`: each fill moves base and quote between the two holds, charging each side's fee in what it
 *               received (to the fee account); a finished order's hold returns; an amend's hold is set to its
 *               exact figure; a book rejection undoes R1.
 *
 * Pipelining (the threaded runner runs R1 of later commands before R2 of earlier ones) is safe because R2 only
 * ever adds to available balances: a pipelined R1 sees at most the funds an inline one would, so whatever it
 * accepts inline accepts too, and a runner that retries a BalanceNotEnough after draining gets the inline answer.
 * An amend's R1 with fills in flight (`pessimistic`) reserves as if its whole remainder were about to trade at
 * its current price, and R2 settles the hold to the exact figure, so it never needs more later. That reasoning
 * needs the order's price and amount as R1 sees them to be the book's: fills in flight only shrink what is
 * left, but an earlier amend in flight moves the price and amount, and its R2 sets the hold to its own exact
 * figure, taking back what a later amend's R1 reserved. So a runner must not run R1 of an amend while an
 * earlier amend of the same order is in flight (`amendInFlight`); it waits for that amend's R2.
 *
 * Allocation: none per command on narrow currencies once records exist (wide currencies use BigInt).
 */
import { type Command, CommandType } from '../command.js';
import { invariant } from '../invariant.js';
import { type Amount, isZeroAmount, subAmount } from '../ledger/amount.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { type BookEvents, EventKind } from '../matching/book-events.js';
import { validatePlace } from '../matching/book-rules.js';
import { FinishAs, OrderType, PlaceOrder, Side } from '../matching/order-types.js';
import { ResultCode } from '../result-code.js';
import type { BookProduct, ExchangeContext } from './context.js';
import { accountKindOf, OrderFlag, packAccount } from './order-store.js';

/**
 * The packed account byte (order-store.ts packAccount) of a PlaceOrder's `kind`, `sub` and flags (`toKind`),
 * or -1: kind 0 or Spot (no flags kept), Margin with `sub` its market, CrossMargin with `sub` 0.
 */
function orderAccount(c: Command): number {
  if ((c.toKind | 0) !== c.toKind || c.toKind < 0 || c.toKind > (OrderFlag.AutoBorrow | OrderFlag.AutoRepay)) return -1;
  if (c.kind === 0 || c.kind === AccountKind.Spot) return c.sub === 0 ? AccountKind.Spot : -1;
  if (c.kind === AccountKind.Margin) return c.sub === c.market ? packAccount(AccountKind.Margin, c.toKind) : -1;
  if (c.kind === AccountKind.CrossMargin) return c.sub === 0 ? packAccount(AccountKind.CrossMargin, c.toKind) : -1;
  return -1;
}

const validMarket = (ctx: ExchangeContext, m: number): boolean => (m | 0) === m && m >= 0 && m < ctx.spotMarkets;

/** Why `c.orderId` cannot be cancelled or amended: the user's finished order, or no such order of theirs. */
function goneCode(ctx: ExchangeContext, c: Command): ResultCode {
  const O = ctx.orders;
  const r = O.find(c.orderId);
  if (r < 0 || O.uid[r] !== c.uid || O.market[r] !== c.market || O.finishAs[r] === 0) return ResultCode.OrderNotFound;
  return O.finishAs[r] === FinishAs.Filled ? ResultCode.OrderClosed : ResultCode.OrderCancelled;
}

/** The order record of an open order of `c.uid` in `c.market`, or -1. */
function ownOpenOrder(ctx: ExchangeContext, c: Command): number {
  const O = ctx.orders;
  const r = O.find(c.orderId);
  if (r < 0 || O.uid[r] !== c.uid || O.market[r] !== c.market || O.finishAs[r] !== 0) return -1;
  return r;
}

/** Sets the amend-in-flight mark of an order's record (1 after an amend's R1, 0 at its R2). */
function markAmending(ctx: ExchangeContext, orderId: number, v: number): void {
  const r = ctx.orders.find(orderId);
  invariant(r >= 0, 'amended order has no record');
  invariant(ctx.orders.amending[r] !== v, v === 1 ? 'an amend of this order is already in flight' : 'no amend of this order in flight');
  ctx.orders.amending[r] = v;
}

export class SpotOrders implements BookProduct {
  readonly name = 'spot';
  readonly serial = false;
  readonly #place = new PlaceOrder();

  pre(ctx: ExchangeContext, c: Command, pessimistic: boolean): ResultCode {
    switch (c.type) {
      case CommandType.PlaceOrder: return this.#prePlace(ctx, c);
      case CommandType.AmendOrder: {
        const code = this.#preAmend(ctx, c, pessimistic);
        if (code === ResultCode.Ok) markAmending(ctx, c.orderId, 1);
        return code;
      }
      case CommandType.CancelOrder: return ownOpenOrder(ctx, c) < 0 ? goneCode(ctx, c) : ResultCode.Ok;
      case CommandType.CancelAll: return validMarket(ctx, c.market) ? ResultCode.Ok : ResultCode.InvalidMarket;
      default: return ResultCode.InvalidParam;
    }
  }

  post(ctx: ExchangeContext, c: Command, code: ResultCode, ev: BookEvents): ResultCode {
    if (c.type === CommandType.AmendOrder) markAmending(ctx, c.orderId, 0);
    if (code !== ResultCode.Ok) {
      this.#undoPre(ctx, c);
      // A fill in flight may have finished the order after R1 saw it open: answer as inline R1 would.
      return code === ResultCode.OrderNotFound && c.type !== CommandType.PlaceOrder ? goneCode(ctx, c) : code;
    }
    const m = c.market;
    const time = c.time;
    const L = ctx.ledger;
    const O = ctx.orders;
    const fees = ctx.feesOf(m);
    for (let i = 0; i < ev.count; i++) {
      const kind = ev.kind[i];
      const id = ev.orderId[i]!;
      if (kind === EventKind.Fill) {
        const maker = ev.makerOrderId[i]!;
        const price = ev.price[i]!;
        const lots = ev.lots[i]!;
        const takerSide = ev.code[i] === Side.Buy ? Side.Sell : Side.Buy;
        const rc = L.settleFill(time, m, id, maker, takerSide, price, lots, fees.taker, fees.maker);
        invariant(rc === ResultCode.Ok, 'fill could not settle');
        const rt = O.find(id);
        const rm = O.find(maker);
        const takerFee = L.lastTakerFee;
        const makerFee = L.lastMakerFee;
        O.fill(rt, lots, price, takerFee, time, O.type[rt] === OrderType.Market && takerSide === Side.Buy);
        O.fill(rm, lots, price, makerFee, time, false);
        ctx.trades.append(time, m, id, maker, O.uid[rt]!, O.uid[rm]!, takerSide, price, lots, takerFee, makerFee);
      } else if (kind === EventKind.Finished) {
        L.releaseOrder(time, id);
        O.finish(O.find(id), ev.code[i]!, ev.lots[i]!, time);
      } else if (kind === EventKind.Amended) {
        const r = O.find(id);
        const price = ev.price[i]!;
        const left = ev.lots[i]!;
        O.amend(r, price, left, time, c.text);
        if (c.amount !== 0 || O.side[r] === Side.Buy) {
          const rc = L.resizeHold(time, id, L.holdUnits(m, O.side[r]!, OrderType.Limit, price, left));
          invariant(rc === ResultCode.Ok, 'amend hold could not settle');
        }
      }
    }
    return code;
  }

  amendInFlight(ctx: ExchangeContext, orderId: number): boolean {
    const r = ctx.orders.find(orderId);
    return r >= 0 && ctx.orders.amending[r] !== 0;
  }

  #prePlace(ctx: ExchangeContext, c: Command): ResultCode {
    if (!validMarket(ctx, c.market)) return ResultCode.InvalidMarket;
    const market = ctx.markets[c.market]!;
    const candidate = ctx.lastOrderId + 1;
    c.stpId = ctx.stpOf(c.uid);
    const price = c.orderType === OrderType.Market ? 0 : c.price;
    const p = this.#place.set(candidate, c.uid, c.side, c.orderType, c.tif, price, c.amount, c.iceberg, c.stpId, c.stpAct);
    const valid = validatePlace(market, p);
    if (valid !== ResultCode.Ok) return valid;
    const account = orderAccount(c);
    if (account < 0) return ResultCode.InvalidParam;
    const kind = accountKindOf(account);
    const held = ctx.ledger.holdOrder(c.time, candidate, c.uid, c.market, c.side, c.orderType, price, c.amount, kind,
      kind === AccountKind.Margin ? c.market : 0);
    if (held !== ResultCode.Ok) return held;
    ctx.issueOrderId(candidate);
    c.orderId = candidate;
    c.price = price;
    const received = c.side === Side.Buy ? market.spec.base : market.spec.quote;
    ctx.orders.open(candidate, c.uid, c.market, c.side, c.orderType, c.tif, price, c.amount, c.iceberg, c.stpId,
      c.stpAct, c.text, c.time, ctx.ledger.isWide(received) ? 0n : 0, account);
    return ResultCode.Ok;
  }

  #preAmend(ctx: ExchangeContext, c: Command, pessimistic: boolean): ResultCode {
    const r = ownOpenOrder(ctx, c);
    if (r < 0) return goneCode(ctx, c);
    c.reserved = 0;
    const O = ctx.orders;
    // A sell holds exactly its remaining lots, whatever its price: a price-only move changes no hold.
    if (c.amount === 0 && O.side[r] === Side.Sell) return ResultCode.Ok;
    const newPrice = c.price === 0 ? O.price[r]! : c.price;
    const newLeft = c.amount === 0 ? O.left[r]! : c.amount - O.filledLots[r]!;
    if (!Number.isSafeInteger(newPrice) || newPrice <= 0 || !Number.isSafeInteger(newLeft) || newLeft <= 0) {
      return ResultCode.Ok; // the book rejects it with the right code
    }
    const L = ctx.ledger;
    const need = L.holdUnits(c.market, O.side[r]!, OrderType.Limit, newPrice, newLeft);
    if (typeof need === 'number' && need < 0) return ResultCode.Ok; // out of range: the book says which bound
    const held = L.heldFor(c.orderId)!;
    let floor: Amount = held;
    if (pessimistic) floor = subAmount(held, L.holdUnits(c.market, O.side[r]!, OrderType.Limit, O.price[r]!, O.left[r]!));
    const reserve = subAmount(need, floor);
    if (reserve <= 0 || isZeroAmount(reserve)) return ResultCode.Ok;
    const rc = L.resizeHold(c.time, c.orderId, typeof held === 'number' ? held + (reserve as number) : held + (reserve as bigint));
    if (rc !== ResultCode.Ok) return rc;
    c.reserved = reserve;
    return ResultCode.Ok;
  }

  /** Reverses what R1 did for a command the book rejected. */
  #undoPre(ctx: ExchangeContext, c: Command): void {
    if (c.type === CommandType.PlaceOrder) {
      ctx.ledger.releaseOrder(c.time, c.orderId);
      ctx.orders.discard(ctx.orders.find(c.orderId));
    } else if (c.type === CommandType.AmendOrder && !isZeroAmount(c.reserved)) {
      const held = ctx.ledger.heldFor(c.orderId);
      if (held !== undefined) ctx.ledger.resizeHold(c.time, c.orderId, subAmount(held, c.reserved));
    }
  }
}
