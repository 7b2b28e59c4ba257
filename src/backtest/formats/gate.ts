/**
 * Gate's historical dumps (download.gatedata.org; reference §3.4), plain or gzip, no header:
 *
 *   spot deals:          timestamp, dealid, price, amount, side          side 1 sell, 2 buy (the taker's)
 *   spot orderbooks:     timestamp, side, action, price, amount, begin_id, merged      side 1 ask (sell), 2 bid (buy)
 *   futures trades:      timestamp, dealid, price, size                  size > 0 a buy (long) taker, < 0 a sell
 *   futures orderbooks:  timestamp, action, price, size, begin_id, merged               size > 0 bid, < 0 ask
 *
 * Timestamps are seconds with up to 6 decimals (µs); a file's 100 ms merged updates share one timestamp and
 * form one batch. `action=set` rows are the hourly snapshot (a run of them resets the book); `make`/`take`
 * rows update a level. Their amount is read as the level's new absolute size (0 removes it), as in Gate's
 * WebSocket depth updates; the published description does not say whether it is absolute or a change, so
 * `gate.amounts: "delta"` in the config reads it as a signed change instead. A futures level whose size is 0
 * carries no side: it is removed from whichever side holds that price. Futures contracts are replayed as
 * base lots of a spot-style market (no margin).
 *
 * Invalid rows (`fail` reasons, ../csv/invalid-rows.ts): too few fields, a timestamp that is not seconds
 * with at most 6 decimals, a side other than 1/2 in a spot book, an action other than set/make/take, a
 * price that is not a positive decimal, an amount that does not parse, a negative absolute amount, and a
 * trade (spot amount or futures size) of zero, or a negative spot amount.
 */
import type { ChunkSource } from '../csv/chunk-source.js';
import { BAD_DECIMAL, parseScaled } from '../csv/decimal.js';
import { fieldIs, fieldText } from '../csv/line-reader.js';
import { MdSide, RowFlag, RowKind } from '../md-rows.js';
import { MdReader, type Scales } from './md-reader.js';

export type GateKind = 'spot' | 'futures';

/** Depth rows with this flag carry a signed change, not an absolute size (config gate.amounts = "delta"). */
export const DELTA_FLAG = 2;

abstract class GateReader extends MdReader {
  constructor(src: ChunkSource, path: string, scales: Scales, readonly kind: GateKind) {
    super(src, path, scales);
  }

  protected time(b: Uint8Array): number {
    const v = parseScaled(b, this.starts[0]!, this.ends[0]!, 6);
    if (v === BAD_DECIMAL || Number.isNaN(v) || v < 0) {
      const t = fieldText(b, this.starts[0]!, this.ends[0]!);
      if (this.line === 1 && !/^[0-9. ]+$/.test(t)) return -1;
      this.fail('bad_timestamp', `timestamp "${t}" is not seconds with at most 6 decimals`);
    }
    return v;
  }

  /** Trims spaces around every field (Gate's files have ", " separators). */
  protected trim(b: Uint8Array, n: number): void {
    for (let k = 0; k < n; k++) {
      while (this.starts[k]! < this.ends[k]! && b[this.starts[k]!] === 32) this.starts[k]!++;
      while (this.ends[k]! > this.starts[k]! && b[this.ends[k]! - 1] === 32) this.ends[k]!--;
    }
  }
}

export class GateTradeReader extends GateReader {
  protected row(b: Uint8Array, n: number): void {
    this.trim(b, n);
    const t = this.time(b);
    if (t < 0) { this.headers++; return; }
    if (this.kind === 'spot') {
      if (n < 5) this.fail('field_count', `expected 5 fields (timestamp, dealid, price, amount, side), got ${n}`);
      const price = this.price(b, 2);
      const amount = this.amount(b, 3);
      if (amount <= 0) this.fail('amount_not_positive', 'trade amount must be positive');
      const s = b[this.starts[4]!];
      const side = s === 50 ? MdSide.Buy : s === 49 ? MdSide.Sell : MdSide.None;
      this.push(t, t, RowKind.Trade, 0, side, price, amount);
    } else {
      if (n < 4) this.fail('field_count', `expected 4 fields (timestamp, dealid, price, size), got ${n}`);
      const price = this.price(b, 2);
      const size = this.amount(b, 3);
      if (size === 0) this.fail('amount_not_positive', 'trade size 0');
      this.push(t, t, RowKind.Trade, 0, size > 0 ? MdSide.Buy : MdSide.Sell, price, Math.abs(size));
    }
  }
}

export class GateBookReader extends GateReader {
  constructor(src: ChunkSource, path: string, scales: Scales, kind: GateKind, readonly delta = false) {
    super(src, path, scales, kind);
  }

  protected row(b: Uint8Array, n: number): void {
    this.trim(b, n);
    const t = this.time(b);
    if (t < 0) { this.headers++; return; }
    const spot = this.kind === 'spot';
    if (n < (spot ? 5 : 4)) this.fail('field_count', `expected ${spot ? 7 : 6} fields, got ${n}`);
    const a = spot ? 2 : 1;
    const set = fieldIs(b, this.starts[a]!, this.ends[a]!, 'set');
    if (!set && !fieldIs(b, this.starts[a]!, this.ends[a]!, 'make') && !fieldIs(b, this.starts[a]!, this.ends[a]!, 'take')) {
      this.fail('bad_action', `action "${fieldText(b, this.starts[a]!, this.ends[a]!)}" is not set, make or take`);
    }
    const flags = (set ? RowFlag.Snapshot : 0) | (this.delta && !set ? DELTA_FLAG : 0);
    if (spot) {
      const s = b[this.starts[1]!];
      const side = s === 50 ? MdSide.Buy : s === 49 ? MdSide.Sell : this.fail('bad_side', 'side is neither 1 nor 2');
      const price = this.price(b, 3);
      const amount = this.amount(b, 4);
      if (amount < 0 && !(flags & DELTA_FLAG)) this.fail('negative_amount', 'negative amount');
      this.push(t, t, RowKind.Depth, flags, side, price, amount);
    } else {
      const price = this.price(b, 2);
      const size = this.amount(b, 3);
      const side = size > 0 ? MdSide.Buy : size < 0 ? MdSide.Sell : MdSide.None;
      this.push(t, t, RowKind.Depth, flags, side, price, Math.abs(size));
    }
  }
}
