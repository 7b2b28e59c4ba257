/**
 * Candlesticks of perpetual contracts: trade candles from fills, and mark and index candles from the prices
 * the engine applied (FuturesSetPrices), at every Gate interval; and GET /futures/{settle}/candlesticks over them.
 *
 * Series per contract and interval (CandleSeries rings, `capacity` non-empty buckets each):
 * - trade: price ticks, contracts (`v`), quote turnover (`sum`: linear contracts × quanto × price in the settle
 *   currency; inverse contracts, i.e. USD) in units of 10^-sumScale;
 * - mark, index: one sample per applied price update (no volume). Gate computes these every second; here a
 *   candle is made of the updates the engine applied in its bucket, and an empty bucket after the first
 *   sample carries the previous close (as trade candles do).
 *
 * Rows are Gate's FuturesCandlestick objects `{t, v, c, h, l, o, sum}` (t in seconds, the rest strings); mark and
 * index rows have no `v` nor `sum` (Gate sends neither). Query (Gate's): `interval` default 5m, `limit` 1..2000,
 * `from`/`to` in seconds; from and to: the buckets between them; from only: `limit` buckets from it (else up to
 * now); neither or to only: the last `limit` (default 100) up to to (default now); more than 2000 buckets, an
 * unknown interval, malformed numbers or from > to: InvalidParam.
 * Memory: contracts × 3 kinds × 12 intervals × capacity × 7 float64 (capacity 1024: ~2 MB per contract).
 * Costs: a fill or sample O(intervals), no allocation; a query O(rows + log capacity), allocates its rows.
 */
import { formatUnits } from '../../core/units.js';
import { CandleSeries } from './candle-series.js';
import { type CandleRange, CandleStore } from './candles.js';
import { bucketOf, bucketStart, INTERVAL_NAMES } from './intervals.js';
import { type Answer, answer, formatSum, type QueryParams } from './query.js';

/** Gate's futures limit: at most this many candles per query. */
export const MAX_FUTURES_CANDLES = 2000;

export const CandleKind = { Trade: 0, Mark: 1, Index: 2 } as const;
export type CandleKind = (typeof CandleKind)[keyof typeof CandleKind];
const KINDS = 3;

/** Gate's FuturesCandlestick. */
export interface GateFuturesCandle { t: number; v?: string; c: string; h: string; l: string; o: string; sum?: string }

/** How a contract's numbers print: price ticks at priceScale, turnover at sumScale. */
export interface CandleScales { readonly priceScale: number; readonly sumScale: number }


export class FuturesCandles {
  readonly #scales: readonly CandleScales[];
  /** series[(contract × KINDS + kind) × intervals + interval]. */
  readonly #series: CandleSeries[] = [];

  /** @allocates */
  constructor(scales: readonly CandleScales[], capacity = 1024) {
    this.#scales = scales;
    for (let i = 0; i < scales.length * KINDS * INTERVAL_NAMES.length; i++) this.#series.push(new CandleSeries(capacity));
  }

  /** The series of (contract, kind, interval). */
  series(contract: number, kind: CandleKind, interval: number): CandleSeries {
    return this.#series[(contract * KINDS + kind) * INTERVAL_NAMES.length + interval]!;
  }

  /** Adds one fill (or, with kind Mark/Index, one price sample: size and sum 0). Times never decrease. */
  record(contract: number, kind: CandleKind, timeUs: number, price: number, size: number, sum: number): void {
    const sec = timeUs / 1e6;
    for (let i = 0; i < INTERVAL_NAMES.length; i++) this.series(contract, kind, i).add(bucketOf(i, sec), price, size, sum);
  }

  /** GET /futures/{settle}/candlesticks for a contract and kind (query as received). @allocates */
  query(contract: number, kind: CandleKind, q: QueryParams, nowUs: number): Answer<GateFuturesCandle[]> {
    const r = CandleStore.range(q, nowUs, '5m', MAX_FUTURES_CANDLES);
    return r.ok ? answer(this.#rows(contract, kind, r.value, nowUs)) : r;
  }

  #rows(contract: number, kind: CandleKind, r: CandleRange, nowUs: number): GateFuturesCandle[] {
    const s = this.series(contract, kind, r.interval);
    const sc = this.#scales[contract]!;
    const price = (t: number): string => formatUnits(t, sc.priceScale);
    const out: GateFuturesCandle[] = [];
    let j = s.lowerBound(r.kFrom);
    let carry = j > 0 ? s.close[s.slot(j - 1)]! : s.evictedClose;
    const nowSec = nowUs / 1e6;
    for (let k = r.kFrom; k <= r.kTo && bucketStart(r.interval, k) <= nowSec; k++) {
      const t = bucketStart(r.interval, k);
      const slot = j < s.size ? s.slot(j) : -1;
      let row: GateFuturesCandle | undefined;
      if (slot >= 0 && s.k[slot] === k) {
        row = { t, c: price(s.close[slot]!), h: price(s.high[slot]!), l: price(s.low[slot]!), o: price(s.open[slot]!) };
        if (kind === CandleKind.Trade) {
          row.v = formatSum(s.base[slot]!, 0, formatUnits);
          row.sum = formatSum(s.quote[slot]!, sc.sumScale, formatUnits);
        }
        carry = s.close[slot]!;
        j++;
      } else if (!Number.isNaN(carry)) {
        const c = price(carry);
        row = { t, c, h: c, l: c, o: c };
        if (kind === CandleKind.Trade) { row.v = '0'; row.sum = '0'; }
      }
      if (row !== undefined) out.push(kind === CandleKind.Trade ? { t: row.t, v: row.v!, c: row.c, h: row.h, l: row.l, o: row.o, sum: row.sum! } : row);
    }
    return out;
  }
}

