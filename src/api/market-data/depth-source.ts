/**
 * Where the market-data views read a book's L2 depth: an OrderBook (inline engine), or an adapter over the
 * engine gateway's `depth(market, …)` — `{ depth: (side, limit, p, l) => gateway.depth(m, side, limit, p, l) }`.
 */
import type { OrderBook } from '../../core/matching/order-book.js';

export type DepthSource = Pick<OrderBook, 'depth'>;
