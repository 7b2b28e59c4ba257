/**
 * Tardis.dev `derivative_ticker` CSV (plain or gzip), the recorded prices and funding of a perpetual:
 *
 *   exchange,symbol,timestamp,local_timestamp,funding_timestamp,funding_rate,predicted_funding_rate,
 *   open_interest,last_price,index_price,mark_price
 *
 * Timestamps are µs since the epoch; `funding_timestamp` is the time of the next funding event, paid at
 * `funding_rate`. Tardis leaves a field empty when the exchange did not send it: an empty value is NaN here and
 * the replay keeps the last known one. Prices become ticks of the market's price scale and rates units of
 * 10^-8, both rounded half away from zero when the data has more decimals (exchanges publish marks and rates
 * finer than the book's tick; a mark must be on the contract's mark tick). The header line is checked and
 * skipped.
 *
 * Invalid rows (`fail` reasons, ../csv/invalid-rows.ts): a field count other than 11, timestamps that are not
 * integers (`funding_timestamp` may be empty), a price that is not a positive decimal, a rate that is not a
 * decimal (`bad_number`).
 *
 * Costs: one pass over the bytes, no string per row; rows are struct-of-arrays that grow by doubling.
 */
import type { ChunkSource } from '../csv/chunk-source.js';
import { BAD_DECIMAL, decimalsOf, parseScaled, parseUint } from '../csv/decimal.js';
import { fieldIs, fieldText, LineReader } from '../csv/line-reader.js';
import { grownTo } from '../../core/typed-arrays.js';
import { POW10 } from '../../core/units.js';

export const TARDIS_TICKER_HEADER = 'exchange,symbol,timestamp,local_timestamp,funding_timestamp,funding_rate,'
  + 'predicted_funding_rate,open_interest,last_price,index_price,mark_price';

/** Decimals of a funding rate inside the engine (10^-8, core/futures/futures-math.ts RATE_SCALE). */
export const TICKER_RATE_SCALE = 8;

/** One batch of derivative ticker rows; NaN marks a field the row did not carry. */
export class TickerRows {
  count = 0;
  exch = new Float64Array(1024);
  local = new Float64Array(1024);
  /** Next funding time, µs. */
  fundingTs = new Float64Array(1024);
  /** 10^-8. */
  fundingRate = new Float64Array(1024);
  /** Ticks. */
  index = new Float64Array(1024);
  mark = new Float64Array(1024);
  last = new Float64Array(1024);

  push(exch: number, local: number, fundingTs: number, rate: number, index: number, mark: number, last: number): void {
    const i = this.count;
    if (i === this.exch.length) this.#grow();
    this.exch[i] = exch; this.local[i] = local; this.fundingTs[i] = fundingTs; this.fundingRate[i] = rate;
    this.index[i] = index; this.mark[i] = mark; this.last[i] = last;
    this.count = i + 1;
  }

  #grow(): void {
    const n = this.exch.length * 2;
    this.exch = grownTo(this.exch, n); this.local = grownTo(this.local, n); this.fundingTs = grownTo(this.fundingTs, n);
    this.fundingRate = grownTo(this.fundingRate, n); this.index = grownTo(this.index, n); this.mark = grownTo(this.mark, n);
    this.last = grownTo(this.last, n);
  }
}

/**
 * `b[s, e)` as an integer at `scale`, rounded half away from zero when it has more decimals; NaN when empty,
 * BAD_DECIMAL (NaN too) when malformed — callers tell the two apart by `s === e`.
 */
export function parseRounded(b: Uint8Array, s: number, e: number, scale: number): number {
  if (s >= e) return Number.NaN;
  const d = decimalsOf(b, s, e);
  if (d >= 0 && d <= scale) return parseScaled(b, s, e, scale);
  // More decimals (or an exponent): read exactly at a finer scale, then round.
  const fine = d < 0 ? scale + 12 : Math.min(d, scale + 15);
  const v = parseScaled(b, s, e, fine);
  if (Number.isNaN(v)) return BAD_DECIMAL;
  const p = POW10[fine - scale]!;
  const q = Math.trunc(v / p);
  const r = Math.abs(v - q * p);
  return r * 2 >= p ? q + Math.sign(v) : q;
}

export class TardisTickerReader extends LineReader {
  readonly rows = new TickerRows();
  readonly priceScale: number;
  headers = 0;

  constructor(src: ChunkSource, path: string, priceScale: number) {
    super(src, path);
    this.priceScale = priceScale;
  }

  protected override reset(): void {
    super.reset();
    this.rows.count = 0;
  }

  protected row(b: Uint8Array, n: number): void {
    const s = this.starts;
    const e = this.ends;
    if (fieldIs(b, s[0]!, e[0]!, 'exchange')) { this.headers++; return; }
    if (n !== 11) this.fail('field_count', `expected 11 fields (${TARDIS_TICKER_HEADER}), got ${n}`);
    const exch = this.#time(b, 2, 'timestamp', false);
    const local = this.#time(b, 3, 'local_timestamp', false);
    const fundingTs = this.#time(b, 4, 'funding_timestamp', true);
    const rate = this.#rate(b, 5);
    const last = this.#price(b, 8);
    const index = this.#price(b, 9);
    const mark = this.#price(b, 10);
    this.rows.push(exch, local, fundingTs, rate, index, mark, last);
    this.count++;
  }

  #time(b: Uint8Array, k: number, what: string, optional: boolean): number {
    if (optional && this.starts[k] === this.ends[k]) return Number.NaN;
    const v = parseUint(b, this.starts[k]!, this.ends[k]!);
    if (Number.isNaN(v)) this.fail('bad_timestamp', `${what} "${fieldText(b, this.starts[k]!, this.ends[k]!)}" is not an integer`);
    return v;
  }

  #price(b: Uint8Array, k: number): number {
    const s = this.starts[k]!;
    const e = this.ends[k]!;
    if (s === e) return Number.NaN;
    const v = parseRounded(b, s, e, this.priceScale);
    if (Number.isNaN(v) || v <= 0) this.fail('bad_price', `price "${fieldText(b, s, e)}" is not a positive decimal`);
    return v;
  }

  #rate(b: Uint8Array, k: number): number {
    const s = this.starts[k]!;
    const e = this.ends[k]!;
    if (s === e) return Number.NaN;
    const v = parseRounded(b, s, e, TICKER_RATE_SCALE);
    if (Number.isNaN(v)) this.fail('bad_number', `funding rate "${fieldText(b, s, e)}" is not a decimal`);
    return v;
  }
}
