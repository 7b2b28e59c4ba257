/**
 * Open-addressing hash index from a numeric key (a safe integer: order id, user id) to a record slot.
 *
 * Layout: one Int32Array table of `slot + 1` (0 = empty). The keys themselves live in the owner's key column
 * (`keys[slot]`), so the index costs 4 bytes per table entry; the load factor stays ≤ 1/2, so 4–8 bytes per key.
 * Linear probing; deletion by backward shift (no tombstones, so probe lengths never degrade under churn).
 *
 * Allocation: none, except `insert` doubling the table when it passes half full (amortised, rare).
 * The owner must call `rebind(keys)` after replacing its key column (pool growth).
 */

const EMPTY = 0;
const TWO_32 = 4294967296;

/**
 * Mixes a safe integer into 32 bits (Fibonacci hashing of both halves), so that runs of consecutive keys —
 * the engine issues ids in sequence — scatter across the table. Keeping them adjacent would merge a window of
 * live ids into one probe cluster, and every backward-shift delete would walk all of it.
 */
export function hashKey(key: number): number {
  const lo = key >>> 0;
  const hi = (key / TWO_32) >>> 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}

export class KeyIndex {
  #table: Int32Array;
  #mask: number;
  #count = 0;
  #keys: Float64Array;

  constructor(keys: Float64Array, initialSize = 1024) {
    let size = 16;
    while (size < initialSize) size *= 2;
    this.#table = new Int32Array(size);
    this.#mask = size - 1;
    this.#keys = keys;
  }

  get count(): number {
    return this.#count;
  }

  /** Bytes held by the table. */
  get byteLength(): number {
    return this.#table.byteLength;
  }

  rebind(keys: Float64Array): void {
    this.#keys = keys;
  }

  /** The slot stored for `key`, or -1. */
  get(key: number): number {
    const table = this.#table;
    const mask = this.#mask;
    const keys = this.#keys;
    for (let i = hashKey(key) & mask; ; i = (i + 1) & mask) {
      const e = table[i]!;
      if (e === EMPTY) return -1;
      if (keys[e - 1] === key) return e - 1;
    }
  }

  /** Adds `key → slot`; the key must be absent and `keys[slot]` must already equal `key`. */
  insert(key: number, slot: number): void {
    if ((this.#count + 1) * 2 > this.#table.length) this.#resize(this.#table.length * 2);
    const table = this.#table;
    const mask = this.#mask;
    let i = hashKey(key) & mask;
    while (table[i] !== EMPTY) i = (i + 1) & mask;
    table[i] = slot + 1;
    this.#count++;
  }

  /** Removes `key`; returns false when it was absent. `keys[slot]` must still hold the key. */
  remove(key: number): boolean {
    const table = this.#table;
    const mask = this.#mask;
    const keys = this.#keys;
    let i = hashKey(key) & mask;
    for (; ; i = (i + 1) & mask) {
      const e = table[i]!;
      if (e === EMPTY) return false;
      if (keys[e - 1] === key) break;
    }
    // Backward shift: pull later entries of the probe run into the hole when their home allows it.
    let hole = i;
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const e = table[j]!;
      if (e === EMPTY) break;
      const home = hashKey(keys[e - 1]!) & mask;
      // Entry at j may move to the hole if its home is not cyclically in (hole, j].
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        table[hole] = e;
        hole = j;
      }
    }
    table[hole] = EMPTY;
    this.#count--;
    return true;
  }

  /** Rehashes into a table of `size` entries. @allocates */
  #resize(size: number): void {
    const old = this.#table;
    const table = new Int32Array(size);
    const mask = size - 1;
    const keys = this.#keys;
    for (let k = 0; k < old.length; k++) {
      const e = old[k]!;
      if (e === EMPTY) continue;
      let i = hashKey(keys[e - 1]!) & mask;
      while (table[i] !== EMPTY) i = (i + 1) & mask;
      table[i] = e;
    }
    this.#table = table;
    this.#mask = mask;
  }
}
