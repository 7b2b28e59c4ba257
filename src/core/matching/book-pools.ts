/**
 * Struct-of-arrays record pools of the ArrayOrderBook: orders, price levels, icebergs and users.
 *
 * Each pool is a set of parallel typed-array columns indexed by a record number, with a free list threaded
 * through one Int32 column (NIL-terminated). `alloc()` pops the free list, growing every column when it is
 * empty; `release()` pushes. Growth doubles a pool up to 2^20 records, then adds a quarter at a time, and
 * copies the columns once (@allocates; steady state never grows): a growing book copies each record about
 * twice in all, and a book of millions of orders carries at most 25% spare records.
 *
 * Bytes per order record: id, amount, left (3 × f64) + user record, STP group, level, FIFO next/prev,
 * user-list next/prev, iceberg record (8 × i32) + side, tif, stp act (3 × u8) = 59 bytes.
 */

import { grownTo } from '../typed-arrays.js';

export const NIL = -1;
const MIN_CHUNK = 256;
/** Below this many records a pool doubles; above it, it grows by a quarter. */
const DOUBLING_LIMIT = 1 << 20;


/** Capacity after one growth step from `cap`. */
export const nextCapacity = (cap: number): number => cap + (cap < DOUBLING_LIMIT ? Math.max(MIN_CHUNK, cap) : cap >>> 2);

/** Threads records [from, to) onto a free list whose link column is `next`, ending in `tail`. */
function threadFree(next: Int32Array, from: number, to: number, tail: number): void {
  for (let i = from; i < to - 1; i++) next[i] = i + 1;
  next[to - 1] = tail;
}

export class OrderPool {
  capacity: number;
  free: number;
  /** Records in use. */
  used = 0;
  id: Float64Array;
  /** Total amount in lots (filled = amount - left). */
  amount: Float64Array;
  /** Lots still open, shown and hidden. */
  left: Float64Array;
  /** Owner's record in the UserPool. */
  user: Int32Array;
  stp: Int32Array;
  /** LevelPool record of the order's price level. */
  level: Int32Array;
  /** FIFO links within the level; `next` doubles as the free-list link. */
  next: Int32Array;
  prev: Int32Array;
  /** Entry-order links within the owner's list. */
  unext: Int32Array;
  uprev: Int32Array;
  /** IcebergPool record, or NIL for a plain order (whose visible lots are `left`). */
  ice: Int32Array;
  side: Uint8Array;
  tif: Uint8Array;
  act: Uint8Array;

  constructor(capacity = MIN_CHUNK) {
    this.capacity = capacity;
    this.id = new Float64Array(capacity);
    this.amount = new Float64Array(capacity);
    this.left = new Float64Array(capacity);
    this.user = new Int32Array(capacity);
    this.stp = new Int32Array(capacity);
    this.level = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
    this.prev = new Int32Array(capacity);
    this.unext = new Int32Array(capacity);
    this.uprev = new Int32Array(capacity);
    this.ice = new Int32Array(capacity);
    this.side = new Uint8Array(capacity);
    this.tif = new Uint8Array(capacity);
    this.act = new Uint8Array(capacity);
    threadFree(this.next, 0, capacity, NIL);
    this.free = 0;
  }

  alloc(): number {
    if (this.free === NIL) this.#grow();
    const r = this.free;
    this.free = this.next[r]!;
    this.used++;
    return r;
  }

  release(r: number): void {
    this.next[r] = this.free;
    this.free = r;
    this.used--;
  }

  get byteLength(): number {
    return this.capacity * (3 * 8 + 8 * 4 + 3);
  }

