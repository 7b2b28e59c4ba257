/**
 * The last `capacity` trades (fills), for users' trade history and the public trade feed.
 * A columnar ring: appending overwrites the oldest trade, and allocates nothing (fees are Amounts kept in
 * plain arrays). Trade ids are consecutive from 1, so a trade's slot is (id - 1) mod capacity.
 */
import type { Amount } from '../ledger/amount.js';

export class TradeLog {
  readonly capacity: number;
  /** Trades ever appended; the newest has id `count`. */
  count = 0;
  readonly time: Float64Array;
  readonly market: Int32Array;
  readonly takerOrder: Float64Array;
  readonly makerOrder: Float64Array;
  readonly takerUid: Float64Array;
  readonly makerUid: Float64Array;
  readonly takerSide: Uint8Array;
  readonly price: Float64Array;
  readonly lots: Float64Array;
  /** Per-market sequence (Gate's `sequence_id`). */
  readonly marketSeq: Float64Array;
  readonly takerFee: Amount[];
  readonly makerFee: Amount[];
  readonly #marketSeq: number[] = [];

  constructor(capacity = 1 << 16) {
    this.capacity = capacity;
    this.time = new Float64Array(capacity);
    this.market = new Int32Array(capacity);
    this.takerOrder = new Float64Array(capacity);
    this.makerOrder = new Float64Array(capacity);
    this.takerUid = new Float64Array(capacity);
    this.makerUid = new Float64Array(capacity);
    this.takerSide = new Uint8Array(capacity);
    this.price = new Float64Array(capacity);
    this.lots = new Float64Array(capacity);
    this.marketSeq = new Float64Array(capacity);
    this.takerFee = new Array<Amount>(capacity).fill(0);
    this.makerFee = new Array<Amount>(capacity).fill(0);
  }

  /** Appends a trade; returns its id. */
  append(time: number, market: number, takerOrder: number, makerOrder: number, takerUid: number, makerUid: number,
    takerSide: number, price: number, lots: number, takerFee: Amount, makerFee: Amount): number {
    const id = ++this.count;
    const i = (id - 1) % this.capacity;
    while (this.#marketSeq.length <= market) this.#marketSeq.push(0);
    const seq = this.#marketSeq[market]! + 1;
    this.#marketSeq[market] = seq;
    this.time[i] = time; this.market[i] = market; this.takerOrder[i] = takerOrder; this.makerOrder[i] = makerOrder;
    this.takerUid[i] = takerUid; this.makerUid[i] = makerUid; this.takerSide[i] = takerSide; this.price[i] = price;
    this.lots[i] = lots; this.marketSeq[i] = seq; this.takerFee[i] = takerFee; this.makerFee[i] = makerFee;
    return id;
  }

  /** The last per-market sequence of each market that traded (index = market). @allocates */
  marketSequences(): number[] {
    return this.#marketSeq.slice();
  }

  /**
   * Restores the counters of a snapshot: `count` trades ever appended and each market's last sequence. The
   * retained trades' columns are written by the caller (slot (id − 1) mod capacity); nothing is checked here.
   */
  restoreCounters(count: number, marketSequences: readonly number[]): void {
    this.count = count;
    this.#marketSeq.length = 0;
    this.#marketSeq.push(...marketSequences);
  }

  /** Slot of trade `id`, or -1 when it has been overwritten or never existed. */
  slotOf(id: number): number {
    if (id < 1 || id > this.count || id <= this.count - this.capacity) return -1;
    return (id - 1) % this.capacity;
  }

  /** Ids of retained trades, newest first, that pass `keep`. @allocates */
  newest(keep: (slot: number) => boolean, limit: number): number[] {
    const out: number[] = [];
    const oldest = Math.max(1, this.count - this.capacity + 1);
    for (let id = this.count; id >= oldest && out.length < limit; id--) {
      if (keep((id - 1) % this.capacity)) out.push(id);
    }
    return out;
  }
}
