/**
 * The production order book: typed arrays, free-list pools, intrusive FIFO queues per price level.
 *
 * Semantics: exactly the OrderBook contract (order-book.ts); NaiveOrderBook is its oracle. This file holds the
 * rules (place, amend, cancel, the match loop, the FOK check); the resting state and the operations that keep it
 * consistent are RestingOrders (resting-orders.ts): pools of order, level and iceberg records, a PriceLadder of
 * populated levels per side (best last), a FIFO of orders per level, and indexes by order id and by price.
 *
 * Complexity: place O(1) plus the fills, at a price that has a level or is the best or a new best; O(log L) and a
 * memmove to create a level inside the ladder; cancel O(1), plus O(log L) and a memmove to drop an emptied level
 * that is not the best; FOK adds a read-only walk of the levels it would reach; cancelAll O(orders on the swept
 * sides); openOrders O(resting orders).
 * Allocation: none in steady state. Pools, ladders and indexes grow in chunks when a command needs more
 * room than ever before (@allocates, amortised). `stateHash` and `openOrders` allocate; they are queries.
 * Thread affinity: single owner; not safe to share. Typed-array reads use `!` where a record number is
 * valid by construction (a live record or a checked NIL).
 */
import type { Market } from '../market.js';
import { InvariantError, invariant } from '../invariant.js';
import { ResultCode } from '../result-code.js';
import { StateHasher } from '../state-hash.js';
import { floorDiv } from '../units.js';
import type { BookEvents } from './book-events.js';
import { NIL } from './book-pools.js';
import { crosses, effectiveStpAct, hashRestingOrder, isCancelAllScope, validateAmend, validatePlace } from './book-rules.js';
import { checkRestorable, DEFAULT_MAX_ORDERS, type OrderBook, type OrderBookOptions } from './order-book.js';
import { FinishAs, OrderType, type OrderView, type PlaceOrder, Side, StpAct, TimeInForce } from './order-types.js';
import type { PriceLadder } from './price-ladder.js';
import { RestingOrders } from './resting-orders.js';

/** How a match loop ended (no allocation). */
const Ended = {
  /** No more crossing liquidity; the taker has something left. */
  Exhausted: 0,
  /** The taker has nothing left. */
  Filled: 1,
  /** STP finished the taker (its Finished event is written). */
  SelfTrade: 2,
  /** A market buy's budget cannot buy one more lot. */
  Budget: 3,
} as const;

export class ArrayOrderBook implements OrderBook {
  readonly market: Market;
  readonly #maxOrders: number;
  readonly #r = new RestingOrders();
  /** Match results: what is left of the taker and whether it filled anything. */
  #left = 0;
  #filledAny = false;

  constructor(market: Market, options: OrderBookOptions = {}) {
    this.market = market;
    this.#maxOrders = options.maxOrders ?? DEFAULT_MAX_ORDERS;
  }

  get size(): number {
    return this.#r.orders.used;
  }

