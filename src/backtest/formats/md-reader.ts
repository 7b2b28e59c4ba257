/**
 * A line reader whose rows are market-data rows (../md-rows.ts) at a market's price and amount scales.
 * Format readers (Tardis, Gate dumps) implement `row()` and push through `push()`.
 */
import { LineReader } from '../csv/line-reader.js';
import type { ChunkSource } from '../csv/chunk-source.js';
import { BAD_DECIMAL, parseScaled, parseUint } from '../csv/decimal.js';
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
    if (Number.isNaN(v)) this.fail(`${what} "${fieldText(b, this.starts[k]!, this.ends[k]!)}" is not an integer`);
    return v;
  }

  protected price(b: Uint8Array, k: number): number {
    const v = parseScaled(b, this.starts[k]!, this.ends[k]!, this.scales.priceScale);
    if (v === BAD_DECIMAL || Number.isNaN(v) || v < 0) {
      this.fail(`price "${fieldText(b, this.starts[k]!, this.ends[k]!)}" is not a non-negative decimal with at most ${this.scales.priceScale} decimals (set price_precision)`);
    }
    return v;
  }

  /** A signed amount at the amount scale. */
  protected amount(b: Uint8Array, k: number): number {
    const v = parseScaled(b, this.starts[k]!, this.ends[k]!, this.scales.amountScale);
    if (Number.isNaN(v)) {
      this.fail(`amount "${fieldText(b, this.starts[k]!, this.ends[k]!)}" is not a decimal with at most ${this.scales.amountScale} decimals (set amount_precision)`);
    }
    return v;
  }
}
