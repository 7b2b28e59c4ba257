/**
 * The resting state of an ArrayOrderBook and the operations that keep it consistent: order, level and iceberg
 * records (book-pools.ts), the two sides' ladders of populated levels (best last), a FIFO of orders per level, and
 * two indexes — order id → order record and price → level record.
 *
 * No rule of matching lives here (array-order-book.ts holds them): this is storage, whose invariants
 * `assertConsistent` checks.
 *
 * Invariants: every live order record is in exactly one level's FIFO, indexed by its id; every populated level is
 * in its side's ladder; the price index maps prices only to their live levels; a level's total is the sum of its
 * orders' visible lots and its count their number. A price has at most one level across both sides, since the
 * book never rests crossed (a taker rests only once the opposite levels it crosses are gone), so one price index
 * serves both.
 *
 * Complexity: enqueue O(1) at the best level, at a new best, or at a level found before (one hash lookup); the
 * first lookup of a level behind the best, and placing a new level there, add O(log L) (a binary search), and a
 * new level a memmove of the worse levels; remove O(1), plus O(log L) and a memmove to drop an emptied level that
 * is not the best. Allocation: none in steady state; pools, ladders and indexes grow when a book
 * needs more room than ever before (@allocates, amortised).
 * Typed-array reads use `!` where a record number is valid by construction (a live record or a checked NIL).
 */
import { InvariantError } from '../invariant.js';
import { IcebergPool, LevelPool, NIL, OrderPool } from './book-pools.js';
import { IdIndex } from './id-index.js';
import { KeyIndex } from './key-index.js';
import { Side } from './order-types.js';
import { PriceLadder } from './price-ladder.js';

/** Sides of at most this many levels are searched by walking down from the best instead of through the index. */
const SHALLOW = 8;

export class RestingOrders {
  readonly orders = new OrderPool();
  readonly levels = new LevelPool();
  readonly icebergs = new IcebergPool();
  /** Bids, keyed +price (highest last), and asks, keyed -price (lowest last). */
  readonly bids = new PriceLadder(1, 64);
  readonly asks = new PriceLadder(-1, 64);
  /** Order id → order record. */
  readonly ids: IdIndex;
  /**
   * Price → level record, for both sides, of levels that a lookup has found behind the best: filled by
   * `enqueue` when a binary search of the ladder finds (or creates) a level there, emptied with the level. The
   * best level and a new best are found at the ladder's end without it, so a book that only adds new bests
   * (prices walking up) never fills it (and a dropped level's removal from it returns at once).
   */
  readonly levelAt: KeyIndex;
  /** Orders that have entered the book so far: the next entry number. */
  #entries = 0;

  constructor() {
    this.ids = new IdIndex(this.orders.id, 1024);
    this.levelAt = new KeyIndex(this.levels.price, 64);
  }

  ladder(side: number): PriceLadder {
    return side === Side.Buy ? this.bids : this.asks;
  }

  /** Price of a ladder's best level; 0 when the side is empty. */
  bestPrice(ladder: PriceLadder): number {
    return ladder.n === 0 ? 0 : this.levels.price[ladder.levels[ladder.n - 1]!]!;
  }

  /** Lots order `o` shows now: its left lots, or an iceberg's shown slice. */
  visible(o: number): number {
    const ice = this.orders.ice[o]!;
    return ice === NIL ? this.orders.left[o]! : this.icebergs.shown[ice]!;
  }

  /**
   * A new order record, indexed by `id` (which must be absent) and numbered as the book's next entry, in no level
   * yet (`enqueue` places it). `shown` is an iceberg's slice on display; `iceberg` 0 makes a plain order.
   */
  add(id: number, uid: number, stp: number, side: number, tif: number, act: number, amount: number, left: number,
    iceberg: number, shown: number): number {
    const P = this.orders;
    const o = P.alloc();
    this.ids.rebind(P.id); // the id column is replaced when the pool grows
    P.id[o] = id;
    P.amount[o] = amount;
    P.left[o] = left;
    P.seq[o] = this.#entries++;
    P.uid[o] = uid;
    P.stp[o] = stp;
    P.side[o] = side;
    P.tif[o] = tif;
    P.act[o] = act;
    P.ice[o] = iceberg > 0 ? this.icebergs.alloc(iceberg, shown) : NIL;
    this.ids.insert(id, o);
    return o;
  }