  place(c: PlaceOrder, out: BookEvents): ResultCode {
    const code = validatePlace(this.market, c);
    if (code !== ResultCode.Ok) return code;
    const R = this.#r;
    const id = c.orderId;
    if (R.ids.get(id) !== NIL) return ResultCode.DuplicateOrderId;
    const isLimit = c.type === OrderType.Limit;
    const tif = c.tif;
    if (isLimit && (tif === TimeInForce.Gtc || tif === TimeInForce.Poc) && R.orders.used >= this.#maxOrders) {
      return ResultCode.BookFull;
    }
    const side = c.side;
    const user = c.userId;
    const amount = c.amount;
    const price = isLimit ? c.price : 0;
    const act = effectiveStpAct(c.stpId, c.stpAct);
    out.accepted(id, user, side, price, amount);

    if (isLimit && !crosses(side, price, this.#bestOpposite(side))) {
      // Nothing to meet (the common case of a maker): what the match would end with, without running it.
      if (tif === TimeInForce.Ioc) out.finished(id, user, FinishAs.Ioc, amount);
      else if (tif === TimeInForce.Fok) out.finished(id, user, FinishAs.Fok, amount);
      else this.#rest(id, user, c.stpId, side, tif, act, price, amount, amount, c.iceberg);
      return ResultCode.Ok;
    }
    if (tif === TimeInForce.Poc) {
      out.finished(id, user, FinishAs.Poc, amount);
      return ResultCode.Ok;
    }
    if (tif === TimeInForce.Fok && !this.#fokFeasible(side, !isLimit, price, amount, c.stpId, act)) {
      out.finished(id, user, FinishAs.Fok, amount);
      return ResultCode.Ok;
    }
    const ended = this.#match(id, user, c.stpId, act, side, !isLimit, price, amount, out);
    const left = this.#left;
    if (ended === Ended.SelfTrade) return ResultCode.Ok;
    if (ended === Ended.Filled) out.finished(id, user, FinishAs.Filled, 0);
    else if (ended === Ended.Budget) out.finished(id, user, this.#filledAny ? FinishAs.Filled : FinishAs.Small, left);
    else if (!isLimit) out.finished(id, user, FinishAs.DepthNotEnough, left);
    else if (tif === TimeInForce.Ioc) out.finished(id, user, FinishAs.Ioc, left);
    else {
      invariant(tif !== TimeInForce.Fok, 'FOK left a remainder after a feasible check');
      this.#rest(id, user, c.stpId, side, tif, act, price, amount, left, c.iceberg);
    }
    return ResultCode.Ok;
  }

  amend(orderId: number, price: number, amount: number, out: BookEvents): ResultCode {
    const R = this.#r;
    const o = R.ids.get(orderId);
    if (o === NIL) return ResultCode.OrderNotFound;
    const P = R.orders;
    const L = R.levels;
    const lvl = P.level[o]!;
    const curPrice = L.price[lvl]!;
    const curAmount = P.amount[o]!;
    const curLeft = P.left[o]!;
    const filled = curAmount - curLeft;
    const code = validateAmend(this.market, price, amount, curPrice, curAmount, filled);
    if (code !== ResultCode.Ok) return code;
    const newPrice = price === 0 ? curPrice : price;
    const newAmount = amount === 0 ? curAmount : amount;
    const newLeft = newAmount - filled;
    const side = P.side[o]!;
    const opposite = this.#bestOpposite(side);
    if (P.tif[o] === TimeInForce.Poc && crosses(side, newPrice, opposite)) return ResultCode.PocWouldTake;
    const user = P.uid[o]!;
    out.amended(orderId, user, side, newPrice, newLeft);

    if (newPrice === curPrice && newAmount < curAmount) {
      const before = R.visible(o);
      P.amount[o] = newAmount;
      P.left[o] = newLeft;
      const ice = P.ice[o]!;
      if (ice !== NIL) R.icebergs.shown[ice] = Math.min(R.icebergs.shown[ice]!, newLeft);
      L.total[lvl] = L.total[lvl]! - before + R.visible(o);
      return ResultCode.Ok;
    }

    R.detach(o);
    P.amount[o] = newAmount;
    P.left[o] = newLeft;
    let left = newLeft;
    if (crosses(side, newPrice, opposite)) {
      const ended = this.#match(orderId, user, P.stp[o]!, P.act[o]!, side, false, newPrice, newLeft, out);
      if (ended === Ended.SelfTrade) { R.forget(o); return ResultCode.Ok; }
      if (ended === Ended.Filled) {
        out.finished(orderId, user, FinishAs.Filled, 0);
        R.forget(o);
        return ResultCode.Ok;
      }
      left = this.#left;
      P.left[o] = left;
    }
    const ice = P.ice[o]!;
    if (ice !== NIL) R.icebergs.shown[ice] = Math.min(R.icebergs.display[ice]!, left);
    R.enqueue(o, side, newPrice, R.visible(o));
    return ResultCode.Ok;
  }

  cancel(orderId: number, out: BookEvents): ResultCode {
    const R = this.#r;
    const o = R.ids.get(orderId);
    if (o === NIL) return ResultCode.OrderNotFound;
    out.finished(orderId, R.orders.uid[o]!, FinishAs.Cancelled, R.orders.left[o]!);
    R.remove(o);
    return ResultCode.Ok;
  }

  cancelAll(userId: number, side: number, out: BookEvents): ResultCode {
    if (!isCancelAllScope(userId, side)) return ResultCode.InvalidParam;
    if (side !== Side.Sell) this.#cancelSide(this.#r.bids, userId, out);
    if (side !== Side.Buy) this.#cancelSide(this.#r.asks, userId, out);
    return ResultCode.Ok;
  }

  bestBid(): number {
    return this.#r.bestPrice(this.#r.bids);
  }

  bestAsk(): number {
    return this.#r.bestPrice(this.#r.asks);
  }

  depth(side: number, limit: number, prices: Float64Array, lots: Float64Array): number {
    const R = this.#r;
    const ladder = R.ladder(side);
    const L = R.levels;
    const n = Math.min(limit, ladder.n, prices.length, lots.length);
    for (let k = 0; k < n; k++) {
      const l = ladder.levels[ladder.n - 1 - k]!;
      prices[k] = L.price[l]!;
      lots[k] = L.total[l]!;
    }
    return n;
  }

  order(orderId: number, out: OrderView): boolean {
    const R = this.#r;
    const o = R.ids.get(orderId);
    if (o === NIL) return false;
    const P = R.orders;
    const ice = P.ice[o]!;
    out.orderId = orderId;
    out.userId = P.uid[o]!;
    out.stpId = P.stp[o]!;
    out.side = P.side[o]!;
    out.tif = P.tif[o]!;
    out.stpAct = P.act[o]!;
    out.price = R.levels.price[P.level[o]!]!;
    out.amount = P.amount[o]!;
    out.left = P.left[o]!;
    out.visible = R.visible(o);
    out.iceberg = ice === NIL ? 0 : R.icebergs.display[ice]!;
    return true;
  }

  openOrders(userId: number): number[] {
    return this.#r.openOrders(userId);
  }

  forEachResting(out: OrderView, visit: (order: OrderView) => void): void {
    const R = this.#r;
    const P = R.orders;
    const L = R.levels;
    for (const ladder of [R.bids, R.asks]) {
      for (let k = ladder.n - 1; k >= 0; k--) {
        for (let o = L.head[ladder.levels[k]!]!; o !== NIL; o = P.next[o]!) {
          this.order(P.id[o]!, out);
          visit(out);
        }
      }
    }
  }

  restoreResting(v: OrderView): void {
    const R = this.#r;
    checkRestorable(v, R.ids.get(v.orderId) !== NIL, this.#bestOpposite(v.side));
    const o = R.add(v.orderId, v.userId, v.stpId, v.side, v.tif, v.stpAct, v.amount, v.left, v.iceberg, v.visible);
    R.enqueue(o, v.side, v.price, v.visible);
  }

  stateHash(): string {
    const h = new StateHasher();
    h.add(this.#sideCount(this.#r.bids)).add(this.#sideCount(this.#r.asks));
    this.#hashSide(h, this.#r.bids);
    this.#hashSide(h, this.#r.asks);
    return h.digest();
  }

  assertInvariants(): void {
    const bb = this.bestBid();
    const ba = this.bestAsk();
    if (bb !== 0 && ba !== 0 && bb >= ba) throw new InvariantError(`crossed book: bid ${bb} ≥ ask ${ba}`);
    this.#r.assertConsistent();
  }

  // ——— matching ———

  /**
   * Matches a taker against the opposite side (contract step 4). Writes Fill/Finished events, leaves what is
   * left of the taker in #left and whether it filled in #filledAny; returns how it ended (Ended).
   * `amount` is lots, or the quote budget in notional units for a market buy.
   */
  #match(takerId: number, takerUser: number, takerStp: number, act: number, side: number, isMarket: boolean,
    limit: number, amount: number, out: BookEvents): number {
    const R = this.#r;
    const ladder = side === Side.Buy ? R.asks : R.bids;
    const makerSide = side === Side.Buy ? Side.Sell : Side.Buy;
    const marketBuy = isMarket && side === Side.Buy;
    const P = R.orders;
    const L = R.levels;
    const I = R.icebergs;
    let left = amount;
    let lastPrice = 0;
    this.#filledAny = false;
    while (ladder.n > 0) {
      const lvl = ladder.levels[ladder.n - 1]!;
      const price = L.price[lvl]!;
      if (!isMarket && (side === Side.Buy ? price > limit : price < limit)) break;
      // The order at the head is always the next to meet: those before it left or went behind it.
      for (;;) {
        // A market buy is done once its budget cannot buy a lot here (checked before STP looks at the maker).
        const affordable = marketBuy ? floorDiv(left, price) : left;
        if (affordable === 0) {
          this.#left = left;
          return Ended.Budget;
        }
        const o = L.head[lvl]!;
        if (takerStp !== 0 && P.stp[o] === takerStp) {
          if (act === StpAct.CancelNew) {
            out.finished(takerId, takerUser, FinishAs.Stp, left);
            this.#left = left;
            return Ended.SelfTrade;
          }
          out.finished(P.id[o]!, P.uid[o]!, FinishAs.Stp, P.left[o]!);
          const levelGone = R.remove(o);
          if (act === StpAct.CancelBoth) {
            out.finished(takerId, takerUser, FinishAs.Stp, left);
            this.#left = left;
            return Ended.SelfTrade;
          }
          if (levelGone) break;
          continue;
        }
        const ice = P.ice[o]!;
        const shown = ice === NIL ? P.left[o]! : I.shown[ice]!;
        const lots = shown < affordable ? shown : affordable;
        left -= marketBuy ? lots * price : lots;
        this.#filledAny = true;
        lastPrice = price;
        const makerLeft = P.left[o]! - lots;
        out.fill(takerId, takerUser, P.id[o]!, P.uid[o]!, makerSide, price, lots);
        P.left[o] = makerLeft;
        L.total[lvl] = L.total[lvl]! - lots;
        if (ice !== NIL) I.shown[ice] = shown - lots;
        let levelGone = false;
        if (makerLeft === 0) {
          out.finished(P.id[o]!, P.uid[o]!, FinishAs.Filled, 0);
          levelGone = R.removeFilledHead(o, lvl);
        } else if (ice !== NIL && shown === lots) {
          R.refill(o, ice, lvl, makerLeft);
        }
        if (left === 0) {
          this.#left = 0;
          return Ended.Filled;
        }
        if (levelGone) break;
      }
    }
    this.#left = left;
    // The book is swept: a budget that cannot buy a lot at the last price never could (asks only get dearer).
    return marketBuy && lastPrice > 0 && floorDiv(left, lastPrice) === 0 ? Ended.Budget : Ended.Exhausted;
  }

  /**
   * Would a FOK taker fill entirely? Walks what the match would meet, read-only (contract step 3): per level,
   * the orders before the first self-match that stops it (CancelOld makers are skipped as they would be
   * cancelled), plus — when nothing stops it — the hidden lots of the level's icebergs, which refills bring back.
   */
  #fokFeasible(side: number, isMarket: boolean, limit: number, amount: number, takerStp: number, act: number): boolean {
    const R = this.#r;
    const ladder = side === Side.Buy ? R.asks : R.bids;
    const marketBuy = isMarket && side === Side.Buy;
    const P = R.orders;
    const L = R.levels;
    let need = amount;
    for (let k = ladder.n - 1; k >= 0; k--) {
      const lvl = ladder.levels[k]!;
      const price = L.price[lvl]!;
      if (!isMarket && (side === Side.Buy ? price > limit : price < limit)) return false;
      let offered = 0;
      let hidden = 0;
      let stopped = false;
      for (let o = L.head[lvl]!; o !== NIL; o = P.next[o]!) {
        if (takerStp !== 0 && P.stp[o] === takerStp) {
          if (act === StpAct.CancelOld) continue;
          stopped = true;
          break;
        }
        const vis = R.visible(o);
        offered += vis;
        hidden += P.left[o]! - vis;
      }
      if (!stopped) offered += hidden;
      if (marketBuy) {
        const affordable = floorDiv(need, price);
        if (affordable === 0) return need < amount; // spent down to dust, unless it never bought a lot
        if (offered >= affordable) return true;
        need -= offered * price;
      } else {
        if (offered >= need) return true;
        need -= offered;
      }
      if (stopped) return false;
    }
    return false;
  }

  /** Rests a new order at the back of its level. */
  #rest(id: number, userId: number, stp: number, side: number, tif: number, act: number, price: number,
    amount: number, left: number, iceberg: number): void {
    const R = this.#r;
    const shown = iceberg > 0 && iceberg < left ? iceberg : left;
    const o = R.add(id, userId, stp, side, tif, act, amount, left, iceberg, shown);
    R.enqueue(o, side, price, shown);
  }

  /** Cancels the matching orders of one side in priority order (cancelAll). */
  #cancelSide(ladder: PriceLadder, userId: number, out: BookEvents): void {
    const R = this.#r;
    const P = R.orders;
    const L = R.levels;
    for (let k = ladder.n - 1; k >= 0; k--) {
      const lvl = ladder.levels[k]!;
      for (let o = L.head[lvl]!; o !== NIL;) {
        const next = P.next[o]!;
        const owner = P.uid[o]!;
        if (userId === 0 || owner === userId) {
          out.finished(P.id[o]!, owner, FinishAs.Cancelled, P.left[o]!);
          R.remove(o);
        }
        o = next;
      }
    }
  }

  #bestOpposite(side: number): number {
    return this.#r.bestPrice(side === Side.Buy ? this.#r.asks : this.#r.bids);
  }

  #sideCount(ladder: PriceLadder): number {
    let n = 0;
    for (let k = 0; k < ladder.n; k++) n += this.#r.levels.count[ladder.levels[k]!]!;
    return n;
  }

  #hashSide(h: StateHasher, ladder: PriceLadder): void {
    const R = this.#r;
    const P = R.orders;
    const L = R.levels;
    for (let k = ladder.n - 1; k >= 0; k--) {
      const lvl = ladder.levels[k]!;
      for (let o = L.head[lvl]!; o !== NIL; o = P.next[o]!) {
        const ice = P.ice[o]!;
        hashRestingOrder(h, P.id[o]!, P.uid[o]!, P.stp[o]!, P.side[o]!, P.tif[o]!, P.act[o]!,
          L.price[lvl]!, P.amount[o]!, P.left[o]!, R.visible(o), ice === NIL ? 0 : R.icebergs.display[ice]!);
      }
    }
  }
}
