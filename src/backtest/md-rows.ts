/**
 * Market-data rows, normalized from every format into one struct of arrays per batch: exchange and local
 * time (µs), kind (depth level set, or trade), side, price (ticks) and amount (lots). Readers fill it; the
 * replay consumes it with a cursor. Grows by doubling; no allocation per row.
 */
import { grownTo } from '../core/typed-arrays.js';

export const RowKind = {
  /** Sets a level's absolute size (0 removes it). */
  Depth: 1,
  /** A public trade; side = the aggressor's (taker's) side, 0 when unknown. */
  Trade: 2,
} as const;

export const RowFlag = {
  /** The row belongs to a book snapshot (a run of snapshot rows replaces the book). */
  Snapshot: 1,
} as const;

/** Side codes as in order-types: 1 buy/bid, 2 sell/ask, 0 unknown. */
export const MdSide = { None: 0, Buy: 1, Sell: 2 } as const;

export class MdRows {
  count = 0;
  exch: Float64Array;
  local: Float64Array;
  kind: Uint8Array;
  flags: Uint8Array;
  side: Uint8Array;
  price: Float64Array;
  amount: Float64Array;

  constructor(capacity = 16384) {
    this.exch = new Float64Array(capacity);
    this.local = new Float64Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.side = new Uint8Array(capacity);
    this.price = new Float64Array(capacity);
    this.amount = new Float64Array(capacity);
  }

  push(exch: number, local: number, kind: number, flags: number, side: number, price: number, amount: number): void {
    const i = this.count;
    if (i === this.exch.length) this.#grow();
    this.exch[i] = exch;
    this.local[i] = local;
    this.kind[i] = kind;
    this.flags[i] = flags;
    this.side[i] = side;
    this.price[i] = price;
    this.amount[i] = amount;
    this.count = i + 1;
  }

  #grow(): void {
    const n = this.exch.length * 2;
    this.exch = grownTo(this.exch, n);
    this.local = grownTo(this.local, n);
    this.kind = grownTo(this.kind, n);
    this.flags = grownTo(this.flags, n);
    this.side = grownTo(this.side, n);
    this.price = grownTo(this.price, n);
    this.amount = grownTo(this.amount, n);
  }
}
