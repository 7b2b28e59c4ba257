/**
 * LOBSTER message files (reference §3.3), plain or gzip, no header: `Time, Type, OrderID, Size, Price,
 * Direction` — seconds after midnight (up to ns decimals; read to µs, finer digits must be 0), type 1–7,
 * the order's id, shares, dollars × 10000 (integer), −1 sell / 1 buy.
 *
 * Invalid rows (`fail` reasons, ../csv/invalid-rows.ts): fewer than 6 fields, a time or integer field that
 * does not parse, and, for the messages that touch a visible order (types 1–4), a size or price of zero or
 * less or a direction other than −1/1 (types 5–7 carry placeholders there: halts have price −1/0/1).
 */
import type { ChunkSource } from '../csv/chunk-source.js';
import { parseScaled } from '../csv/decimal.js';
import type { RowDefect } from '../csv/invalid-rows.js';
import { fieldText, LineReader } from '../csv/line-reader.js';
import { grownTo } from '../../core/typed-arrays.js';

export const LobsterType = { Add: 1, Cancel: 2, Delete: 3, Execute: 4, ExecuteHidden: 5, Cross: 6, Halt: 7 } as const;
/** The stored type of a message whose type LOBSTER does not define. */
export const OTHER_TYPE = 255;

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
    if (n < 6) this.fail('field_count', `expected 6 fields (Time, Type, OrderID, Size, Price, Direction), got ${n}`);
    const i = this.count;
    if (i === this.time.length) this.#grow();
    const s = this.starts;
    const e = this.ends;
    let t = parseScaled(b, s[0]!, e[0]!, 6);
    if (Number.isNaN(t)) {
      // Nanosecond decimals: keep µs (truncating the sub-µs digits, which LOBSTER fills from ITCH ns stamps).
      const cut = Math.min(e[0]!, b.indexOf(46, s[0]) + 7);
      t = parseScaled(b, s[0]!, cut, 6);
      if (Number.isNaN(t) || t < 0) this.fail('bad_timestamp', `time "${fieldText(b, s[0]!, e[0]!)}" is not seconds after midnight`);
    }
    const type = this.#int(b, 1, 'bad_number', 'type');
    const orderId = this.#int(b, 2, 'bad_number', 'order id');
    const size = this.#int(b, 3, 'bad_amount', 'size');
    const price = this.#int(b, 4, 'bad_price', 'price');
    const dir = this.#int(b, 5, 'bad_side', 'direction');
    if (type >= LobsterType.Add && type <= LobsterType.Execute) {
      if (size <= 0) this.fail('amount_not_positive', `size ${size} of a type ${type} message is not positive`);
      if (price <= 0) this.fail('bad_price', `price ${price} of a type ${type} message is not positive`);
      if (dir !== 1 && dir !== -1) this.fail('bad_side', `direction ${dir} is neither 1 nor -1`);
    }
    // Written only once the row is known valid (a skipped row leaves no trace).
    this.time[i] = this.dayStartUs + t;
    // Types outside 1–7 are counted as `other` by the replay; 0 (or a value that wraps in a byte) must not
    // read as a known type.
    this.type[i] = type >= LobsterType.Add && type <= LobsterType.Halt ? type : OTHER_TYPE;
    this.orderId[i] = orderId;
    this.size[i] = size;
    this.price[i] = price;
    this.dir[i] = dir;
    this.count = i + 1;
  }

  #int(b: Uint8Array, k: number, reason: RowDefect, what: string): number {
    const v = parseScaled(b, this.starts[k]!, this.ends[k]!, 0);
    if (Number.isNaN(v)) this.fail(reason, `${what} "${fieldText(b, this.starts[k]!, this.ends[k]!)}" is not an integer`);
    return v;
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
