/**
 * The production order book: typed arrays, free-list pools, intrusive FIFO queues per price level.
 *
 * Semantics: exactly the OrderBook contract (order-book.ts); NaiveOrderBook is its oracle.
 *
 * Structure:
 * - orders, levels, icebergs and users are records in struct-of-arrays pools (book-pools.ts);
 * - each side is a PriceLadder of populated levels, best last; each level a doubly linked FIFO of orders;
 * - KeyIndex maps order id → order record and user id → user record; each user links its orders in entry order.
 *
 * Complexity: place O(log L + fills) (O(1) when the price is the best or a new best); cancel O(1) plus
 * O(log L) to find an emptied level that is not the best (plus a memmove of the worse levels);
 * FOK adds a read-only walk of the levels it would reach; cancelAll O(orders on the swept sides).
 * Allocation: none in steady state. Pools, ladders and indexes grow in chunks when a command needs more
 * room than ever before (@allocates, amortised). `stateHash`, `openOrders` and `order` views are queries.
 * Thread affinity: single owner; not safe to share. Typed-array reads use `!` where a record number is
 * valid by construction (a live record or a checked NIL).
 */
import type { Market } from '../market.js';
import { InvariantError, invariant } from '../invariant.js';
import { ResultCode } from '../result-code.js';
import { StateHasher } from '../state-hash.js';
import { floorDiv } from '../units.js';
import type { BookEvents } from './book-events.js';
import { IcebergPool, LevelPool, NIL, OrderPool, UserPool } from './book-pools.js';
import { crosses, effectiveStpAct, hashRestingOrder, isCancelAllScope, validateAmend, validatePlace } from './book-rules.js';
import { KeyIndex } from './key-index.js';
import { checkRestorable, DEFAULT_MAX_ORDERS, type OrderBook, type OrderBookOptions } from './order-book.js';
import { FinishAs, OrderType, type OrderView, type PlaceOrder, Side, StpAct, TimeInForce } from './order-types.js';
import { PriceLadder } from './price-ladder.js';

