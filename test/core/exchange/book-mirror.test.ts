// The L2 mirror built from results alone equals the books' own depth after every command of seeded random
// streams (limit, market, IOC/FOK/POC, icebergs, STP, amends, cancels, cancel-all), with both book kinds.
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/core/clock.js';
import { BookMirror } from '../../../src/core/exchange/book-mirror.js';
import { NaiveOrderBook } from '../../../src/core/matching/naive-order-book.js';
import { Side } from '../../../src/core/matching/order-types.js';
import { InlineEngine } from '../../../src/engine/inline-engine.js';
import { ENGINE_DEFINITION, EngineStream } from '../../support/engine-stream.js';

const LEVELS = 64;

function depthOf(read: (side: number, limit: number, p: Float64Array, l: Float64Array) => number, side: number): number[][] {
  const p = new Float64Array(LEVELS);
  const l = new Float64Array(LEVELS);
  const n = read(side, LEVELS, p, l);
  return Array.from({ length: n }, (_, k) => [p[k]!, l[k]!]);
}

describe('BookMirror', () => {
  it.each([[1, false], [2, false], [3, true], [4, true]])('matches the books after every command (seed %i, reference book %s)', (seed, naive) => {
    const clock = new SimClock(1_767_225_600_000_000);
    const engine = new InlineEngine(ENGINE_DEFINITION, { clock, bookFactory: naive ? (m) => new NaiveOrderBook(m) : undefined });
    const mirror = new BookMirror(engine.exchange.markets.length);
    const s = new EngineStream(seed);
    for (const c of s.openings()) engine.submit(c);
    let icebergs = 0;
    let compared = 0;
    for (let i = 0; i < 3000; i++) {
      clock.advanceBy(1);
      const c = s.next();
      if (c.iceberg > 0) icebergs++;
      engine.submit(c);
      mirror.apply(c, engine.events, engine.exchange.orders);
      for (let m = 0; m < engine.books.length; m++) {
        for (const side of [Side.Buy, Side.Sell]) {
          const want = depthOf((sd, lim, p, l) => engine.books[m]!.depth(sd, lim, p, l), side);
          expect(depthOf((sd, lim, p, l) => mirror.depth(m, sd, lim, p, l), side), `command ${i}, market ${m}, side ${side}`).toEqual(want);
          compared += want.length;
        }
      }
    }
    expect(icebergs).toBeGreaterThan(50);
    expect(compared).toBeGreaterThan(10_000);
    expect(engine.exchange.trades.count).toBeGreaterThan(100);
  });
});
