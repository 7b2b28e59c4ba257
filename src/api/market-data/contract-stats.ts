/**
 * One point of a contract's statistics (REST GET /futures/{settle}/contract_stats and the futures.contract_stats
 * push): the current bucket of an interval, with open interest and holder counts from the positions now and the
 * liquidations of that bucket; `lsr_taker` and `top_lsr_*` are "0" (the simulator keeps no taker or top-trader
 * history). Amounts as REST renders them (decimal strings); the push converts its numeric fields at the edge.
 * Cost: O(liquidation history) per call (bounded by FuturesState's history cap).
 */
import type { Exchange } from '../../core/exchange/exchange.js';
import { formatSigned } from '../../core/futures/futures-math.js';
import { markTicks, openInterest, priceText, quoteValueText, ratio } from '../../gate/futures-market-shapes.js';
import type { FuturesMarketData } from './futures-market-data.js';
import { bucketOf, bucketStart } from './intervals.js';

/** The stats point of contract `ci` for interval index `interval` at `nowUs`: `time` is the bucket's start (s). @allocates */
export function contractStatsPoint(ex: Exchange, feed: FuturesMarketData, ci: number, interval: number, nowUs: number): Record<string, unknown> & { time: number } {
  const S = ex.futures;
  const c = S.contracts[ci]!;
  const t = bucketStart(interval, bucketOf(interval, nowUs / 1e6));
  const oi = openInterest(ex, ci);
  const mark = markTicks(ex, ci, feed.referenceTicks(ci));
  const liq = { long: 0, short: 0 };
  for (const r of S.liquidations) {
    if (r.market === S.marketOf[ci] && r.t / 1e6 >= t) liq[r.size > 0 ? 'long' : 'short'] += Math.abs(r.size);
  }
  const amount = (n: number): string => (c.inverse ? String(n) : formatSigned(BigInt(n) * c.qUnits, c.qScale));
  return {
    time: t, lsr_taker: '0', lsr_account: ratio(oi.longs, oi.shorts),
    long_liq_size: liq.long, long_liq_amount: amount(liq.long), long_liq_usd: quoteValueText(c, liq.long, mark),
    short_liq_size: liq.short, short_liq_amount: amount(liq.short), short_liq_usd: quoteValueText(c, liq.short, mark),
    open_interest: oi.size, open_interest_usd: quoteValueText(c, oi.size, mark), top_lsr_account: '0', top_lsr_size: '0',
    mark_price: priceText(c, mark),
  };
}
