/**
 * Candlesticks of every market at every Gate interval, built incrementally from fills, and Gate's
 * `/spot/candlesticks` query over them.
 *
 * Rows are Gate's: [start s, quote volume, close, high, low, open, base volume, closed], all strings;
 * `closed` is "true" when the bucket ended at or before `now`.
 * Empty buckets: a bucket without fills after the first retained one is carried — a flat candle at the
 * previous close with zero volumes (charts stay continuous); buckets before any retained fill are omitted,
 * and so are buckets after `now`. Bucket alignment: see intervals.ts.
 * Memory: markets × 12 intervals × `capacity` buckets × 7 float64 (default 1024: ~690 KB per market).
 * Costs: `record` O(intervals) per fill, no allocation in steady state; a query O(rows + log capacity) and
 * allocates its rows.
 */
import type { Market } from '../../core/market.js';
import { ResultCode } from '../../core/result-code.js';
import { formatUnits } from '../../core/units.js';
import { CandleSeries } from './candle-series.js';
import { bucketOf, bucketStart, INTERVAL_NAMES, intervalIndex } from './intervals.js';
import { type Answer, answer, formatSum, intParam, type QueryParams, reject, secondsParamUs } from './query.js';

/** At most this many rows per query (Gate's limit). */
export const MAX_CANDLES = 1000;
const DEFAULT_POINTS = 100;

/** A candle range as bucket numbers (inclusive). */
export interface CandleRange { readonly interval: number; readonly kFrom: number; readonly kTo: number }

export class CandleStore {
  readonly #markets: readonly Market[];
  /** series[market * intervals + interval]. */
  readonly #series: CandleSeries[] = [];
  /** Per interval: the bucket last computed and its [start, end) in seconds (avoids Date work per fill). */
  readonly #cacheK = new Float64Array(INTERVAL_NAMES.length);
  readonly #cacheStart = new Float64Array(INTERVAL_NAMES.length).fill(Number.POSITIVE_INFINITY);
  readonly #cacheEnd = new Float64Array(INTERVAL_NAMES.length).fill(Number.NEGATIVE_INFINITY);

  /** @allocates */
  constructor(markets: readonly Market[], capacity = 1024) {
    this.#markets = markets;
    for (let i = 0; i < markets.length * INTERVAL_NAMES.length; i++) this.#series.push(new CandleSeries(capacity));
  }

  /** Adds one fill: time µs, price ticks, base lots, quote notional units. */
  record(market: number, timeUs: number, price: number, lots: number, notional: number): void {
    const sec = timeUs / 1e6;
    const n = INTERVAL_NAMES.length;
    for (let i = 0; i < n; i++) this.#series[market * n + i]!.add(this.#bucket(i, sec), price, lots, notional);
  }

  /** The series of a market at an interval (tests and tools). */
  series(market: number, interval: number): CandleSeries {
    return this.#series[market * INTERVAL_NAMES.length + interval]!;
  }

  /**
   * Gate's query semantics (limit ≤ 1000; `from`/`to` in seconds; ccxt's `to` + `limit` accepted):
   * from and to: every bucket from from's to to's (limit, if given, only validated);
   * from only: `limit` buckets from from's when limit is given, else up to now's;
   * to only, or neither: the last `limit` (default 100) buckets up to to's (default now's).
   * Rejections: unknown interval, limit outside 1..max, malformed times, from > to, a range over `max`
   * buckets — InvalidParam. Spot: interval 30m by default, max 1000; futures: 5m and 2000 (futures-candles.ts).
   */
  static range(q: QueryParams, nowUs: number, defaultInterval = '30m', max = MAX_CANDLES): Answer<CandleRange> {
    const interval = intervalIndex(q.interval ?? defaultInterval);
    if (interval < 0) return reject(ResultCode.InvalidParam);
    const limit = intParam(q, 'limit', 0, 1, max);
    const from = secondsParamUs(q, 'from', -1);
    const to = secondsParamUs(q, 'to', -1);
    if (limit < 0 || (q.from !== undefined && q.from !== '' && from < 0) || (q.to !== undefined && q.to !== '' && to < 0)) {
      return reject(ResultCode.InvalidParam);
    }
    const nowK = bucketOf(interval, nowUs / 1e6);
    let kFrom: number;
    let kTo: number;
    if (from >= 0) {
      if (to >= 0 && from > to) return reject(ResultCode.InvalidParam);
      kFrom = bucketOf(interval, from / 1e6);
      kTo = to >= 0 ? bucketOf(interval, to / 1e6) : limit > 0 ? kFrom + limit - 1 : nowK;
    } else {
      kTo = to >= 0 ? bucketOf(interval, to / 1e6) : nowK;
      kFrom = kTo - (limit > 0 ? limit : DEFAULT_POINTS) + 1;
    }
    if (kTo - kFrom + 1 > max) return reject(ResultCode.InvalidParam);
    return answer({ interval, kFrom, kTo: Math.min(kTo, nowK) });
  }

  /** Rows of buckets kFrom..kTo of a market (see the module header for empty buckets). @allocates */
  rows(market: number, r: CandleRange, nowUs: number): string[][] {
    const s = this.series(market, r.interval);
    const m = this.#markets[market]!;
    const nowSec = nowUs / 1e6;
    const out: string[][] = [];
    let j = s.lowerBound(r.kFrom);
    let carry = j > 0 ? s.close[s.slot(j - 1)]! : s.evictedClose;
    const price = (t: number): string => formatUnits(t, m.priceScale);
    for (let k = r.kFrom; k <= r.kTo; k++) {
      const start = bucketStart(r.interval, k);
      const closed = bucketStart(r.interval, k + 1) <= nowSec ? 'true' : 'false';
      const slot = j < s.size ? s.slot(j) : -1;
      if (slot >= 0 && s.k[slot] === k) {
        out.push([String(start), formatSum(s.quote[slot]!, m.notionalScale, formatUnits), price(s.close[slot]!),
          price(s.high[slot]!), price(s.low[slot]!), price(s.open[slot]!), formatSum(s.base[slot]!, m.amountScale, formatUnits), closed]);
        carry = s.close[slot]!;
        j++;
      } else if (!Number.isNaN(carry)) {
        const c = price(carry);
        out.push([String(start), '0', c, c, c, c, '0', closed]);
      }
    }
    return out;
  }

  /** GET /spot/candlesticks for market `market` (query as received). @allocates */
  query(market: number, q: QueryParams, nowUs: number): Answer<string[][]> {
    const r = CandleStore.range(q, nowUs);
    return r.ok ? answer(this.rows(market, r.value, nowUs)) : r;
  }

  #bucket(i: number, sec: number): number {
    if (sec >= this.#cacheStart[i]! && sec < this.#cacheEnd[i]!) return this.#cacheK[i]!;
    const k = bucketOf(i, sec);
    this.#cacheK[i] = k;
    this.#cacheStart[i] = bucketStart(i, k);
    this.#cacheEnd[i] = bucketStart(i, k + 1);
    return k;
  }
}
