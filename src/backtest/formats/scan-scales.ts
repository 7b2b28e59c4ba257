/**
 * Detects the price and amount decimals a data file uses, from its first lines (default 200,000): the most
 * significant decimals seen in each column. A later row with more decimals is refused by the reader with a
 * message naming the config field to set, so detection can never round silently.
 */
import { openChunks } from '../csv/chunk-source.js';
import { decimalsOf } from '../csv/decimal.js';
import { LineReader } from '../csv/line-reader.js';

class DecimalScanner extends LineReader {
  price = 0;
  amount = 0;
  lines = 0;
  constructor(src: Awaited<ReturnType<typeof openChunks>>, path: string, readonly priceField: number,
    readonly amountField: number, readonly limit: number) {
    super(src, path);
  }

  protected row(b: Uint8Array, n: number): void {
    this.count++;
    if (this.lines >= this.limit) return;
    this.lines++;
    const p = this.priceField;
    const a = this.amountField;
    if (p >= n || a >= n) return;
    const dp = decimalsOf(b, this.starts[p]!, this.ends[p]!);
    const da = decimalsOf(b, this.starts[a]!, this.ends[a]!);
    if (dp > this.price) this.price = dp;
    if (da > this.amount) this.amount = da;
  }
}

/** Most decimals in the price and amount fields (0-based indexes) of the first `maxLines` lines of `path`. */
export async function scanScales(path: string, priceField: number, amountField: number, maxLines = 200_000): Promise<{ price: number; amount: number }> {
  const s = new DecimalScanner(await openChunks(path), path, priceField, amountField, maxLines);
  try {
    while (s.lines < maxLines && await s.fill()) { /* each fill scans one chunk */ }
  } finally {
    s.close();
  }
  return { price: s.price, amount: s.amount };
}
