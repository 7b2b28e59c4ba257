/** Typed-array helpers shared by the pools and buffers that grow in chunks. */

type Growable = Float64Array | Int32Array | Uint8Array;

/** A copy of `a` extended (zero-filled) to `n` elements, of the same type. @allocates */
export function grownTo<T extends Growable>(a: T, n: number): T {
  const b = new (a.constructor as new (length: number) => T)(n);
  b.set(a);
  return b;
}
