/**
 * LOBSTER message files (reference §3.3), plain or gzip, no header: `Time, Type, OrderID, Size, Price,
 * Direction` — seconds after midnight (up to ns decimals; read to µs, finer digits must be 0), type 1–7,
 * the order's id, shares, dollars × 10000 (integer), −1 sell / 1 buy.
 */
import type { ChunkSource } from '../csv/chunk-source.js';
import { parseScaled } from '../csv/decimal.js';
import { fieldText, LineReader } from '../csv/line-reader.js';
import { grownTo } from '../../core/typed-arrays.js';

export const LobsterType = { Add: 1, Cancel: 2, Delete: 3, Execute: 4, ExecuteHidden: 5, Cross: 6, Halt: 7 } as const;

export class LobsterReader extends LineReader {
  time = new Float64Array(16384);
  type = new Uint8Array(16384);
  orderId = new Float64Array(16384);
  size = new Float64Array(16384);
  price = new Float64Array(16384);
  dir = new Int32Array(16384);

  constructor(src: ChunkSource, path: string, readonly dayStartUs: number) {
    super(src, path);
  }

  protected row(b: Uint8Array, n: number): void {
    if (n < 6) this.fail(`expected 6 fields (Time, Type, OrderID, Size, Price, Direction), got ${n}`);
    const i = this.count;
    if (i === this.time.length) this.#grow();
    const s = this.starts;
    const e = this.ends;
    let t = parseScaled(b, s[0]!, e[0]!, 6);
    if (Number.isNaN(t)) {
      // Nanosecond decimals: keep µs (truncating the sub-µs digits, which LOBSTER fills from ITCH ns stamps).
      const cut = Math.min(e[0]!, b.indexOf(46, s[0]) + 7);
      t = parseScaled(b, s[0]!, cut, 6);
      if (Number.isNaN(t)) this.fail(`time "${fieldText(b, s[0]!, e[0]!)}" is not seconds after midnight`);
    }
    const num = (k: number, what: string): number => {
      const v = parseScaled(b, s[k]!, e[k]!, 0);
      if (Number.isNaN(v)) this.fail(`${what} "${fieldText(b, s[k]!, e[k]!)}" is not an integer`);
      return v;
    };
    this.time[i] = this.dayStartUs + t;
    this.type[i] = num(1, 'type');
    this.orderId[i] = num(2, 'order id');
    this.size[i] = num(3, 'size');
    this.price[i] = num(4, 'price');
    this.dir[i] = num(5, 'direction');
    this.count = i + 1;
  }

  #grow(): void {
    const n = this.time.length * 2;
    this.time = grownTo(this.time, n); this.type = grownTo(this.type, n); this.orderId = grownTo(this.orderId, n);
    this.size = grownTo(this.size, n); this.price = grownTo(this.price, n); this.dir = grownTo(this.dir, n);
  }
}

/** `TICKER_YYYY-MM-DD_…` → ticker and the day's start in µs since the epoch (UTC); defaults otherwise. */
export function lobsterFileInfo(name: string): { ticker: string; dayStartUs: number } {
  const m = /^([A-Za-z0-9]+)_(\d{4})-(\d{2})-(\d{2})_/.exec(name);
  if (m === null) return { ticker: 'LOB', dayStartUs: 0 };
  return { ticker: m[1]!.toUpperCase(), dayStartUs: Date.UTC(Number(m[2]), Number(m[3]) - 1, Number(m[4])) * 1000 };
}
