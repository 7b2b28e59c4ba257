/**
 * Tardis.dev CSV (reference §3.1, §3.2), plain or gzip:
 *
 *   incremental_book_L2: exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount
 *   trades:              exchange,symbol,timestamp,local_timestamp,id,side,price,amount
 *
 * Timestamps are µs since the epoch (UTC). Book rows set a level's absolute size (`0` removes it); `side` is
 * `bid`/`ask`; `is_snapshot` rows belong to a snapshot, and the replay resets the book when the flag turns
 * from false to true (the daily snapshot, reconnects). Trade `side` is the aggressor's (`buy`/`sell`,
 * anything else unknown). The header line is checked and skipped.
 *
 * Invalid rows (`fail` reasons, ../csv/invalid-rows.ts): a field count other than 8, timestamps that are not
 * integers, a book side other than bid/ask, a price that is not a positive decimal, an amount that does not
 * parse, a negative book amount, a trade amount of zero or less.
 */
import type { ChunkSource } from '../csv/chunk-source.js';
import { fieldIs } from '../csv/line-reader.js';
import { MdSide, RowFlag, RowKind } from '../md-rows.js';
import { MdReader, type Scales } from './md-reader.js';

export const TARDIS_BOOK_HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';
export const TARDIS_TRADES_HEADER = 'exchange,symbol,timestamp,local_timestamp,id,side,price,amount';

export class TardisBookReader extends MdReader {
  constructor(src: ChunkSource, path: string, scales: Scales) {
    super(src, path, scales);
  }

  protected row(b: Uint8Array, n: number): void {
    const s = this.starts;
    const e = this.ends;
    if (fieldIs(b, s[0]!, e[0]!, 'exchange')) { this.headers++; return; }
    if (n !== 8) this.fail('field_count', `expected 8 fields (${TARDIS_BOOK_HEADER}), got ${n}`);
    const exch = this.uint(b, 2, 'timestamp');
    const local = this.uint(b, 3, 'local_timestamp');
    const snap = b[s[4]!] === 116 ? RowFlag.Snapshot : 0; // 't'rue
    const side = fieldIs(b, s[5]!, e[5]!, 'bid') ? MdSide.Buy : fieldIs(b, s[5]!, e[5]!, 'ask') ? MdSide.Sell
      : this.fail('bad_side', 'side is neither bid nor ask');
    const price = this.price(b, 6);
    const amount = this.amount(b, 7);
    if (amount < 0) this.fail('negative_amount', 'negative amount');
    this.push(exch, local, RowKind.Depth, snap, side, price, amount);
  }
}

export class TardisTradeReader extends MdReader {
  constructor(src: ChunkSource, path: string, scales: Scales) {
    super(src, path, scales);
  }

  protected row(b: Uint8Array, n: number): void {
    const s = this.starts;
    const e = this.ends;
    if (fieldIs(b, s[0]!, e[0]!, 'exchange')) { this.headers++; return; }
    if (n !== 8) this.fail('field_count', `expected 8 fields (${TARDIS_TRADES_HEADER}), got ${n}`);
    const exch = this.uint(b, 2, 'timestamp');
    const local = this.uint(b, 3, 'local_timestamp');
    const c = b[s[5]!];
    const side = e[5]! - s[5]! === 3 && c === 98 ? MdSide.Buy : e[5]! - s[5]! === 4 && c === 115 ? MdSide.Sell : MdSide.None;
    const price = this.price(b, 6);
    const amount = this.amount(b, 7);
    if (amount <= 0) this.fail('amount_not_positive', 'trade amount must be positive');
    this.push(exch, local, RowKind.Trade, 0, side, price, amount);
  }
}
