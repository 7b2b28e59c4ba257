// Test support: the order book implementations under test, demo markets, terse drivers and event builders.
import { defineMarket, type Market } from '../../src/core/market.js';
import { BookEvents, type BookEvent, EventKind } from '../../src/core/matching/book-events.js';
import { ArrayOrderBook } from '../../src/core/matching/array-order-book.js';
import { NaiveOrderBook } from '../../src/core/matching/naive-order-book.js';
import type { OrderBook, OrderBookOptions } from '../../src/core/matching/order-book.js';
import { OrderType, OrderView, PlaceOrder, Side, StpAct, TimeInForce } from '../../src/core/matching/order-types.js';

export type BookFactory = (m: Market, options?: OrderBookOptions) => OrderBook;

/** Every implementation under test, by name. The ONLY place that wires a book class into the tests. */
export const BOOKS: ReadonlyArray<readonly [string, BookFactory]> = [
  ['NaiveOrderBook', (m, o) => new NaiveOrderBook(m, o)],
  ['ArrayOrderBook', (m, o) => new ArrayOrderBook(m, o)],
];

/** The factory registered under `name`; throws (failing the suite loudly) when that book is not wired in. */
export function bookFactory(name: string): BookFactory {
  const entry = BOOKS.find(([n]) => n === name);
  if (entry === undefined) throw new Error(`${name} is not listed in test/support/books.ts BOOKS`);
  return entry[1];
}

/** Gate-like demo market: price 2 decimals, amount 4 decimals, min 0.0001 BTC and 1 USDT. */
export const BTC_USDT: Market = defineMarket({
  id: 'BTC_USDT', base: 'BTC', quote: 'USDT', precision: 2, amount_precision: 4,
  min_base_amount: '0.0001', min_quote_amount: '1',
});

/** Permissive market: whole ticks and lots, no minimum notional, default maxima (small integers everywhere). */
export const TEST: Market = defineMarket({ id: 'TEST_USD', base: 'TEST', quote: 'USD', precision: 0, amount_precision: 0 });

/** Whole-unit market with tight bounds: lots in [2, 100], notional (ticks × lots) in [10, 1000]. */
export const BOUNDED: Market = defineMarket({
  id: 'BND_USD', base: 'BND', quote: 'USD', precision: 0, amount_precision: 0,
  min_base_amount: '2', max_base_amount: '100', min_quote_amount: '10', max_quote_amount: '1000',
});

export const BUY = Side.Buy;
export const SELL = Side.Sell;

/** Optional fields of a limit order. */
export interface LimitOpts {
  readonly tif?: number;
  readonly iceberg?: number;
  readonly stpId?: number;
  readonly stpAct?: number;
}

/** Optional fields of a market order (tif defaults to IOC). */
export interface MarketOpts {
  readonly tif?: number;
  readonly stpId?: number;
  readonly stpAct?: number;
}

/** What one command answered and wrote. */
export interface Outcome {
  readonly code: number;
  readonly events: BookEvent[];
}

/** Decodes every event of a buffer. */
export const events = (out: BookEvents): BookEvent[] => out.toArray();

/** Drives one book with terse commands; clears the event buffer before each command. */
export class BookDriver {
  /** Deliberately small so multi-event commands exercise the buffer's growth. */
  readonly out = new BookEvents(2);
  readonly cmd = new PlaceOrder();

  constructor(readonly book: OrderBook) {}

  place(cmd: PlaceOrder): Outcome {
    this.out.clear();
    const code = this.book.place(cmd, this.out);
    return { code, events: events(this.out) };
  }

  limit(orderId: number, userId: number, side: number, price: number, lots: number, o: LimitOpts = {}): Outcome {
    this.cmd.set(orderId, userId, side, OrderType.Limit, o.tif ?? TimeInForce.Gtc, price, lots,
      o.iceberg ?? 0, o.stpId ?? 0, o.stpAct ?? StpAct.None);
    return this.place(this.cmd);
  }

  /** A market order; `amount` is lots for a sell and the quote budget (notional units) for a buy. */
  market(orderId: number, userId: number, side: number, amount: number, o: MarketOpts = {}): Outcome {
    this.cmd.set(orderId, userId, side, OrderType.Market, o.tif ?? TimeInForce.Ioc, 0, amount,
      0, o.stpId ?? 0, o.stpAct ?? StpAct.None);
    return this.place(this.cmd);
  }

  amend(orderId: number, price: number, amount: number): Outcome {
    this.out.clear();
    const code = this.book.amend(orderId, price, amount, this.out);
    return { code, events: events(this.out) };
  }

  cancel(orderId: number): Outcome {
    this.out.clear();
    const code = this.book.cancel(orderId, this.out);
    return { code, events: events(this.out) };
  }

  cancelAll(userId: number, side: number): Outcome {
    this.out.clear();
    const code = this.book.cancelAll(userId, side, this.out);
    return { code, events: events(this.out) };
  }

  /** A resting order's view, or undefined. */
  view(orderId: number): OrderView | undefined {
    const v = new OrderView();
    return this.book.order(orderId, v) ? v : undefined;
  }

  /** Levels of `side` as [price, visible lots] pairs, best first. */
  depth(side: number, limit = 1000): Array<[number, number]> {
    return readDepth(this.book, side, limit);
  }
}

/** Levels of `side` as [price, visible lots] pairs, best first. @allocates */
export function readDepth(book: OrderBook, side: number, limit = 1000): Array<[number, number]> {
  const prices = new Float64Array(Math.max(limit, 1));
  const lots = new Float64Array(Math.max(limit, 1));
  const n = book.depth(side, limit, prices, lots);
  const levels: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) levels.push([prices[i]!, lots[i]!]);
  return levels;
}

/** State that no rejected command may change. */
export interface Snapshot {
  readonly hash: string;
  readonly size: number;
  readonly bestBid: number;
  readonly bestAsk: number;
}

export const snapshot = (book: OrderBook): Snapshot =>
  ({ hash: book.stateHash(), size: book.size, bestBid: book.bestBid(), bestAsk: book.bestAsk() });

/** Expected-event builders, argument order as the BookEvents writer methods. */
export const ev = {
  accepted: (orderId: number, userId: number, side: number, price: number, amount: number): BookEvent =>
    ({ kind: EventKind.Accepted, orderId, userId, makerOrderId: 0, makerUserId: 0, price, lots: amount, code: side }),
  fill: (takerId: number, takerUser: number, makerId: number, makerUser: number, makerSide: number, price: number,
    lots: number): BookEvent =>
    ({ kind: EventKind.Fill, orderId: takerId, userId: takerUser, makerOrderId: makerId, makerUserId: makerUser, price, lots, code: makerSide }),
  finished: (orderId: number, userId: number, finishAs: number, left: number): BookEvent =>
    ({ kind: EventKind.Finished, orderId, userId, makerOrderId: 0, makerUserId: 0, price: 0, lots: left, code: finishAs }),
  amended: (orderId: number, userId: number, side: number, price: number, left: number): BookEvent =>
    ({ kind: EventKind.Amended, orderId, userId, makerOrderId: 0, makerUserId: 0, price, lots: left, code: side }),
};
