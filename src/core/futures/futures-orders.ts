/**
 * Perpetual-futures orders, the book product of contract markets.
 *
 *   R1  `pre`:  a place is checked (contract, account, size, price band, reduce-only, risk limit, orders
 *               limit, liquidation at once), `close` and `auto_size` become reduce-only orders of the
 *               position's size, a market order becomes a limit IOC/FOK at the slippage bound; the margin that
 *               its opening part needs (⌈value / leverage⌉ + the taker fee, at its limit) is held; the order
 *               id is stamped and the order recorded open. An amend re-holds for its new size and price; a
 *               cancel checks ownership.
 *   R2  `post`: each fill goes through tradePosition (position-fills.ts) for both sides; a finished order's
 *               hold returns; a post-only that would take, or a fill-or-kill that cannot fill, is refused
 *               (ORDER_POC_IMMEDIATE, ORDER_FOK) and leaves no trace, as on Gate's futures.
 *
 * Serial: the runner runs a futures command alone (nothing else in flight; see BookProduct.serial). So R1 sees
 * the exact positions and balances, and R2 may draw on available balance (an order's fill that opens more than
 * its hold covered, e.g. a short filled above its limit) — a pipelined product could not.
 *
 * The PlaceOrder fields of a futures order: `kind` Futures, `sub` the settle currency index, `side`, `amount`
 * |size| (0 with close or auto_size), `price` ticks (0 for a market order, `orderType` Market, tif ioc or fok),
 * `toKind` FuturesFlag bits. A CancelOrder's `tif` may carry the FinishAs of a system cancel (ReduceOut,
 * PositionClosed; 0: the owner's).
 *
 * Allocation: BigInt arithmetic per command; no other once records exist.
 */
import { type Command, CommandType } from '../command.js';
import type { BookProduct, ExchangeContext } from '../exchange/context.js';
import { type AmendTarget, amendTarget, bookRefusal, goneCode, reholdForAmend, restoreAmendHold } from '../exchange/derivative-answers.js';
import { orderFlagsOf, packAccount } from '../exchange/order-store.js';
import { invariant } from '../invariant.js';
import { deliveryOrderCheck } from './delivery-settlement.js';
import { curOf, HoldType, INSURANCE_UID, kindOfAcct } from '../ledger/futures-funds.js';
import { type BookEvents, EventKind } from '../matching/book-events.js';
import { FinishAs, OrderType, Side, TimeInForce } from '../matching/order-types.js';
import { ResultCode } from '../result-code.js';
import { cashFlow, valueAt } from './contract.js';
import { divRound, exceedsDeviation, ofRate, RATE_ONE, Round } from './futures-math.js';
import { PositionSlot, positionHoldKey } from './position-store.js';
import { tradePosition } from './position-fills.js';
import {
  bankruptcyPrice, effectiveLeverage, liquidationPrice, maintenanceMargin, mmrOf, openingMargin, positionValue, unrealisedPnl,
} from './risk.js';

/** Flags of a futures order (the PlaceOrder's `toKind`; kept in the order store's account byte). */
export const FuturesFlag = { ReduceOnly: 1, Close: 2, Liquidation: 4, AutoSize: 8 } as const;
const ALL_FLAGS = 15;

/** The position slot an order of `side` trades: single mode 0; dual mode by side and reduce-only. */
export function orderSlot(dual: boolean, side: number, reduceOnly: boolean): number {
  if (!dual) return PositionSlot.Single;
  return (side === Side.Buy) !== reduceOnly ? PositionSlot.DualLong : PositionSlot.DualShort;
}

/** The position row (created with the contract's defaults) of (uid, market, slot). */
export function positionRow(ctx: ExchangeContext, ci: number, uid: number, slot: number, time: number): number {
  const S = ctx.futures;
  const c = S.contracts[ci]!;
  return S.positions.ensure(uid, S.marketOf[ci]!, slot, c.defaultLeverage, c.riskBase, time);
}

