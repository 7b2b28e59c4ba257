/**
 * The exchange's record of every order it knows: open orders and a bounded window of finished ones, with
 * what Gate's Order resource reports (fills, fees, times, finish_as). Books hold only priority state; this
 * store holds the rest, on the ledger's side of the rings, so queries never cross a thread.
 *
 * Layout: struct-of-arrays records (typed arrays; `text` and `fee` in plain arrays: strings and Amounts),
 * two KeyIndexes by order id — one of the open orders, one of the finished window — per-user doubly linked
 * lists of open orders (entry order), and a FIFO of finished records that evicts the oldest beyond
 * `finishedCapacity`. The engine's commands find open orders; keeping their index apart from the window's
 * (100,000 records by default) keeps it small enough to stay in cache.
 * Allocation: none per order in steady state (records recycle through a free list); growth in chunks
 * (@allocates, amortised); queries that return arrays allocate.
 */
import type { Amount } from '../ledger/amount.js';
import { AccountKind } from '../ledger/account-kinds.js';
import { KeyIndex } from '../matching/key-index.js';
import { nextCapacity, NIL } from '../matching/book-pools.js';
import type { StateHasher } from '../state-hash.js';
import { grownTo } from '../typed-arrays.js';

/** Flags a margin order keeps (Gate's `auto_borrow`, `auto_repay`); the PlaceOrder's `toKind` carries them. */
export const OrderFlag = { AutoBorrow: 1, AutoRepay: 2 } as const;

/** The `account` byte of an order: its AccountKind in the low 4 bits, its OrderFlags above. */
export const packAccount = (kind: number, flags: number): number => kind | (flags << 4);
export const accountKindOf = (account: number): number => account & 15;
export const orderFlagsOf = (account: number): number => account >> 4;

export class OrderStore {
  capacity: number;
  id: Float64Array;
  uid: Float64Array;
  market: Int32Array;
  side: Uint8Array;
  type: Uint8Array;
  tif: Uint8Array;
  /** stp_act as sent (0 when not sent: shown as '-'). */
  stpAct: Uint8Array;
  stpId: Int32Array;
  /** The account it trades (see packAccount): Spot, Margin (of its market) or CrossMargin, with flags. */
  account: Uint8Array;
  /** 0 while open, else FinishAs. */
  finishAs: Uint8Array;
  price: Float64Array;
  /** Lots, or a market buy's quote budget in notional units. */
  amount: Float64Array;
  iceberg: Float64Array;
  /** Unfilled lots (market buy: unspent budget). */
  left: Float64Array;
  filledLots: Float64Array;
  /** Quote traded, in notional units (ticks × lots). */
  filledNotional: Float64Array;
  createTime: Float64Array;
  updateTime: Float64Array;
  /** FIFO links: per-user open list while open, finished queue once finished. */
  next: Int32Array;
  prev: Int32Array;
  text: string[];
  /** `amend_text` of the order's last amend that carried one; '' when none. */
  amendText: string[];
  /** Fee paid so far, in the currency received (base for buys, quote for sells). */
  fee: Amount[];
  /**
   * 1 while an amend of the order has passed R1 and not yet R2 (a pipelined runner has it in flight), else 0.
   * Runner bookkeeping, not state: never hashed or snapshotted (it is 0 whenever nothing is in flight).
   */
  amending: Uint8Array;

  /** Open orders by id; the finished window's records by id. A record is in exactly one of them. */
  readonly #openIds: KeyIndex;
  readonly #doneIds: KeyIndex;
  readonly #userHeads = new Map<number, number>();
  #free = NIL;
  #finishedHead = NIL;
  #finishedTail = NIL;
  #finishedCount = 0;
  readonly #finishedCapacity: number;
  #open = 0;
  /** The last `find`: its order id (NaN: none) and its answer. */
  #memoId = Number.NaN;
  #memoRecord = NIL;

  constructor(finishedCapacity = 100_000, capacity = 4096) {
    this.#finishedCapacity = finishedCapacity;
    this.capacity = 0;
    this.id = new Float64Array(0); this.uid = new Float64Array(0); this.market = new Int32Array(0);
    this.side = new Uint8Array(0); this.type = new Uint8Array(0); this.tif = new Uint8Array(0);
    this.stpAct = new Uint8Array(0); this.stpId = new Int32Array(0); this.finishAs = new Uint8Array(0);
    this.account = new Uint8Array(0); this.amending = new Uint8Array(0);
    this.price = new Float64Array(0); this.amount = new Float64Array(0); this.iceberg = new Float64Array(0);
    this.left = new Float64Array(0); this.filledLots = new Float64Array(0); this.filledNotional = new Float64Array(0);
    this.createTime = new Float64Array(0); this.updateTime = new Float64Array(0);
    this.next = new Int32Array(0); this.prev = new Int32Array(0);
    this.text = []; this.amendText = []; this.fee = [];
    this.#grow(capacity);
    this.#openIds = new KeyIndex(this.id, capacity * 2);
    this.#doneIds = new KeyIndex(this.id, capacity * 2);
  }

