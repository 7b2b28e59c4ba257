/**
 * The order book of one market: the contract every implementation keeps.
 *
 * Implementations: NaiveOrderBook (readable reference, the test oracle) and ArrayOrderBook (typed arrays,
 * the production book). One contract suite and a seeded differential test hold them to identical events
 * and identical state hashes.
 *
 * ## Priority and prices
 * Price first, then time of arrival at the level (FIFO). Trades execute at the maker's price.
 * Bids rank highest price first, asks lowest first.
 *
 * ## place(cmd, out)
 * `validatePlace` runs first (shared by all books, so they reject alike); then a duplicate id gives
 * DuplicateOrderId; then a limit GTC or POC order (one that may rest) meeting a book that holds `maxOrders`
 * orders gets BookFull — IOC, FOK and market orders are never refused for room. A rejected command writes no
 * event and changes nothing.
 * An accepted one writes, in this order:
 * 1. Accepted(taker).
 * 2. POC: if the order's price crosses the best opposite price, Finished(taker, Poc, amount); stop.
 * 3. FOK: if the match (below) would not fill the whole amount, Finished(taker, Fok, amount); stop. The check
 *    counts exactly what the match would do: STP cancellations and stops, iceberg refills behind other orders,
 *    and a market buy's lot rounding. A market buy fills entirely when it would end by budget (step 5) having
 *    bought at least one lot; one whose budget cannot buy a single lot finishes Fok (an IOC one, Small).
 * 4. Match against the opposite side, best level first, FIFO within a level, while the level crosses
 *    (buy: ask ≤ limit, sell: bid ≥ limit, market: any level), for each maker in turn:
 *    - Same non-zero stpId as the taker: the taker's stpAct decides (None means CancelNew):
 *      CancelNew: Finished(taker, Stp, left); stop.
 *      CancelOld: Finished(maker, Stp, maker left) and the maker leaves the book; continue with the next maker.
 *      CancelBoth: Finished(maker, Stp, maker left), then Finished(taker, Stp, left); stop.
 *      Fills before the self-match stand.
 *    - A market buy first checks its budget: when floor(budget left / price) is 0 the match ends here, before
 *      STP looks at the maker.
 *    - Otherwise Fill(taker, maker, maker price, lots) with lots = min(maker visible, taker left) — for a market
 *      buy, min(maker visible, floor(budget left / price)).
 *      If the maker has nothing left: Finished(maker, Filled, 0). If an iceberg maker's display is used up but
 *      lots remain hidden: it shows min(iceberg, left) again and moves to the back of its level (no event).
 * 5. Then the taker: nothing left to fill → Finished(Filled, 0); a market buy whose budget cannot buy one lot
 *    at the next crossing price — or, when it swept the book, at its last fill price — → Finished(Filled,
 *    budget left), or Finished(Small, budget) if it filled nothing;
 *    otherwise a market order → Finished(DepthNotEnough, left); a limit IOC → Finished(Ioc, left);
 *    a limit GTC or POC rests at the back of its price level (no event), showing min(iceberg, left) if iceberg.
 *
 * ## amend(orderId, price, amount, out)
 * price 0 keeps the price; amount 0 keeps the amount; amount is the new total (filled + left).
 * Rejections (nothing changes): OrderNotFound; InvalidParam (negative or non-integer); NoChange (same price and
 * amount); AmendBelowFilled (amount ≤ filled); AmountTooLittle / AmountTooMuch (new amount or price × amount
 * outside the market's bounds); PocWouldTake (a post-only order moved to a crossing price).
 * Same price and smaller amount: left shrinks in place and the order keeps its queue position
 * (an iceberg shows min(shown, left)). Anything else (new price or larger amount): the order leaves its level,
 * takes the new values and arrives again as a GTC taker with its own stpId and stpAct — it matches as in
 * place step 4 when it crosses, then rests at the back of its (new) level, showing min(iceberg, left).
 * Events: Amended(order, new price, new left), then any fills and finishes as in place.
 *
 * ## cancel(orderId, out) and cancelAll(userId, side, out)
 * cancel: Finished(order, Cancelled, left), or OrderNotFound. cancelAll: userId 0 means every user, side 0 both
 * sides; Finished(Cancelled) for each matching order, bids before asks, each side in priority order
 * (best level first, FIFO within). A side other than 0, Buy or Sell, or a userId that is not an integer in
 * [0, 2^31), is InvalidParam.
 *
 * ## Queries (never change state)
 * bestBid/bestAsk: price in ticks, 0 when the side is empty. depth: levels best first, each with the sum of
 * *visible* lots (at most `limit` and the arrays' length). order: a resting order's view; its stpAct is the
 * effective act (a group member's None reads CancelNew). openOrders: a user's resting order ids in order of entry to the
 * book (an amend keeps the entry; a cancel and re-place is a new entry).
 *
 * ## Snapshots: forEachResting(out, visit) and restoreResting(order)
 * forEachResting visits every resting order in priority order — bids best level first, then asks best level
 * first, FIFO within a level — as an OrderView (stpAct effective, visible as shown now). restoreResting puts
 * one such order back at the back of its level and of its user's list, writing no event. Feeding a fresh
 * book every order of a book, each level's orders in visiting order (levels in any order), rebuilds the same
 * priority state: the same stateHash and the same future events. A user's openOrders then lists in restore
 * order (entry order is not part of the state hash and is not kept).
 *
 * ## Determinism
 * A pure function of the command sequence: no clocks, no randomness, no I/O. stateHash() is identical across
 * implementations for identical resting state (orders in priority order with all their fields).
 */
