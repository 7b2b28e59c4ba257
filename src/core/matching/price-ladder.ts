/**
 * The populated price levels of one book side, sorted so that the best level is LAST.
 *
 * Keys are `sign × price` in ascending order: bids use sign +1 (highest price last), asks -1 (lowest price last).
 * Matching takes and removes levels at the end, so the common operations (best level, new best, emptied best)
 * are O(1); other inserts and removals shift the worse levels (a loop for a few, else `copyWithin`, a memmove).
 * Lookup by price is a binary search, O(log L).
 *
 * Allocation: none, except doubling both arrays when full (rare; the ladder never shrinks).
 */
import { ColumnBlock } from '../typed-arrays.js';

/**
 * Shifts of at most this many entries are done in a loop: copyWithin is a call into the runtime that costs about
 * as much as moving 16 entries by hand.
 */
const SHORT_SHIFT = 16;

export class PriceLadder {
  /** sign × price, ascending. Valid in [0, n). */
  keys!: Float64Array;
  /** Level record per key. Valid in [0, n). */
  levels!: Int32Array;
  n = 0;

  constructor(readonly sign: 1 | -1, capacity = 256) {
    this.#layout(capacity);
  }

  /** Level record at the best price, or -1 when empty. */
  best(): number {
    return this.n === 0 ? -1 : this.levels[this.n - 1]!;
  }

  /** Position of `price`, or `-(insertion point) - 1` when absent. */
  search(price: number): number {
    const key = this.sign * price;
    const keys = this.keys;
    let lo = 0;
    let hi = this.n - 1;
    // Fast path: at or beyond the best price (new best, or the best level itself).
    if (hi >= 0) {
      const top = keys[hi]!;
      if (key === top) return hi;
      if (key > top) return -(hi + 1) - 1;
    }
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid]!;
      if (k < key) lo = mid + 1;
      else if (k > key) hi = mid - 1;
      else return mid;
    }
    return -lo - 1;
  }

  /** Inserts a level at position `pos` (from a negative `search` result: pos = -r - 1). */
  insertAt(pos: number, price: number, level: number): void {
    if (this.n === this.keys.length) this.#layout(this.n * 2);
    const n = this.n;
    const keys = this.keys;
    const levels = this.levels;
    if (n - pos > SHORT_SHIFT) {
      keys.copyWithin(pos + 1, pos, n);
      levels.copyWithin(pos + 1, pos, n);
    } else {
      for (let k = n; k > pos; k--) {
        keys[k] = keys[k - 1]!;
        levels[k] = levels[k - 1]!;
      }
    }
    keys[pos] = this.sign * price;
    levels[pos] = level;
    this.n = n + 1;
  }

  /** Removes the level at position `pos`. */
  removeAt(pos: number): void {
    const n = this.n - 1;
    const keys = this.keys;
    const levels = this.levels;
    if (n - pos > SHORT_SHIFT) {
      keys.copyWithin(pos, pos + 1, n + 1);
      levels.copyWithin(pos, pos + 1, n + 1);
    } else {
      for (let k = pos; k < n; k++) {
        keys[k] = keys[k + 1]!;
        levels[k] = levels[k + 1]!;
      }
    }
    this.n = n;
  }

  /** Price at position `pos`. */
  priceAt(pos: number): number {
    return this.sign * this.keys[pos]!;
  }

  /** Moves both arrays to one block of `n` entries (undefined arrays: the constructor's first layout). @allocates (rare) */
  #layout(n: number): void {
    const b = new ColumnBlock(n, 1, 1, 0);
    this.keys = b.f64(this.keys);
    this.levels = b.i32(this.levels);
  }
}
