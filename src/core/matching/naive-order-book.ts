/**
 * NaiveOrderBook: the reference implementation of the OrderBook contract (see order-book.ts) and the oracle
 * the typed-array book is tested against. Obvious correctness over speed.
 *
 * Layout: resting orders by id in a Map; per side an array of price levels kept sorted best first (bids by
 * descending price, asks ascending), each level a FIFO array of orders; per user a Set of order ids in entry
 * order (Sets iterate in insertion order).
 *
 * Complexity: inserting or removing a level is O(levels); removing an order is O(orders at its level);
 * a match is O(makers touched × level length). Allocates freely (records, levels, closures).
 */
import { invariant } from '../invariant.js';
import type { Market } from '../market.js';
import { ResultCode } from '../result-code.js';
import { StateHasher } from '../state-hash.js';
import { floorDiv } from '../units.js';
import type { BookEvents } from './book-events.js';
import { crosses, effectiveStpAct, hashRestingOrder, isCancelAllScope, validateAmend, validatePlace } from './book-rules.js';
import { checkRestorable, DEFAULT_MAX_ORDERS, type OrderBook, type OrderBookOptions } from './order-book.js';
import { FinishAs, OrderType, type OrderView, type PlaceOrder, Side, StpAct, TimeInForce } from './order-types.js';

/** A resting order. Invariant: 0 < visible ≤ left ≤ amount; visible = left unless iceberg > 0, then ≤ iceberg. */
interface RestingOrder {
  readonly orderId: number;
  readonly userId: number;
  readonly stpId: number;
  readonly side: number;
  readonly tif: number;
  /** The effective act (a group member's None stored as CancelNew). */
  readonly stpAct: number;
  price: number;
  amount: number;
  left: number;
  visible: number;
  /** Display size as placed; 0 for a plain order. */
  readonly iceberg: number;
}

/** One price level. Invariant: `orders` is non-empty and every order has this price. */
interface Level {
  readonly price: number;
  readonly orders: RestingOrder[];
}

/** An order while it takes liquidity (a new order, or an amended one arriving again). */
interface Taker {
  readonly orderId: number;
  readonly userId: number;
  readonly stpId: number;
  readonly stpAct: number;
  readonly side: number;
  /** Limit price; ignored for market orders. */
  readonly price: number;
  readonly market: boolean;
  /** A market buy: `remaining` is a quote budget in notional units, not lots. */
  readonly marketBuy: boolean;
  /** Lots left to fill, or a market buy's unspent budget. */
  remaining: number;
  filledAny: boolean;
}

/** How a match ended. */
const End = {
  /** Nothing left to fill. */
  Filled: 0,
  /** A market buy's budget cannot buy one lot at the next price (the last traded one once the book is swept). */
  Budget: 1,
  /** No (more) crossing liquidity. */
  Exhausted: 2,
  /** A self-trade prevention stop; the taker's Finished event is written. */
  Stp: 3,
} as const;
type End = (typeof End)[keyof typeof End];

const shown = (iceberg: number, left: number): number => (iceberg > 0 ? Math.min(iceberg, left) : left);

/** The readable reference OrderBook. Every method follows order-book.ts to the letter. */
export class NaiveOrderBook implements OrderBook {
  readonly market: Market;
  readonly #maxOrders: number;
  readonly #byId = new Map<number, RestingOrder>();
  readonly #bids: Level[] = [];
  readonly #asks: Level[] = [];
  readonly #byUser = new Map<number, Set<number>>();

  constructor(market: Market, options: OrderBookOptions = {}) {
    this.market = market;
    this.#maxOrders = options.maxOrders ?? DEFAULT_MAX_ORDERS;
  }

  get size(): number {
    return this.#byId.size;
  }

