/**
 * Rolling 24 h ticker statistics per market from fills, and Gate's Ticker objects.
 *
 * Per market, a ring of 1440 one-minute buckets (open, high, low, close, base lots, quote notional).
 * The 24 h window is minute-granular: the current minute and the 1439 before it. `change_percentage`
 * compares `last` with the price 24 h ago (the last fill before the window; when none, the window's first
 * fill); `change_utc0` / `change_utc8` with the price at the latest 00:00 UTC / UTC+8 likewise.
 * A market without fills in the window shows zero volumes, change 0, and high/low at `last`; one that never
 * traded shows "0" for prices. Book fields come from the depth source: "" for an empty side.
 * Costs: `record` O(1), no allocation; `ticker` O(1440) and allocates the object.
 */
import { Side } from '../../core/matching/order-types.js';
import type { Market } from '../../core/market.js';
import { formatUnits } from '../../core/units.js';
import type { DepthSource } from './depth-source.js';
import { formatSum } from './query.js';

const MINUTES = 1440;

/** Gate's spot Ticker (the fields we serve; strings as Gate sends them). */
export interface GateTicker {
  currency_pair: string; last: string; lowest_ask: string; lowest_size: string; highest_bid: string; highest_size: string;
  change_percentage: string; change_utc0: string; change_utc8: string; base_volume: string; quote_volume: string;
  high_24h: string; low_24h: string;
}

class MinuteRing {
  readonly minute = new Float64Array(MINUTES).fill(-1);
  readonly open = new Float64Array(MINUTES);
  readonly high = new Float64Array(MINUTES);
  readonly low = new Float64Array(MINUTES);
  readonly close = new Float64Array(MINUTES);
  readonly base = new Float64Array(MINUTES);
  readonly quote = new Float64Array(MINUTES);
  last = Number.NaN;
  /** The newest overwritten bucket: its minute (-1 when none) and close. */
  evictedMinute = -1;
  evictedClose = 0;
}

export class TickerStats {
  readonly #markets: readonly Market[];
  readonly #rings: MinuteRing[];
  readonly #prices = new Float64Array(1);
  readonly #lots = new Float64Array(1);

  /** @allocates */
  constructor(markets: readonly Market[]) {
    this.#markets = markets;
    this.#rings = markets.map(() => new MinuteRing());
  }

  /** Adds one fill (time µs, price ticks, lots, notional units); fills arrive in time order. */
  record(market: number, timeUs: number, price: number, lots: number, notional: number): void {
    const r = this.#rings[market]!;
    const minute = Math.floor(timeUs / 60e6);
    const s = minute % MINUTES;
    const had = r.minute[s]!;
    r.last = price;
    if (had === minute) {
      if (price > r.high[s]!) r.high[s] = price;
      if (price < r.low[s]!) r.low[s] = price;
      r.close[s] = price;
      r.base[s] = r.base[s]! + lots;
      r.quote[s] = r.quote[s]! + notional;
      return;
    }
    if (had > r.evictedMinute) {
      r.evictedMinute = had;
      r.evictedClose = r.close[s]!;
    }
    r.minute[s] = minute;
    r.open[s] = price; r.high[s] = price; r.low[s] = price; r.close[s] = price;
    r.base[s] = lots; r.quote[s] = notional;
  }

  /**
   * The price as of minute `b` began: the close of the newest bucket before it, else the open of the oldest
   * bucket from it on, else NaN. O(1440).
   */
  priceAt(market: number, b: number): number {
    const r = this.#rings[market]!;
    let before = r.evictedMinute;
    let beforePrice = r.evictedClose;
    let after = Number.POSITIVE_INFINITY;
    let afterPrice = Number.NaN;
    for (let s = 0; s < MINUTES; s++) {
      const t = r.minute[s]!;
      if (t < 0) continue;
      if (t < b) {
        if (t > before) { before = t; beforePrice = r.close[s]!; }
      } else if (t < after) {
        after = t; afterPrice = r.open[s]!;
      }
    }
    return before >= 0 ? beforePrice : afterPrice;
  }

  /** Gate's Ticker of `market` at `nowUs`, with the best levels of `book`. @allocates */
  ticker(market: number, nowUs: number, book: DepthSource | undefined): GateTicker {
    const m = this.#markets[market]!;
    const r = this.#rings[market]!;
    const nowMin = Math.floor(nowUs / 60e6);
    const from = nowMin - MINUTES + 1;
    let high = Number.NEGATIVE_INFINITY;
    let low = Number.POSITIVE_INFINITY;
    let base = 0;
    let quote = 0;
    for (let s = 0; s < MINUTES; s++) {
      const t = r.minute[s]!;
      if (t < from || t > nowMin) continue;
      if (r.high[s]! > high) high = r.high[s]!;
      if (r.low[s]! < low) low = r.low[s]!;
      base += r.base[s]!;
      quote += r.quote[s]!;
    }
    const traded = !Number.isNaN(r.last);
    const last = traded ? r.last : 0;
    const price = (t: number): string => formatUnits(t, m.priceScale);
    const change = (b: number): string => (traded ? percent(last, this.priceAt(market, b)) : '0');
    const day = Math.floor(nowMin / MINUTES) * MINUTES;
    const day8 = Math.floor((nowMin + 480) / MINUTES) * MINUTES - 480;
    const [ask, askSize] = this.#top(book, Side.Sell, m);
    const [bid, bidSize] = this.#top(book, Side.Buy, m);
    return {
      currency_pair: m.id,
      last: price(last),
      lowest_ask: ask, lowest_size: askSize, highest_bid: bid, highest_size: bidSize,
      change_percentage: change(from), change_utc0: change(day), change_utc8: change(day8),
      base_volume: formatSum(base, m.amountScale, formatUnits),
      quote_volume: formatSum(quote, m.notionalScale, formatUnits),
      high_24h: price(base > 0 ? high : last), low_24h: price(base > 0 ? low : last),
    };
  }

  #top(book: DepthSource | undefined, side: number, m: Market): [string, string] {
    if (book === undefined || book.depth(side, 1, this.#prices, this.#lots) === 0) return ['', ''];
    return [formatUnits(this.#prices[0]!, m.priceScale), formatUnits(this.#lots[0]!, m.amountScale)];
  }
}

/** (last − ref) / ref in percent with two decimals, trailing zeros trimmed ("-7.45", "0.5", "0"). */
export function percent(last: number, ref: number): string {
  if (!(ref > 0)) return '0';
  const text = (((last - ref) / ref) * 100).toFixed(2).replace(/\.?0+$/, '');
  return text === '-0' || text === '' ? '0' : text;
}
