/**
 * The public L2 book rebuilt from data: per side, price levels (ticks) with their displayed size (lots).
 * Each side is a sorted pair of typed arrays with the best level LAST (bids ascending, asks descending), so
 * the updates that dominate real feeds (near the top) move few elements. Lookup is a binary search;
 * insert and delete shift the levels behind (copyWithin). No allocation per update once grown.
 */
import { StateHasher } from '../core/state-hash.js';

const BID = 1;

class Side {
  n = 0;
  prices = new Float64Array(1024);
  sizes = new Float64Array(1024);
  /** +1 for bids (ascending storage), -1 for asks (descending). */
  constructor(readonly dir: number) {}

  /** Index of `price`, or -(insertion point) - 1. */
  find(price: number): number {
    const p = this.prices;
    const d = this.dir;
    let lo = 0;
    let hi = this.n - 1;
    // Fast path: the best level.
    if (hi >= 0 && p[hi] === price) return hi;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = p[mid]!;
      if (v === price) return mid;
      if ((v - price) * d < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -lo - 1;
  }

  set(price: number, size: number): number {
    const i = this.find(price);
    if (i >= 0) {
      const old = this.sizes[i]!;
      if (size === 0) {
        this.prices.copyWithin(i, i + 1, this.n);
        this.sizes.copyWithin(i, i + 1, this.n);
        this.n--;
      } else {
        this.sizes[i] = size;
      }
      return old;
    }
    if (size === 0) return 0;
    const at = -i - 1;
    if (this.n === this.prices.length) this.#grow();
    this.prices.copyWithin(at + 1, at, this.n);
    this.sizes.copyWithin(at + 1, at, this.n);
    this.prices[at] = price;
    this.sizes[at] = size;
    this.n++;
    return 0;
  }

  #grow(): void {
    const p = new Float64Array(this.prices.length * 2);
    const s = new Float64Array(this.prices.length * 2);
    p.set(this.prices);
    s.set(this.sizes);
    this.prices = p;
    this.sizes = s;
  }
}

export class L2Book {
  readonly #bids = new Side(1);
  readonly #asks = new Side(-1);
  /** Level updates applied (including deletes). */
  updates = 0;

  #side(side: number): Side {
    return side === BID ? this.#bids : this.#asks;
  }

  /** Sets a level's absolute size (0 removes it); returns the previous size (0 if none). */
  set(side: number, price: number, size: number): number {
    this.updates++;
    return this.#side(side).set(price, size);
  }

  clear(): void {
    this.#bids.n = 0;
    this.#asks.n = 0;
  }

  /** Displayed size at a price (0 if no level). */
  sizeAt(side: number, price: number): number {
    const s = this.#side(side);
    const i = s.find(price);
    return i >= 0 ? s.sizes[i]! : 0;
  }

  /** Number of levels on a side. */
  levels(side: number): number {
    return this.#side(side).n;
  }

  /** Price of the k-th level from the best (k = 0 is the best); NaN past the end. */
  priceAt(side: number, k: number): number {
    const s = this.#side(side);
    return k < s.n ? s.prices[s.n - 1 - k]! : Number.NaN;
  }

  /** Size of the k-th level from the best. */
  sizeAtLevel(side: number, k: number): number {
    const s = this.#side(side);
    return k < s.n ? s.sizes[s.n - 1 - k]! : 0;
  }

  /** Best bid (side 1) or ask (side 2) price, or NaN when the side is empty. */
  best(side: number): number {
    return this.priceAt(side, 0);
  }

  /** True when best bid ≥ best ask (data glitch or a replay artefact). */
  crossed(): boolean {
    return this.#bids.n > 0 && this.#asks.n > 0 && this.best(1) >= this.best(2);
  }

  /** Hash of every level, best first per side. @allocates (the digest) */
  stateHash(h = new StateHasher()): string {
    for (const s of [this.#bids, this.#asks]) {
      h.add(s.n);
      for (let i = s.n - 1; i >= 0; i--) h.add(s.prices[i]!).add(s.sizes[i]!);
    }
    return h.digest();
  }

  /** Up to `limit` levels per side as [price, size] in ticks/lots, best first. @allocates */
  top(limit: number): { bids: [number, number][]; asks: [number, number][] } {
    const take = (side: number): [number, number][] => {
      const out: [number, number][] = [];
      for (let k = 0; k < Math.min(limit, this.levels(side)); k++) out.push([this.priceAt(side, k), this.sizeAtLevel(side, k)]);
      return out;
    };
    return { bids: take(1), asks: take(2) };
  }
}