  place(cmd: PlaceOrder, out: BookEvents): ResultCode {
    const valid = validatePlace(this.market, cmd);
    if (valid !== ResultCode.Ok) return valid;
    if (this.#byId.has(cmd.orderId)) return ResultCode.DuplicateOrderId;
    const market = cmd.type === OrderType.Market;
    const canRest = !market && (cmd.tif === TimeInForce.Gtc || cmd.tif === TimeInForce.Poc);
    if (canRest && this.size >= this.#maxOrders) return ResultCode.BookFull;

    out.accepted(cmd.orderId, cmd.userId, cmd.side, market ? 0 : cmd.price, cmd.amount);
    if (cmd.tif === TimeInForce.Poc && crosses(cmd.side, cmd.price, this.#bestOpposite(cmd.side))) {
      out.finished(cmd.orderId, cmd.userId, FinishAs.Poc, cmd.amount);
      return ResultCode.Ok;
    }
    const taker: Taker = {
      orderId: cmd.orderId, userId: cmd.userId, stpId: cmd.stpId, stpAct: effectiveStpAct(cmd.stpId, cmd.stpAct),
      side: cmd.side, price: cmd.price, market, marketBuy: market && cmd.side === Side.Buy,
      remaining: cmd.amount, filledAny: false,
    };
    if (cmd.tif === TimeInForce.Fok && !this.#fokFeasible(taker)) {
      out.finished(cmd.orderId, cmd.userId, FinishAs.Fok, cmd.amount);
      return ResultCode.Ok;
    }

    const end = this.#match(taker, out);
    if (cmd.tif === TimeInForce.Fok) invariant(end === End.Filled || end === End.Budget, 'FOK check disagrees with match');
    if (end === End.Stp) return ResultCode.Ok;
    if (end === End.Filled) {
      out.finished(cmd.orderId, cmd.userId, FinishAs.Filled, 0);
    } else if (end === End.Budget) {
      out.finished(cmd.orderId, cmd.userId, taker.filledAny ? FinishAs.Filled : FinishAs.Small, taker.remaining);
    } else if (market) {
      out.finished(cmd.orderId, cmd.userId, FinishAs.DepthNotEnough, taker.remaining);
    } else if (cmd.tif === TimeInForce.Ioc) {
      out.finished(cmd.orderId, cmd.userId, FinishAs.Ioc, taker.remaining);
    } else {
      const order: RestingOrder = {
        orderId: cmd.orderId, userId: cmd.userId, stpId: cmd.stpId, side: cmd.side, tif: cmd.tif,
        stpAct: taker.stpAct, price: cmd.price, amount: cmd.amount, left: taker.remaining,
        visible: shown(cmd.iceberg, taker.remaining), iceberg: cmd.iceberg,
      };
      this.#byId.set(order.orderId, order);
      let ids = this.#byUser.get(order.userId);
      if (ids === undefined) this.#byUser.set(order.userId, (ids = new Set()));
      ids.add(order.orderId);
      this.#enqueue(order);
    }
    return ResultCode.Ok;
  }

  amend(orderId: number, price: number, amount: number, out: BookEvents): ResultCode {
    const o = this.#byId.get(orderId);
    if (o === undefined) return ResultCode.OrderNotFound;
    const filled = o.amount - o.left;
    const valid = validateAmend(this.market, price, amount, o.price, o.amount, filled);
    if (valid !== ResultCode.Ok) return valid;
    const newPrice = price === 0 ? o.price : price;
    const newAmount = amount === 0 ? o.amount : amount;
    if (o.tif === TimeInForce.Poc && crosses(o.side, newPrice, this.#bestOpposite(o.side))) return ResultCode.PocWouldTake;

    const newLeft = newAmount - filled;
    out.amended(o.orderId, o.userId, o.side, newPrice, newLeft);
    if (newPrice === o.price && newAmount < o.amount) {
      // Shrinks in place: the queue position is kept.
      o.amount = newAmount;
      o.left = newLeft;
      o.visible = o.iceberg > 0 ? Math.min(o.visible, newLeft) : newLeft;
      return ResultCode.Ok;
    }
    this.#dequeue(o);
    o.price = newPrice;
    o.amount = newAmount;
    o.left = newLeft;
    const taker: Taker = {
      orderId: o.orderId, userId: o.userId, stpId: o.stpId, stpAct: o.stpAct, side: o.side, price: newPrice,
      market: false, marketBuy: false, remaining: newLeft, filledAny: false,
    };
    const end = this.#match(taker, out);
    if (end === End.Filled) out.finished(o.orderId, o.userId, FinishAs.Filled, 0);
    if (end === End.Filled || end === End.Stp) {
      this.#forget(o);
      return ResultCode.Ok;
    }
    o.left = taker.remaining;
    o.visible = shown(o.iceberg, o.left);
    this.#enqueue(o);
    return ResultCode.Ok;
  }

  cancel(orderId: number, out: BookEvents): ResultCode {
    const o = this.#byId.get(orderId);
    if (o === undefined) return ResultCode.OrderNotFound;
    out.finished(o.orderId, o.userId, FinishAs.Cancelled, o.left);
    this.#remove(o);
    return ResultCode.Ok;
  }

  cancelAll(userId: number, side: number, out: BookEvents): ResultCode {
    if (!isCancelAllScope(userId, side)) return ResultCode.InvalidParam;
    const victims: RestingOrder[] = [];
    for (const levels of this.#sidesFor(side)) {
      for (const level of levels) {
        for (const o of level.orders) if (userId === 0 || o.userId === userId) victims.push(o);
      }
    }
    for (const o of victims) {
      out.finished(o.orderId, o.userId, FinishAs.Cancelled, o.left);
      this.#remove(o);
    }
    return ResultCode.Ok;
  }

  bestBid(): number {
    return this.#bids[0]?.price ?? 0;
  }

  bestAsk(): number {
    return this.#asks[0]?.price ?? 0;
  }

  depth(side: number, limit: number, prices: Float64Array, lots: Float64Array): number {
    const levels = side === Side.Buy ? this.#bids : side === Side.Sell ? this.#asks : [];
    const n = Math.max(0, Math.min(limit, levels.length, prices.length, lots.length));
    for (let i = 0; i < n; i++) {
      const level = levels[i]!;
      prices[i] = level.price;
      lots[i] = level.orders.reduce((sum, o) => sum + o.visible, 0);
    }
    return n;
  }

  order(orderId: number, out: OrderView): boolean {
    const o = this.#byId.get(orderId);
    if (o === undefined) return false;
    out.orderId = o.orderId; out.userId = o.userId; out.stpId = o.stpId; out.side = o.side; out.tif = o.tif;
    out.stpAct = o.stpAct; out.price = o.price; out.amount = o.amount; out.left = o.left; out.visible = o.visible;
    out.iceberg = o.iceberg;
    return true;
  }

  openOrders(userId: number): number[] {
    return [...(this.#byUser.get(userId) ?? [])];
  }

  forEachResting(out: OrderView, visit: (order: OrderView) => void): void {
    for (const levels of [this.#bids, this.#asks]) {
      for (const level of levels) {
        for (const o of level.orders) {
          this.order(o.orderId, out);
          visit(out);
        }
      }
    }
  }

  restoreResting(v: OrderView): void {
    checkRestorable(v, this.#byId.has(v.orderId), this.#bestOpposite(v.side));
    const o: RestingOrder = {
      orderId: v.orderId, userId: v.userId, stpId: v.stpId, side: v.side, tif: v.tif, stpAct: v.stpAct,
      price: v.price, amount: v.amount, left: v.left, visible: v.visible, iceberg: v.iceberg,
    };
    this.#byId.set(o.orderId, o);
    let ids = this.#byUser.get(o.userId);
    if (ids === undefined) this.#byUser.set(o.userId, (ids = new Set()));
    ids.add(o.orderId);
    this.#enqueue(o);
  }

  stateHash(): string {
    const count = (levels: Level[]): number => levels.reduce((sum, l) => sum + l.orders.length, 0);
    const h = new StateHasher();
    h.add(count(this.#bids)).add(count(this.#asks));
    for (const levels of [this.#bids, this.#asks]) {
      for (const level of levels) {
        for (const o of level.orders) {
          hashRestingOrder(h, o.orderId, o.userId, o.stpId, o.side, o.tif, o.stpAct, o.price, o.amount, o.left,
            o.visible, o.iceberg);
        }
      }
    }
    return h.digest();
  }

  assertInvariants(): void {
    const bid = this.bestBid();
    const ask = this.bestAsk();
    invariant(bid === 0 || ask === 0 || bid < ask, 'book is crossed');
    let seen = 0;
    for (const [side, levels] of [[Side.Buy, this.#bids], [Side.Sell, this.#asks]] as const) {
      for (let i = 0; i < levels.length; i++) {
        const level = levels[i]!;
        invariant(level.orders.length > 0, 'empty level');
        const prev = levels[i - 1];
        if (prev !== undefined) {
          invariant(side === Side.Buy ? prev.price > level.price : prev.price < level.price, 'levels out of order');
        }
        for (const o of level.orders) {
          seen++;
          invariant(o.side === side, 'order on the wrong side');
          invariant(o.price === level.price, 'order price differs from its level');
          invariant(o.visible > 0 && o.visible <= o.left && o.left <= o.amount, 'bad visible/left/amount');
          invariant(o.iceberg > 0 ? o.visible <= o.iceberg : o.visible === o.left, 'bad iceberg display');
          invariant(this.#byId.get(o.orderId) === o, 'id map out of sync with levels');
          invariant(this.#byUser.get(o.userId)?.has(o.orderId) === true, 'user index misses an order');
        }
      }
    }
    invariant(seen === this.#byId.size, 'id map holds orders not in any level');
    let indexed = 0;
    for (const [userId, ids] of this.#byUser) {
      invariant(ids.size > 0, 'empty user index entry');
      for (const id of ids) invariant(this.#byId.get(id)?.userId === userId, 'user index out of sync');
      indexed += ids.size;
    }
    invariant(indexed === seen, 'user index size out of sync');
  }

  /**
   * Place step 4: matches `t` against the opposite side, writing fills and maker finishes (and the taker's
   * finish on an STP stop). A market buy checks affordability before looking at each maker, so its FOK check
   * can stop at the first level where the budget buys nothing.
   */
  #match(t: Taker, out: BookEvents): End {
    const levels = t.side === Side.Buy ? this.#asks : this.#bids;
    let lastPrice = 0;
    for (;;) {
      if (!t.marketBuy && t.remaining === 0) return End.Filled;
      const best = levels[0];
      const level = best !== undefined && (t.market || crosses(t.side, t.price, best.price)) ? best : undefined;
      // A market buy is done when its budget cannot buy a lot at the next price, or (the book swept) at the
      // last traded one: asks only get dearer, so that leftover could never buy anything.
      const unitPrice = level?.price ?? lastPrice;
      if (t.marketBuy && unitPrice > 0 && floorDiv(t.remaining, unitPrice) === 0) return End.Budget;
      if (level === undefined) return End.Exhausted;
      const affordable = t.marketBuy ? floorDiv(t.remaining, level.price) : t.remaining;
      const maker = level.orders[0]!;
      if (t.stpId !== 0 && maker.stpId === t.stpId) {
        if (t.stpAct !== StpAct.CancelNew) {
          out.finished(maker.orderId, maker.userId, FinishAs.Stp, maker.left);
          this.#remove(maker);
          if (t.stpAct === StpAct.CancelOld) continue;
        }
        out.finished(t.orderId, t.userId, FinishAs.Stp, t.remaining);
        return End.Stp;
      }
      const lots = Math.min(maker.visible, affordable);
      out.fill(t.orderId, t.userId, maker.orderId, maker.userId, maker.side, maker.price, lots);
      t.remaining -= t.marketBuy ? lots * level.price : lots;
      t.filledAny = true;
      lastPrice = level.price;
      maker.left -= lots;
      maker.visible -= lots;
      if (maker.left === 0) {
        out.finished(maker.orderId, maker.userId, FinishAs.Filled, 0);
        this.#remove(maker);
      } else if (maker.visible === 0) {
        // Iceberg refill: shows again and queues behind everybody at its level.
        maker.visible = shown(maker.iceberg, maker.left);
        level.orders.shift();
        level.orders.push(maker);
      }
    }
  }

  /**
   * Place step 3: would #match fill `t` completely? Walks each crossing level FIFO without changing anything:
   * a CancelOld self maker is skipped (it would be cancelled), a CancelNew/CancelBoth one stops the match.
   * Without a stop the taker also reaches the hidden lots of the level's icebergs (refills queue behind).
   */
  #fokFeasible(t: Taker): boolean {
    let need = t.remaining;
    for (const level of t.side === Side.Buy ? this.#asks : this.#bids) {
      if (!t.market && !crosses(t.side, t.price, level.price)) return false;
      const target = t.marketBuy ? floorDiv(need, level.price) : need;
      if (target === 0) return need < t.remaining; // budget spent down to dust, unless it never bought a lot
      let offered = 0;
      let hidden = 0;
      let stopped = false;
      for (const o of level.orders) {
        if (t.stpId !== 0 && o.stpId === t.stpId) {
          if (t.stpAct === StpAct.CancelOld) continue;
          stopped = true;
          break;
        }
        offered += o.visible;
        hidden += o.left - o.visible;
        if (offered >= target) return true;
      }
      if (stopped) return false;
      offered += hidden;
      if (offered >= target) return true;
      need -= t.marketBuy ? offered * level.price : offered;
    }
    return false;
  }

  #bestOpposite(side: number): number {
    return side === Side.Buy ? this.bestAsk() : this.bestBid();
  }

  #sidesFor(side: number): Level[][] {
    if (side === 0) return [this.#bids, this.#asks];
    if (side === Side.Buy) return [this.#bids];
    if (side === Side.Sell) return [this.#asks];
    return [];
  }

  /** Appends `o` at the back of its price level, creating the level in sorted position if needed. */
  #enqueue(o: RestingOrder): void {
    const levels = o.side === Side.Buy ? this.#bids : this.#asks;
    const better = (p: number): boolean => (o.side === Side.Buy ? p > o.price : p < o.price);
    let i = 0;
    while (i < levels.length && better(levels[i]!.price)) i++;
    const level = levels[i];
    if (level !== undefined && level.price === o.price) level.orders.push(o);
    else levels.splice(i, 0, { price: o.price, orders: [o] });
  }

  /** Takes `o` out of its level (dropping the level when it empties); indexes are untouched. */
  #dequeue(o: RestingOrder): void {
    const levels = o.side === Side.Buy ? this.#bids : this.#asks;
    const li = levels.findIndex((l) => l.price === o.price);
    const level = levels[li];
    invariant(level !== undefined, 'resting order has no level');
    const oi = level.orders.indexOf(o);
    invariant(oi >= 0, 'resting order missing from its level');
    level.orders.splice(oi, 1);
    if (level.orders.length === 0) levels.splice(li, 1);
  }

  /** Drops `o` from the id map and the user index. */
  #forget(o: RestingOrder): void {
    this.#byId.delete(o.orderId);
    const ids = this.#byUser.get(o.userId);
    ids?.delete(o.orderId);
    if (ids?.size === 0) this.#byUser.delete(o.userId);
  }

  /** Removes a resting order from the book entirely. */
  #remove(o: RestingOrder): void {
    this.#dequeue(o);
    this.#forget(o);
  }
}