  /**
   * Appends order `o` (in no level) at the back of the level at `price` on `side`, creating the level; `shown` is
   * what the order shows (its visible lots).
   */
  enqueue(o: number, side: number, price: number, shown: number): void {
    const L = this.levels;
    const ladder = this.ladder(side);
    const top = ladder.n - 1;
    const key = ladder.sign * price;
    let lvl: number;
    const keys = ladder.keys;
    if (top >= 0 && keys[top] === key) lvl = ladder.levels[top]!;
    else if (top < 0 || key > keys[top]!) lvl = this.#newLevel(ladder, top + 1, price);
    else if (top < SHALLOW) {
      // A shallow side: walk down from the best, cheaper than hashing.
      let k = top - 1;
      while (k >= 0 && keys[k]! > key) k--;
      lvl = k >= 0 && keys[k] === key ? ladder.levels[k]! : this.#newLevel(ladder, k + 1, price);
    } else {
      lvl = this.levelAt.get(price);
      if (lvl === NIL) {
        const pos = ladder.search(price);
        lvl = pos >= 0 ? ladder.levels[pos]! : this.#newLevel(ladder, -pos - 1, price);
        this.levelAt.rebind(L.price); // the price column is replaced when the pool grows
        this.levelAt.insert(price, lvl);
      }
    }
    this.appendFifo(o, lvl);
    this.orders.level[o] = lvl;
    L.total[lvl] = L.total[lvl]! + shown;
  }