  /** Open orders. */
  get openCount(): number {
    return this.#open;
  }

  /**
   * Record of `orderId`, or NIL. The last answer is remembered (`open` and `#release` keep it true): a command
   * finds its order in R1 and again in R2, and the memo spares the repeat's probe of the open index and, for an
   * order no longer open, of the finished one.
   */
  find(orderId: number): number {
    if (orderId === this.#memoId) return this.#memoRecord;
    let r = this.#openIds.get(orderId);
    if (r === NIL) r = this.#doneIds.get(orderId);
    this.#memoId = orderId;
    this.#memoRecord = r;
    return r;
  }

  /**
   * Records a newly accepted order as open; returns its record. `zeroFee` is 0 or 0n (the fee currency's);
   * `account` its packed account byte (packAccount).
   */
  open(orderId: number, uid: number, market: number, side: number, type: number, tif: number, price: number,
    amount: number, iceberg: number, stpId: number, stpAct: number, text: string, time: number, zeroFee: Amount,
    account: number = AccountKind.Spot): number {
    if (this.#free === NIL) this.#grow(nextCapacity(this.capacity));
    const r = this.#free;
    this.#free = this.next[r]!;
    this.id[r] = orderId; this.uid[r] = uid; this.market[r] = market; this.side[r] = side; this.type[r] = type;
    this.tif[r] = tif; this.price[r] = price; this.amount[r] = amount; this.iceberg[r] = iceberg;
    this.stpId[r] = stpId; this.stpAct[r] = stpAct; this.finishAs[r] = 0; this.account[r] = account; this.left[r] = amount;
    this.amending[r] = 0;
    this.filledLots[r] = 0; this.filledNotional[r] = 0; this.createTime[r] = time; this.updateTime[r] = time;
    this.text[r] = text; this.amendText[r] = ''; this.fee[r] = zeroFee;
    this.#openIds.rebind(this.id);
    this.#doneIds.rebind(this.id);
    this.#openIds.insert(orderId, r);
    this.#memoId = orderId;
    this.#memoRecord = r;
    this.#linkUser(r, uid);
    this.#open++;
    return r;
  }

  /** A fill of `lots` at `price` ticks; `left` is the order's remainder after it (market buy: budget). */
  fill(r: number, lots: number, price: number, fee: Amount, time: number, marketBuy: boolean): void {
    this.filledLots[r] = this.filledLots[r]! + lots;
    const notional = price * lots;
    this.filledNotional[r] = this.filledNotional[r]! + notional;
    this.left[r] = this.left[r]! - (marketBuy ? notional : lots);
    const f = this.fee[r]!;
    this.fee[r] = typeof f === 'number' ? f + (fee as number) : f + (fee as bigint);
    this.updateTime[r] = time;
  }

  /** An amend took effect: new price and remainder (amount becomes filled + left), and its label if any. */
  amend(r: number, price: number, left: number, time: number, amendText = ''): void {
    if (amendText !== '') this.amendText[r] = amendText;
    this.price[r] = price;
    this.left[r] = left;
    this.amount[r] = this.filledLots[r]! + left;
    this.updateTime[r] = time;
  }

  /** The order left the book: moves it from its user's open list to the finished window. */
  finish(r: number, finishAs: number, left: number, time: number): void {
    this.#openIds.remove(this.id[r]!);
    this.#doneIds.insert(this.id[r]!, r);
    this.finishAs[r] = finishAs;
    this.left[r] = left;
    this.updateTime[r] = time;
    this.#unlinkUser(r);
    this.#open--;
    this.prev[r] = this.#finishedTail;
    this.next[r] = NIL;
    if (this.#finishedTail === NIL) this.#finishedHead = r;
    else this.next[this.#finishedTail] = r;
    this.#finishedTail = r;
    if (++this.#finishedCount > this.#finishedCapacity) this.#evictOldest();
  }

  /** Forgets an open order that never reached a book (rejected there): no trace remains. */
  discard(r: number): void {
    this.#unlinkUser(r);
    this.#open--;
    this.#openIds.remove(this.id[r]!);
    this.#release(r);
  }

  /** Records of a user's open orders in entry order, optionally in one market. @allocates */
  openOf(uid: number, market = -1): number[] {
    const out: number[] = [];
    for (let r = this.#userHeads.get(uid) ?? NIL; r !== NIL; r = this.next[r]!) {
      if (market < 0 || this.market[r] === market) out.push(r);
    }
    return out;
  }

  /**
   * The first of a user's open orders in `market` (any market when negative) whose text is `text`, in entry
   * order; -1 when none. Walks the user's open list: O(open orders of the user), no allocation.
   */
  openWithText(uid: number, market: number, text: string): number {
    for (let r = this.#userHeads.get(uid) ?? NIL; r !== NIL; r = this.next[r]!) {
      if ((market < 0 || this.market[r] === market) && this.text[r] === text) return r;
    }
    return -1;
  }

  /** Records of a user's finished orders still in the window, newest first. @allocates */
  finishedOf(uid: number, market = -1): number[] {
    const out: number[] = [];
    for (let r = this.#finishedTail; r !== NIL; r = this.prev[r]!) {
      if (this.uid[r] === uid && (market < 0 || this.market[r] === market)) out.push(r);
    }
    return out;
  }

  /** Records of every open order: each user's in entry order, users in the order their lists began. @allocates */
  openRecords(): number[] {
    const out: number[] = [];
    for (const head of this.#userHeads.values()) for (let r = head; r !== NIL; r = this.next[r]!) out.push(r);
    return out;
  }

  /** Records of the finished window, oldest first. @allocates */
  finishedRecords(): number[] {
    const out: number[] = [];
    for (let r = this.#finishedHead; r !== NIL; r = this.next[r]!) out.push(r);
    return out;
  }

  /** Mixes every open order, in id order, and the finished count into `h`. @allocates */
  hashInto(h: StateHasher): void {
    const open: number[] = [];
    for (const head of this.#userHeads.values()) for (let r = head; r !== NIL; r = this.next[r]!) open.push(r);
    open.sort((a, b) => this.id[a]! - this.id[b]!);
    h.add(open.length).add(this.#finishedCount);
    for (const r of open) {
      h.add(this.id[r]!).add(this.uid[r]!).add(this.market[r]!).add(this.price[r]!).add(this.amount[r]!)
        .add(this.left[r]!).add(this.filledLots[r]!).add(this.filledNotional[r]!).add(this.account[r]!);
    }
  }

  #evictOldest(): void {
    const r = this.#finishedHead;
    this.#finishedHead = this.next[r]!;
    if (this.#finishedHead === NIL) this.#finishedTail = NIL;
    else this.prev[this.#finishedHead] = NIL;
    this.#finishedCount--;
    this.#doneIds.remove(this.id[r]!);
    this.#release(r);
  }

  /** Frees record `r`, already out of both indexes. */
  #release(r: number): void {
    if (this.id[r] === this.#memoId) this.#memoId = Number.NaN;
    this.text[r] = '';
    this.amendText[r] = '';
    this.next[r] = this.#free;
    this.#free = r;
  }

  #linkUser(r: number, uid: number): void {
    // Appends at the tail; the head's `prev` points at the tail, so this is O(1).
    const head = this.#userHeads.get(uid) ?? NIL;
    if (head === NIL) {
      this.#userHeads.set(uid, r);
      this.prev[r] = r; // head's prev points at the tail
      this.next[r] = NIL;
      return;
    }
    const tail = this.prev[head]!;
    this.next[tail] = r;
    this.prev[r] = tail;
    this.next[r] = NIL;
    this.prev[head] = r;
  }

  #unlinkUser(r: number): void {
    const uid = this.uid[r]!;
    const head = this.#userHeads.get(uid)!;
    const next = this.next[r]!;
    if (r === head) {
      if (next === NIL) this.#userHeads.delete(uid);
      else {
        this.prev[next] = this.prev[r]!;
        this.#userHeads.set(uid, next);
      }
      return;
    }
    const prev = this.prev[r]!;
    this.next[prev] = next;
    if (next === NIL) this.prev[head] = prev;
    else this.prev[next] = prev;
  }

  /** @allocates */
  #grow(n: number): void {
    const old = this.capacity;
    this.id = grownTo(this.id, n); this.uid = grownTo(this.uid, n); this.market = grownTo(this.market, n);
    this.side = grownTo(this.side, n); this.type = grownTo(this.type, n); this.tif = grownTo(this.tif, n);
    this.stpAct = grownTo(this.stpAct, n); this.stpId = grownTo(this.stpId, n); this.finishAs = grownTo(this.finishAs, n);
    this.account = grownTo(this.account, n); this.amending = grownTo(this.amending, n);
    this.price = grownTo(this.price, n); this.amount = grownTo(this.amount, n); this.iceberg = grownTo(this.iceberg, n);
    this.left = grownTo(this.left, n); this.filledLots = grownTo(this.filledLots, n);
    this.filledNotional = grownTo(this.filledNotional, n); this.createTime = grownTo(this.createTime, n);
    this.updateTime = grownTo(this.updateTime, n); this.next = grownTo(this.next, n); this.prev = grownTo(this.prev, n);
    for (let i = old; i < n; i++) { this.text.push(''); this.amendText.push(''); this.fee.push(0); }
    for (let i = old; i < n - 1; i++) this.next[i] = i + 1;
    this.next[n - 1] = this.#free;
    this.#free = old;
    this.capacity = n;
  }
}
