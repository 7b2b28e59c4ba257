/**
 * Our resting orders as the market-data replay models them against the public book: queue position, and how
 * much of a public trade or a crossing book fills each. The engine's book holds the orders themselves; this
 * keeps the model's view (ahead, trades since the last depth update) and decides fill amounts, which the
 * replay then executes through the engine (so matching, fees and the ledger are the live ones).
 *
 * Priority: better price first, then arrival, exactly as the engine's book orders them; at one price an
 * order fills only after the orders before it there are filled, so one counter-order per decision gives the
 * engine's allocation and the model's the same. Liquidity consumption (default on): a trade's size, and each
 * displayed level, is a budget shared by all our orders; off, each order sees the whole of it.
 */
import type { L2Book } from './l2-book.js';
import type { QueueModel } from './models/queue.js';

const BUY = 1;

export class Resting {
  constructor(
    readonly orderId: number, readonly uid: number, readonly ref: number, readonly side: number,
    readonly price: number, public left: number, public ahead: number, readonly arrival: number,
  ) {}
  /** Public trade volume at this order's price since the last depth update there. */
  traded = 0;
  /** Lots the current decision gives it. */
  alloc = 0;
}

/** Consumed displayed size per level (lots), per side. */
export class Consumption {
  readonly #bySide = [new Map<number, number>(), new Map<number, number>(), new Map<number, number>()];
  get(side: number, price: number): number { return this.#bySide[side]!.get(price) ?? 0; }
  add(side: number, price: number, lots: number): void { this.#bySide[side]!.set(price, this.get(side, price) + lots); }
  /** The level went from `prev` to `next`: decreases eat our consumption first; a removed level clears it. */
  depth(side: number, price: number, prev: number, next: number): void {
    const m = this.#bySide[side]!;
    const c = m.get(price);
    if (c === undefined) return;
    const left = next === 0 ? 0 : Math.max(0, c - Math.max(0, prev - next));
    if (left === 0) m.delete(price); else m.set(price, left);
  }
  clear(): void { for (const m of this.#bySide) m.clear(); }
}

export class OwnOrders {
  /** In priority order per side: best price first, then arrival. */
  readonly #bids: Resting[] = [];
  readonly #asks: Resting[] = [];
  readonly byId = new Map<number, Resting>();
  #arrivals = 0;
  /** Decision output: orders with alloc > 0, in priority order. */
  readonly chosen: Resting[] = [];

  get size(): number { return this.byId.size; }

  add(orderId: number, uid: number, ref: number, side: number, price: number, left: number, ahead: number): Resting {
    const r = new Resting(orderId, uid, ref, side, price, left, ahead, ++this.#arrivals);
    const list = side === BUY ? this.#bids : this.#asks;
    let i = list.length;
    while (i > 0 && (side === BUY ? list[i - 1]!.price < price : list[i - 1]!.price > price)) i--;
    list.splice(i, 0, r);
    this.byId.set(orderId, r);
    return r;
  }

  remove(orderId: number): void {
    const r = this.byId.get(orderId);
    if (r === undefined) return;
    this.byId.delete(orderId);
    const list = r.side === BUY ? this.#bids : this.#asks;
    list.splice(list.indexOf(r), 1);
  }

  side(side: number): readonly Resting[] {
    return side === BUY ? this.#bids : this.#asks;
  }

  /**
   * A public trade of `amount` lots at `price`, the aggressor on `aggSide`: fills our orders on the other side
   * priced through or at the trade. Fills land in `chosen` (alloc); returns the total.
   */
  allocateTrade(aggSide: number, price: number, amount: number, consume: boolean): number {
    this.chosen.length = 0;
    const list = aggSide === BUY ? this.#asks : this.#bids;
    let budget = amount;
    let total = 0;
    let blockedAt = Number.NaN;
    for (const r of list) {
      const through = aggSide === BUY ? r.price < price : r.price > price;
      if (!through && r.price !== price) break;
      const avail = consume ? budget : amount;
      let fill: number;
      if (through) {
        fill = r.price === blockedAt ? 0 : Math.min(r.left, avail);
      } else {
        fill = r.price === blockedAt ? 0 : Math.min(r.left, Math.max(0, Math.floor(avail - r.ahead)));
        r.ahead = Math.max(0, r.ahead - avail);
        r.traded += amount;
      }
      if (fill < r.left) blockedAt = r.price;
      if (fill > 0) {
        r.alloc = fill;
        this.chosen.push(r);
        total += fill;
        budget -= fill;
      }
    }
    return total;
  }

  /** A depth update at one level: queue positions there follow the model. */
  depth(side: number, price: number, prev: number, next: number, model: QueueModel): void {
    for (const r of side === BUY ? this.#bids : this.#asks) {
      if (r.price !== price) continue;
      r.ahead = model.depth(r.ahead, prev, next, r.traded);
      r.traded = 0;
    }
  }

  /**
   * After a depth batch: our orders on `side` that the opposite side now reaches (best ask ≤ our bid, or best
   * bid ≥ our ask) fill at their own price against the displayed size left after consumption (recorded in
   * `consumed` when consumption is on). Fills land in `chosen`; returns the total.
   */
  allocateCross(side: number, book: L2Book, consumed: Consumption, consume: boolean): number {
    this.chosen.length = 0;
    const list = side === BUY ? this.#bids : this.#asks;
    const opp = side === BUY ? 2 : BUY;
    let total = 0;
    for (const r of list) {
      let fill = 0;
      for (let level = 0; fill < r.left && level < book.levels(opp); level++) {
        const p = book.priceAt(opp, level);
        if (side === BUY ? p > r.price : p < r.price) break;
        const avail = book.sizeAtLevel(opp, level) - (consume ? consumed.get(opp, p) : 0);
        const take = Math.min(r.left - fill, Math.max(0, avail));
        if (take > 0 && consume) consumed.add(opp, p, take);
        fill += take;
      }
      if (fill === 0) break;
      r.alloc = fill;
      this.chosen.push(r);
      total += fill;
      if (fill < r.left) break;
    }
    return total;
  }
}
