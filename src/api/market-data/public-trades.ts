/**
 * GET /spot/trades over the exchange's trade log (the last `capacity` trades of every market).
 *
 * Query: `limit` 1..1000 (default 100); `from` / `to` in seconds (fractional allowed), inclusive; `page`
 * ≥ 1 skips (page − 1) × limit matches; `last_id` with `reverse=true` pages back through history (ids below
 * last_id), with `reverse=false` (the default) returns the `limit` trades right after last_id (ids above it,
 * so a poller passing its newest id misses nothing). Answers are always newest first.
 * Costs: O(log capacity) to bound the range by time, then O(trades scanned) — at worst the retained trades
 * of other markets within the range. Allocates the answer.
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import type { TradeLog } from '../../core/exchange/trade-log.js';
import { ResultCode } from '../../core/result-code.js';
import { type GatePublicTrade, renderPublicTrade } from '../../gate/shapes.js';
import { type Answer, answer, boolParam, intParam, type QueryParams, reject, secondsParamUs } from './query.js';

export const MAX_TRADES = 1000;
const MAX_PAGE = 1_000_000;

/** The first retained id whose time is ≥ `us` (count + 1 when none). Trade times never decrease with id. */
function firstAtOrAfter(T: TradeLog, lo: number, us: number): number {
  let hi = T.count + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (T.time[T.slotOf(mid)]! < us) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** GET /spot/trades for `market` (query as received). @allocates */
export function publicTrades(ex: Exchange, market: number, q: QueryParams): Answer<GatePublicTrade[]> {
  const limit = intParam(q, 'limit', 100, 1, MAX_TRADES);
  const page = intParam(q, 'page', 1, 1, MAX_PAGE);
  const lastId = intParam(q, 'last_id', 0, 0, Number.MAX_SAFE_INTEGER);
  const reverse = boolParam(q, 'reverse', false);
  const from = secondsParamUs(q, 'from', 0);
  const to = secondsParamUs(q, 'to', Number.MAX_SAFE_INTEGER);
  if (limit < 0 || page < 0 || lastId < 0 || typeof reverse === 'number' || from < 0 || to < 0) return reject(ResultCode.InvalidParam);
  if (from > to) return reject(ResultCode.InvalidParam);
  const T = ex.trades;
  const oldest = Math.max(1, T.count - T.capacity + 1);
  let lo = firstAtOrAfter(T, oldest, from);
  let hi = firstAtOrAfter(T, lo, to + 1) - 1;
  const forward = lastId > 0 && !reverse;
  if (lastId > 0) {
    if (reverse) hi = Math.min(hi, lastId - 1);
    else lo = Math.max(lo, lastId + 1);
  }
  let skip = (page - 1) * limit;
  const ids: number[] = [];
  const step = forward ? 1 : -1;
  for (let id = forward ? lo : hi; id >= lo && id <= hi && ids.length < limit; id += step) {
    if (T.market[(id - 1) % T.capacity] !== market) continue;
    if (skip > 0) skip--;
    else ids.push(id);
  }
  if (forward) ids.reverse();
  return answer(ids.map((id) => renderPublicTrade(ex, id)!));
}