/** How a match loop ended (held in #state, no allocation). */
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
  readonly #orders = new OrderPool();
  readonly #levels = new LevelPool();
  readonly #icebergs = new IcebergPool();
  readonly #users = new UserPool();
  readonly #ids: KeyIndex;
  readonly #userIds: KeyIndex;
  /**
   * Price → level record, for both sides: a price has at most one level, since the book never rests crossed
   * (a taker rests only after the opposite levels it crosses are gone).
   */
  readonly #levelAt: KeyIndex;
  readonly #bids = new PriceLadder(1, 64);
  readonly #asks = new PriceLadder(-1, 64);
  /** The user record the last order rested with (consecutive orders often come from one user); id -1: none. */
  #lastUserId = -1;
  #lastUser = NIL;
  /** Match results: what is left of the taker and whether it filled anything. */
  #left = 0;
  #filledAny = false;

  constructor(market: Market, options: OrderBookOptions = {}) {
    this.market = market;
    this.#maxOrders = options.maxOrders ?? DEFAULT_MAX_ORDERS;
    this.#ids = new KeyIndex(this.#orders.id, 512);
    this.#userIds = new KeyIndex(this.#users.uid, 64);
    this.#levelAt = new KeyIndex(this.#levels.price, 64);
  }

  get size(): number {
    return this.#orders.used;
  }

  place(c: PlaceOrder, out: BookEvents): ResultCode {
    const code = validatePlace(this.market, c);
    if (code !== ResultCode.Ok) return code;
    const id = c.orderId;
    if (this.#ids.get(id) !== NIL) return ResultCode.DuplicateOrderId;
    const isLimit = c.type === OrderType.Limit;
    const tif = c.tif;
    if (isLimit && (tif === TimeInForce.Gtc || tif === TimeInForce.Poc) && this.#orders.used >= this.#maxOrders) {
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
    const o = this.#ids.get(orderId);
    if (o === NIL) return ResultCode.OrderNotFound;
    const P = this.#orders;
    const L = this.#levels;
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
    const user = this.#users.uid[P.user[o]!]!;
    out.amended(orderId, user, side, newPrice, newLeft);

    if (newPrice === curPrice && newAmount < curAmount) {
      const before = this.#visible(o);
      P.amount[o] = newAmount;
      P.left[o] = newLeft;
      const ice = P.ice[o]!;
      if (ice !== NIL) this.#icebergs.shown[ice] = Math.min(this.#icebergs.shown[ice]!, newLeft);
      L.total[lvl] = L.total[lvl]! - before + this.#visible(o);
      return ResultCode.Ok;
    }

    this.#detach(o);
    P.amount[o] = newAmount;
    P.left[o] = newLeft;
    let left = newLeft;
    if (crosses(side, newPrice, opposite)) {
      const ended = this.#match(orderId, user, P.stp[o]!, P.act[o]!, side, false, newPrice, newLeft, out);
      if (ended === Ended.SelfTrade) { this.#forget(o); return ResultCode.Ok; }
      if (ended === Ended.Filled) {
        out.finished(orderId, user, FinishAs.Filled, 0);
        this.#forget(o);
        return ResultCode.Ok;
      }
      left = this.#left;
      P.left[o] = left;
    }
    const ice = P.ice[o]!;
    if (ice !== NIL) this.#icebergs.shown[ice] = Math.min(this.#icebergs.display[ice]!, left);
    this.#enqueue(o, side, newPrice);
    return ResultCode.Ok;
  }

  cancel(orderId: number, out: BookEvents): ResultCode {
    const o = this.#ids.get(orderId);
    if (o === NIL) return ResultCode.OrderNotFound;
    const P = this.#orders;
    out.finished(orderId, this.#users.uid[P.user[o]!]!, FinishAs.Cancelled, P.left[o]!);
    this.#remove(o);
    return ResultCode.Ok;
  }

  cancelAll(userId: number, side: number, out: BookEvents): ResultCode {
    if (!isCancelAllScope(userId, side)) return ResultCode.InvalidParam;
    if (side !== Side.Sell) this.#cancelSide(this.#bids, userId, out);
    if (side !== Side.Buy) this.#cancelSide(this.#asks, userId, out);
    return ResultCode.Ok;
  }

  bestBid(): number {
    const l = this.#bids.best();
    return l === NIL ? 0 : this.#levels.price[l]!;
  }

  bestAsk(): number {
    const l = this.#asks.best();
    return l === NIL ? 0 : this.#levels.price[l]!;
  }

  depth(side: number, limit: number, prices: Float64Array, lots: Float64Array): number {
    const ladder = side === Side.Buy ? this.#bids : this.#asks;
    const L = this.#levels;
    const n = Math.min(limit, ladder.n, prices.length, lots.length);
    for (let k = 0; k < n; k++) {
      const l = ladder.levels[ladder.n - 1 - k]!;
      prices[k] = L.price[l]!;
      lots[k] = L.total[l]!;
    }
    return n;
  }

  order(orderId: number, out: OrderView): boolean {
    const o = this.#ids.get(orderId);
    if (o === NIL) return false;
    const P = this.#orders;
    const ice = P.ice[o]!;
    out.orderId = orderId;
    out.userId = this.#users.uid[P.user[o]!]!;
    out.stpId = P.stp[o]!;
    out.side = P.side[o]!;
    out.tif = P.tif[o]!;
    out.stpAct = P.act[o]!;
    out.price = this.#levels.price[P.level[o]!]!;
    out.amount = P.amount[o]!;
    out.left = P.left[o]!;
    out.visible = this.#visible(o);
    out.iceberg = ice === NIL ? 0 : this.#icebergs.display[ice]!;
    return true;
  }

  openOrders(userId: number): number[] {
    const ids: number[] = [];
    const u = this.#userIds.get(userId);
    if (u === NIL) return ids;
    const P = this.#orders;
    for (let o = this.#users.head[u]!; o !== NIL; o = P.unext[o]!) ids.push(P.id[o]!);
    return ids;
  }

  forEachResting(out: OrderView, visit: (order: OrderView) => void): void {
    const P = this.#orders;
    const L = this.#levels;
    for (const ladder of [this.#bids, this.#asks]) {
      for (let k = ladder.n - 1; k >= 0; k--) {
        for (let o = L.head[ladder.levels[k]!]!; o !== NIL; o = P.next[o]!) {
          this.order(P.id[o]!, out);
          visit(out);
        }
      }
    }
  }

  restoreResting(v: OrderView): void {
    const P = this.#orders;
    checkRestorable(v, this.#ids.get(v.orderId) !== NIL, this.#bestOpposite(v.side));
    const o = P.alloc();
    this.#ids.rebind(P.id); // the id column is replaced when the pool grows
    P.id[o] = v.orderId;
    P.amount[o] = v.amount;
    P.left[o] = v.left;
    P.stp[o] = v.stpId;
    P.side[o] = v.side;
    P.tif[o] = v.tif;
    P.act[o] = v.stpAct;
    P.ice[o] = v.iceberg > 0 ? this.#icebergs.alloc(v.iceberg, v.visible) : NIL;
    this.#ids.insert(v.orderId, o);
    this.#attachUser(o, v.userId);
    this.#enqueue(o, v.side, v.price);
  }

  stateHash(): string {
    const h = new StateHasher();
    h.add(this.#sideCount(this.#bids)).add(this.#sideCount(this.#asks));
    this.#hashSide(h, this.#bids);
    this.#hashSide(h, this.#asks);
    return h.digest();
  }

  assertInvariants(): void {
    const P = this.#orders;
    const L = this.#levels;
    const bb = this.bestBid();
    const ba = this.bestAsk();
    if (bb !== 0 && ba !== 0 && bb >= ba) throw new InvariantError(`crossed book: bid ${bb} ≥ ask ${ba}`);
    let seen = 0;
    for (const ladder of [this.#bids, this.#asks]) {
      const side = ladder === this.#bids ? Side.Buy : Side.Sell;
      for (let k = 0; k < ladder.n; k++) {
        if (k > 0 && !(ladder.keys[k - 1]! < ladder.keys[k]!)) throw new InvariantError('ladder not strictly sorted');
        const l = ladder.levels[k]!;
        if (L.price[l] !== ladder.priceAt(k)) throw new InvariantError('ladder key differs from level price');
        if (this.#levelAt.get(L.price[l]) !== l) throw new InvariantError(`level ${L.price[l]} not indexed by price`);
        if (L.head[l] === NIL || L.count[l]! <= 0) throw new InvariantError(`empty level at ${L.price[l]}`);
        let total = 0;
        let count = 0;
        let prev = NIL;
        for (let o = L.head[l]!; o !== NIL; o = P.next[o]!) {
          if (P.prev[o] !== prev || P.level[o] !== l || P.side[o] !== side) throw new InvariantError(`order ${P.id[o]} misplaced`);
          const vis = this.#visible(o);
          const left = P.left[o]!;
          if (!(vis > 0 && vis <= left && left <= P.amount[o]!)) throw new InvariantError(`order ${P.id[o]} visible/left out of range`);
          const ice = P.ice[o]!;
          if (ice !== NIL && vis > this.#icebergs.display[ice]!) throw new InvariantError(`iceberg ${P.id[o]} shows too much`);
          if (this.#ids.get(P.id[o]!) !== o) throw new InvariantError(`order ${P.id[o]} not indexed`);
          total += vis;
          count++;
          prev = o;
        }
        if (L.tail[l] !== prev) throw new InvariantError('level tail wrong');
        if (total !== L.total[l] || count !== L.count[l]) throw new InvariantError(`level ${L.price[l]} total or count wrong`);
        seen += count;
      }
    }
    if (seen !== P.used || this.#ids.count !== P.used) throw new InvariantError('order count differs from index');
    if (this.#levelAt.count !== this.#bids.n + this.#asks.n) throw new InvariantError('level count differs from price index');
    let listed = 0;
    for (let u = 0; u < this.#users.capacity; u++) {
      if (this.#userIds.get(this.#users.uid[u]!) !== u) continue;
      let n = 0;
      for (let o = this.#users.head[u]!; o !== NIL; o = P.unext[o]!) {
        if (P.user[o] !== u) throw new InvariantError('order on a foreign user list');
        n++;
      }
      if (n === 0 || n !== this.#users.count[u]) throw new InvariantError('user list count wrong');
      listed += n;
    }
    if (listed !== P.used) throw new InvariantError('user lists do not cover every order');
  }

  // ——— matching ———

  /**
   * Matches a taker against the opposite side (contract step 4). Writes Fill/Finished events, leaves what is
   * left of the taker in #left and whether it filled in #filledAny; returns how it ended (Ended).
   * `amount` is lots, or the quote budget in notional units for a market buy.
   */
  #match(takerId: number, takerUser: number, takerStp: number, act: number, side: number, isMarket: boolean,
    limit: number, amount: number, out: BookEvents): number {
    const ladder = side === Side.Buy ? this.#asks : this.#bids;
    const makerSide = side === Side.Buy ? Side.Sell : Side.Buy;
    const marketBuy = isMarket && side === Side.Buy;
    const P = this.#orders;
    const L = this.#levels;
    const I = this.#icebergs;
    const uid = this.#users.uid;
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
          out.finished(P.id[o]!, uid[P.user[o]!]!, FinishAs.Stp, P.left[o]!);
          const levelGone = this.#remove(o);
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
        out.fill(takerId, takerUser, P.id[o]!, uid[P.user[o]!]!, makerSide, price, lots);
        P.left[o] = makerLeft;
        L.total[lvl] = L.total[lvl]! - lots;
        if (ice !== NIL) I.shown[ice] = shown - lots;
        let levelGone = false;
        if (makerLeft === 0) {
          out.finished(P.id[o]!, uid[P.user[o]!]!, FinishAs.Filled, 0);
          levelGone = this.#remove(o);
        } else if (ice !== NIL && shown === lots) {
          this.#refill(o, ice, lvl, makerLeft);
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

  /** Shows the next slice of an iceberg whose display is used up and sends it to the back of its level. */
  #refill(o: number, ice: number, lvl: number, left: number): void {
    const I = this.#icebergs;
    const L = this.#levels;
    const shown = Math.min(I.display[ice]!, left);
    I.shown[ice] = shown;
    L.total[lvl] = L.total[lvl]! + shown;
    if (L.tail[lvl] === o) return;
    this.#unlinkFifo(o, lvl);
    this.#appendFifo(o, lvl);
  }

  /**
   * Would a FOK taker fill entirely? Walks what the match would meet, read-only (contract step 3): per level,
   * the orders before the first self-match that stops it (CancelOld makers are skipped as they would be
   * cancelled), plus — when nothing stops it — the hidden lots of the level's icebergs, which refills bring back.
   */
  #fokFeasible(side: number, isMarket: boolean, limit: number, amount: number, takerStp: number, act: number): boolean {
    const ladder = side === Side.Buy ? this.#asks : this.#bids;
    const marketBuy = isMarket && side === Side.Buy;
    const P = this.#orders;
    const L = this.#levels;
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
        const vis = this.#visible(o);
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

  // ——— resting orders ———

  /** Rests a new order at the back of its level. */
  #rest(id: number, userId: number, stp: number, side: number, tif: number, act: number, price: number,
    amount: number, left: number, iceberg: number): void {
    const P = this.#orders;
    const o = P.alloc();
    this.#ids.rebind(P.id); // the id column is replaced when the pool grows
    P.id[o] = id;
    P.amount[o] = amount;
    P.left[o] = left;
    P.stp[o] = stp;
    P.side[o] = side;
    P.tif[o] = tif;
    P.act[o] = act;
    P.ice[o] = iceberg > 0 ? this.#icebergs.alloc(iceberg, Math.min(iceberg, left)) : NIL;
    this.#ids.insert(id, o);
    this.#attachUser(o, userId);
    this.#enqueue(o, side, price);
  }

  /** Appends order `o` (not linked to any level) at the back of the level at `price`, creating the level. */
  #enqueue(o: number, side: number, price: number): void {
    const L = this.#levels;
    let lvl = this.#levelAt.get(price);
    if (lvl === NIL) {
      const ladder = side === Side.Buy ? this.#bids : this.#asks;
      lvl = L.alloc(price);
      this.#levelAt.rebind(L.price); // the price column is replaced when the pool grows
      this.#levelAt.insert(price, lvl);
      ladder.insertAt(-ladder.search(price) - 1, price, lvl);
    }
    this.#appendFifo(o, lvl);
    this.#orders.level[o] = lvl;
    L.total[lvl] = L.total[lvl]! + this.#visible(o);
  }

  /** Removes a resting order entirely (level, id index, user list, pools). Returns true if its level emptied. */
  #remove(o: number): boolean {
    const gone = this.#detach(o);
    this.#forget(o);
    return gone;
  }

  /** Unlinks `o` from its level, dropping the level when it empties. Returns true if it did. */
  #detach(o: number): boolean {
    const P = this.#orders;
    const L = this.#levels;
    const lvl = P.level[o]!;
    L.total[lvl] = L.total[lvl]! - this.#visible(o);
    this.#unlinkFifo(o, lvl);
    if (L.count[lvl] !== 0) return false;
    const ladder = P.side[o] === Side.Buy ? this.#bids : this.#asks;
    const top = ladder.n - 1;
    const price = L.price[lvl]!;
    ladder.removeAt(ladder.levels[top] === lvl ? top : ladder.search(price));
    this.#levelAt.remove(price);
    L.release(lvl);
    return true;
  }

  /** Releases an order that is in no level: id index, user list, iceberg and order records. */
  #forget(o: number): void {
    const P = this.#orders;
    this.#ids.remove(P.id[o]!);
    this.#detachUser(o);
    const ice = P.ice[o]!;
    if (ice !== NIL) this.#icebergs.release(ice);
    P.release(o);
  }

  #appendFifo(o: number, lvl: number): void {
    const P = this.#orders;
    const L = this.#levels;
    const tail = L.tail[lvl]!;
    P.prev[o] = tail;
    P.next[o] = NIL;
    if (tail === NIL) L.head[lvl] = o;
    else P.next[tail] = o;
    L.tail[lvl] = o;
    L.count[lvl] = L.count[lvl]! + 1;
  }

  #unlinkFifo(o: number, lvl: number): void {
    const P = this.#orders;
    const L = this.#levels;
    const prev = P.prev[o]!;
    const next = P.next[o]!;
    if (prev === NIL) L.head[lvl] = next;
    else P.next[prev] = next;
    if (next === NIL) L.tail[lvl] = prev;
    else P.prev[next] = prev;
    L.count[lvl] = L.count[lvl]! - 1;
  }

  #attachUser(o: number, userId: number): void {
    const U = this.#users;
    let u = userId === this.#lastUserId ? this.#lastUser : this.#userIds.get(userId);
    if (u === NIL) {
      u = U.alloc(userId);
      this.#userIds.rebind(U.uid);
      this.#userIds.insert(userId, u);
    }
    this.#lastUserId = userId;
    this.#lastUser = u;
    const P = this.#orders;
    const tail = U.tail[u]!;
    P.user[o] = u;
    P.uprev[o] = tail;
    P.unext[o] = NIL;
    if (tail === NIL) U.head[u] = o;
    else P.unext[tail] = o;
    U.tail[u] = o;
    U.count[u] = U.count[u]! + 1;
  }

  #detachUser(o: number): void {
    const U = this.#users;
    const P = this.#orders;
    const u = P.user[o]!;
    const prev = P.uprev[o]!;
    const next = P.unext[o]!;
    if (prev === NIL) U.head[u] = next;
    else P.unext[prev] = next;
    if (next === NIL) U.tail[u] = prev;
    else P.uprev[next] = prev;
    const count = U.count[u]! - 1;
    U.count[u] = count;
    if (count === 0) {
      this.#userIds.remove(U.uid[u]!);
      U.release(u);
      if (u === this.#lastUser) this.#lastUserId = -1;
    }
  }

  /** Cancels the matching orders of one side in priority order (cancelAll). */
  #cancelSide(ladder: PriceLadder, userId: number, out: BookEvents): void {
    const P = this.#orders;
    const L = this.#levels;
    const uid = this.#users.uid;
    for (let k = ladder.n - 1; k >= 0; k--) {
      const lvl = ladder.levels[k]!;
      for (let o = L.head[lvl]!; o !== NIL;) {
        const next = P.next[o]!;
        const owner = uid[P.user[o]!]!;
        if (userId === 0 || owner === userId) {
          out.finished(P.id[o]!, owner, FinishAs.Cancelled, P.left[o]!);
          this.#remove(o);
        }
        o = next;
      }
    }
  }

  #visible(o: number): number {
    const ice = this.#orders.ice[o]!;
    return ice === NIL ? this.#orders.left[o]! : this.#icebergs.shown[ice]!;
  }

  #bestOpposite(side: number): number {
    return side === Side.Buy ? this.bestAsk() : this.bestBid();
  }

  #sideCount(ladder: PriceLadder): number {
    let n = 0;
    for (let k = 0; k < ladder.n; k++) n += this.#levels.count[ladder.levels[k]!]!;
    return n;
  }

  #hashSide(h: StateHasher, ladder: PriceLadder): void {
    const P = this.#orders;
    const L = this.#levels;
    for (let k = ladder.n - 1; k >= 0; k--) {
      const lvl = ladder.levels[k]!;
      for (let o = L.head[lvl]!; o !== NIL; o = P.next[o]!) {
        const ice = P.ice[o]!;
        hashRestingOrder(h, P.id[o]!, this.#users.uid[P.user[o]!]!, P.stp[o]!, P.side[o]!, P.tif[o]!, P.act[o]!,
          L.price[lvl]!, P.amount[o]!, P.left[o]!, this.#visible(o), ice === NIL ? 0 : this.#icebergs.display[ice]!);
      }
    }
  }
}
