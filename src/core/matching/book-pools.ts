/**
 * Struct-of-arrays record pools of the ArrayOrderBook: orders, price levels and icebergs.
 *
 * Each pool is a set of parallel typed-array columns indexed by a record number, all views on one ArrayBuffer
 * (ColumnBlock), with a free list threaded through one Int32 column (NIL-terminated). `alloc()` pops the free
 * list, growing every column when it is empty; `release()` pushes. Growth (poolCapacity) quadruples a pool
 * below 2^16 records, doubles it up to 2^20, then adds a quarter at a time: one new buffer, each column copied
 * once (@allocates; steady state never grows). A young book may carry up to 4× spare records (at most 3.8 MB of
 * orders below 2^16), a book of millions of orders at most 25%.
 *
 * Bytes per order record: id, amount, left, entry number (4 × f64) + owner, STP group, level, FIFO next/prev,
 * iceberg record (6 × i32) + side, tif, stp act (3 × u8) = 59 bytes.
 */

import { ColumnBlock } from '../typed-arrays.js';

export const NIL = -1;
const MIN_CHUNK = 256;
/** Below this many records a pool doubles; above it, it grows by a quarter. */
const DOUBLING_LIMIT = 1 << 20;

/** Below this many records a book's pool quadruples. */
const QUADRUPLING_LIMIT = 1 << 16;

/** Capacity after one growth step from `cap`. */
export const nextCapacity = (cap: number): number => cap + (cap < DOUBLING_LIMIT ? Math.max(MIN_CHUNK, cap) : cap >>> 2);

/**
 * A book pool's capacity after one growth step from `cap`: as nextCapacity, but quadrupling below 2^16 records,
 * so a young book reaches its working size in half the steps (each one a new buffer and a copy of every column),
 * at the price of up to 4× spare records while it holds fewer than 2^16 (at most 3.8 MB of orders).
 */
const poolCapacity = (cap: number): number => (cap < QUADRUPLING_LIMIT ? 4 * Math.max(MIN_CHUNK / 4, cap) : nextCapacity(cap));

/** Threads records [from, to) onto a free list whose link column is `next`, ending in `tail`. */
function threadFree(next: Int32Array, from: number, to: number, tail: number): void {
  for (let i = from; i < to - 1; i++) next[i] = i + 1;
  next[to - 1] = tail;
}

export class OrderPool {
  capacity = 0;
  free = NIL;
  /** Records in use. */
  used = 0;
  // Columns (assigned by #layout; undefined only inside the constructor, before the first layout).
  id!: Float64Array;
  /** Total amount in lots (filled = amount - left). */
  amount!: Float64Array;
  /** Lots still open, shown and hidden. */
  left!: Float64Array;
  /** Entry number: the book's count of entries when the order entered it (orders a user's open orders). */
  seq!: Float64Array;
  /** Owner's user id. */
  uid!: Int32Array;
  stp!: Int32Array;
  /** LevelPool record of the order's price level. */
  level!: Int32Array;
  /** FIFO links within the level; `next` doubles as the free-list link. */
  next!: Int32Array;
  prev!: Int32Array;
  /** IcebergPool record, or NIL for a plain order (whose visible lots are `left`). */
  ice!: Int32Array;
  side!: Uint8Array;
  tif!: Uint8Array;
  act!: Uint8Array;

  constructor(capacity = MIN_CHUNK) {
    this.#layout(capacity);
  }

  alloc(): number {
    if (this.free === NIL) this.#layout(poolCapacity(this.capacity));
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
    return this.capacity * (4 * 8 + 6 * 4 + 3);
  }

  /** Moves every column to a block of `n` records, the new ones onto the free list. @allocates */
  #layout(n: number): void {
    const b = new ColumnBlock(n, 4, 6, 3);
    this.id = b.f64(this.id);
    this.amount = b.f64(this.amount);
    this.left = b.f64(this.left);
    this.seq = b.f64(this.seq);
    this.uid = b.i32(this.uid);
    this.stp = b.i32(this.stp);
    this.level = b.i32(this.level);
    this.next = b.i32(this.next);
    this.prev = b.i32(this.prev);
    this.ice = b.i32(this.ice);
    this.side = b.u8(this.side);
    this.tif = b.u8(this.tif);
    this.act = b.u8(this.act);
    threadFree(this.next, this.capacity, n, this.free);
    this.free = this.capacity;
    this.capacity = n;
  }
}

/**
 * Price levels: price, sum of visible lots, FIFO head/tail and order count. `count` doubles as the free-list link
 * while a record is free.
 */
export class LevelPool {
  capacity = 0;
  free = NIL;
  price!: Float64Array;
  total!: Float64Array;
  head!: Int32Array;
  tail!: Int32Array;
  count!: Int32Array;

  constructor(capacity = MIN_CHUNK) {
    this.#layout(capacity);
  }

  /** A fresh, empty level at `price`. */
  alloc(price: number): number {
    if (this.free === NIL) this.#layout(poolCapacity(this.capacity));
    const r = this.free;
    this.free = this.count[r]!;
    this.price[r] = price;
    this.total[r] = 0;
    this.head[r] = NIL;
    this.tail[r] = NIL;
    this.count[r] = 0;
    return r;
  }

  release(r: number): void {
    this.count[r] = this.free;
    this.free = r;
  }

  /** @allocates */
  #layout(n: number): void {
    const b = new ColumnBlock(n, 2, 3, 0);
    this.price = b.f64(this.price);
    this.total = b.f64(this.total);
    this.head = b.i32(this.head);
    this.tail = b.i32(this.tail);
    this.count = b.i32(this.count);
    threadFree(this.count, this.capacity, n, this.free);
    this.free = this.capacity;
    this.capacity = n;
  }
}

/** Iceberg state of orders that show less than they hold: display size and lots shown now. */
export class IcebergPool {
  capacity = 0;
  free = NIL;
  display!: Float64Array;
  shown!: Float64Array;
  next!: Int32Array;

  constructor(capacity = 64) {
    this.#layout(capacity);
  }

  alloc(display: number, shown: number): number {
    if (this.free === NIL) this.#layout(poolCapacity(this.capacity));
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
  #layout(n: number): void {
    const b = new ColumnBlock(n, 2, 1, 0);
    this.display = b.f64(this.display);
    this.shown = b.f64(this.shown);
    this.next = b.i32(this.next);
    threadFree(this.next, this.capacity, n, this.free);
    this.free = this.capacity;
    this.capacity = n;
  }
}
