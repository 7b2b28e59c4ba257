/**
 * Options orders, the book product of option contract markets (one position and money model beside the
 * perpetuals': the same order store, trade log, ledger holds and serial pipeline; only the money differs).
 *
 *   R1 `pre`:  a place is checked (contract not expired, options account, limit price on the tick or a market
 *              order (price 0, ioc / fok: a limit at marketBound), size bounds, reduce-only / close, orders
 *              limit) and holds: a buy its premium at the limit plus the fee bound
 *              (fee_cap × premium); a sell the initial margin of its opening part at the index
 *              (options-margin.ts). The order id is stamped and the order recorded open. An amend re-holds
 *              for its new remainder and price; a cancel checks ownership. The liquidator's orders (flag
 *              Liquidation, INSURANCE_UID only) take side, size and limit from the position it holds.
 *   R2 `post`: each fill pays the premium from the buyer's order hold to the seller, charges each side its fee
 *              (the buyer's from its hold, the seller's from the premium received), and moves the positions:
 *              closing lots first (a short's margin released in proportion), then opening lots (a new short's
 *              initial margin at the index and its premium move into the position hold). A finished order's hold
 *              returns; a post-only that would take or a fill-or-kill that cannot fill leaves no trace.
 *
 * Serial (BookProduct.serial): R2 may draw on available (a buy filled after the index moved, a short's margin
 * at the index of the fill). PlaceOrder fields: `kind` Options, `sub` 0, `side`, `amount` contracts (0 with
 * close), `price` ticks (0 with `orderType` Market), `tif`, `toKind` OptionsFlag bits.
 * Allocation: BigInt arithmetic per command; a position object on a user's first trade of a contract.
 */
import { type Command, CommandType } from '../command.js';
import type { BookProduct, ExchangeContext } from '../exchange/context.js';
import { type AmendTarget, amendTarget, bookRefusal, goneCode, reholdForAmend, restoreAmendHold } from '../exchange/derivative-answers.js';
import { orderFlagsOf, packAccount } from '../exchange/order-store.js';
import { invariant } from '../invariant.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { INSURANCE_UID, NO_HOLD } from '../ledger/futures-funds.js';
import { type BookEvents, EventKind } from '../matching/book-events.js';
import { FinishAs, OrderType, Side, TimeInForce } from '../matching/order-types.js';
import { ResultCode } from '../result-code.js';
import { divRound, Round } from '../futures/futures-math.js';
import { feeBound, initialMargin, marginIndex, optionFee, premium } from './options-margin.js';
import { noteInsurance } from './options-account.js';
import { liquidatorOrder, marketBound } from './options-limits.js';
import { tradeRow } from './options-positions.js';
import { mmpFill, mmpFrozen } from './options-mmp.js';
import { positionKey } from './options-state.js';

/** Flags of an options order (the PlaceOrder's `toKind`). */
export const OptionsFlag = { ReduceOnly: 1, Close: 2, Liquidation: 4, Mmp: 8 } as const;
const ALL_FLAGS = 15;

/** Lots of an order of `side` that open (rather than close) a position of size `n` with `pending` same-side lots. */
function openingLots(n: number, side: number, amount: number, pendingSameSide: number): number {
  const against = (n > 0 && side === Side.Sell) || (n < 0 && side === Side.Buy);
  if (!against) return amount;
  return Math.max(0, amount - Math.max(0, Math.abs(n) - pendingSameSide));
}

export class OptionsOrders implements BookProduct {
  readonly name = 'options';
  readonly serial = true;
  #rowsBefore = 0;
  /** Scratch of the amend in flight. */
  readonly #amend: AmendTarget = { price: 0, left: 0 };

