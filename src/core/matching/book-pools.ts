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

/** Price levels: price, sum of visible lots, FIFO head/tail and order count. */
export class LevelPool {
  capacity: number;
  free: number;
  price: Float64Array;
  total: Float64Array;
  head: Int32Array;
  tail: Int32Array;
  /** Orders at the level; doubles as the free-list link while the record is free. */
  count: Int32Array;

  constructor(capacity = 256) {
    this.capacity = capacity;
    this.price = new Float64Array(capacity);
    this.total = new Float64Array(capacity);
    this.head = new Int32Array(capacity);
    this.tail = new Int32Array(capacity);
    this.count = new Int32Array(capacity);
    threadFree(this.count, 0, capacity, NIL);
    this.free = 0;
  }

  /** A fresh, empty level at `price`. */
  alloc(price: number): number {
    if (this.free === NIL) this.#grow();
    const l = this.free;
    this.free = this.count[l]!;
    this.price[l] = price;
    this.total[l] = 0;
    this.head[l] = NIL;
    this.tail[l] = NIL;
    this.count[l] = 0;
    return l;
  }

  release(l: number): void {
    this.count[l] = this.free;
    this.free = l;
  }

  /** @allocates */
  #grow(): void {
    const old = this.capacity;
    const n = nextCapacity(old);
    this.price = grownTo(this.price, n);
    this.total = grownTo(this.total, n);
    this.head = grownTo(this.head, n);
    this.tail = grownTo(this.tail, n);
    this.count = grownTo(this.count, n);
    threadFree(this.count, old, n, this.free);
    this.free = old;
    this.capacity = n;
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

/** Users with resting orders: id and the head/tail/count of their entry-ordered list. */
export class UserPool {
  capacity: number;
  free: number;
  uid: Float64Array;
  head: Int32Array;
  tail: Int32Array;
  /** Resting orders of the user; doubles as the free-list link while the record is free. */
  count: Int32Array;

  constructor(capacity = 256) {
    this.capacity = capacity;
    this.uid = new Float64Array(capacity);
    this.head = new Int32Array(capacity);
    this.tail = new Int32Array(capacity);
    this.count = new Int32Array(capacity);
    threadFree(this.count, 0, capacity, NIL);
    this.free = 0;
  }

  alloc(uid: number): number {
    if (this.free === NIL) this.#grow();
    const u = this.free;
    this.free = this.count[u]!;
    this.uid[u] = uid;
    this.head[u] = NIL;
    this.tail[u] = NIL;
    this.count[u] = 0;
    return u;
  }

  release(u: number): void {
    this.count[u] = this.free;
    this.free = u;
  }

  /** @allocates */
  #grow(): void {
    const old = this.capacity;
    const n = nextCapacity(old);
    this.uid = grownTo(this.uid, n);
    this.head = grownTo(this.head, n);
    this.tail = grownTo(this.tail, n);
    this.count = grownTo(this.count, n);
    threadFree(this.count, old, n, this.free);
    this.free = old;
    this.capacity = n;
  }
}
