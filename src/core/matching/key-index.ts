/**
 * Open-addressing hash index from a numeric key (a safe integer: order id, user id) to a record slot.
 *
 * Layout: one Int32Array of entry pairs `[slot + 1, hash]` (slot + 1 = 0: empty). The keys themselves live in
 * the owner's key column (`keys[slot]`); the stored 32-bit hash is compared first, so a lookup reads the key
 * column only on a hash match (the record it is about to use), a miss reads the table alone, and a resize or a
 * delete's backward shift never reads keys at all. Cost: 8 bytes per table entry; the load factor stays ≤ 1/2,
 * so 16–32 bytes per key. Linear probing; deletion by backward shift (no tombstones, so probe lengths never
 * degrade under churn).
 *
 * Insert after a miss: `get` remembers where its probe for an absent key ended; an `insert` of that key with no
 * change to the table in between lands there without hashing or probing again (look up a key, then add it).
 *
 * Allocation: none, except `insert` doubling the table when it passes half full (amortised, rare): one array,
 * entries moved by their stored hash. (Quadrupling a young table saved rehashes but left it sparser and larger,
 * and a larger table misses the cache more often: it measured slower.)
 * The owner must call `rebind(keys)` after replacing its key column (pool growth).
 */

const EMPTY = 0;
const TWO_32 = 4294967296;
/** 2^32 / φ, odd. */
const GOLDEN = 0x9e3779b1;

/**
 * Fibonacci hashing: a safe integer times 2^32/φ, mod 2^32 (the upper half folded in first when the key is not a
 * uint32). The index takes an entry's home from the TOP bits of the product, so runs of consecutive keys — the
 * engine issues ids in sequence — land evenly spread across the table (the three-distance property of φ), as do
 * arithmetic progressions of any stride below 2^32. Keeping them adjacent would merge a window of live ids into
 * one probe cluster, and every backward-shift delete would walk all of it. For keys below 2^32 the hash is a
 * bijection, so equal hashes mean equal keys. One multiply: cheap on the place, cancel and fill paths.
 */
export function hashKey(key: number): number {
  if (key >= 0 && key < TWO_32) return Math.imul(key >>> 0, GOLDEN);
  const hi = Math.floor(key / TWO_32);
  return Math.imul((key - hi * TWO_32) ^ Math.imul(hi | 0, 0x85ebca6b), GOLDEN);
}

/** The home entry of a hash in a table of 2^bits entries. */
export const homeOf = (hash: number, bits: number): number => hash >>> (32 - bits);

export class KeyIndex {
  /** Entry i: [2i] = slot + 1 (0 empty), [2i + 1] = hashKey(key). */
  #table: Int32Array;
  /** Entries - 1 (a power of two minus one). */
  #mask: number;
  /** 32 - log2(entries): a hash's home is `hash >>> #shift`. */
  #shift: number;
  #count = 0;
  #keys: Float64Array;
  /** The last absent key `get` probed for (NaN: none), and the empty entry its probe ended at. */
  #missKey = Number.NaN;
  #missAt = 0;
  #missHash = 0;
  /** No key above this was ever inserted (a bound, not the maximum: removals leave it). */
  #ceiling = Number.NEGATIVE_INFINITY;

  constructor(keys: Float64Array, initialSize = 1024) {
    let bits = 4;
    while (1 << bits < initialSize) bits++;
    this.#table = new Int32Array(2 << bits);
    this.#mask = (1 << bits) - 1;
    this.#shift = 32 - bits;
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
    if (key > this.#ceiling) return -1; // a key past every key ever inserted (a new engine id) is absent
    const table = this.#table;
    const mask = this.#mask;
    const h = hashKey(key);
    for (let i = h >>> this.#shift; ; i = (i + 1) & mask) {
      const e = table[2 * i]!;
      if (e === EMPTY) {
        this.#missKey = key;
        this.#missAt = i;
        this.#missHash = h;
        return -1;
      }
      if (table[2 * i + 1] === h && this.#keys[e - 1] === key) return e - 1;
    }
  }

  /** Adds `key → slot`; the key must be absent and `keys[slot]` must already equal `key`. */
  insert(key: number, slot: number): void {
    if (key > this.#ceiling) this.#ceiling = key;
    const table = this.#table;
    if ((this.#count + 1) * 4 > table.length) {
      this.#resize(table.length);
      this.#put(hashKey(key), slot + 1);
    } else if (key === this.#missKey) {
      table[2 * this.#missAt] = slot + 1;
      table[2 * this.#missAt + 1] = this.#missHash;
    } else {
      this.#put(hashKey(key), slot + 1);
    }
    this.#missKey = Number.NaN;
    this.#count++;
  }

  /** Removes `key`; returns false when it was absent. `keys[slot]` must still hold the key. */
  remove(key: number): boolean {
    if (this.#count === 0 || key > this.#ceiling) return false; // never inserted: nothing to hash or probe
    const table = this.#table;
    const mask = this.#mask;
    const keys = this.#keys;
    const shift = this.#shift;
    const h = hashKey(key);
    let i = h >>> shift;
    for (; ; i = (i + 1) & mask) {
      const e = table[2 * i]!;
      if (e === EMPTY) return false;
      if (table[2 * i + 1] === h && keys[e - 1] === key) break;
    }
    this.#missKey = Number.NaN;
    // Backward shift: pull later entries of the probe run into the hole when their home allows it.
    let hole = i;
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const e = table[2 * j]!;
      if (e === EMPTY) break;
      const eh = table[2 * j + 1]!;
      // Entry at j may move to the hole if its home is not cyclically in (hole, j].
      if (((j - (eh >>> shift)) & mask) >= ((j - hole) & mask)) {
        table[2 * hole] = e;
        table[2 * hole + 1] = eh;
        hole = j;
      }
    }
    table[2 * hole] = EMPTY;
    this.#count--;
    return true;
  }

  /** Stores an entry at the first empty place of its probe run (the table has room). */
  #put(h: number, e: number): void {
    const table = this.#table;
    const mask = this.#mask;
    let i = h >>> this.#shift;
    while (table[2 * i] !== EMPTY) i = (i + 1) & mask;
    table[2 * i] = e;
    table[2 * i + 1] = h;
  }

  /** Rehashes into a table of `size` (a power of two) entries by the stored hashes. @allocates */
  #resize(size: number): void {
    const old = this.#table;
    this.#table = new Int32Array(2 * size);
    this.#mask = size - 1;
    this.#shift = 32 - Math.log2(size);
    for (let k = 0; k < old.length; k += 2) {
      const e = old[k]!;
      if (e !== EMPTY) this.#put(old[k + 1]!, e);
    }
  }
}
