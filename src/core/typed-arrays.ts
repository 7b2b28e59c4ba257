/** Typed-array helpers shared by the pools and buffers that grow in chunks. */

type Growable = Float64Array | Int32Array | Uint8Array;

/** A copy of `a` extended (zero-filled) to `n` elements, of the same type. @allocates */
export function grownTo<T extends Growable>(a: T, n: number): T {
  const b = new (a.constructor as new (length: number) => T)(n);
  b.set(a);
  return b;
}

/**
 * The columns of one record pool carved out of a single ArrayBuffer: one allocation per growth step instead of
 * one per column (creating an ArrayBuffer costs microseconds in V8; a view on one, tens of nanoseconds). Take
 * every Float64 column first, then Int32, then Uint8, so each view starts aligned. Each call returns the next
 * column of `records` elements, holding a copy of `from` (shorter or equal) when given, else zeros.
 * @allocates (one ArrayBuffer per block)
 */
export class ColumnBlock {
  readonly #buffer: ArrayBuffer;
  readonly #records: number;
  #offset = 0;

  constructor(records: number, f64: number, i32: number, u8: number) {
    this.#records = records;
    this.#buffer = new ArrayBuffer(records * (8 * f64 + 4 * i32 + u8));
  }

  f64(from?: Float64Array): Float64Array {
    const a = new Float64Array(this.#buffer, this.#offset, this.#records);
    this.#offset += 8 * this.#records;
    if (from !== undefined) a.set(from);
    return a;
  }

  i32(from?: Int32Array): Int32Array {
    const a = new Int32Array(this.#buffer, this.#offset, this.#records);
    this.#offset += 4 * this.#records;
    if (from !== undefined) a.set(from);
    return a;
  }

  u8(from?: Uint8Array): Uint8Array {
    const a = new Uint8Array(this.#buffer, this.#offset, this.#records);
    this.#offset += this.#records;
    if (from !== undefined) a.set(from);
    return a;
  }
}

/**
 * Blocks live only while a pool grows, and V8 keeps a class's hidden classes only through live instances: when the
 * last block died, every compiled function that had inlined block code was discarded and recompiled at the next
 * growth. This one never dies.
 */
export const COLUMN_BLOCK_SHAPE = new ColumnBlock(0, 0, 0, 0);
