/**
 * A line reader whose rows are market-data rows (../md-rows.ts) at a market's price and amount scales.
 * Format readers (Tardis, Gate dumps) implement `row()` and push through `push()`. Field parsers refuse a
 * row (`fail`, see ../csv/line-reader.ts) with the reason the report counts it under: a price must be a
 * positive decimal (a trade or level at 0 would fill every order of ours it reaches); a value with more
 * decimals than the market's precision is `price_precision` / `amount_precision`, never rounded.
 */
import { LineReader } from '../csv/line-reader.js';
import type { ChunkSource } from '../csv/chunk-source.js';
import { BAD_DECIMAL, decimalsOf, parseScaled, parseUint } from '../csv/decimal.js';
import { fieldText } from '../csv/line-reader.js';
import { MdRows } from '../md-rows.js';

export interface Scales {
  /** Price decimals (ticks = price × 10^priceScale). */
  readonly priceScale: number;
  /** Amount decimals (lots = amount × 10^amountScale). */
  readonly amountScale: number;
}

export abstract class MdReader extends LineReader {
  readonly rows = new MdRows();
  readonly scales: Scales;
  /** Rows skipped as headers. */
  headers = 0;

  constructor(src: ChunkSource, path: string, scales: Scales) {
    super(src, path);
    this.scales = scales;
  }

  protected override reset(): void {
    super.reset();
    this.rows.count = 0;
  }

  protected push(exch: number, local: number, kind: number, flags: number, side: number, price: number, amount: number): void {
    this.rows.push(exch, local, kind, flags, side, price, amount);
    this.count++;
  }

  protected uint(b: Uint8Array, k: number, what: string): number {
    const v = parseUint(b, this.starts[k]!, this.ends[k]!);
    if (Number.isNaN(v)) this.fail('bad_timestamp', `${what} "${fieldText(b, this.starts[k]!, this.ends[k]!)}" is not an integer`);
    return v;
  }

  /** A positive price at the price scale. */
  protected price(b: Uint8Array, k: number): number {
    const s = this.starts[k]!;
    const e = this.ends[k]!;
    const v = parseScaled(b, s, e, this.scales.priceScale);
    if (v === BAD_DECIMAL || Number.isNaN(v) || v <= 0) {
      const text = fieldText(b, s, e);
      if (tooPrecise(b, s, e, this.scales.priceScale)) {
        this.fail('price_precision', `price "${text}" has more than ${this.scales.priceScale} decimals (set price_precision)`);
      }
      this.fail('bad_price', `price "${text}" is not a positive decimal`);
    }
    return v;
  }

  /** A signed amount at the amount scale. */
  protected amount(b: Uint8Array, k: number): number {
    const s = this.starts[k]!;
    const e = this.ends[k]!;
    const v = parseScaled(b, s, e, this.scales.amountScale);
    if (Number.isNaN(v)) {
      const text = fieldText(b, s, e);
      if (tooPrecise(b, s, e, this.scales.amountScale)) {
        this.fail('amount_precision', `amount "${text}" has more than ${this.scales.amountScale} decimals (set amount_precision)`);
      }
      this.fail('bad_amount', `amount "${text}" is not a decimal`);
    }
    return v;
  }
}

/** True when `b[s, e)` is a well-formed decimal that only fails for having more than `scale` decimals. */
export function tooPrecise(b: Uint8Array, s: number, e: number, scale: number): boolean {
  const d = decimalsOf(b, s, e);
  return d > scale && !Number.isNaN(parseScaled(b, s, e, d));
}
