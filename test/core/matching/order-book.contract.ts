// The OrderBook contract (src/core/matching/order-book.ts) as one suite that every implementation must pass.
import { afterEach, describe, expect, it } from 'vitest';
import type { Market } from '../../../src/core/market.js';
import type { OrderBookOptions } from '../../../src/core/matching/order-book.js';
import { FinishAs, Side, StpAct, TimeInForce } from '../../../src/core/matching/order-types.js';
import { ResultCode } from '../../../src/core/result-code.js';
import { BookDriver, BOUNDED, BTC_USDT, type BookFactory, BUY, ev, SELL, snapshot, TEST } from '../../support/books.js';

const { accepted: acc, fill, finished: fin, amended: amd } = ev;
const F = FinishAs;
const { Gtc, Ioc, Poc, Fok } = TimeInForce;
const { CancelNew: CN, CancelOld: CO, CancelBoth: CB } = StpAct;
const Ok = ResultCode.Ok;

export function orderBookContract(name: string, create: BookFactory): void {
  describe(`OrderBook contract: ${name}`, () => {
    const drivers: BookDriver[] = [];
    /** A fresh book on `m` (TEST by default); its invariants are checked after the test. */
    const book = (m: Market = TEST, options?: OrderBookOptions): BookDriver => {
      const d = new BookDriver(create(m, options));
      drivers.push(d);
      return d;
    };
    afterEach(() => {
      for (const d of drivers.splice(0)) d.book.assertInvariants();
    });

    describe('priority and prices', () => {
      it('fills asks best price first, FIFO within a level, at the maker price (A 10:00 @100, B 10:00 @102, C 10:01 @100)', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 10);
        d.limit(2, 12, SELL, 102, 10);
        d.limit(3, 13, SELL, 100, 10);
        const r = d.limit(4, 14, BUY, 102, 30);
        expect(r.code).toBe(Ok);
        expect(r.events).toEqual([
          acc(4, 14, BUY, 102, 30),
          fill(4, 14, 1, 11, SELL, 100, 10), fin(1, 11, F.Filled, 0),
          fill(4, 14, 3, 13, SELL, 100, 10), fin(3, 13, F.Filled, 0),
          fill(4, 14, 2, 12, SELL, 102, 10), fin(2, 12, F.Filled, 0),
          fin(4, 14, F.Filled, 0),
        ]);
        expect(d.book.size).toBe(0);
        expect(d.book.bestAsk()).toBe(0);
        expect(d.book.bestBid()).toBe(0);
      });

      it('fills bids highest price first, FIFO within a level, at the maker price', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 10);
        d.limit(2, 12, BUY, 98, 10);
        d.limit(3, 13, BUY, 100, 10);
        const r = d.limit(4, 14, SELL, 98, 30);
        expect(r.events).toEqual([
          acc(4, 14, SELL, 98, 30),
          fill(4, 14, 1, 11, BUY, 100, 10), fin(1, 11, F.Filled, 0),
          fill(4, 14, 3, 13, BUY, 100, 10), fin(3, 13, F.Filled, 0),
          fill(4, 14, 2, 12, BUY, 98, 10), fin(2, 12, F.Filled, 0),
          fin(4, 14, F.Filled, 0),
        ]);
        expect(d.book.size).toBe(0);
      });

      it('stops matching at the taker limit and leaves a partly filled maker at the front of its level', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 10);
        d.limit(2, 12, SELL, 100, 10);
        d.limit(3, 12, SELL, 101, 10);
        const r = d.limit(4, 14, BUY, 100, 15, { tif: Ioc });
        expect(r.events).toEqual([
          acc(4, 14, BUY, 100, 15),
          fill(4, 14, 1, 11, SELL, 100, 10), fin(1, 11, F.Filled, 0),
          fill(4, 14, 2, 12, SELL, 100, 5),
          fin(4, 14, F.Filled, 0),
        ]);
        expect(d.view(2)?.left).toBe(5);
        expect(d.depth(SELL)).toEqual([[100, 5], [101, 10]]);
        const next = d.limit(5, 14, BUY, 101, 1);
        expect(next.events[1]).toEqual(fill(5, 14, 2, 12, SELL, 100, 1));
      });

      it('lets a user trade against their own order when no STP group is set', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 5);
        const r = d.limit(2, 11, BUY, 100, 5);
        expect(r.events).toEqual([acc(2, 11, BUY, 100, 5), fill(2, 11, 1, 11, SELL, 100, 5), fin(1, 11, F.Filled, 0), fin(2, 11, F.Filled, 0)]);
      });
    });

    describe('time in force', () => {
      it('rests a non-crossing GTC order with a single Accepted event', () => {
        const d = book();
        const r = d.limit(1, 11, BUY, 100, 5);
        expect(r.code).toBe(Ok);
        expect(r.events).toEqual([acc(1, 11, BUY, 100, 5)]);
        expect(d.book.size).toBe(1);
        expect(d.book.bestBid()).toBe(100);
        expect(d.book.bestAsk()).toBe(0);
      });

      it('rests the remainder of a partly filled GTC order at its limit price', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 3);
        const r = d.limit(2, 12, BUY, 101, 5);
        expect(r.events).toEqual([acc(2, 12, BUY, 101, 5), fill(2, 12, 1, 11, SELL, 100, 3), fin(1, 11, F.Filled, 0)]);
        expect(d.book.bestBid()).toBe(101);
        expect(d.view(2)).toMatchObject({ price: 101, amount: 5, left: 2, visible: 2 });
      });

      it('finishes an IOC remainder as ioc without resting', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 3);
        const r = d.limit(2, 12, BUY, 100, 5, { tif: Ioc });
        expect(r.events).toEqual([acc(2, 12, BUY, 100, 5), fill(2, 12, 1, 11, SELL, 100, 3), fin(1, 11, F.Filled, 0), fin(2, 12, F.Ioc, 2)]);
        expect(d.book.size).toBe(0);
      });

      it('finishes a fully filled IOC order as filled', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 5);
        const r = d.limit(2, 12, BUY, 100, 5, { tif: Ioc });
        expect(r.events).toEqual([acc(2, 12, BUY, 100, 5), fill(2, 12, 1, 11, SELL, 100, 5), fin(1, 11, F.Filled, 0), fin(2, 12, F.Filled, 0)]);
      });

      it('finishes a non-crossing IOC order as ioc with its whole amount', () => {
        const d = book();
        d.limit(1, 11, SELL, 101, 5);
        const r = d.limit(2, 12, BUY, 100, 5, { tif: Ioc });
        expect(r.events).toEqual([acc(2, 12, BUY, 100, 5), fin(2, 12, F.Ioc, 5)]);
        expect(d.book.size).toBe(1);
      });

      it('rests a POC order that does not cross', () => {
        const d = book();
        d.limit(1, 11, SELL, 101, 5);
        const r = d.limit(2, 12, BUY, 100, 5, { tif: Poc });
        expect(r.events).toEqual([acc(2, 12, BUY, 100, 5)]);
        expect(d.book.bestBid()).toBe(100);
        expect(d.view(2)?.tif).toBe(Poc);
      });

      it('finishes a crossing POC order as poc and leaves the book untouched', () => {
        const d = book();
        d.limit(1, 11, SELL, 101, 5);
        const before = snapshot(d.book);
        const r = d.limit(2, 12, BUY, 101, 5, { tif: Poc });
        expect(r.events).toEqual([acc(2, 12, BUY, 101, 5), fin(2, 12, F.Poc, 5)]);
        expect(snapshot(d.book)).toEqual(before);
      });

      it('finishes a crossing POC sell as poc', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        const r = d.limit(2, 12, SELL, 99, 5, { tif: Poc });
        expect(r.events).toEqual([acc(2, 12, SELL, 99, 5), fin(2, 12, F.Poc, 5)]);
        expect(d.view(1)?.left).toBe(5);
      });

      it('fills a feasible FOK order entirely across levels', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 3);
        d.limit(2, 12, SELL, 101, 4);
        const r = d.limit(3, 13, BUY, 101, 7, { tif: Fok });
        expect(r.events).toEqual([
          acc(3, 13, BUY, 101, 7),
          fill(3, 13, 1, 11, SELL, 100, 3), fin(1, 11, F.Filled, 0),
          fill(3, 13, 2, 12, SELL, 101, 4), fin(2, 12, F.Filled, 0),
          fin(3, 13, F.Filled, 0),
        ]);
      });

      it('finishes an infeasible FOK order as fok with no fills and the book untouched', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 3);
        d.limit(2, 12, SELL, 101, 4);
        const before = snapshot(d.book);
        const r = d.limit(3, 13, BUY, 101, 8, { tif: Fok });
        expect(r.events).toEqual([acc(3, 13, BUY, 101, 8), fin(3, 13, F.Fok, 8)]);
        expect(snapshot(d.book)).toEqual(before);
      });

      it('counts only levels within the FOK limit price', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 3);
        d.limit(2, 12, SELL, 102, 4);
        const r = d.limit(3, 13, BUY, 101, 7, { tif: Fok });
        expect(r.events).toEqual([acc(3, 13, BUY, 101, 7), fin(3, 13, F.Fok, 7)]);
      });

      it('finishes a FOK order as fok on an empty book', () => {
        const d = book();
        const r = d.limit(1, 11, SELL, 100, 3, { tif: Fok });
        expect(r.events).toEqual([acc(1, 11, SELL, 100, 3), fin(1, 11, F.Fok, 3)]);
        expect(d.book.size).toBe(0);
      });
    });

    describe('FOK feasibility counts exactly what the match would do', () => {
      it('treats a CancelNew self-match as the end of the fill (infeasible), without cancelling anything', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 3);
        d.limit(2, 12, SELL, 100, 3, { stpId: 7 });
        d.limit(3, 11, SELL, 100, 3);
        const before = snapshot(d.book);
        const r = d.limit(4, 13, BUY, 100, 6, { tif: Fok, stpId: 7, stpAct: CN });
        expect(r.events).toEqual([acc(4, 13, BUY, 100, 6), fin(4, 13, F.Fok, 6)]);
        expect(snapshot(d.book)).toEqual(before);
      });

      it('accepts a FOK order that is filled before it would reach its self-match', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 3);
        d.limit(2, 12, SELL, 100, 3, { stpId: 7 });
        const r = d.limit(4, 13, BUY, 100, 3, { tif: Fok, stpId: 7 });
        expect(r.events).toEqual([acc(4, 13, BUY, 100, 3), fill(4, 13, 1, 11, SELL, 100, 3), fin(1, 11, F.Filled, 0), fin(4, 13, F.Filled, 0)]);
        expect(d.view(2)?.left).toBe(3);
      });

      it('does not count makers that CancelOld would remove, and removes them when the FOK goes ahead', () => {
        const d = book();
        d.limit(1, 12, SELL, 100, 3, { stpId: 7 });
        d.limit(2, 11, SELL, 100, 3);
        const before = snapshot(d.book);
        const tooBig = d.limit(3, 13, BUY, 100, 4, { tif: Fok, stpId: 7, stpAct: CO });
        expect(tooBig.events).toEqual([acc(3, 13, BUY, 100, 4), fin(3, 13, F.Fok, 4)]);
        expect(snapshot(d.book)).toEqual(before);
        const r = d.limit(4, 13, BUY, 100, 3, { tif: Fok, stpId: 7, stpAct: CO });
        expect(r.events).toEqual([
          acc(4, 13, BUY, 100, 3), fin(1, 12, F.Stp, 3),
          fill(4, 13, 2, 11, SELL, 100, 3), fin(2, 11, F.Filled, 0), fin(4, 13, F.Filled, 0),
        ]);
        expect(d.book.size).toBe(0);
      });

      it('treats a CancelBoth self-match as the end of the fill (infeasible)', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 3);
        d.limit(2, 12, SELL, 100, 3, { stpId: 7 });
        d.limit(3, 11, SELL, 100, 3);
        const before = snapshot(d.book);
        const r = d.limit(4, 13, BUY, 100, 6, { tif: Fok, stpId: 7, stpAct: CB });
        expect(r.events).toEqual([acc(4, 13, BUY, 100, 6), fin(4, 13, F.Fok, 6)]);
        expect(snapshot(d.book)).toEqual(before);
      });

      it('counts the hidden lots of an iceberg maker', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 10, { iceberg: 2 });
        const r = d.limit(2, 12, BUY, 100, 10, { tif: Fok });
        expect(r.events).toEqual([
          acc(2, 12, BUY, 100, 10),
          fill(2, 12, 1, 11, SELL, 100, 2), fill(2, 12, 1, 11, SELL, 100, 2), fill(2, 12, 1, 11, SELL, 100, 2),
          fill(2, 12, 1, 11, SELL, 100, 2), fill(2, 12, 1, 11, SELL, 100, 2), fin(1, 11, F.Filled, 0),
          fin(2, 12, F.Filled, 0),
        ]);
      });

      it('is infeasible when a refilled iceberg moves behind a self-trading maker (CancelNew)', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 6, { iceberg: 2 });
        d.limit(2, 12, SELL, 100, 5, { stpId: 7 });
        const before = snapshot(d.book);
        const r = d.limit(3, 13, BUY, 100, 6, { tif: Fok, stpId: 7, stpAct: CN });
        expect(r.events).toEqual([acc(3, 13, BUY, 100, 6), fin(3, 13, F.Fok, 6)]);
        expect(snapshot(d.book)).toEqual(before);
      });

      it('is feasible when the self-trading maker behind a refilled iceberg is cancelled (CancelOld)', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 6, { iceberg: 2 });
        d.limit(2, 12, SELL, 100, 5, { stpId: 7 });
        const r = d.limit(3, 13, BUY, 100, 6, { tif: Fok, stpId: 7, stpAct: CO });
        expect(r.events).toEqual([
          acc(3, 13, BUY, 100, 6),
          fill(3, 13, 1, 11, SELL, 100, 2),
          fin(2, 12, F.Stp, 5),
          fill(3, 13, 1, 11, SELL, 100, 2),
          fill(3, 13, 1, 11, SELL, 100, 2), fin(1, 11, F.Filled, 0),
          fin(3, 13, F.Filled, 0),
        ]);
        expect(d.book.size).toBe(0);
      });

      it('accepts a FOK market buy whose budget buys whole lots exactly', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 1);
        d.limit(2, 12, SELL, 150, 1);
        const r = d.market(3, 13, BUY, 250, { tif: Fok });
        expect(r.events).toEqual([
          acc(3, 13, BUY, 0, 250),
          fill(3, 13, 1, 11, SELL, 100, 1), fin(1, 11, F.Filled, 0),
          fill(3, 13, 2, 12, SELL, 150, 1), fin(2, 12, F.Filled, 0),
          fin(3, 13, F.Filled, 0),
        ]);
      });

      it('finishes a FOK market buy as fok when the book runs out before the budget', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 1);
        d.limit(2, 12, SELL, 150, 1);
        const before = snapshot(d.book);
        // 100 + 150 buys both lots; the 150 left could buy another lot at 150, but none is offered.
        const r = d.market(3, 13, BUY, 400, { tif: Fok });
        expect(r.events).toEqual([acc(3, 13, BUY, 0, 400), fin(3, 13, F.Fok, 400)]);
        expect(snapshot(d.book)).toEqual(before);
      });

      it('finishes a FOK market buy as fok when lot rounding leaves its budget unable to buy a single lot', () => {
        // 100 notional is on offer (≥ 99), but floor(99 / 100) = 0 lots.
        const d = book();
        d.limit(1, 11, SELL, 100, 1);
        const before = snapshot(d.book);
        const r = d.market(2, 12, BUY, 99, { tif: Fok });
        expect(r.events).toEqual([acc(2, 12, BUY, 0, 99), fin(2, 12, F.Fok, 99)]);
        expect(snapshot(d.book)).toEqual(before);
      });

      it('finishes a FOK market sell as fok when the bids hold fewer lots', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 3);
        const r = d.market(2, 12, SELL, 4, { tif: Fok });
        expect(r.events).toEqual([acc(2, 12, SELL, 0, 4), fin(2, 12, F.Fok, 4)]);
        const ok = d.market(3, 12, SELL, 3, { tif: Fok });
        expect(ok.events).toEqual([acc(3, 12, SELL, 0, 3), fill(3, 12, 1, 11, BUY, 100, 3), fin(1, 11, F.Filled, 0), fin(3, 12, F.Filled, 0)]);
      });
    });

    describe('market orders', () => {
      it('spends a market buy budget as floor(budget left / price) lots per maker and finishes filled with the dust', () => {
        const d = book();
        d.limit(1, 11, SELL, 10, 3);
        d.limit(2, 12, SELL, 12, 5);
        const r = d.market(3, 13, BUY, 50);
        // 3 lots × 10 = 30, then floor(20 / 12) = 1 lot; 8 cannot buy a lot at 12.
        expect(r.events).toEqual([
          acc(3, 13, BUY, 0, 50),
          fill(3, 13, 1, 11, SELL, 10, 3), fin(1, 11, F.Filled, 0),
          fill(3, 13, 2, 12, SELL, 12, 1),
          fin(3, 13, F.Filled, 8),
        ]);
        expect(d.view(2)?.left).toBe(4);
      });

      it('finishes a market buy that spends its whole budget as filled with 0', () => {
        const d = book();
        d.limit(1, 11, SELL, 10, 3);
        d.limit(2, 12, SELL, 12, 5);
        const r = d.market(3, 13, BUY, 90);
        expect(r.events.at(-1)).toEqual(fin(3, 13, F.Filled, 0));
        expect(d.book.size).toBe(0);
      });

      it('finishes a market buy that cannot buy one lot at the best price as small, book untouched', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 1);
        const before = snapshot(d.book);
        const r = d.market(2, 12, BUY, 99);
        expect(r.events).toEqual([acc(2, 12, BUY, 0, 99), fin(2, 12, F.Small, 99)]);
        expect(snapshot(d.book)).toEqual(before);
      });

      it('finishes a market buy as depth_not_enough with the unspent budget when the asks run out', () => {
        const d = book();
        d.limit(1, 11, SELL, 10, 3);
        const r = d.market(2, 12, BUY, 100);
        expect(r.events).toEqual([acc(2, 12, BUY, 0, 100), fill(2, 12, 1, 11, SELL, 10, 3), fin(1, 11, F.Filled, 0), fin(2, 12, F.DepthNotEnough, 70)]);
      });

      it('finishes a market sell as depth_not_enough with the unfilled lots, trading at any bid price', () => {
        const d = book();
        d.limit(1, 11, BUY, 10, 3);
        d.limit(2, 12, BUY, 1, 2);
        const r = d.market(3, 13, SELL, 10);
        expect(r.events).toEqual([
          acc(3, 13, SELL, 0, 10),
          fill(3, 13, 1, 11, BUY, 10, 3), fin(1, 11, F.Filled, 0),
          fill(3, 13, 2, 12, BUY, 1, 2), fin(2, 12, F.Filled, 0),
          fin(3, 13, F.DepthNotEnough, 5),
        ]);
      });

      it('ignores the price field of a market order (Accepted carries price 0)', () => {
        const d = book();
        d.limit(1, 11, BUY, 10, 3);
        d.cmd.set(2, 12, SELL, 2, Ioc, 50, 3);
        const r = d.place(d.cmd);
        expect(r.events).toEqual([acc(2, 12, SELL, 0, 3), fill(2, 12, 1, 11, BUY, 10, 3), fin(1, 11, F.Filled, 0), fin(2, 12, F.Filled, 0)]);
      });

      it('spends a market buy budget in notional units (ticks × lots) on a decimal market', () => {
        const d = book(BTC_USDT);
        // 0.5 BTC at 100.00 USDT = 5000 lots at 10000 ticks; 30 USDT = 30 × 10^2 × 10^4 notional units.
        d.limit(1, 11, SELL, 10000, 5000);
        const r = d.market(2, 12, BUY, 30 * 100 * 10000);
        expect(r.events).toEqual([acc(2, 12, BUY, 0, 30_000_000), fill(2, 12, 1, 11, SELL, 10000, 3000), fin(2, 12, F.Filled, 0)]);
        expect(d.view(1)?.left).toBe(2000);
      });

      it('rejects market orders with GTC or POC and market icebergs as InvalidParam', () => {
        const d = book();
        d.limit(1, 11, SELL, 10, 3);
        const before = snapshot(d.book);
        expect(d.market(2, 12, BUY, 30, { tif: Gtc }).code).toBe(ResultCode.InvalidParam);
        expect(d.market(2, 12, BUY, 30, { tif: Poc }).code).toBe(ResultCode.InvalidParam);
        d.cmd.set(2, 12, SELL, 2, Ioc, 0, 3, 1);
        expect(d.place(d.cmd)).toEqual({ code: ResultCode.InvalidParam, events: [] });
        expect(snapshot(d.book)).toEqual(before);
      });
    });

    describe('self-trade prevention', () => {
      /** Asks: 1 (user 11, no group) 3@100, 2 (user 12, group 7) 3@100, 5 (user 11) 3@101. */
      const stpBook = (): BookDriver => {
        const d = book();
        d.limit(1, 11, SELL, 100, 3);
        d.limit(2, 12, SELL, 100, 3, { stpId: 7, stpAct: CO });
        d.limit(5, 11, SELL, 101, 3);
        return d;
      };

      it('CancelNew finishes the taker as stp at the self-match and keeps the fills before it', () => {
        const d = stpBook();
        const r = d.limit(9, 13, BUY, 101, 10, { stpId: 7, stpAct: CN });
        expect(r.events).toEqual([acc(9, 13, BUY, 101, 10), fill(9, 13, 1, 11, SELL, 100, 3), fin(1, 11, F.Filled, 0), fin(9, 13, F.Stp, 7)]);
        expect(d.book.size).toBe(2);
        expect(d.book.bestBid()).toBe(0);
      });

      it('treats a group member without stpAct as CancelNew (the maker stpAct does not matter)', () => {
        const d = stpBook();
        const r = d.limit(9, 13, BUY, 101, 10, { stpId: 7 });
        expect(r.events).toEqual([acc(9, 13, BUY, 101, 10), fill(9, 13, 1, 11, SELL, 100, 3), fin(1, 11, F.Filled, 0), fin(9, 13, F.Stp, 7)]);
      });

      it('CancelOld cancels the maker as stp and continues matching into later makers', () => {
        const d = stpBook();
        const r = d.limit(9, 13, BUY, 101, 10, { stpId: 7, stpAct: CO });
        expect(r.events).toEqual([
          acc(9, 13, BUY, 101, 10),
          fill(9, 13, 1, 11, SELL, 100, 3), fin(1, 11, F.Filled, 0),
          fin(2, 12, F.Stp, 3),
          fill(9, 13, 5, 11, SELL, 101, 3), fin(5, 11, F.Filled, 0),
        ]);
        expect(d.book.bestAsk()).toBe(0);
        expect(d.book.bestBid()).toBe(101);
        expect(d.view(9)?.left).toBe(4);
      });

      it('CancelBoth cancels the maker then the taker, both as stp', () => {
        const d = stpBook();
        const r = d.limit(9, 13, BUY, 101, 10, { stpId: 7, stpAct: CB });
        expect(r.events).toEqual([
          acc(9, 13, BUY, 101, 10),
          fill(9, 13, 1, 11, SELL, 100, 3), fin(1, 11, F.Filled, 0),
          fin(2, 12, F.Stp, 3), fin(9, 13, F.Stp, 7),
        ]);
        expect(d.book.size).toBe(1);
        expect(d.view(5)?.left).toBe(3);
      });

      it('applies STP to a sell taker against bids too', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 3, { stpId: 4 });
        d.limit(2, 12, BUY, 99, 3);
        const r = d.limit(3, 13, SELL, 99, 5, { stpId: 4, stpAct: CO, tif: Ioc });
        expect(r.events).toEqual([
          acc(3, 13, SELL, 99, 5), fin(1, 11, F.Stp, 3),
          fill(3, 13, 2, 12, BUY, 99, 3), fin(2, 12, F.Filled, 0), fin(3, 13, F.Ioc, 2),
        ]);
      });

      it('applies STP to market orders', () => {
        const d = book();
        d.limit(1, 11, SELL, 10, 3, { stpId: 4 });
        d.limit(2, 12, SELL, 10, 3);
        const r = d.market(3, 13, BUY, 100, { stpId: 4, stpAct: CO });
        expect(r.events).toEqual([
          acc(3, 13, BUY, 0, 100), fin(1, 11, F.Stp, 3),
          fill(3, 13, 2, 12, SELL, 10, 3), fin(2, 12, F.Filled, 0), fin(3, 13, F.DepthNotEnough, 70),
        ]);
      });

      it('lets different STP groups trade normally', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 3, { stpId: 7 });
        const r = d.limit(2, 11, BUY, 100, 3, { stpId: 8, stpAct: CB });
        expect(r.events).toEqual([acc(2, 11, BUY, 100, 3), fill(2, 11, 1, 11, SELL, 100, 3), fin(1, 11, F.Filled, 0), fin(2, 11, F.Filled, 0)]);
      });

      it('lets a group-0 maker trade with a grouped taker and vice versa', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 3);
        const r1 = d.limit(2, 11, BUY, 100, 3, { stpId: 7, stpAct: CB });
        expect(r1.events).toEqual([acc(2, 11, BUY, 100, 3), fill(2, 11, 1, 11, SELL, 100, 3), fin(1, 11, F.Filled, 0), fin(2, 11, F.Filled, 0)]);
        d.limit(3, 11, SELL, 100, 3, { stpId: 7 });
        const r2 = d.limit(4, 11, BUY, 100, 3);
        expect(r2.events).toEqual([acc(4, 11, BUY, 100, 3), fill(4, 11, 3, 11, SELL, 100, 3), fin(3, 11, F.Filled, 0), fin(4, 11, F.Filled, 0)]);
      });

      it('rejects stpAct without a group as StpWithoutGroup and changes nothing', () => {
        const d = stpBook();
        const before = snapshot(d.book);
        for (const act of [CN, CO, CB]) {
          expect(d.limit(9, 13, BUY, 101, 10, { stpAct: act })).toEqual({ code: ResultCode.StpWithoutGroup, events: [] });
        }
        expect(snapshot(d.book)).toEqual(before);
      });

      it('rests a CancelOld taker after cancelling every self-matching maker it meets', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 3, { stpId: 7 });
        d.limit(2, 11, SELL, 101, 3, { stpId: 7 });
        const r = d.limit(3, 12, BUY, 101, 4, { stpId: 7, stpAct: CO });
        expect(r.events).toEqual([acc(3, 12, BUY, 101, 4), fin(1, 11, F.Stp, 3), fin(2, 11, F.Stp, 3)]);
        expect(d.view(3)).toMatchObject({ left: 4, price: 101, stpId: 7, stpAct: CO });
      });
    });

    describe('icebergs', () => {
      it('shows only the display size in depth while the order view reports all lots', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 10, { iceberg: 3 });
        d.limit(2, 12, SELL, 100, 4);
        expect(d.depth(SELL)).toEqual([[100, 7]]);
        expect(d.view(1)).toMatchObject({ amount: 10, left: 10, visible: 3, iceberg: 3 });
        expect(d.view(2)).toMatchObject({ amount: 4, left: 4, visible: 4, iceberg: 0 });
      });

      it('refills a used-up display at the back of its level, behind orders that arrived later', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 6, { iceberg: 2 });
        d.limit(2, 12, SELL, 100, 3);
        const r = d.limit(3, 13, BUY, 100, 3);
        expect(r.events).toEqual([
          acc(3, 13, BUY, 100, 3),
          fill(3, 13, 1, 11, SELL, 100, 2),
          fill(3, 13, 2, 12, SELL, 100, 1),
          fin(3, 13, F.Filled, 0),
        ]);
        expect(d.view(1)).toMatchObject({ left: 4, visible: 2 });
        const r2 = d.limit(4, 13, BUY, 100, 3);
        expect(r2.events).toEqual([
          acc(4, 13, BUY, 100, 3),
          fill(4, 13, 2, 12, SELL, 100, 2), fin(2, 12, F.Filled, 0),
          fill(4, 13, 1, 11, SELL, 100, 1),
          fin(4, 13, F.Filled, 0),
        ]);
        expect(d.view(1)).toMatchObject({ left: 3, visible: 1 });
      });

      it('keeps a partly used display in place without refilling', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 6, { iceberg: 2 });
        d.limit(2, 12, SELL, 100, 3);
        d.limit(3, 13, BUY, 100, 1);
        expect(d.view(1)).toMatchObject({ left: 5, visible: 1 });
        const r = d.limit(4, 13, BUY, 100, 1);
        expect(r.events[1]).toEqual(fill(4, 13, 1, 11, SELL, 100, 1));
      });

      it('fills hidden lots through repeated refills and shows min(iceberg, left) on the last refill', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 5, { iceberg: 2 });
        const r = d.limit(2, 12, BUY, 100, 4);
        expect(r.events).toEqual([
          acc(2, 12, BUY, 100, 4), fill(2, 12, 1, 11, SELL, 100, 2), fill(2, 12, 1, 11, SELL, 100, 2), fin(2, 12, F.Filled, 0),
        ]);
        expect(d.view(1)).toMatchObject({ left: 1, visible: 1 });
        expect(d.depth(SELL)).toEqual([[100, 1]]);
      });

      it('lets an iceberg taker take beyond its display and rest showing its display', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 5);
        const r = d.limit(2, 12, BUY, 100, 10, { iceberg: 2 });
        expect(r.events).toEqual([acc(2, 12, BUY, 100, 10), fill(2, 12, 1, 11, SELL, 100, 5), fin(1, 11, F.Filled, 0)]);
        expect(d.view(2)).toMatchObject({ amount: 10, left: 5, visible: 2, iceberg: 2 });
        expect(d.depth(BUY)).toEqual([[100, 2]]);
      });

      it('rests an iceberg remainder smaller than its display showing the remainder', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 9);
        d.limit(2, 12, BUY, 100, 10, { iceberg: 4 });
        expect(d.view(2)).toMatchObject({ left: 1, visible: 1, iceberg: 4 });
      });
    });

    describe('amend', () => {
      it('reduces in place, keeping queue priority, and reports the new left', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        d.limit(2, 12, BUY, 100, 5);
        const r = d.amend(1, 0, 3);
        expect(r).toEqual({ code: Ok, events: [amd(1, 11, BUY, 100, 3)] });
        const s = d.limit(3, 13, SELL, 100, 3);
        expect(s.events[1]).toEqual(fill(3, 13, 1, 11, BUY, 100, 3));
      });

      it('treats the amount as the new total, so left = amount − filled', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        d.limit(2, 12, SELL, 100, 2);
        const r = d.amend(1, 100, 4);
        expect(r).toEqual({ code: Ok, events: [amd(1, 11, BUY, 100, 2)] });
        expect(d.view(1)).toMatchObject({ amount: 4, left: 2, visible: 2 });
      });

      it('moves an order whose amount grows to the back of its level', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        d.limit(2, 12, BUY, 100, 5);
        const r = d.amend(1, 0, 8);
        expect(r.events).toEqual([amd(1, 11, BUY, 100, 8)]);
        const s = d.limit(3, 13, SELL, 100, 6);
        expect(s.events.slice(1, 4)).toEqual([fill(3, 13, 2, 12, BUY, 100, 5), fin(2, 12, F.Filled, 0), fill(3, 13, 1, 11, BUY, 100, 1)]);
      });

      it('moves an order whose price changes to the back of its new level', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        d.limit(2, 12, BUY, 99, 5);
        const r = d.amend(1, 99, 0);
        expect(r.events).toEqual([amd(1, 11, BUY, 99, 5)]);
        expect(d.depth(BUY)).toEqual([[99, 10]]);
        const s = d.limit(3, 13, SELL, 99, 5);
        expect(s.events[1]).toEqual(fill(3, 13, 2, 12, BUY, 99, 5));
      });

      it('matches an amend to a crossing price as a taker, then rests the remainder at the new price', () => {
        const d = book();
        d.limit(1, 12, SELL, 101, 3);
        d.limit(2, 11, BUY, 100, 5);
        const r = d.amend(2, 101, 0);
        expect(r).toEqual({
          code: Ok,
          events: [amd(2, 11, BUY, 101, 5), fill(2, 11, 1, 12, SELL, 101, 3), fin(1, 12, F.Filled, 0)],
        });
        expect(d.view(2)).toMatchObject({ price: 101, amount: 5, left: 2 });
        expect(d.book.bestAsk()).toBe(0);
      });

      it('finishes an amended order as filled when the crossing match fills it', () => {
        const d = book();
        d.limit(1, 12, SELL, 101, 5);
        d.limit(2, 11, BUY, 100, 5);
        const r = d.amend(2, 101, 0);
        expect(r.events).toEqual([amd(2, 11, BUY, 101, 5), fill(2, 11, 1, 12, SELL, 101, 5), fin(1, 12, F.Filled, 0), fin(2, 11, F.Filled, 0)]);
        expect(d.book.size).toBe(0);
      });

      it('applies the amended order own STP group and action when it crosses', () => {
        const d = book();
        d.limit(1, 12, SELL, 101, 3, { stpId: 7 });
        d.limit(2, 11, BUY, 100, 5, { stpId: 7, stpAct: CO });
        const r = d.amend(2, 101, 0);
        expect(r.events).toEqual([amd(2, 11, BUY, 101, 5), fin(1, 12, F.Stp, 3)]);
        expect(d.view(2)?.left).toBe(5);
        d.limit(3, 12, SELL, 102, 3, { stpId: 7 });
        const again = d.amend(2, 102, 0);
        expect(again.events).toEqual([amd(2, 11, BUY, 102, 5), fin(3, 12, F.Stp, 3)]);
      });

      it('rejects moving a POC order to a crossing price as PocWouldTake and changes nothing', () => {
        const d = book();
        d.limit(1, 12, SELL, 101, 3);
        d.limit(2, 11, BUY, 100, 5, { tif: Poc });
        const before = snapshot(d.book);
        expect(d.amend(2, 101, 0)).toEqual({ code: ResultCode.PocWouldTake, events: [] });
        expect(snapshot(d.book)).toEqual(before);
        expect(d.amend(2, 99, 0).events).toEqual([amd(2, 11, BUY, 99, 5)]);
      });

      it('shows min(shown, left) when an iceberg is reduced in place', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 10, { iceberg: 4 });
        expect(d.amend(1, 0, 3).events).toEqual([amd(1, 11, BUY, 100, 3)]);
        expect(d.view(1)).toMatchObject({ left: 3, visible: 3, amount: 3 });
      });

      it('shows min(iceberg, left) when an iceberg re-arrives after a larger amount', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 10, { iceberg: 4 });
        d.limit(2, 12, SELL, 100, 3);
        expect(d.view(1)).toMatchObject({ left: 7, visible: 1 });
        expect(d.amend(1, 0, 20).events).toEqual([amd(1, 11, BUY, 100, 17)]);
        expect(d.view(1)).toMatchObject({ amount: 20, left: 17, visible: 4, iceberg: 4 });
      });

      it('rejects an amend that changes nothing as NoChange', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        const before = snapshot(d.book);
        expect(d.amend(1, 0, 0)).toEqual({ code: ResultCode.NoChange, events: [] });
        expect(d.amend(1, 100, 5)).toEqual({ code: ResultCode.NoChange, events: [] });
        expect(d.amend(1, 100, 0)).toEqual({ code: ResultCode.NoChange, events: [] });
        expect(snapshot(d.book)).toEqual(before);
      });

      it('rejects an amount at or below what has filled as AmendBelowFilled', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        d.limit(2, 12, SELL, 100, 2);
        const before = snapshot(d.book);
        expect(d.amend(1, 0, 2)).toEqual({ code: ResultCode.AmendBelowFilled, events: [] });
        expect(d.amend(1, 0, 1)).toEqual({ code: ResultCode.AmendBelowFilled, events: [] });
        expect(snapshot(d.book)).toEqual(before);
        expect(d.amend(1, 0, 3).events).toEqual([amd(1, 11, BUY, 100, 1)]);
      });

      it('rejects an amend outside the market bounds by lots and by notional', () => {
        const d = book(BOUNDED);
        d.limit(1, 11, BUY, 10, 5);
        const before = snapshot(d.book);
        expect(d.amend(1, 0, 1).code).toBe(ResultCode.AmountTooLittle);
        expect(d.amend(1, 0, 101).code).toBe(ResultCode.AmountTooMuch);
        expect(d.amend(1, 1, 0).code).toBe(ResultCode.AmountTooLittle);
        expect(d.amend(1, 300, 0).code).toBe(ResultCode.AmountTooMuch);
        expect(snapshot(d.book)).toEqual(before);
      });

      it('rejects an amend below the decimal market minimum notional', () => {
        const d = book(BTC_USDT);
        // 100.00 USDT × 0.0100 BTC = 1 USDT, exactly the minimum.
        d.limit(1, 11, BUY, 10000, 100);
        expect(d.amend(1, 0, 99).code).toBe(ResultCode.AmountTooLittle);
        expect(d.amend(1, 9999, 0).code).toBe(ResultCode.AmountTooLittle);
        expect(d.amend(1, 10001, 0).code).toBe(Ok);
      });

      it('rejects a negative or fractional amend argument as InvalidParam', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        for (const [p, a] of [[-1, 0], [0, -1], [100.5, 0], [0, 2.5], [Number.NaN, 0], [0, Infinity]] as const) {
          expect(d.amend(1, p, a)).toEqual({ code: ResultCode.InvalidParam, events: [] });
        }
      });

      it('rejects an amend of an unknown, filled or cancelled order as OrderNotFound', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        d.limit(2, 11, BUY, 100, 5);
        d.limit(3, 12, SELL, 100, 5);
        d.cancel(2);
        for (const id of [1, 2, 3, 99]) expect(d.amend(id, 101, 0)).toEqual({ code: ResultCode.OrderNotFound, events: [] });
      });
    });

    describe('cancel', () => {
      it('cancels a resting order as cancelled with its left lots', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        d.limit(2, 12, SELL, 100, 2);
        expect(d.cancel(1)).toEqual({ code: Ok, events: [fin(1, 11, F.Cancelled, 3)] });
        expect(d.book.size).toBe(0);
        expect(d.view(1)).toBeUndefined();
      });

      it('answers OrderNotFound for an unknown or already cancelled order', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        expect(d.cancel(2)).toEqual({ code: ResultCode.OrderNotFound, events: [] });
        d.cancel(1);
        expect(d.cancel(1)).toEqual({ code: ResultCode.OrderNotFound, events: [] });
      });

      it('finds no order under an id that merely rounds to a resting one', () => {
        const d = book();
        d.limit(5, 11, BUY, 100, 5);
        d.limit(2 ** 40, 11, BUY, 99, 5);
        for (const id of [5.5, 4.999, 5 + 2 ** -40, -5, Number.NaN, 2 ** 40 + 0.5, 2 ** 40 + 2 ** 32]) {
          expect(d.cancel(id)).toEqual({ code: ResultCode.OrderNotFound, events: [] });
          expect(d.amend(id, 101, 0)).toEqual({ code: ResultCode.OrderNotFound, events: [] });
          expect(d.view(id)).toBeUndefined();
        }
        expect(d.book.size).toBe(2);
      });

      it('cancels an iceberg with all its hidden lots as left', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 9, { iceberg: 2 });
        expect(d.cancel(1).events).toEqual([fin(1, 11, F.Cancelled, 9)]);
        expect(d.depth(BUY)).toEqual([]);
      });

      /** Bids: 1 (u11) @100, 2 (u12) @101, 3 (u11) @100; asks: 4 (u12) @105, 5 (u11) @103. */
      const mixed = (): BookDriver => {
        const d = book();
        d.limit(1, 11, BUY, 100, 1);
        d.limit(2, 12, BUY, 101, 2);
        d.limit(3, 11, BUY, 100, 3);
        d.limit(4, 12, SELL, 105, 4);
        d.limit(5, 11, SELL, 103, 5);
        return d;
      };

      it('cancels every order of every user, bids before asks, each side in priority order', () => {
        const d = mixed();
        expect(d.cancelAll(0, 0)).toEqual({
          code: Ok,
          events: [fin(2, 12, F.Cancelled, 2), fin(1, 11, F.Cancelled, 1), fin(3, 11, F.Cancelled, 3), fin(5, 11, F.Cancelled, 5), fin(4, 12, F.Cancelled, 4)],
        });
        expect(d.book.size).toBe(0);
      });

      it('cancels only the given user orders', () => {
        const d = mixed();
        expect(d.cancelAll(11, 0).events).toEqual([fin(1, 11, F.Cancelled, 1), fin(3, 11, F.Cancelled, 3), fin(5, 11, F.Cancelled, 5)]);
        expect(d.book.openOrders(12)).toEqual([2, 4]);
        expect(d.book.size).toBe(2);
      });

      it('cancels only the given side', () => {
        const d = mixed();
        expect(d.cancelAll(0, Side.Sell).events).toEqual([fin(5, 11, F.Cancelled, 5), fin(4, 12, F.Cancelled, 4)]);
        expect(d.book.bestAsk()).toBe(0);
        expect(d.book.bestBid()).toBe(101);
      });

      it('cancels only the given user on the given side', () => {
        const d = mixed();
        expect(d.cancelAll(11, Side.Buy).events).toEqual([fin(1, 11, F.Cancelled, 1), fin(3, 11, F.Cancelled, 3)]);
        expect(d.book.size).toBe(3);
      });

      it('answers Ok with no events when nothing matches', () => {
        const d = mixed();
        const before = snapshot(d.book);
        expect(d.cancelAll(99, 0)).toEqual({ code: Ok, events: [] });
        expect(book().cancelAll(0, 0)).toEqual({ code: Ok, events: [] });
        expect(snapshot(d.book)).toEqual(before);
      });
    });

    describe('queries', () => {
      it('reports 0 as best bid and ask of an empty book', () => {
        const d = book();
        expect(d.book.bestBid()).toBe(0);
        expect(d.book.bestAsk()).toBe(0);
        expect(d.book.size).toBe(0);
        expect(d.depth(BUY)).toEqual([]);
      });

      it('aggregates visible lots per level, best first, up to the limit', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        d.limit(2, 11, BUY, 100, 3);
        d.limit(3, 11, BUY, 99, 2);
        d.limit(4, 11, BUY, 98, 1);
        d.limit(5, 11, SELL, 103, 4);
        d.limit(6, 11, SELL, 102, 6, { iceberg: 1 });
        d.limit(7, 11, SELL, 102, 2);
        expect(d.depth(BUY, 2)).toEqual([[100, 8], [99, 2]]);
        expect(d.depth(BUY, 10)).toEqual([[100, 8], [99, 2], [98, 1]]);
        expect(d.depth(SELL, 10)).toEqual([[102, 3], [103, 4]]);
        expect(d.book.depth(BUY, 0, new Float64Array(1), new Float64Array(1))).toBe(0);
        expect(d.book.bestBid()).toBe(100);
        expect(d.book.bestAsk()).toBe(102);
      });

      it('fills every field of an order view', () => {
        const d = book();
        d.limit(1, 11, SELL, 100, 2);
        d.limit(7, 12, BUY, 100, 10, { iceberg: 3, stpId: 5, stpAct: CB });
        const v = d.view(7);
        expect(v).toBeDefined();
        expect({ ...v }).toEqual({
          orderId: 7, userId: 12, stpId: 5, side: BUY, tif: Gtc, stpAct: CB,
          price: 100, amount: 10, left: 8, visible: 3, iceberg: 3,
        });
        expect(d.view(1)).toBeUndefined();
      });

      it('lists a user open orders in entry order; an amend keeps the entry, a re-place is a new entry', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        d.limit(2, 11, SELL, 110, 5);
        d.limit(3, 11, BUY, 101, 5);
        d.limit(4, 12, BUY, 102, 5);
        expect(d.book.openOrders(11)).toEqual([1, 2, 3]);
        d.amend(1, 105, 9);
        expect(d.book.openOrders(11)).toEqual([1, 2, 3]);
        d.cancel(2);
        d.limit(2, 11, SELL, 110, 5);
        expect(d.book.openOrders(11)).toEqual([1, 3, 2]);
        d.limit(5, 13, SELL, 105, 9);
        expect(d.book.openOrders(11)).toEqual([3, 2]);
        expect(d.book.openOrders(12)).toEqual([4]);
        expect(d.book.openOrders(99)).toEqual([]);
      });

      it('never changes state when queried', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5, { iceberg: 2 });
        d.limit(2, 12, SELL, 101, 5);
        const before = snapshot(d.book);
        d.view(1);
        d.depth(BUY);
        d.book.openOrders(11);
        expect(snapshot(d.book)).toEqual(before);
      });

      it('hashes identical resting state identically and different state differently', () => {
        const a = book();
        const b = book();
        expect(a.book.stateHash()).toBe(b.book.stateHash());
        a.limit(1, 11, BUY, 100, 5);
        expect(a.book.stateHash()).not.toBe(b.book.stateHash());
        b.limit(1, 11, BUY, 100, 5);
        expect(a.book.stateHash()).toBe(b.book.stateHash());
        a.limit(2, 11, BUY, 100, 5);
        a.limit(3, 11, BUY, 100, 5);
        b.limit(3, 11, BUY, 100, 5);
        b.limit(2, 11, BUY, 100, 5);
        expect(a.book.stateHash()).not.toBe(b.book.stateHash());
        a.cancel(2);
        a.cancel(3);
        b.cancel(2);
        b.cancel(3);
        expect(a.book.stateHash()).toBe(b.book.stateHash());
      });
    });

    describe('capacity and ids', () => {
      it('rejects a place whose id already rests as DuplicateOrderId, on either side', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        const before = snapshot(d.book);
        expect(d.limit(1, 11, BUY, 99, 5)).toEqual({ code: ResultCode.DuplicateOrderId, events: [] });
        expect(d.limit(1, 12, SELL, 100, 5)).toEqual({ code: ResultCode.DuplicateOrderId, events: [] });
        expect(d.market(1, 12, SELL, 5)).toEqual({ code: ResultCode.DuplicateOrderId, events: [] });
        expect(snapshot(d.book)).toEqual(before);
      });

      it('accepts the id of an order that no longer rests', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        d.limit(2, 12, SELL, 100, 5);
        expect(d.limit(1, 11, BUY, 100, 5).code).toBe(Ok);
        d.cancel(1);
        expect(d.limit(1, 11, BUY, 100, 5).code).toBe(Ok);
      });

      it('rejects a place into a full pool as BookFull and accepts again after a cancel', () => {
        const d = book(TEST, { maxOrders: 2 });
        d.limit(1, 11, BUY, 100, 5);
        d.limit(2, 11, BUY, 99, 5);
        const before = snapshot(d.book);
        expect(d.limit(3, 11, BUY, 98, 5)).toEqual({ code: ResultCode.BookFull, events: [] });
        expect(snapshot(d.book)).toEqual(before);
        d.cancel(1);
        expect(d.limit(3, 11, BUY, 98, 5).code).toBe(Ok);
        expect(d.book.size).toBe(2);
      });

      it('checks duplicates before capacity', () => {
        const d = book(TEST, { maxOrders: 1 });
        d.limit(1, 11, BUY, 100, 5);
        expect(d.limit(1, 11, BUY, 98, 5).code).toBe(ResultCode.DuplicateOrderId);
      });

      it('validates before checking duplicates', () => {
        const d = book();
        d.limit(1, 11, BUY, 100, 5);
        expect(d.limit(1, 11, BUY, 100, 0).code).toBe(ResultCode.InvalidParam);
      });

      it('grows the event buffer for a command that writes many events', () => {
        const d = book();
        for (let i = 1; i <= 300; i++) d.limit(i, 11, SELL, 100 + (i % 7), 1);
        const r = d.limit(1000, 12, BUY, 200, 300);
        expect(r.events).toHaveLength(1 + 600 + 1);
        expect(r.events.at(-1)).toEqual(fin(1000, 12, F.Filled, 0));
        const prices = r.events.filter((e) => e.makerOrderId !== 0).map((e) => e.price);
        expect(prices).toHaveLength(300);
        expect(prices).toEqual([...prices].sort((x, y) => x - y));
      });
    });
  });
}
