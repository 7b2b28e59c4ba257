/**
 * An L2 replica of every market's book, kept from the engine's results alone: the book events of each
 * completed command plus the order records R2 left behind. It serves depth where the books themselves live
 * elsewhere (the threaded runner's shard workers) and must equal `OrderBook.depth` exactly — a differential
 * test runs it beside the inline engine's books.
 *
 * What it replays of the books' rules (see NaiveOrderBook): a resting order shows `visible` lots, its whole
 * `left` unless it is an iceberg, then at most `iceberg`; a fill takes lots from the maker's visible part and
 * an iceberg whose visible part reaches zero shows again (min(iceberg, left)); an amend that keeps the price
 * and shrinks keeps the visible part (capped by the new left), any other amend re-rests the order with a
 * fresh visible part after it matched. Orders a command accepted or re-rested are looked up in the order
 * records once the command is complete: open ones rest at their record's price and left.
 *
 * Cost per command: O(events · log levels) plus a level insertion or removal (O(levels)) when a price level
 * appears or empties. Allocates a small record per resting order and per price level.
 */
import { type BookEvents, EventKind } from '../matching/book-events.js';
import { Side } from '../matching/order-types.js';
import type { Command } from '../command.js';
import type { OrderStore } from './order-store.js';

interface Resting {
  readonly market: number;
  readonly side: number;
  price: number;
  left: number;
  visible: number;
  readonly iceberg: number;
}

const shown = (iceberg: number, left: number): number => (iceberg > 0 ? Math.min(iceberg, left) : left);

/** A book's resting orders as columns (what snapshots capture), one row per order. */
export interface RestingColumns {
  readonly id: ArrayLike<number>;
  readonly side: ArrayLike<number>;
  readonly price: ArrayLike<number>;
  readonly left: ArrayLike<number>;
  readonly visible: ArrayLike<number>;
  readonly iceberg: ArrayLike<number>;
}

/** One side of one market: lots per price, and the prices in ascending order. */
class Levels {
  readonly lots = new Map<number, number>();
  readonly prices: number[] = [];

  add(price: number, delta: number): void {
    const now = (this.lots.get(price) ?? 0) + delta;
    if (now > 0) {
      if (!this.lots.has(price)) this.prices.splice(lowerBound(this.prices, price), 0, price);
      this.lots.set(price, now);
    } else {
      this.lots.delete(price);
      const i = lowerBound(this.prices, price);
      if (this.prices[i] === price) this.prices.splice(i, 1);
    }
  }
}

function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class BookMirror {
  readonly #bids: Levels[];
  readonly #asks: Levels[];
  readonly #resting = new Map<number, Resting>();
  /** Orders of the current command to look up once it completes (accepted, or re-rested by an amend). */
  readonly #toRest: number[] = [];

  constructor(markets: number) {
    this.#bids = Array.from({ length: markets }, () => new Levels());
    this.#asks = Array.from({ length: markets }, () => new Levels());
  }

  /** Applies one completed command: its book events, then the records of the orders it (re-)rested. */
  apply(cmd: Command, events: BookEvents, orders: OrderStore): void {
    for (let i = 0; i < events.count; i++) {
      const kind = events.kind[i];
      if (kind === EventKind.Accepted) {
        this.#toRest.push(events.orderId[i]!);
      } else if (kind === EventKind.Fill) {
        const m = this.#resting.get(events.makerOrderId[i]!);
        if (m !== undefined) this.#fill(m, events.lots[i]!);
      } else if (kind === EventKind.Finished) {
        this.#remove(events.orderId[i]!);
      } else if (kind === EventKind.Amended) {
        this.#amend(events.orderId[i]!, events.price[i]!, events.lots[i]!);
      }
    }
    for (const id of this.#toRest) {
      const r = orders.find(id);
      if (r < 0 || orders.finishAs[r] !== 0 || this.#resting.has(id)) continue;
      const o: Resting = { market: cmd.market, side: orders.side[r]!, price: orders.price[r]!, left: orders.left[r]!,
        visible: 0, iceberg: orders.iceberg[r]! };
      o.visible = shown(o.iceberg, o.left);
      this.#resting.set(id, o);
      this.#levels(o).add(o.price, o.visible);
    }
    this.#toRest.length = 0;
  }

  /**
   * Mirrors the resting orders of a restored book (a snapshot's columns, any order: levels are sums), before
   * any command is applied to it.
   */
  restore(market: number, s: RestingColumns): void {
    for (let i = 0; i < s.id.length; i++) {
      const o: Resting = { market, side: s.side[i]!, price: s.price[i]!, left: s.left[i]!, visible: s.visible[i]!, iceberg: s.iceberg[i]! };
      this.#resting.set(s.id[i]!, o);
      this.#levels(o).add(o.price, o.visible);
    }
  }

  /** Writes up to `limit` levels of `side` of `market`, best first; returns the count (as OrderBook.depth). */
  depth(market: number, side: number, limit: number, prices: Float64Array, lots: Float64Array): number {
    const levels = side === Side.Buy ? this.#bids[market] : side === Side.Sell ? this.#asks[market] : undefined;
    if (levels === undefined) return 0;
    const p = levels.prices;
    const n = Math.max(0, Math.min(limit, p.length, prices.length, lots.length));
    for (let k = 0; k < n; k++) {
      const price = side === Side.Buy ? p[p.length - 1 - k]! : p[k]!;
      prices[k] = price;
      lots[k] = levels.lots.get(price)!;
    }
    return n;
  }

  /** Resting orders mirrored (tests). */
  get restingCount(): number {
    return this.#resting.size;
  }

  #levels(o: Resting): Levels {
    return (o.side === Side.Buy ? this.#bids : this.#asks)[o.market]!;
  }

  #fill(m: Resting, lots: number): void {
    const levels = this.#levels(m);
    levels.add(m.price, -lots);
    m.left -= lots;
    m.visible -= lots;
    if (m.left > 0 && m.visible === 0) {
      m.visible = shown(m.iceberg, m.left);
      levels.add(m.price, m.visible);
    }
  }

  #remove(id: number): void {
    const o = this.#resting.get(id);
    if (o === undefined) return;
    if (o.visible > 0) this.#levels(o).add(o.price, -o.visible);
    this.#resting.delete(id);
  }

  #amend(id: number, price: number, left: number): void {
    const o = this.#resting.get(id);
    if (o === undefined) return;
    if (price === o.price && left < o.left) {
      const visible = o.iceberg > 0 ? Math.min(o.visible, left) : left;
      this.#levels(o).add(o.price, visible - o.visible);
      o.left = left;
      o.visible = visible;
      return;
    }
    this.#remove(id);
    this.#toRest.push(id);
  }
}