/** The row of an open order's position (from its record); `dual`: the owner's account mode, when known. */
function rowOfOrder(ctx: ExchangeContext, ci: number, r: number, dual = ctx.futures.isDual(ctx.orders.uid[r]!, ctx.futures.acct[ci]!)): number {
  const O = ctx.orders;
  const flags = orderFlagsOf(O.account[r]!);
  return positionRow(ctx, ci, O.uid[r]!, orderSlot(dual, O.side[r]!, (flags & FuturesFlag.ReduceOnly) !== 0), 0);
}


/** Contracts of open orders of `row` on `side`, and the record of it (what R1 and R2 keep up to date). */
function addOpen(ctx: ExchangeContext, row: number, side: number, lots: number, orders: number): void {
  const P = ctx.futures.positions;
  if (side === Side.Buy) P.openBuy[row] = P.openBuy[row]! + lots;
  else P.openSell[row] = P.openSell[row]! + lots;
  P.pending[row] = P.pending[row]! + orders;
}

/** The market-order bound: mark × (1 ± slip), on the tick grid; a contract without a mark has no bound. */
function marketBound(ctx: ExchangeContext, ci: number, side: number, amount: number): number {
  const S = ctx.futures;
  const c = S.contracts[ci]!;
  const m = BigInt(S.mark[ci]!);
  const tick = BigInt(c.tick);
  if (m === 0n) {
    return side === Side.Buy ? Math.floor(Number.MAX_SAFE_INTEGER / Math.max(1, amount) / c.tick) * c.tick : c.tick;
  }
  if (side === Side.Buy) return Number(divRound(m * (RATE_ONE + c.slipRatio), RATE_ONE * tick, Round.Down) * tick);
  const low = divRound(m * (RATE_ONE - c.slipRatio), RATE_ONE * tick, Round.Up) * tick;
  return Number(low > 0n ? low : tick);
}

/** Contracts of an order of `side` and `amount` that open (rather than close) the single-mode position of `row`. */
function openingLots(ctx: ExchangeContext, row: number, side: number, amount: number, reduceOnly: boolean, dual: boolean): number {
  if (reduceOnly) return 0;
  if (dual) return amount;
  const P = ctx.futures.positions;
  const n = P.size[row]!;
  const against = (n > 0 && side === Side.Sell) || (n < 0 && side === Side.Buy);
  if (!against) return amount;
  const pendingSameSide = side === Side.Buy ? P.openBuy[row]! : P.openSell[row]!;
  const closable = Math.max(0, Math.abs(n) - pendingSameSide);
  return Math.max(0, amount - closable);
}

/** Margin an order's opening part holds: ⌈value / leverage⌉ + its taker fee, at `price`. */
function orderMargin(ctx: ExchangeContext, ci: number, row: number, lots: number, price: number): bigint {
  if (lots <= 0) return 0n;
  const S = ctx.futures;
  const c = S.contracts[ci]!;
  const P = S.positions;
  const v = valueAt(c, BigInt(lots), BigInt(price));
  const lev = effectiveLeverage(c, P.leverage[row]!, P.crossLimit[row]!, P.riskLimit[row]!);
  return openingMargin(v, lev) + (c.takerRate > 0n ? ofRate(v, c.takerRate, Round.Up) : 0n);
}

export class FuturesOrders implements BookProduct {
  readonly name = 'futures';
  readonly serial = true;

  /** Position rows before the command in flight (serial: one at a time); a rejection drops rows it created. */
  #rowsBefore = 0;
  /** Scratch of the amend in flight. */
  readonly #amend: AmendTarget = { price: 0, left: 0 };

