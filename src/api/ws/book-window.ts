/**
 * A mirror of the best `depth` levels of each side of one market's book, and the increments that carry a
 * client's copy from one state of that window to the next (spot.obu, spot.order_book_update).
 *
 * Contract: after `diff(source)` the mirror equals the source's best `depth` levels, and the returned
 * changes — (price, lots) per level whose size differs, lots 0 for a level that left the window (removed
 * from the book, or pushed below the window by better levels) — applied to a copy of the previous mirror
 * give exactly the new one. So a client that starts from `snapshot()` and applies every increment holds the
 * window, level for level.
 * Costs: one `depth` read of `depth` levels per side and a linear merge; the mirror and scratch arrays are
 * allocated once; only the change lists allocate (and only when something changed).
 */
import { Side } from '../../core/matching/order-types.js';
import type { DepthSource } from '../market-data/depth-source.js';

/** Changed levels per side as (ticks, lots) pairs; lots 0 removes a level. */
export interface WindowChanges {
  readonly bids: number[];
  readonly asks: number[];
}

class SideMirror {
  prices: Float64Array;
  lots: Float64Array;
  count = 0;
  next: Float64Array;
  nextLots: Float64Array;

  constructor(depth: number) {
    this.prices = new Float64Array(depth);
    this.lots = new Float64Array(depth);
    this.next = new Float64Array(depth);
    this.nextLots = new Float64Array(depth);
  }

  /** Reads the side into the scratch arrays, appends the differences to `out`, then swaps. */
  diff(source: DepthSource, side: number, out: number[]): void {
    const n = source.depth(side, this.prices.length, this.next, this.nextLots);
    // Asks ascend and bids descend; `key` makes both ascend so one merge serves both.
    const sign = side === Side.Buy ? -1 : 1;
    let i = 0;
    let j = 0;
    const old = this.count;
    while (i < old || j < n) {
      if (j >= n || (i < old && sign * this.prices[i]! < sign * this.next[j]!)) {
        out.push(this.prices[i]!, 0);
        i++;
      } else if (i >= old || sign * this.next[j]! < sign * this.prices[i]!) {
        out.push(this.next[j]!, this.nextLots[j]!);
        j++;
      } else {
        if (this.lots[i] !== this.nextLots[j]) out.push(this.next[j]!, this.nextLots[j]!);
        i++;
        j++;
      }
    }
    [this.prices, this.next] = [this.next, this.prices];
    [this.lots, this.nextLots] = [this.nextLots, this.lots];
    this.count = n;
  }
}

export class BookWindow {
  readonly market: number;
  readonly depth: number;
  /** The `u` of the last increment published (or of the snapshot the window started from). */
  lastU: number;
  readonly #bids: SideMirror;
  readonly #asks: SideMirror;

  /** Starts mirroring `source` at book version `version`. @allocates */
  constructor(market: number, depth: number, source: DepthSource, version: number) {
    this.market = market;
    this.depth = depth;
    this.lastU = version;
    this.#bids = new SideMirror(depth);
    this.#asks = new SideMirror(depth);
    this.diff(source);
  }

  /** Moves the mirror to the source's current state; the changes, or undefined when the window is unchanged. */
  diff(source: DepthSource): WindowChanges | undefined {
    const bids: number[] = [];
    const asks: number[] = [];
    this.#bids.diff(source, Side.Buy, bids);
    this.#asks.diff(source, Side.Sell, asks);
    return bids.length === 0 && asks.length === 0 ? undefined : { bids, asks };
  }

  /** The mirrored levels, best first, as (ticks, lots) pairs. @allocates */
  snapshot(): WindowChanges {
    const side = (s: SideMirror): number[] => {
      const out: number[] = [];
      for (let k = 0; k < s.count; k++) out.push(s.prices[k]!, s.lots[k]!);
      return out;
    };
    return { bids: side(this.#bids), asks: side(this.#asks) };
  }
}
