/**
 * Order id → order record, for ids that mostly arrive in sequence (the engine issues them so).
 *
 * Layout: a window of consecutive ids [base, base + size) held in a circular Int32Array (`record + 1`, 0 = none),
 * so the id of a new order, and of one that rested a while, is found by a subtraction and an array read — no
 * hash, no probe, and consecutive ids in adjacent entries (new orders touch one cache line per 16 of them). Every
 * other id lives in a KeyIndex (the "far" index): ids below the window that were still resting when it moved past
 * them, ids inserted below it, and any id that is not an integer (the window holds integers only). No id above
 * the window is held anywhere, and KeyIndex answers a key above all it holds without probing, so looking up a
 * new id costs a comparison either way.
 *
 * Moving: an insert above the window moves it so the id lands in the middle of it (room for the ids that follow),
 * handing the still-resting ids it leaves behind to the far index — unless the window is at least half full,
 * when it doubles instead (a book whose ids are all resting keeps them all in the window). A jump of more than
 * the window's size walks the window once, never the gap.
 *
 * Cost: get, insert, remove O(1) in the window; as KeyIndex outside it. Moving is O(ids passed), each id passed
 * once; doubling copies the window. Allocation: none in steady state (doubling and the far index grow, @allocates,
 * amortised). Memory: 4 bytes per id of the window (≤ 2 × the resting ids once it has doubled), plus the far index.
 */
import { KeyIndex } from './key-index.js';

export class IdIndex {
  /** Entry of id: (#start + (id - #base)) & #mask; holds record + 1, or 0. */
  #win: Int32Array;
  #mask: number;
  /**
   * Lowest id the window covers, and its entry. #base starts as -0, a double, because ids are doubles: a field that
   * starts as a small integer and later takes a double changes the object's hidden class, and V8 then discards
   * the compiled code that depended on the old one.
   */
  #base = -0;
  #start = 0;
  /** Ids held in the window. */
  #held = 0;
  readonly #far: KeyIndex;

  /** `keys[record]` is the record's id (read by the far index). */
  constructor(keys: Float64Array, windowSize = 1024) {
    let size = 16;
    while (size < windowSize) size *= 2;
    this.#win = new Int32Array(size);
    this.#mask = size - 1;
    this.#far = new KeyIndex(keys, 16);
  }

  /** Ids held. */
  get count(): number {
    return this.#held + this.#far.count;
  }

  /** The owner replaced its key column (pool growth). */
  rebind(keys: Float64Array): void {
    this.#far.rebind(keys);
  }

  /** The record of `id`, or -1. */
  get(id: number): number {
    const d = id - this.#base;
    if (d >= 0 && d <= this.#mask && (d | 0) === d) return this.#win[(this.#start + d) & this.#mask]! - 1;
    return this.#far.get(id); // below the window, not an integer, or above it (KeyIndex answers that at once)
  }

  /** Adds `id → record`; the id must be absent. */
  insert(id: number, record: number): void {
    let d = id - this.#base;
    if (d < 0 || !Number.isInteger(d)) {
      this.#far.insert(id, record);
      return;
    }
    if (d > this.#mask) {
      this.#makeRoom(id);
      d = id - this.#base;
    }
    this.#win[(this.#start + d) & this.#mask] = record + 1;
    this.#held++;
  }

  /** Removes `id`; returns false when it was absent. */
  remove(id: number): boolean {
    const d = id - this.#base;
    if (!(d >= 0 && d <= this.#mask && (d | 0) === d)) return this.#far.remove(id);
    const at = (this.#start + d) & this.#mask;
    if (this.#win[at] === 0) return false;
    this.#win[at] = 0;
    this.#held--;
    return true;
  }

  /** Doubles the window while it is at least half full, then moves it to put `id` in its middle. @allocates */
  #makeRoom(id: number): void {
    while (this.#held * 2 >= this.#win.length && id - this.#base > this.#mask) this.#double();
    if (id - this.#base <= this.#mask) return;
    const size = this.#win.length;
    const base = id - (size >>> 1);
    const passed = base - this.#base;
    const leave = passed < size ? passed : size;
    for (let i = 0; i < leave; i++) {
      const at = (this.#start + i) & this.#mask;
      const e = this.#win[at]!;
      if (e !== 0) {
        this.#far.insert(this.#base + i, e - 1);
        this.#win[at] = 0;
        this.#held--;
      }
    }
    this.#start = passed < size ? (this.#start + passed) & this.#mask : 0;
    this.#base = base;
  }

  /** Twice the window, its ids at the start. @allocates */
  #double(): void {
    const old = this.#win;
    const size = old.length;
    const win = new Int32Array(2 * size);
    for (let i = 0; i < size; i++) win[i] = old[(this.#start + i) & this.#mask]!;
    this.#win = win;
    this.#mask = 2 * size - 1;
    this.#start = 0;
  }
}