  pre(ctx: ExchangeContext, c: Command): ResultCode {
    const S = ctx.options;
    const ci = S.contractOf(c.market);
    if (ci < 0) return ResultCode.ContractNotFound;
    this.#rowsBefore = S.rows.length;
    let code: ResultCode;
    switch (c.type) {
      case CommandType.PlaceOrder: code = this.#prePlace(ctx, c, ci); break;
      case CommandType.AmendOrder: code = this.#preAmend(ctx, c, ci); break;
      case CommandType.CancelOrder: code = this.#preCancel(ctx, c); break;
      case CommandType.CancelAll: code = ResultCode.Ok; break;
      default: code = ResultCode.InvalidParam;
    }
    if (code !== ResultCode.Ok) S.truncate(this.#rowsBefore);
    return code;
  }

  post(ctx: ExchangeContext, c: Command, code: ResultCode, ev: BookEvents): ResultCode {
    const ci = ctx.options.contractOf(c.market);
    const refused = bookRefusal(ctx, c, code, ev);
    if (refused !== ResultCode.Ok) {
      this.#undo(ctx, c);
      return refused;
    }
    const O = ctx.orders;
    const time = c.time;
    for (let i = 0; i < ev.count; i++) {
      const kind = ev.kind[i];
      const id = ev.orderId[i]!;
      if (kind === EventKind.Fill) {
        const maker = ev.makerOrderId[i]!;
        const price = ev.price[i]!;
        const lots = ev.lots[i]!;
        const takerBuys = ev.code[i] !== Side.Buy; // the event's code is the maker's side
        const fees = this.#fill(ctx, ci, takerBuys ? id : maker, takerBuys ? maker : id, takerBuys, lots, price, time);
        const rt = O.find(id);
        const rm = O.find(maker);
        const cur = ctx.options.settleCur[ctx.options.contracts[ci]!.u]!;
        const takerFee = ctx.ledger.options.toAmount(cur, takerBuys ? fees[0] : fees[1]);
        const makerFee = ctx.ledger.options.toAmount(cur, takerBuys ? fees[1] : fees[0]);
        O.fill(rt, lots, price, takerFee, time, false);
        O.fill(rm, lots, price, makerFee, time, false);
        ctx.trades.append(time, c.market, id, maker, O.uid[rt]!, O.uid[rm]!, takerBuys ? Side.Buy : Side.Sell, price, lots,
          takerFee, makerFee);
      } else if (kind === EventKind.Finished) {
        const r = O.find(id);
        const left = ev.lots[i]!;
        const row = ctx.options.ensure(O.uid[r]!, ci, time);
        addOpen(ctx, row, O.side[r]!, -left, -1);
        ctx.ledger.options.closeHold(id);
        // A system cancel names its reason in the command's tif (#preCancel).
        const why = ev.code[i] === FinishAs.Cancelled && c.type === CommandType.CancelOrder && c.tif !== 0 ? c.tif : ev.code[i]!;
        O.finish(r, why, left, time);
      } else if (kind === EventKind.Amended) {
        const r = O.find(id);
        addOpen(ctx, ctx.options.ensure(O.uid[r]!, ci, time), O.side[r]!, ev.lots[i]! - O.left[r]!, 0);
        O.amend(r, ev.price[i]!, ev.lots[i]!, time, c.text);
      }
    }
    if (c.uid === INSURANCE_UID && c.type === CommandType.PlaceOrder) {
      noteInsurance(ctx, ctx.options.settleCur[ctx.options.contracts[ci]!.u]!, time);
    }
    return code;
  }

  amendInFlight(): boolean {
    return false;
  }

  /**
   * One fill of `lots` at `price` between buy order `buyId` and sell order `sellId`; returns [buyer's fee,
   * seller's fee]. Never fails (serial: R1 held enough, and the rest comes from available).
   */
  #fill(ctx: ExchangeContext, ci: number, buyId: number, sellId: number, takerBuys: boolean, lots: number, price: number,
    time: number): [bigint, bigint] {
    const S = ctx.options;
    const L = ctx.ledger.options;
    const O = ctx.orders;
    const k = S.contracts[ci]!;
    const u = S.underlyings[k.u]!;
    const cur = S.settleCur[k.u]!;
    const index = marginIndex(k, S.index[k.u]!); // the strike while there is no index yet
    const rb = O.find(buyId);
    const rs = O.find(sellId);
    invariant(rb >= 0 && rs >= 0, 'options fill of an unknown order');
    const buyer = O.uid[rb]!;
    const seller = O.uid[rs]!;
    const text = k.name;
    const prem = premium(u, BigInt(lots), BigInt(price));
    const buyFee = optionFee(u, BigInt(lots), BigInt(price), BigInt(index), takerBuys ? u.takerRate : u.makerRate);
    const sellFee = optionFee(u, BigInt(lots), BigInt(price), BigInt(index), takerBuys ? u.makerRate : u.takerRate);
    // The buyer's hold covers premium + fee at its limit; top it up from available if the fill needs more.
    const held = L.held(buyId);
    if (held < prem + buyFee) invariant(L.move(NO_HOLD, buyId, prem + buyFee - held) === ResultCode.Ok, 'options buyer cannot pay');
    invariant(L.pay(time, buyer, buyId, seller, NO_HOLD, cur, prem, text, buyId) === ResultCode.Ok, 'options premium not paid');
    invariant(L.fee(time, buyer, cur, buyId, buyFee, text, buyId) === ResultCode.Ok, 'options buyer fee not paid');
    invariant(L.fee(time, seller, cur, NO_HOLD, sellFee, text, sellId) === ResultCode.Ok, 'options seller fee not paid');
    this.#position(ctx, ci, buyer, true, lots, price, buyFee, sellId, time);
    this.#position(ctx, ci, seller, false, lots, price, sellFee, sellId, time);
    if ((orderFlagsOf(O.account[rb]!) & OptionsFlag.Mmp) !== 0) mmpFill(S, buyer, ci, true, lots, time);
    if ((orderFlagsOf(O.account[rs]!) & OptionsFlag.Mmp) !== 0) mmpFill(S, seller, ci, false, lots, time);
    addOpen(ctx, S.ensure(buyer, ci, time), Side.Buy, -lots, 0);
    addOpen(ctx, S.ensure(seller, ci, time), Side.Sell, -lots, 0);
    return [buyFee, sellFee];
  }