import type { BookEvents } from './book-events.js';
import { invariant } from '../invariant.js';
import type { Market } from '../market.js';
import type { OrderView, PlaceOrder } from './order-types.js';
import type { ResultCode } from '../result-code.js';

export interface OrderBook {
  readonly market: Market;
  /** Number of resting orders. */
  readonly size: number;

  place(cmd: PlaceOrder, out: BookEvents): ResultCode;
  amend(orderId: number, price: number, amount: number, out: BookEvents): ResultCode;
  cancel(orderId: number, out: BookEvents): ResultCode;
  cancelAll(userId: number, side: number, out: BookEvents): ResultCode;

  bestBid(): number;
  bestAsk(): number;
  /** Writes up to `limit` levels of `side` into `prices`/`lots` (best first); returns how many. */
  depth(side: number, limit: number, prices: Float64Array, lots: Float64Array): number;
  /** Fills `out` with a resting order; false when no such order rests. */
  order(orderId: number, out: OrderView): boolean;
  /** A user's resting order ids in entry order. @allocates */
  openOrders(userId: number): number[];

  /**
   * Visits every resting order in priority order (see Snapshots above), overwriting `out` for each: copy what
   * you keep; `visit` must not change the book. O(orders); allocates nothing itself.
   */
  forEachResting(out: OrderView, visit: (order: OrderView) => void): void;
  /**
   * Restores one resting order at the back of its price level (see Snapshots above). Throws InvariantError
   * when it cannot rest: a duplicate id, fields out of range (checkRestorable) or a price crossing the other side.
   */
  restoreResting(order: OrderView): void;

  /** Hash of the resting state, independent of the implementation. @allocates (a short string) */
  stateHash(): string;
  /** Deep self-check for tests; throws InvariantError. O(orders). */
  assertInvariants(): void;
}

/** Options every implementation accepts. */
export interface OrderBookOptions {
  /** Most resting orders the book will hold; beyond it `place` answers BookFull. Default 2^24. */
  readonly maxOrders?: number;
}

export const DEFAULT_MAX_ORDERS = 1 << 24;

/**
 * Throws InvariantError unless `o` can rest as given: a new id, a known side, positive integer price,
 * 0 < visible ≤ left ≤ amount, visible = left for a plain order and ≤ iceberg for an iceberg, and a price
 * that does not cross `bestOpposite` (0 = empty side). Shared by the books' restoreResting.
 */
export function checkRestorable(o: OrderView, duplicate: boolean, bestOpposite: number): void {
  invariant(!duplicate, 'restore: duplicate order id');
  invariant(o.side === 1 || o.side === 2, 'restore: bad side');
  invariant(Number.isSafeInteger(o.price) && o.price > 0, 'restore: bad price');
  invariant(o.visible > 0 && o.visible <= o.left && o.left <= o.amount && Number.isSafeInteger(o.amount), 'restore: bad amounts');
  invariant(o.iceberg > 0 ? o.visible <= o.iceberg : o.visible === o.left, 'restore: bad iceberg display');
  invariant(bestOpposite === 0 || (o.side === 1 ? o.price < bestOpposite : o.price > bestOpposite), 'restore: crossed book');
}
