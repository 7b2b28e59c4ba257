/**
 * Our side of the benchmark: which book class is measured, and how a command stream is replayed on it.
 *
 * `createBook` is the one place that names the measured implementation. `createReferenceBook` is the
 * readable reference (NaiveOrderBook): the EC generator drives it to learn trades and final state, so the
 * measured book is checked against an independent implementation.
 *
 * Replay: one reused PlaceOrder and one reused BookEvents (cleared before every book call); fills are the
 * events' fill count. Two semantics for moves and reduces:
 * - native: move = amend(id, price, 0), reduce = amend(id, 0, newTotal) (keeps queue position);
 * - replace: move and reduce = cancel(id) then place(GTC limit, same id, new price / remaining lots), which is
 *   what the peer's `modify` does (the order loses time priority).
 * Nothing here allocates per command.
 */
import type { Market } from '../../src/core/market.js';
import { BookEvents } from '../../src/core/matching/book-events.js';
import { ArrayOrderBook } from '../../src/core/matching/array-order-book.js';
import { NaiveOrderBook } from '../../src/core/matching/naive-order-book.js';
import type { OrderBook, OrderBookOptions } from '../../src/core/matching/order-book.js';
import { OrderType, PlaceOrder, Side, StpAct, TimeInForce } from '../../src/core/matching/order-types.js';
import { ResultCode } from '../../src/core/result-code.js';
import { type CommandStream, Op, PlaceType } from './stream.js';

/** Name of the measured implementation, printed with the results. */
export const OURS_IMPL = 'ArrayOrderBook';

/** The measured book (engine `ringmatch`). */
export function createBook(market: Market, options?: OrderBookOptions): OrderBook {
  return new ArrayOrderBook(market, options);
}

/** The reference book the generators use as their oracle. */
export function createReferenceBook(market: Market, options?: OrderBookOptions): OrderBook {
  return new NaiveOrderBook(market, options);
}

export type MoveSemantics = 'native' | 'replace';

/** Replays commands of one stream on books of ours. */
export class OursRunner {
  readonly cmd = new PlaceOrder();
  readonly ev = new BookEvents(1024);
  /** Lowest result code of the last step's book calls (0 when all were accepted). */
  code = 0;
  /** Steps with a rejected book call since construction. */
  rejected = 0;
  readonly #s: CommandStream;
  readonly #native: boolean;

  constructor(stream: CommandStream, semantics: MoveSemantics) {
    this.#s = stream;
    this.#native = semantics === 'native';
  }

  /** Applies command `i` to `book`; returns the number of fills it produced. */
  step(book: OrderBook, i: number): number {
    const s = this.#s;
    const ev = this.ev;
    const id = s.orderId[i]!;
    ev.clear();
    switch (s.op[i]) {
      case Op.Place:
        this.code = book.place(this.#load(i, s.type[i] === PlaceType.Market ? OrderType.Market : OrderType.Limit,
          s.tif[i]!, s.amount[i]!), ev);
        break;
      case Op.Cancel:
        this.code = book.cancel(id, ev);
        break;
      case Op.Move:
        if (this.#native) this.code = book.amend(id, s.price[i]!, 0, ev);
        else this.#replace(book, i);
        break;
      case Op.Reduce:
        if (this.#native) this.code = book.amend(id, 0, s.total[i]!, ev);
        else this.#replace(book, i);
        break;
      default:
        this.code = ResultCode.InvalidParam;
    }
    if (this.code < 0) this.rejected++;
    return ev.fills;
  }

  /** Replays [from, to); returns the fills. */
  run(book: OrderBook, from: number, to: number): number {
    let fills = 0;
    for (let i = from; i < to; i++) fills += this.step(book, i);
    return fills;
  }

  /** Replays [from, to) timing every command; `record(ns)` receives each service time. */
  runTimed(book: OrderBook, from: number, to: number, record: (ns: number) => void): number {
    let fills = 0;
    for (let i = from; i < to; i++) {
      const t0 = process.hrtime.bigint();
      fills += this.step(book, i);
      record(Number(process.hrtime.bigint() - t0));
    }
    return fills;
  }

  #replace(book: OrderBook, i: number): void {
    const c1 = book.cancel(this.#s.orderId[i]!, this.ev);
    this.ev.clear();
    const c2 = book.place(this.#load(i, OrderType.Limit, TimeInForce.Gtc, this.#s.amount[i]!), this.ev);
    this.code = Math.min(c1, c2);
  }

  #load(i: number, type: number, tif: number, amount: number): PlaceOrder {
    const s = this.#s;
    const user = s.userId[i]!;
    const stp = s.stp[i] === 1;
    return this.cmd.set(s.orderId[i]!, user, s.side[i]!, type, tif, s.price[i]!, amount, 0,
      stp ? user : 0, stp ? StpAct.CancelOld : StpAct.None);
  }
}

/** The L2 book as "price:lots" levels, ascending by price, per side. @allocates */
export interface L2 {
  bids: string;
  asks: string;
}

export function l2Ours(book: OrderBook): L2 {
  const n = book.size + 1;
  const prices = new Float64Array(n);
  const lots = new Float64Array(n);
  const side = (s: number): string => {
    const k = book.depth(s, n, prices, lots);
    const levels: string[] = [];
    for (let j = 0; j < k; j++) levels.push(`${prices[j]}:${lots[j]}`);
    if (s === Side.Buy) levels.reverse();
    return levels.join(',');
  };
  return { bids: side(Side.Buy), asks: side(Side.Sell) };
}
