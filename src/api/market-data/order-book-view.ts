/**
 * GET /spot/order_book: L2 depth with Gate's `limit`, `interval` merging and `with_id`.
 *
 * `limit` 1..1000 (default 10) levels per side. `interval` "0" (default) lists the book's own levels; a
 * positive multiple of the price tick (e.g. "0.1") merges them: bids round down and asks up to a multiple
 * of it, sizes summed. `with_id=true` adds `id`, the book version (book-versions.ts). `current` is `now`
 * and `update` the last book change, both in ms (`update` is `current` before any change).
 * Costs: O(levels read); merging reads raw levels in growing batches until limit + 1 merged levels are
 * seen or the side ends. Allocates the answer and scratch arrays.
 */
import { Side } from '../../core/matching/order-types.js';
import { type Market, parsePrice } from '../../core/market.js';
import { ResultCode } from '../../core/result-code.js';
import { floorDiv, formatUnits } from '../../core/units.js';
import type { GateOrderBook } from '../../gate/shapes.js';
import type { DepthSource } from './depth-source.js';
import { type Answer, answer, boolParam, intParam, type QueryParams, reject } from './query.js';

export const MAX_DEPTH = 1000;

/** Up to `limit` levels of `side`, merged to multiples of `step` ticks (1 = unmerged). @allocates */
export function mergedDepth(book: DepthSource, side: number, limit: number, step: number): { prices: number[]; lots: number[] } {
  const prices: number[] = [];
  const lots: number[] = [];
  if (step <= 1) {
    const p = new Float64Array(limit);
    const l = new Float64Array(limit);
    const n = book.depth(side, limit, p, l);
    for (let i = 0; i < n; i++) { prices.push(p[i]!); lots.push(l[i]!); }
    return { prices, lots };
  }
  for (let want = limit * 4; ; want *= 4) {
    const p = new Float64Array(want);
    const l = new Float64Array(want);
    const n = book.depth(side, want, p, l);
    prices.length = 0;
    lots.length = 0;
    for (let i = 0; i < n && prices.length <= limit; i++) {
      const raw = p[i]!;
      const q = floorDiv(raw, step);
      const merged = side === Side.Buy || q * step === raw ? q * step : (q + 1) * step;
      if (prices.length > 0 && prices[prices.length - 1] === merged) lots[lots.length - 1] = lots[lots.length - 1]! + l[i]!;
      else { prices.push(merged); lots.push(l[i]!); }
    }
    if (prices.length > limit || n < want) break;
  }
  prices.length = Math.min(prices.length, limit);
  lots.length = prices.length;
  return { prices, lots };
}

/** GET /spot/order_book of market `m` (query as received). @allocates */
export function orderBookView(m: Market, book: DepthSource, q: QueryParams, version: number, updateUs: number,
  nowUs: number): Answer<GateOrderBook> {
  const limit = intParam(q, 'limit', 10, 1, MAX_DEPTH);
  const withId = boolParam(q, 'with_id', false);
  const interval = q.interval ?? '0';
  let step = 1;
  if (interval !== '0' && interval !== '') {
    step = /^0+(\.0+)?$/.test(interval) ? 1 : parsePrice(m, interval);
    if (step < 0) return reject(ResultCode.InvalidParam);
  }
  if (limit < 0 || typeof withId === 'number') return reject(ResultCode.InvalidParam);
  const side = (s: number): [string, string][] => {
    const d = mergedDepth(book, s, limit, step);
    return d.prices.map((p, i) => [formatUnits(p, m.priceScale), formatUnits(d.lots[i]!, m.amountScale)]);
  };
  const current = Math.floor(nowUs / 1000);
  const update = updateUs > 0 ? Math.floor(updateUs / 1000) : current;
  const head = withId ? { id: version } : {};
  return answer({ ...head, current, update, asks: side(Side.Sell), bids: side(Side.Buy) });
}