  /** Moves (uid, contract)'s position by a fill of `lots` at `price` on side `buy` (tradeRow), and its margin. */
  #position(ctx: ExchangeContext, ci: number, uid: number, buy: boolean, lots: number, price: number, fee: bigint, sellId: number,
    time: number): void {
    const S = ctx.options;
    const L = ctx.ledger.options;
    const k = S.contracts[ci]!;
    const u = S.underlyings[k.u]!;
    const cur = S.settleCur[k.u]!;
    const row = S.ensure(uid, ci, time);
    const n = S.rows[row]!.size;
    const key = positionKey(row);
    const [closing, opening] = tradeRow(ctx, row, buy, lots, price, fee, time, 'close');
    if (closing > 0 && n < 0 && uid !== INSURANCE_UID) {
      // A short bought back releases its margin in proportion (the liquidator's shorts hold none).
      const held = L.held(key);
      if (closing === -n) invariant(held < 0n || L.closeHold(key) === ResultCode.Ok, 'options margin not released');
      else if (held > 0n) invariant(L.move(key, NO_HOLD, divRound(held * BigInt(closing), BigInt(-n), Round.Down)) === ResultCode.Ok, 'options margin');
    }
    if (opening > 0 && !buy) {
      // A new short: its initial margin (at the index now) and the premium received move into the position hold.
      const q = premium(u, BigInt(opening), BigInt(price));
      if (L.held(key) < 0n) invariant(L.openHold(time, key, uid, cur, S.marketOf[ci]!, true, 0n) === ResultCode.Ok, 'options position hold');
      const im = initialMargin(u, k, BigInt(opening), S.index[k.u]!);
      const fromOrder = minOf(im, L.held(sellId));
      if (fromOrder > 0n) invariant(L.move(sellId, key, fromOrder) === ResultCode.Ok, 'options margin from the order');
      const rest = minOf(im - fromOrder + q, L.available(uid, cur));
      if (rest > 0n) invariant(L.move(NO_HOLD, key, rest) === ResultCode.Ok, 'options margin from available');
    }
  }

  #prePlace(ctx: ExchangeContext, c: Command, ci: number): ResultCode {
    const S = ctx.options;
    const k = S.contracts[ci]!;
    const u = S.underlyings[k.u]!;
    const cur = S.settleCur[k.u]!;
    const L = ctx.ledger.options;
    let flags = c.toKind;
    if ((flags | 0) !== flags || flags < 0 || flags > ALL_FLAGS || c.kind !== AccountKind.Options || c.sub !== 0) return ResultCode.InvalidParam;
    const system = c.uid === INSURANCE_UID;
    if (system !== ((flags & OptionsFlag.Liquidation) !== 0) || (system && (flags & OptionsFlag.Mmp) !== 0)) return ResultCode.InvalidParam;
    if (S.settled[ci] !== 0 || c.time >= k.expiration * 1e6) return ResultCode.ContractNotFound;
    if (!L.hasAccount(c.uid, cur)) return ResultCode.UserNotFound;
    if ((flags & OptionsFlag.Mmp) !== 0 && mmpFrozen(S, c.uid, k.u, c.time)) return ResultCode.MmpFrozen;
    const market = c.orderType === OrderType.Market;
    if ((c.orderType !== OrderType.Limit && !market) || c.tif < TimeInForce.Gtc || c.tif > TimeInForce.Fok
      || (market && c.tif !== TimeInForce.Ioc && c.tif !== TimeInForce.Fok)) return ResultCode.InvalidParam;
    if (!Number.isSafeInteger(c.amount) || c.amount < 0 || !Number.isSafeInteger(c.price)
      || (market ? c.price !== 0 : c.price <= 0 || c.price % u.tick !== 0)) {
      return ResultCode.InvalidParam;
    }
    const row = S.ensure(c.uid, ci, c.time);
    const p = S.rows[row]!;
    if (system) {
      const out = liquidatorOrder(ctx, ci, row, c);
      if (out !== ResultCode.Ok) return out;
      flags |= OptionsFlag.ReduceOnly;
    } else if ((flags & OptionsFlag.Close) !== 0) {
      if (c.amount !== 0) return ResultCode.InvalidParam;
      if (p.size === 0) return ResultCode.PositionEmpty;
      c.side = p.size > 0 ? Side.Sell : Side.Buy;
      c.amount = Math.abs(p.size);
      flags |= OptionsFlag.ReduceOnly;
    } else {
      if (c.side !== Side.Buy && c.side !== Side.Sell) return ResultCode.InvalidParam;
      if (c.amount < u.sizeMin) return ResultCode.SizeTooSmall;
    }
    if (c.amount > u.sizeMax) return ResultCode.SizeTooLarge;
    // A market order is a limit IOC / FOK at the bound no option's premium can pass (marketBound).
    if (market && !system) c.price = marketBound(k, u.tick, S.index[k.u]!, c.side);
    if ((flags & OptionsFlag.ReduceOnly) !== 0) {
      const reduces = (p.size > 0 && c.side === Side.Sell) || (p.size < 0 && c.side === Side.Buy);
      if (!reduces) return p.size === 0 ? ResultCode.ReduceExceeded : ResultCode.IncreasePosition;
      if (c.amount > Math.abs(p.size)) return ResultCode.ReduceExceeded;
    }
    if (p.pending >= u.ordersLimit) return ResultCode.FuturesTooManyOrders;
    let need: bigint;
    if (c.side === Side.Buy) {
      need = premium(u, BigInt(c.amount), BigInt(c.price)) + feeBound(u, BigInt(c.amount), BigInt(c.price));
    } else {
      const opening = (flags & OptionsFlag.ReduceOnly) !== 0 ? 0 : openingLots(p.size, c.side, c.amount, p.openSell);
      need = initialMargin(u, k, BigInt(opening), S.index[k.u]!);
    }
    const candidate = ctx.lastOrderId + 1;
    const held = L.openHold(c.time, candidate, c.uid, cur, c.market, false, need);
    if (held === ResultCode.BalanceNotEnough) return ResultCode.InsufficientAvailable;
    if (held !== ResultCode.Ok) return held;
    ctx.issueOrderId(candidate);
    c.orderId = candidate;
    c.stpId = system ? 0 : ctx.stpOf(c.uid);
    c.toKind = flags;
    // The order store keeps what the user sent (a market order at price 0); the book gets the bound.
    ctx.orders.open(candidate, c.uid, c.market, c.side, market ? OrderType.Market : OrderType.Limit, c.tif, market ? 0 : c.price,
      c.amount, c.iceberg, c.stpId, c.stpAct, system ? 'liquidation' : c.text, c.time, L.toAmount(cur, 0n), packAccount(AccountKind.Options, flags));
    c.orderType = OrderType.Limit;
    addOpen(ctx, row, c.side, c.amount, 1);
    return ResultCode.Ok;
  }

  /** A cancel: the owner's (tif 0), or the edge's MMP cancel of an MMP order (tif FinishAs.MmpCancelled). */
  #preCancel(ctx: ExchangeContext, c: Command): ResultCode {
    const gone = goneCode(ctx, c);
    if (gone !== ResultCode.Ok || c.tif === 0) return gone;
    const r = ctx.orders.find(c.orderId);
    return c.tif === FinishAs.MmpCancelled && (orderFlagsOf(ctx.orders.account[r]!) & OptionsFlag.Mmp) !== 0 ? ResultCode.Ok : ResultCode.InvalidParam;
  }

  /**
   * An amend (Gate's PUT /options/orders/{id}: price and new total size, as the perpetuals'): the order re-holds
   * for its new remainder at its new price as if placed now (a buy its premium and fee bound, a sell the initial
   * margin of its opening part, its own open contracts not counted), moving the difference from or to available;
   * the book then reprices or resizes it (a total at or below what filled: AMEND_BELOW_FILLED, from the book).
   */
  #preAmend(ctx: ExchangeContext, c: Command, ci: number): ResultCode {
    const gone = goneCode(ctx, c);
    if (gone !== ResultCode.Ok) return gone;
    const S = ctx.options;
    const O = ctx.orders;
    const r = O.find(c.orderId);
    const flags = orderFlagsOf(O.account[r]!);
    if (O.type[r] === OrderType.Market || (flags & (OptionsFlag.Liquidation | OptionsFlag.Close)) !== 0) return ResultCode.InvalidParam;
    const k = S.contracts[ci]!;
    const u = S.underlyings[k.u]!;
    if (c.time >= k.expiration * 1e6) return ResultCode.ContractNotFound;
    const target = amendTarget(ctx, c, r, u.tick, u.sizeMax, this.#amend);
    if (target !== ResultCode.Ok) return target;
    const { price, left } = this.#amend;
    if (left <= 0) return ResultCode.Ok; // the book answers AmendBelowFilled
    const p = S.rows[S.ensure(c.uid, ci, c.time)]!;
    const side = O.side[r]!;
    if ((flags & OptionsFlag.ReduceOnly) !== 0 && left > Math.abs(p.size)) return ResultCode.ReduceExceeded;
    let need: bigint;
    if (side === Side.Buy) {
      need = premium(u, BigInt(left), BigInt(price)) + feeBound(u, BigInt(left), BigInt(price));
    } else {
      const opening = (flags & OptionsFlag.ReduceOnly) !== 0 ? 0 : openingLots(p.size, side, left, p.openSell - O.left[r]!);
      need = initialMargin(u, k, BigInt(opening), S.index[k.u]!);
    }
    return reholdForAmend(ctx.ledger.options, c, need);
  }

  /** Reverses R1 of a place (or an amend's re-hold) the book (or the post-only / fill-or-kill rule) refused. */
  #undo(ctx: ExchangeContext, c: Command): void {
    if (c.type === CommandType.AmendOrder) {
      restoreAmendHold(ctx.ledger.options, c);
      return;
    }
    if (c.type !== CommandType.PlaceOrder) return;
    const O = ctx.orders;
    const r = O.find(c.orderId);
    if (r < 0) return;
    ctx.ledger.options.closeHold(c.orderId);
    O.discard(r);
    if (c.orderId === ctx.lastOrderId) ctx.retractOrderId(c.orderId);
    const row = ctx.options.find(c.uid, ctx.options.contractOf(c.market));
    if (row >= 0) addOpen(ctx, row, c.side, -c.amount, -1);
    ctx.options.truncate(this.#rowsBefore);
  }
}

const minOf = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** Open-order counters of a position row. */
function addOpen(ctx: ExchangeContext, row: number, side: number, lots: number, orders: number): void {
  const p = ctx.options.rows[row]!;
  if (side === Side.Buy) p.openBuy += lots;
  else p.openSell += lots;
  p.pending += orders;
}