  /** A new, empty level at `price`, placed at position `pos` of `ladder`. */
  #newLevel(ladder: PriceLadder, pos: number, price: number): number {
    const lvl = this.levels.alloc(price);
    ladder.insertAt(pos, price, lvl);
    return lvl;
  }

  /** Removes a resting order entirely (level, id index, pools). Returns true if its level emptied. */
  remove(o: number): boolean {
    const gone = this.detach(o);
    this.forget(o);
    return gone;
  }

  /**
   * Removes a filled order (nothing left, nothing shown) from the head of its level `lvl`, and the level if it
   * empties: the match loop's removal, without the reads `remove` needs to find where the order stands.
   * Returns true if the level emptied.
   */
  removeFilledHead(o: number, lvl: number): boolean {
    const P = this.orders;
    const L = this.levels;
    const next = P.next[o]!;
    L.head[lvl] = next;
    if (next === NIL) L.tail[lvl] = NIL;
    else P.prev[next] = NIL;
    // `o` was the head, so the level empties exactly when it had no next.
    const count = L.count[lvl]! - 1;
    L.count[lvl] = count;
    if (count === 0) this.#dropLevel(lvl, P.side[o]!);
    this.forget(o);
    return count === 0;
  }

  /** Unlinks `o` from its level, dropping the level when it empties. Returns true if it did. */
  detach(o: number): boolean {
    const P = this.orders;
    const L = this.levels;
    const lvl = P.level[o]!;
    L.total[lvl] = L.total[lvl]! - this.visible(o);
    this.unlinkFifo(o, lvl);
    if (L.count[lvl] !== 0) return false;
    this.#dropLevel(lvl, P.side[o]!);
    return true;
  }

  /** Takes an emptied level out of its side's ladder and the price index, and frees it. */
  #dropLevel(lvl: number, side: number): void {
    const L = this.levels;
    const ladder = this.ladder(side);
    const top = ladder.n - 1;
    const price = L.price[lvl]!;
    ladder.removeAt(ladder.levels[top] === lvl ? top : ladder.search(price));
    this.levelAt.remove(price); // when a lookup indexed it
    L.release(lvl);
  }

  /** Releases an order that is in no level: id index, iceberg and order records. */
  forget(o: number): void {
    const P = this.orders;
    this.ids.remove(P.id[o]!);
    const ice = P.ice[o]!;
    if (ice !== NIL) this.icebergs.release(ice);
    P.release(o);
  }

  /** Shows the next slice of an iceberg whose display is used up and sends it to the back of its level. */
  refill(o: number, ice: number, lvl: number, left: number): void {
    const I = this.icebergs;
    const L = this.levels;
    const shown = Math.min(I.display[ice]!, left);
    I.shown[ice] = shown;
    L.total[lvl] = L.total[lvl]! + shown;
    if (L.tail[lvl] === o) return;
    this.unlinkFifo(o, lvl);
    this.appendFifo(o, lvl);
  }

  appendFifo(o: number, lvl: number): void {
    const P = this.orders;
    const L = this.levels;
    const tail = L.tail[lvl]!;
    P.prev[o] = tail;
    P.next[o] = NIL;
    if (tail === NIL) L.head[lvl] = o;
    else P.next[tail] = o;
    L.tail[lvl] = o;
    L.count[lvl] = L.count[lvl]! + 1;
  }

  unlinkFifo(o: number, lvl: number): void {
    const P = this.orders;
    const L = this.levels;
    const prev = P.prev[o]!;
    const next = P.next[o]!;
    if (prev === NIL) L.head[lvl] = next;
    else P.next[prev] = next;
    if (next === NIL) L.tail[lvl] = prev;
    else P.prev[next] = prev;
    L.count[lvl] = L.count[lvl]! - 1;
  }

  /** A user's resting order ids in entry order. O(resting orders), plus sorting the user's. @allocates */
  openOrders(userId: number): number[] {
    const P = this.orders;
    const L = this.levels;
    const mine: number[] = [];
    for (const ladder of [this.bids, this.asks]) {
      for (let k = 0; k < ladder.n; k++) {
        for (let o = L.head[ladder.levels[k]!]!; o !== NIL; o = P.next[o]!) if (P.uid[o] === userId) mine.push(o);
      }
    }
    return mine.sort((a, b) => P.seq[a]! - P.seq[b]!).map((o) => P.id[o]!);
  }

  /** Checks every invariant above; throws InvariantError. O(orders). */
  assertConsistent(): void {
    const P = this.orders;
    const L = this.levels;
    let seen = 0;
    let indexed = 0;
    for (const ladder of [this.bids, this.asks]) {
      const side = ladder === this.bids ? Side.Buy : Side.Sell;
      for (let k = 0; k < ladder.n; k++) {
        if (k > 0 && !(ladder.keys[k - 1]! < ladder.keys[k]!)) throw new InvariantError('ladder not strictly sorted');
        const l = ladder.levels[k]!;
        if (L.price[l] !== ladder.priceAt(k)) throw new InvariantError('ladder key differs from level price');
        const found = this.levelAt.get(L.price[l]);
        if (found === l) indexed++;
        else if (found !== NIL) throw new InvariantError(`price ${L.price[l]} indexed to another level`);
        if (L.head[l] === NIL || L.count[l]! <= 0) throw new InvariantError(`empty level at ${L.price[l]}`);
        let total = 0;
        let count = 0;
        let prev = NIL;
        for (let o = L.head[l]!; o !== NIL; o = P.next[o]!) {
          if (P.prev[o] !== prev || P.level[o] !== l || P.side[o] !== side) throw new InvariantError(`order ${P.id[o]} misplaced`);
          const vis = this.visible(o);
          const left = P.left[o]!;
          if (!(vis > 0 && vis <= left && left <= P.amount[o]!)) throw new InvariantError(`order ${P.id[o]} visible/left out of range`);
          const ice = P.ice[o]!;
          if (ice !== NIL && vis > this.icebergs.display[ice]!) throw new InvariantError(`iceberg ${P.id[o]} shows too much`);
          if (this.ids.get(P.id[o]!) !== o) throw new InvariantError(`order ${P.id[o]} not indexed`);
          if (!(P.seq[o]! < this.#entries)) throw new InvariantError(`order ${P.id[o]} entry number out of range`);
          total += vis;
          count++;
          prev = o;
        }
        if (L.tail[l] !== prev) throw new InvariantError('level tail wrong');
        if (total !== L.total[l] || count !== L.count[l]) throw new InvariantError(`level ${L.price[l]} total or count wrong`);
        seen += count;
      }
    }
    if (seen !== P.used || this.ids.count !== P.used) throw new InvariantError('order count differs from index');
    if (this.levelAt.count !== indexed) throw new InvariantError('price index holds a level that is gone');
  }
}