  pre(ctx: ExchangeContext, c: Command): ResultCode {
    const ci = ctx.futures.contractOf(c.market);
    if (ci < 0) return ResultCode.ContractNotFound;
    this.#rowsBefore = ctx.futures.positions.count;
    let code: ResultCode;
    switch (c.type) {
      case CommandType.PlaceOrder: code = this.#prePlace(ctx, c, ci); break;
      case CommandType.AmendOrder: code = this.#preAmend(ctx, c, ci); break;
      case CommandType.CancelOrder: code = goneCode(ctx, c); break;
      case CommandType.CancelAll: code = ResultCode.Ok; break;
      default: code = ResultCode.InvalidParam;
    }
    if (code !== ResultCode.Ok) ctx.futures.positions.truncate(this.#rowsBefore);
    return code;
  }

  post(ctx: ExchangeContext, c: Command, code: ResultCode, ev: BookEvents): ResultCode {
    const ci = ctx.futures.contractOf(c.market);
    const refused = bookRefusal(ctx, c, code, ev);
    if (refused !== ResultCode.Ok) {
      this.#undo(ctx, c, ci);
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
        const takerFee = this.#settle(ctx, ci, id, takerBuys, lots, price, true, time);
        const makerFee = this.#settle(ctx, ci, maker, !takerBuys, lots, price, false, time);
        const rt = O.find(id);
        const rm = O.find(maker);
        ctx.trades.append(time, c.market, id, maker, O.uid[rt]!, O.uid[rm]!, takerBuys ? Side.Buy : Side.Sell, price, lots,
          takerFee, makerFee);
      } else if (kind === EventKind.Finished) {
        const r = O.find(id);
        const left = ev.lots[i]!;
        let why = ev.code[i]!;
        if (why === FinishAs.Cancelled && c.type === CommandType.CancelOrder && c.tif !== 0) why = c.tif;
        addOpen(ctx, rowOfOrder(ctx, ci, r), O.side[r]!, -left, -1);
        ctx.ledger.futures.closeHold(id);
        O.finish(r, why, left, time);
      } else if (kind === EventKind.Amended) {
        const r = O.find(id);
        const row = rowOfOrder(ctx, ci, r);
        addOpen(ctx, row, O.side[r]!, ev.lots[i]! - O.left[r]!, 0);
        O.amend(r, ev.price[i]!, ev.lots[i]!, time, c.text);
      }
    }
    return code;
  }

  amendInFlight(): boolean {
    return false; // serial: never more than one command in flight
  }

