/**
 * One market's candles at one interval: a ring of the last `capacity` non-empty buckets, columnar.
 * Buckets are numbered (see intervals.ts); only buckets that saw a fill are stored, so the ring spans
 * `capacity` traded buckets however sparse trading is.
 *
 * Contract: fills arrive in time order (the sequencer's clock never decreases). A fill for the newest
 * bucket or a later one costs O(1); an earlier one updates its bucket if still retained (O(log capacity))
 * and is dropped otherwise. Allocation: none after construction.
 */
export class CandleSeries {
  readonly capacity: number;
  readonly k: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  /** Base traded, in lots. */
  readonly base: Float64Array;
  /** Quote traded, in notional units (ticks × lots). */
  readonly quote: Float64Array;
  /** Physical slot of the oldest retained bucket. */
  #first = 0;
  size = 0;
  /** Close of the newest bucket the ring overwrote (NaN when none): the carry before the oldest retained. */
  evictedClose = Number.NaN;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.k = new Float64Array(capacity);
    this.open = new Float64Array(capacity);
    this.high = new Float64Array(capacity);
    this.low = new Float64Array(capacity);
    this.close = new Float64Array(capacity);
    this.base = new Float64Array(capacity);
    this.quote = new Float64Array(capacity);
  }

  /** Physical slot of the j-th retained bucket, oldest first. */
  slot(j: number): number {
    return (this.#first + j) % this.capacity;
  }

  /** Adds a fill to bucket `k`. */
  add(k: number, price: number, lots: number, notional: number): void {
    let s: number;
    const newest = this.size === 0 ? Number.NEGATIVE_INFINITY : this.k[this.slot(this.size - 1)]!;
    if (k > newest) {
      if (this.size === this.capacity) {
        this.evictedClose = this.close[this.#first]!;
        this.#first = (this.#first + 1) % this.capacity;
        this.size--;
      }
      s = this.slot(this.size);
      this.size++;
      this.k[s] = k; this.open[s] = price; this.high[s] = price; this.low[s] = price; this.close[s] = price;
      this.base[s] = lots; this.quote[s] = notional;
      return;
    }
    const j = k === newest ? this.size - 1 : this.lowerBound(k);
    if (j === this.size || this.k[(s = this.slot(j))] !== k) return;
    if (price > this.high[s]!) this.high[s] = price;
    if (price < this.low[s]!) this.low[s] = price;
    if (j === this.size - 1) this.close[s] = price;
    this.base[s] = this.base[s]! + lots;
    this.quote[s] = this.quote[s]! + notional;
  }

  /** Index j (oldest first) of the first retained bucket numbered ≥ k; `size` when none. O(log size). */
  lowerBound(k: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.k[this.slot(mid)]! < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
