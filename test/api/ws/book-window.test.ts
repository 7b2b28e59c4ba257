// BookWindow: a client that starts from the snapshot and applies every increment holds exactly the best
// `depth` levels of each side, through seeded random book changes (levels appearing, resizing, vanishing,
// entering and leaving the window).
import { describe, expect, it } from 'vitest';
import { Side } from '../../../src/core/matching/order-types.js';
import { Prng } from '../../../src/core/prng.js';
import { BookWindow } from '../../../src/api/ws/book-window.js';
import type { DepthSource } from '../../../src/api/market-data/depth-source.js';

/** A book as price → lots per side, read best first. */
class MapBook implements DepthSource {
  readonly sides = new Map<number, Map<number, number>>([[Side.Buy, new Map()], [Side.Sell, new Map()]]);
  depth(side: number, limit: number, prices: Float64Array, lots: Float64Array): number {
    const levels = [...this.sides.get(side)!.entries()].sort((a, b) => (side === Side.Buy ? b[0] - a[0] : a[0] - b[0]));
    const n = Math.min(limit, levels.length);
    for (let i = 0; i < n; i++) { prices[i] = levels[i]![0]; lots[i] = levels[i]![1]; }
    return n;
  }
}

function apply(copy: Map<number, number>, flat: number[]): void {
  for (let k = 0; k < flat.length; k += 2) {
    if (flat[k + 1] === 0) copy.delete(flat[k]!);
    else copy.set(flat[k]!, flat[k + 1]!);
  }
}

function top(book: MapBook, side: number, depth: number): [number, number][] {
  const p = new Float64Array(depth);
  const l = new Float64Array(depth);
  const n = book.depth(side, depth, p, l);
  return Array.from({ length: n }, (_, i) => [p[i]!, l[i]!]);
}

const sorted = (m: Map<number, number>, side: number): [number, number][] =>
  [...m.entries()].sort((a, b) => (side === Side.Buy ? b[0] - a[0] : a[0] - b[0]));

describe('BookWindow', () => {
  it.each([5, 50])('keeps a client copy equal to the best %i levels through random changes', (depth) => {
    const rng = new Prng(depth);
    const book = new MapBook();
    const w = new BookWindow(0, depth, book, 10);
    expect(w.snapshot()).toEqual({ bids: [], asks: [] });
    const bids = new Map<number, number>();
    const asks = new Map<number, number>();
    let changes = 0;
    for (let step = 0; step < 3000; step++) {
      const side = rng.nextInt(2) === 0 ? Side.Buy : Side.Sell;
      const levels = book.sides.get(side)!;
      const price = side === Side.Buy ? 1000 - rng.nextInt(120) : 1001 + rng.nextInt(120);
      if (rng.nextInt(3) === 0) levels.delete(price);
      else levels.set(price, 1 + rng.nextInt(9));
      const c = w.diff(book);
      if (c === undefined) continue;
      changes++;
      apply(bids, c.bids);
      apply(asks, c.asks);
      expect(sorted(bids, Side.Buy)).toEqual(top(book, Side.Buy, depth));
      expect(sorted(asks, Side.Sell)).toEqual(top(book, Side.Sell, depth));
    }
    expect(changes).toBeGreaterThan(100);
    const snap = w.snapshot();
    expect(snap.bids.length / 2).toBe(Math.min(depth, book.sides.get(Side.Buy)!.size));
  });

  it('reports nothing when only levels below the window change, and removes levels pushed out of it', () => {
    const book = new MapBook();
    const bids = book.sides.get(Side.Buy)!;
    bids.set(100, 1); bids.set(99, 1);
    const w = new BookWindow(0, 2, book, 0);
    bids.set(50, 3);
    expect(w.diff(book)).toBeUndefined();
    bids.set(101, 2);
    expect(w.diff(book)).toEqual({ bids: [101, 2, 99, 0], asks: [] });
  });
});