  /** @allocates */
  #grow(): void {
    const old = this.capacity;
    const n = nextCapacity(old);
    this.id = grownTo(this.id, n);
    this.amount = grownTo(this.amount, n);
    this.left = grownTo(this.left, n);
    this.user = grownTo(this.user, n);
    this.stp = grownTo(this.stp, n);
    this.level = grownTo(this.level, n);
    this.next = grownTo(this.next, n);
    this.prev = grownTo(this.prev, n);
    this.unext = grownTo(this.unext, n);
    this.uprev = grownTo(this.uprev, n);
    this.ice = grownTo(this.ice, n);
    this.side = grownTo(this.side, n);
    this.tif = grownTo(this.tif, n);
    this.act = grownTo(this.act, n);
    threadFree(this.next, old, n, this.free);
    this.free = old;
    this.capacity = n;
  }
}

/**
 * Records that head a doubly linked list of orders: a key (a level's price, a user's id), the list's head and
 * tail, and its length. `count` doubles as the free-list link while a record is free.
 */
class ListHeadPool {
  capacity: number;
  free: number;
  key: Float64Array;
  head: Int32Array;
  tail: Int32Array;
  count: Int32Array;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.key = new Float64Array(capacity);
    this.head = new Int32Array(capacity);
    this.tail = new Int32Array(capacity);
    this.count = new Int32Array(capacity);
    threadFree(this.count, 0, capacity, NIL);
    this.free = 0;
  }

  /** A fresh record with an empty list, keyed `key`. */
  alloc(key: number): number {
    if (this.free === NIL) this.#grow();
    const r = this.free;
    this.free = this.count[r]!;
    this.key[r] = key;
    this.head[r] = NIL;
    this.tail[r] = NIL;
    this.count[r] = 0;
    return r;
  }

  release(r: number): void {
    this.count[r] = this.free;
    this.free = r;
  }

  /** Subclasses grow their own columns to `n` here. @allocates */
  protected growColumns(_n: number): void {}

  /** @allocates */
  #grow(): void {
    const old = this.capacity;
    const n = nextCapacity(old);
    this.key = grownTo(this.key, n);
    this.head = grownTo(this.head, n);
    this.tail = grownTo(this.tail, n);
    this.count = grownTo(this.count, n);
    this.growColumns(n);
    threadFree(this.count, old, n, this.free);
    this.free = old;
    this.capacity = n;
  }
}

/** Price levels: price (the key), sum of visible lots, FIFO head/tail and order count. */
export class LevelPool extends ListHeadPool {
  total: Float64Array;

  constructor(capacity = 256) {
    super(capacity);
    this.total = new Float64Array(capacity);
  }

  get price(): Float64Array {
    return this.key;
  }

  /** A fresh, empty level at `price`. */
  override alloc(price: number): number {
    const l = super.alloc(price);
    this.total[l] = 0;
    return l;
  }

  protected override growColumns(n: number): void {
    this.total = grownTo(this.total, n);
  }
}

/** Users with resting orders: id (the key) and the head/tail/count of their entry-ordered list. */
export class UserPool extends ListHeadPool {
  constructor(capacity = 256) {
    super(capacity);
  }

  get uid(): Float64Array {
    return this.key;
  }
}

/** Iceberg state of orders that show less than they hold: display size and lots shown now. */
export class IcebergPool {
  capacity: number;
  free: number;
  display: Float64Array;
  shown: Float64Array;
  next: Int32Array;

  constructor(capacity = 64) {
    this.capacity = capacity;
    this.display = new Float64Array(capacity);
    this.shown = new Float64Array(capacity);
    this.next = new Int32Array(capacity);
    threadFree(this.next, 0, capacity, NIL);
    this.free = 0;
  }

  alloc(display: number, shown: number): number {
    if (this.free === NIL) this.#grow();
    const r = this.free;
    this.free = this.next[r]!;
    this.display[r] = display;
    this.shown[r] = shown;
    return r;
  }

  release(r: number): void {
    this.next[r] = this.free;
    this.free = r;
  }

  /** @allocates */
  #grow(): void {
    const old = this.capacity;
    const n = nextCapacity(old);
    this.display = grownTo(this.display, n);
    this.shown = grownTo(this.shown, n);
    this.next = grownTo(this.next, n);
    threadFree(this.next, old, n, this.free);
    this.free = old;
    this.capacity = n;
  }
}
