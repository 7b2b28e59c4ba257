/**
 * Order holds: one record per open order, keyed by order id.
 *
 * A hold names the market, side and type of its order, the balance record whose `locked` it is part of
 * (`rec`: quote for buys, base for sells), the record that receives what the order buys (`recv`, created
 * when the hold opens so fills never create records), and what is left of it (`remaining`, in the held
 * currency's representation). Invariant (checked by the ledger): for every record, locked = Σ remaining of
 * the holds whose `rec` it is.
 *
 * Slots are recycled through a free list. Costs: find is one index probe; open/close are O(1) and allocate
 * only when the table doubles (amortised) or the currency is wide (BigInt remaining).
 */
import { grownTo } from '../typed-arrays.js';
import { KeyIndex } from '../matching/key-index.js';
import { type Amount } from './amount.js';

const INITIAL = 64;

export class HoldTable {
  #orderId = new Float64Array(INITIAL);
  market = new Int32Array(INITIAL);
  side = new Uint8Array(INITIAL);
  type = new Uint8Array(INITIAL);
  rec = new Int32Array(INITIAL);
  recv = new Int32Array(INITIAL);
  live = new Uint8Array(INITIAL);
  #remaining = new Float64Array(INITIAL);
  /** Wide holds' remaining (undefined for narrow holds). */
  readonly #wRemaining: (bigint | undefined)[] = [];
  #free = new Int32Array(INITIAL);
  #freeCount = 0;
  /** Slots ever used: live ones are in [0, top). */
  #top = 0;
  readonly #index = new KeyIndex(this.#orderId, INITIAL);

  /** Number of open holds. */
  get count(): number {
    return this.#index.count;
  }

  /** Upper bound of slot numbers in use (iterate [0, top) and test `live`). */
  get top(): number {
    return this.#top;
  }

  /** The slot of `orderId`'s hold, or -1. */
  find(orderId: number): number {
    return this.#index.get(orderId);
  }

  orderIdOf(slot: number): number {
    return this.#orderId[slot]!;
  }

  remainingOf(slot: number): Amount {
    const w = this.#wRemaining[slot];
    return w !== undefined ? w : this.#remaining[slot]!;
  }

  setRemaining(slot: number, v: Amount): void {
    if (typeof v === 'number') this.#remaining[slot] = v;
    else this.#wRemaining[slot] = v;
  }

  /** Opens a hold for an absent order id; returns its slot. */
  open(orderId: number, market: number, side: number, type: number, rec: number, recv: number, amount: Amount): number {
    let s: number;
    if (this.#freeCount > 0) s = this.#free[--this.#freeCount]!;
    else {
      s = this.#top++;
      if (s === this.#orderId.length) this.#grow(s * 2);
    }
    this.#orderId[s] = orderId;
    this.market[s] = market;
    this.side[s] = side;
    this.type[s] = type;
    this.rec[s] = rec;
    this.recv[s] = recv;
    this.live[s] = 1;
    if (typeof amount === 'number') {
      this.#remaining[s] = amount;
      this.#wRemaining[s] = undefined;
    } else {
      this.#remaining[s] = 0;
      this.#wRemaining[s] = amount;
    }
    this.#index.insert(orderId, s);
    return s;
  }

  /** Closes the hold in `slot` (its remaining must already be returned). */
  close(slot: number): void {
    this.#index.remove(this.#orderId[slot]!);
    this.live[slot] = 0;
    this.#remaining[slot] = 0;
    this.#wRemaining[slot] = undefined;
    if (this.#freeCount === this.#free.length) this.#free = grownTo(this.#free, this.#free.length * 2);
    this.#free[this.#freeCount++] = slot;
  }

  #grow(n: number): void {
    this.#orderId = grownTo(this.#orderId, n);
    this.market = grownTo(this.market, n);
    this.side = grownTo(this.side, n);
    this.type = grownTo(this.type, n);
    this.rec = grownTo(this.rec, n);
    this.recv = grownTo(this.recv, n);
    this.live = grownTo(this.live, n);
    this.#remaining = grownTo(this.#remaining, n);
    this.#index.rebind(this.#orderId);
  }
}