  /** One side of a fill: the position trade, the order record, the order's remaining contracts. Returns its fee. */
  #settle(ctx: ExchangeContext, ci: number, orderId: number, buy: boolean, lots: number, price: number, taker: boolean,
    time: number): number | bigint {
    const O = ctx.orders;
    const r = O.find(orderId);
    invariant(r >= 0, 'futures fill of an unknown order');
    const S = ctx.futures;
    const c = S.contracts[ci]!;
    const row = rowOfOrder(ctx, ci, r);
    const dual = S.isDual(O.uid[r]!, S.acct[ci]!);
    const sibling = dual ? positionRow(ctx, ci, O.uid[r]!, S.positions.slot[row] === PositionSlot.DualLong
      ? PositionSlot.DualShort : PositionSlot.DualLong, time) : -1;
    const flags = orderFlagsOf(O.account[r]!);
    const reason = (flags & FuturesFlag.Liquidation) !== 0 ? 'liquidated' : 'close';
    const out = tradePosition(ctx, ci, row, buy, lots, price, taker ? c.takerRate : c.makerRate, orderId, orderId, time,
      reason, sibling);
    const fee = ctx.ledger.futures.toAmount(S.acct[ci]!, out.fee);
    O.fill(r, lots, price, fee, time, false);
    addOpen(ctx, row, O.side[r]!, -lots, 0);
    return fee;
  }

  #prePlace(ctx: ExchangeContext, c: Command, ci: number): ResultCode {
    const S = ctx.futures;
    const k = S.contracts[ci]!;
    const cur = S.acct[ci]!;
    const L = ctx.ledger.futures;
    let flags = c.toKind;
    if ((flags | 0) !== flags || flags < 0 || flags > ALL_FLAGS || c.kind !== kindOfAcct(cur) || c.sub !== curOf(cur)) return ResultCode.InvalidParam;
    const system = c.uid === INSURANCE_UID;
    if (system !== ((flags & FuturesFlag.Liquidation) !== 0)) return ResultCode.InvalidParam;
    if (!L.hasAccount(c.uid, cur)) return ResultCode.UserNotFound;
    const dual = S.isDual(c.uid, cur);
    const market = c.orderType === OrderType.Market;
    if (c.orderType !== OrderType.Limit && !market) return ResultCode.InvalidParam;
    if (c.tif < TimeInForce.Gtc || c.tif > TimeInForce.Fok || (market && c.tif !== TimeInForce.Ioc && c.tif !== TimeInForce.Fok)) {
      return ResultCode.InvalidParam;
    }
    if (!Number.isSafeInteger(c.amount) || c.amount < 0 || !Number.isSafeInteger(c.price) || c.price < 0) return ResultCode.InvalidParam;
    // close / auto_size: a reduce-only order of the whole position (or leg).
    if ((flags & (FuturesFlag.Close | FuturesFlag.AutoSize)) !== 0) {
      if (c.amount !== 0 || (flags & FuturesFlag.Close) !== 0 && (flags & FuturesFlag.AutoSize) !== 0) return ResultCode.InvalidParam;
      if ((flags & FuturesFlag.Close) !== 0 && dual) return ResultCode.PositionDualMode;
      if ((flags & FuturesFlag.AutoSize) !== 0 && (!dual || (c.side !== Side.Buy && c.side !== Side.Sell))) return ResultCode.InvalidParam;
      const slot = dual ? (c.side === Side.Sell ? PositionSlot.DualLong : PositionSlot.DualShort) : PositionSlot.Single;
      const held = S.positions.find(c.uid, c.market, slot);
      const n = held < 0 ? 0 : S.positions.size[held]!;
      if (n === 0) return ResultCode.PositionEmpty;
      c.side = n > 0 ? Side.Sell : Side.Buy;
      c.amount = Math.abs(n);
      flags |= FuturesFlag.ReduceOnly;
    } else {
      if (c.side !== Side.Buy && c.side !== Side.Sell) return ResultCode.InvalidParam;
      // The liquidator's order takes its size from the position it holds (#liquidatorPrice).
      if (c.amount === 0 && !system) return ResultCode.SizeTooSmall;
    }
    if (c.amount < k.sizeMin && !system) return ResultCode.SizeTooSmall;
    if (c.amount > k.sizeMax && !system) return ResultCode.SizeTooLarge;
    const reduceOnly = (flags & FuturesFlag.ReduceOnly) !== 0;
    const phase = deliveryOrderCheck(ctx, ci, c.time, reduceOnly || system);
    if (phase !== ResultCode.Ok) return phase;
    const row = positionRow(ctx, ci, c.uid, system ? PositionSlot.Single : orderSlot(dual, c.side, reduceOnly), c.time);
    const P = S.positions;
    const n = P.size[row]!;
    // Price: a multiple of the tick within the band around the mark; a market order's bound.
    const mark = S.mark[ci]!;
    let price = c.price;
    if (market) {
      if (price !== 0) return ResultCode.InvalidParam;
      price = system ? c.price : marketBound(ctx, ci, c.side, c.amount);
    } else {
      if (price === 0 || price % k.tick !== 0) return ResultCode.InvalidParam;
      if (mark > 0 && !system && exceedsDeviation(price, mark, k.priceDeviate)) return ResultCode.PriceTooDeviated;
    }
    if (system) {
      const liq = this.#liquidatorPrice(ctx, ci, row, c);
      if (liq !== ResultCode.Ok) return liq;
      price = c.price;
    }
    if (reduceOnly && !system) {
      const reduces = dual ? true : (n > 0 && c.side === Side.Sell) || (n < 0 && c.side === Side.Buy);
      if (n !== 0 && !reduces) return ResultCode.IncreasePosition;
      if (c.amount > Math.abs(n)) return ResultCode.ReduceExceeded;
    }
    if (!system) {
      if (P.pendingOrders(c.uid, c.market) >= k.ordersLimit) return ResultCode.FuturesTooManyOrders;
    }
    const opening = system ? 0 : openingLots(ctx, row, c.side, c.amount, reduceOnly, dual);
    if (opening > 0) {
      // A market order is judged at the mark, as Gate does: its slippage bound only caps how far it may fill
      // (judged there, a high-leverage market order would always look liquidatable at once).
      const mark = S.mark[ci]!;
      const checked = this.#openingChecks(ctx, ci, row, c.side, opening, c.amount - opening, market && mark > 0 ? mark : price);
      if (checked !== ResultCode.Ok) return checked;
    }
    const candidate = ctx.lastOrderId + 1;
    const held = L.openHold(c.time, candidate, c.uid, cur, c.market, HoldType.FuturesOrder, orderMargin(ctx, ci, row, opening, price));
    if (held === ResultCode.BalanceNotEnough) return ResultCode.InsufficientAvailable;
    if (held !== ResultCode.Ok) return held;
    ctx.issueOrderId(candidate);
    c.orderId = candidate;
    c.stpId = system ? 0 : ctx.stpOf(c.uid);
    c.toKind = flags;
    // The order store keeps what the user sent (a market order at price 0); the book gets the bound.
    ctx.orders.open(candidate, c.uid, c.market, c.side, market ? OrderType.Market : OrderType.Limit, c.tif, market ? 0 : price,
      c.amount, c.iceberg, c.stpId, c.stpAct, c.text, c.time, L.toAmount(cur, 0n), packAccount(kindOfAcct(cur), flags));
    c.orderType = OrderType.Limit;
    c.price = price;
    addOpen(ctx, row, c.side, c.amount, 1);
    return ResultCode.Ok;
  }

  /**
   * Checks of an order's opening part at `price`: the risk limit, the liquidation price of an isolated
   * position, and that the position, filled, would not be liquidatable at once at the mark.
   */
  #openingChecks(ctx: ExchangeContext, ci: number, row: number, side: number, opening: number, closing: number, price: number): ResultCode {
    const S = ctx.futures;
    const k = S.contracts[ci]!;
    const P = S.positions;
    const n = P.size[row]!;
    const buy = side === Side.Buy;
    const after = n + (buy ? closing + opening : -(closing + opening));
    if (positionValue(k, after, price) > P.riskLimit[row]!) return ResultCode.RiskLimitExceeded;
    const mark = S.mark[ci]!;
    if (P.leverage[row] === 0 || mark <= 0) return ResultCode.Ok; // cross: judged on the account
    const margin = ctx.ledger.futures.held(positionHoldKey(row));
    const sameWay = n === 0 || (n > 0) === buy;
    if (sameWay && n !== 0) {
      const liq = Number(liquidationPrice(k, n, P.basis[row]!, margin < 0n ? 0n : margin, P.riskLimit[row]!));
      if (liq > 0 && (buy ? price <= liq : price >= liq)) return ResultCode.PriceOverLiquidation;
    }
    // The position after a full fill at `price` (closing part first, then the opening part). Against the
    // position, the world judged is the one the order's hold assumes (openingLots): every close of the
    // position, this order's closing part and the user's resting closes alike, fills first, and the position
    // is then the opening part alone, with its basis and margin. (Judging the opening part's basis against the
    // size of this order's own flip would mismatch whenever resting closes reserve part of the position.)
    let basis = P.basis[row]!;
    let m = margin < 0n ? 0n : margin;
    let held = after;
    if (!sameWay) {
      basis = 0n;
      m = 0n;
      held = buy ? opening : -opening;
    }
    basis += cashFlow(k, buy, BigInt(opening), BigInt(price));
    m += openingMargin(valueAt(k, BigInt(opening), BigInt(price)), P.leverage[row]!);
    const upnl = unrealisedPnl(k, held, basis, mark);
    const mm = maintenanceMargin(k, positionValue(k, held, mark), mmrOf(k, P.riskLimit[row]!));
    return m + upnl <= mm ? ResultCode.LiquidateImmediately : ResultCode.Ok;
  }

  /**
   * The liquidator's order (INSURANCE_UID, flag Liquidation, a market IOC): it closes the whole position it took
   * over at no worse than the price at which the loss would use up the insurance fund (the position's
   * bankruptcy price with the fund as its margin). Sets c.side, c.amount, c.price.
   */
  #liquidatorPrice(ctx: ExchangeContext, ci: number, row: number, c: Command): ResultCode {
    const S = ctx.futures;
    const k = S.contracts[ci]!;
    const P = S.positions;
    const n = P.size[row]!;
    if (n === 0 || c.tif !== TimeInForce.Ioc) return ResultCode.NothingDue;
    const fund = ctx.ledger.futures.insuranceFund(S.acct[ci]!);
    c.side = n > 0 ? Side.Sell : Side.Buy;
    c.amount = Math.abs(n);
    // The worst price the fund can absorb: equity(P) = fund + basis + cash(closing at P) ≥ 0.
    const bound = Number(bankruptcyPrice(k, n, P.basis[row]!, fund));
    const tick = k.tick;
    c.price = n > 0 ? Math.max(tick, Math.ceil(bound / tick) * tick) : Math.max(tick, Math.floor(bound / tick) * tick);
    return ResultCode.Ok;
  }

  #preAmend(ctx: ExchangeContext, c: Command, ci: number): ResultCode {
    const gone = goneCode(ctx, c);
    if (gone !== ResultCode.Ok) return gone;
    const O = ctx.orders;
    const r = O.find(c.orderId);
    if (O.type[r] === OrderType.Market || (orderFlagsOf(O.account[r]!) & FuturesFlag.Liquidation) !== 0) return ResultCode.InvalidParam;
    const S = ctx.futures;
    const k = S.contracts[ci]!;
    const target = amendTarget(ctx, c, r, k.tick, k.sizeMax, this.#amend);
    if (target !== ResultCode.Ok) return target;
    const { price, left } = this.#amend;
    if (left <= 0) return ResultCode.Ok; // the book answers AmendBelowFilled
    const mark = S.mark[ci]!;
    if (c.price !== 0 && mark > 0 && exceedsDeviation(price, mark, k.priceDeviate)) return ResultCode.PriceTooDeviated;
    const dual = S.isDual(c.uid, S.acct[ci]!);
    const row = rowOfOrder(ctx, ci, r, dual);
    const flags = orderFlagsOf(O.account[r]!);
    const reduceOnly = (flags & FuturesFlag.ReduceOnly) !== 0;
    const P = S.positions;
    if (reduceOnly && left > Math.abs(P.size[row]!)) return ResultCode.ReduceExceeded;
    // Re-hold for the new remainder, as if the order were placed now (its own contracts not counted as pending).
    addOpen(ctx, row, O.side[r]!, -O.left[r]!, 0);
    const opening = openingLots(ctx, row, O.side[r]!, left, reduceOnly, dual);
    addOpen(ctx, row, O.side[r]!, O.left[r]!, 0);
    return reholdForAmend(ctx.ledger.futures, c, orderMargin(ctx, ci, row, opening, price));
  }

  /** Reverses what R1 did for a command the book (or the post-only / fill-or-kill rule) refused. */
  #undo(ctx: ExchangeContext, c: Command, ci: number): void {
    const O = ctx.orders;
    const L = ctx.ledger.futures;
    if (c.type === CommandType.PlaceOrder) {
      const r = O.find(c.orderId);
      if (r < 0) return;
      addOpen(ctx, rowOfOrder(ctx, ci, r), O.side[r]!, -O.left[r]!, -1);
      L.closeHold(c.orderId);
      O.discard(r);
      if (c.orderId === ctx.lastOrderId) ctx.retractOrderId(c.orderId);
      ctx.futures.positions.truncate(this.#rowsBefore);
    } else if (c.type === CommandType.AmendOrder) {
      restoreAmendHold(L, c);
    }
  }
}
